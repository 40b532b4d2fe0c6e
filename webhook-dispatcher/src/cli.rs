//! The standalone binary's command line.

use clap::Parser;

use crate::DispatcherConfig;

#[derive(Debug, Parser)]
#[command(name = "webhook-dispatcher", version, about = "Delivers signed webhook calls leased from core-service")]
pub struct DispatcherCli {
    #[command(flatten)]
    pub config: DispatcherConfig,
    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,
    /// Address of the `/healthz`, `/readyz`, `/metrics` and `/config` HTTP port; unset: no port.
    #[arg(long = "health-addr", env = "CANVAS_HEALTH_ADDR")]
    pub health_addr: Option<std::net::SocketAddr>,
}
