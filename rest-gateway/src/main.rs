//! The rest-gateway binary.

use clap::Parser;
use rest_gateway::config::RestCli;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = RestCli::parse();
    canvas_runtime::init_logging(&cli.log_format);
    let state = rest_gateway::AppState::connect(&cli.core_url)?;
    let listener = tokio::net::TcpListener::bind(cli.http_addr).await?;
    rest_gateway::serve(listener, rest_gateway::router(state), canvas_runtime::shutdown_token()).await
}
