//! mcp-gateway: will serve MCP (Streamable HTTP) at `/mcp` by calling
//! core-service over gRPC. This binary is the skeleton of issue 6: it
//! starts, parses its configuration and exits cleanly on SIGTERM.

use clap::Parser;

#[derive(Debug, Parser)]
#[command(name = "mcp-gateway", version, about = "MCP gateway of the canvas service (skeleton)")]
struct Cli {
    /// gRPC address of core-service.
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    core_url: String,
    /// Log format: text or json.
    #[arg(long = "log-format", env = "CANVAS_LOG_FORMAT", default_value = "text")]
    log_format: String,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    canvas_runtime::init_logging(&cli.log_format);
    tracing::warn!(core = %cli.core_url, "mcp-gateway has no MCP tools yet; waiting for shutdown");
    canvas_runtime::shutdown_token().cancelled().await;
}
