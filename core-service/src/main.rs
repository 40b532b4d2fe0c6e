//! The core-service binary.

use canvas_runtime as runtime;
use core_service::config::{CoreCli, CoreCommand};

/// mimalloc: thread-caching allocation for the many small allocations of each request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let (cli, config_report) = runtime::settings::parse::<CoreCli>("core-service");
    // A one-shot command's answer is its standard output (`bootstrap-admin | jq`); its logs go to
    // standard error.
    let one_shot = matches!(cli.command, Some(CoreCommand::Migrate | CoreCommand::BootstrapAdmin { .. }));
    let _telemetry =
        if one_shot { runtime::init_command(&cli.process) } else { runtime::init(&cli.process, "core-service") };
    if let Some(CoreCommand::Migrate) = cli.command {
        // Only the database: no model to load, no key ring to open.
        let storage =
            core_service::storage::Storage::connect(&cli.core.database_target()?, &cli.core.pool_settings()).await?;
        tracing::info!(backend = storage.backend_name(), "database schema is up to date");
        storage.close().await;
        return Ok(());
    }
    let core = core_service::build(&cli.core).await?;
    match cli.command.unwrap_or(CoreCommand::Serve) {
        CoreCommand::Migrate => unreachable!("handled above"),
        CoreCommand::BootstrapAdmin { name } => {
            match core.accounts().bootstrap_admin(&name).await? {
                Some((admin, token)) => {
                    println!("{}", serde_json::json!({"userId": admin.id.to_string(), "adminToken": token.secret}))
                }
                None => eprintln!("an administrator exists already; nothing to do"),
            }
            Ok(())
        }
        CoreCommand::Serve => {
            let listener = tokio::net::TcpListener::bind(cli.grpc_addr).await?;
            let shutdown = runtime::on_signal(cli.process.shutdown_grace());
            if let Some(addr) = cli.metrics_addr {
                let metrics_listener = tokio::net::TcpListener::bind(addr).await?;
                tracing::info!(%addr, "metrics listening");
                let extra = runtime::settings::route(config_report);
                tokio::spawn(runtime::metrics::serve(metrics_listener, shutdown.token.clone(), extra));
            }
            core_service::run(listener, core.clone(), shutdown).await?;
            core.storage().close().await;
            Ok(())
        }
    }
}
