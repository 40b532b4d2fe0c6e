//! Settings every component's process shares: log format, shutdown grace period, trace export.
//! Each binary flattens [`ProcessArgs`] into its command line, so the flags, environment
//! variables and defaults are the same everywhere.

use std::time::Duration;

use crate::telemetry::TelemetryArgs;

/// Default grace period: Kubernetes sends SIGKILL 30 s after SIGTERM, so 25 s leaves the process
/// time to log and exit on its own.
pub const DEFAULT_SHUTDOWN_GRACE_SECS: u64 = 25;

#[derive(Debug, Clone, clap::Args)]
pub struct ProcessArgs {
    /// Log format: text or json (one JSON object per line, with the request id of the span).
    #[arg(long = "log-format", env = "CANVAS_LOG_FORMAT", default_value = "text",
          value_parser = ["text", "json"])]
    pub log_format: String,

    /// Seconds a component may take, after SIGTERM, to finish requests, streams and webhook
    /// deliveries in flight; whatever is still running then is cut off and its leases released.
    #[arg(long = "shutdown-grace-secs", env = "CANVAS_SHUTDOWN_GRACE_SECS",
          default_value_t = DEFAULT_SHUTDOWN_GRACE_SECS)]
    pub shutdown_grace_secs: u64,

    /// OpenTelemetry trace export.
    #[command(flatten)]
    pub telemetry: TelemetryArgs,
}

impl ProcessArgs {
    /// The grace period as a duration.
    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_secs(self.shutdown_grace_secs)
    }
}

impl Default for ProcessArgs {
    fn default() -> Self {
        Self {
            log_format: "text".to_owned(),
            shutdown_grace_secs: DEFAULT_SHUTDOWN_GRACE_SECS,
            telemetry: TelemetryArgs::default(),
        }
    }
}
