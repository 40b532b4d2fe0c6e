//! The webhook-dispatcher binary: [`webhook_dispatcher::run`] until SIGINT
//! or SIGTERM.

use webhook_dispatcher::cli::DispatcherCli as Cli;

/// mimalloc: thread-caching allocation for the many small allocations of each request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let (cli, config_report) = canvas_runtime::settings::parse::<Cli>("webhook-dispatcher");
    let _telemetry = canvas_runtime::init(&cli.process, "webhook-dispatcher");
    let shutdown = canvas_runtime::on_signal(cli.process.shutdown_grace());
    if let Some(addr) = cli.health_addr {
        let started = async {
            let listener = tokio::net::TcpListener::bind(addr).await?;
            let core = canvas_proto::channel::core_channel(&cli.config.core_url).map_err(std::io::Error::other)?;
            Ok::<_, std::io::Error>(tokio::spawn(webhook_dispatcher::health::serve(
                listener,
                core,
                shutdown.token.clone(),
                config_report,
            )))
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
