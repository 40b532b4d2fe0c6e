//! The mcp-gateway binary: MCP (Streamable HTTP) at `/mcp`, health at
//! `/healthz` and `/readyz`, every call forwarded to core-service.

use clap::Parser;
use mcp_gateway::config::McpCli;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = McpCli::parse();
    canvas_runtime::init_logging(&cli.log_format);
    let settings = cli.settings();
    tracing::info!(
        core = %cli.core_url,
        web_url = %settings.web_url,
        allowed_hosts = ?settings.allowed_hosts,
        "starting mcp-gateway"
    );
    let state = mcp_gateway::McpState::connect(&cli.core_url, settings)?;
    let router = mcp_gateway::router(state.clone()).merge(mcp_gateway::health_router(state));
    let listener = tokio::net::TcpListener::bind(cli.http_addr).await?;
    mcp_gateway::serve(listener, router, canvas_runtime::shutdown_token()).await
}
