//! The rest-gateway binary.

use rest_gateway::config::RestCli;

/// mimalloc: thread-caching allocation for the many small allocations of each request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (cli, config_report) = canvas_runtime::settings::parse::<RestCli>("rest-gateway");
    let _telemetry = canvas_runtime::init(&cli.process, "rest-gateway");
    let mut state = rest_gateway::AppState::connect(&cli.core_url, &cli.gateway)?;
    if let Some(header) = &cli.client_ip_header {
        state = state.with_client_ip_header(header)?;
    }
    if let Some(url) = &cli.account_url {
        state = state.with_account_url(url);
    }
    let listener = tokio::net::TcpListener::bind(cli.http_addr).await?;
    rest_gateway::serve(
        listener,
        rest_gateway::router(state).merge(canvas_runtime::settings::route(config_report)),
        &cli.gateway,
        canvas_runtime::on_signal(cli.process.shutdown_grace()),
    )
    .await
}
