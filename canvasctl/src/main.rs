//! canvasctl: runs the canvas service in one process (`up`) and administers a
//! running one over gRPC.

mod admin;
mod archive;
mod backup;
mod cli;
mod config;
mod running;
mod times;
mod up;
mod users;
mod webhooks;

use cli::{Cli, Command};

/// mimalloc: thread-caching allocation for the many small allocations of each request.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() {
    let (cli, config_report) = canvas_runtime::settings::parse::<Cli>("canvasctl");
    let result = match cli.command {
        Command::Up(args) => up::up(args, config_report).await,
        Command::Config { command } => config::run(command).await,
        Command::Backup(args) => backup::run(args).await,
        Command::User { conn, command } => users::user(conn, command).await,
        Command::Token { conn, command } => admin::token(conn, command).await,
        Command::Project { conn, command: cli::ProjectCommand::Export { project, out } } => {
            archive::export(conn, project, out).await
        }
        Command::Project { conn, command: cli::ProjectCommand::Import { file, owner, name } } => {
            archive::import(conn, file, owner, name).await
        }
        Command::Project { conn, command } => admin::project(conn, command).await,
        Command::Member { conn, command } => admin::member(conn, command).await,
        Command::Keys { conn, command: cli::KeysCommand::Rotate { delay_secs } } => {
            webhooks::rotate_key(conn, delay_secs).await
        }
        Command::Webhooks { command: cli::WebhooksCommand::Listen(args) } => webhooks::listen(args).await,
    };
    if let Err(err) = result {
        eprintln!("canvasctl: {err:#}");
        std::process::exit(1);
    }
}
