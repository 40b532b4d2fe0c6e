//! The core-service binary.

use canvas_runtime as runtime;
use clap::Parser;
use core_service::config::{CoreCli, CoreCommand};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = CoreCli::parse();
    runtime::init_logging(&cli.log_format);
    let core = core_service::build(&cli.core).await?;
    match cli.command.unwrap_or(CoreCommand::Serve) {
        CoreCommand::BootstrapAdmin { name } => {
            match core.bootstrap_admin(&name).await? {
                Some((admin, token)) => {
                    println!("{}", serde_json::json!({"userId": admin.id.to_string(), "adminToken": token.secret}))
                }
                None => eprintln!("an administrator exists already; nothing to do"),
            }
            Ok(())
        }
        CoreCommand::Serve => {
            let listener = tokio::net::TcpListener::bind(cli.grpc_addr).await?;
            let shutdown = runtime::shutdown_token();
            core_service::run(listener, core.clone(), shutdown).await?;
            core.storage().close().await;
            Ok(())
        }
    }
}
