//! A child process for the fault tests (tests/tests/e2e/webhooks_fault.rs),
//! killed with SIGKILL: `canvas-fault-child dispatcher` runs
//! webhook-dispatcher, `canvas-fault-child core` runs core-service gRPC, each
//! configured by the same flags and environment variables as the real
//! binaries. Being a binary of this package, cargo builds it together with
//! the tests (`CARGO_BIN_EXE_canvas-fault-child`), so no test builds anything.

use clap::Parser;

// One value per process, parsed once: the size difference between the
// variants costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, clap::Parser)]
enum Child {
    /// webhook-dispatcher until SIGTERM (or SIGKILL).
    Dispatcher {
        #[command(flatten)]
        config: webhook_dispatcher::DispatcherConfig,
    },
    /// core-service gRPC until SIGTERM (or SIGKILL).
    Core {
        #[command(flatten)]
        config: core_service::CoreConfig,
        #[arg(long = "grpc-addr")]
        grpc_addr: std::net::SocketAddr,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Child::parse() {
        Child::Dispatcher { config } => webhook_dispatcher::run(config, canvas_runtime::shutdown_token()).await,
        Child::Core { config, grpc_addr } => {
            let core = core_service::build(&config).await?;
            let listener = tokio::net::TcpListener::bind(grpc_addr).await?;
            core_service::run(listener, core, canvas_runtime::shutdown_token()).await
        }
    }
}
