//! The webhook-dispatcher binary: [`webhook_dispatcher::run`] until SIGINT
//! or SIGTERM.

use clap::Parser;
use webhook_dispatcher::DispatcherConfig;

#[derive(Debug, Parser)]
#[command(name = "webhook-dispatcher", version, about = "Delivers signed webhook calls leased from core-service")]
struct Cli {
    #[command(flatten)]
    config: DispatcherConfig,
    /// Log format: text or json.
    #[arg(long = "log-format", env = "CANVAS_LOG_FORMAT", default_value = "text")]
    log_format: String,
    /// Address of the `/healthz`, `/readyz` and `/metrics` HTTP port; unset: no port.
    #[arg(long = "health-addr", env = "CANVAS_HEALTH_ADDR")]
    health_addr: Option<std::net::SocketAddr>,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    canvas_runtime::init_logging(&cli.log_format);
    let shutdown = canvas_runtime::shutdown_token();
    if let Some(addr) = cli.health_addr {
        let started = async {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let core = canvas_proto::channel::core_channel(&cli.config.core_url).map_err(std::io::Error::other)?;
            Ok::<_, std::io::Error>(tokio::spawn(webhook_dispatcher::health::serve(listener, core, shutdown.clone())))
        };
        if let Err(err) = started.await {
            eprintln!("webhook-dispatcher: cannot serve --health-addr {addr}: {err}");
            std::process::exit(1);
        }
        tracing::info!(%addr, "health and metrics listening");
    }
    if let Err(err) = webhook_dispatcher::run(cli.config, shutdown).await {
        eprintln!("webhook-dispatcher: {err:#}");
        std::process::exit(1);
    }
}
