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
        #[command(flatten)]
        process: canvas_runtime::ProcessArgs,
    },
    /// core-service gRPC until SIGTERM (or SIGKILL).
    Core {
        #[command(flatten)]
        config: core_service::CoreConfig,
        #[arg(long = "grpc-addr")]
        grpc_addr: std::net::SocketAddr,
        #[command(flatten)]
        process: canvas_runtime::ProcessArgs,
    },
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Child::parse() {
        Child::Dispatcher { config, process } => {
            canvas_runtime::init_logging(&process.log_format);
            webhook_dispatcher::run(config, canvas_runtime::on_signal(process.shutdown_grace())).await
        }
        Child::Core { config, grpc_addr, process } => {
            canvas_runtime::init_logging(&process.log_format);
            let core = core_service::build(&config).await?;
            let listener = tokio::net::TcpListener::bind(grpc_addr).await?;
            core_service::run(listener, core, canvas_runtime::on_signal(process.shutdown_grace())).await
        }
    }
}
