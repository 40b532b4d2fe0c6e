//! The mcp-gateway binary: MCP (Streamable HTTP) at `/mcp`, health at
//! `/healthz` and `/readyz`, every call forwarded to core-service.

use mcp_gateway::config::McpCli;

/// mimalloc: thread-caching allocation for the many small allocations of each request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (cli, config_report) = canvas_runtime::settings::parse::<McpCli>("mcp-gateway");
    let _telemetry = canvas_runtime::init(&cli.process, "mcp-gateway");
    let settings = cli.settings();
    tracing::info!(
        core = %cli.core_url,
        web_url = %settings.web_url,
        allowed_hosts = ?settings.allowed_hosts,
        "starting mcp-gateway"
    );
    let state = mcp_gateway::McpState::connect(&cli.core_url, settings)?;
    let router = mcp_gateway::router(state.clone())
        .merge(mcp_gateway::health_router(state))
        .merge(canvas_runtime::settings::route(config_report));
    let listener = tokio::net::TcpListener::bind(cli.http_addr).await?;
    mcp_gateway::serve(listener, router, &cli.gateway, canvas_runtime::on_signal(cli.process.shutdown_grace())).await
}
