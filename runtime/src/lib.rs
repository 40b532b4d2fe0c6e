//! Process plumbing shared by every binary: logging set-up, shutdown signals and metrics.
//!
//! # Layout
//! - `lib.rs`: [`init`] (logging and trace export for a process), [`init_logging`].
//! - [`process`]: [`ProcessArgs`], the flags every binary shares.
//! - [`shutdown`]: SIGTERM handling and the grace period ([`Shutdown`]).
//! - [`telemetry`]: OpenTelemetry trace export.
//! - [`trace_context`]: W3C `traceparent` across the HTTP and gRPC hops.
//! - [`edge`]: the HTTP edge both gateways share: their limits ([`GatewayArgs`],
//!   [`edge::EdgeLimits`]), the head check (414, 431), the body deadline (408), the body-drain rule
//!   and which bodies are JSON.
//! - [`server`]: the gateways' HTTP server loop: the edge limits, HTTP/1 and HTTP/2, graceful shutdown.
//! - [`metrics`]: the Prometheus recorder, `/metrics` and the HTTP request middleware.
//! - [`settings`]: the effective configuration (`GET /config`) and docs/CONFIGURATION.md's settings table.
//! - [`call_context`]: the served request's context (request id, trace, address) on a core-service call.
//! - [`client_address`]: the client's address, passed to core-service for its per-address limits.
//! - [`request_id`]: the `X-Request-Id` that crosses from the gateways into core-service.

pub mod call_context;
pub mod client_address;
pub mod edge;
pub mod metrics;
pub mod process;
pub mod request_id;
pub mod server;
pub mod settings;
pub mod shutdown;
pub mod telemetry;
pub mod trace_context;

pub use edge::GatewayArgs;
pub use process::ProcessArgs;
pub use shutdown::{on_signal, shutdown_signal, shutdown_token, Shutdown};

use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Log lines without `RUST_LOG`. rmcp (the MCP SDK) logs the start and end of every stateless
/// request at INFO.
const DEFAULT_LOG_FILTER: &str = "info,sqlx=warn,h2=warn,hyper=warn,tower=warn,rmcp=warn";

/// Installs the global subscriber, logs only. `format` is `text` or `json`.
pub fn init_logging(format: &str) {
    // A second init (tests, canvasctl) keeps the first subscriber.
    let _ = install(format, None, LogsTo::Stdout);
}

/// Sets up a one-shot command of a component (`core-service migrate`, `bootstrap-admin`): its
/// answer is the only thing on standard output, so `… | jq` reads it; its logs go to standard
/// error, and no traces are exported.
pub fn init_command(process: &ProcessArgs) -> telemetry::TelemetryGuard {
    let _ = install(&process.log_format, None, LogsTo::Stderr);
    telemetry::TelemetryGuard::disabled()
}

/// Where log lines are written: a server's to standard output (what collectors read), a one-shot
/// command's to standard error (its output is its answer).
#[derive(Clone, Copy, PartialEq)]
enum LogsTo {
    Stdout,
    Stderr,
}

/// Installs the one global subscriber: the log layer (`format`, filtered by `RUST_LOG`) and,
/// when given, the trace export layer with its own filter (so `RUST_LOG=warn` keeps the spans).
/// False when a subscriber was installed already.
fn install(format: &str, traces: Option<telemetry::BoxedLayer>, to: LogsTo) -> bool {
    // One layer type per stream, so no log line pays for choosing (or boxing) its writer.
    let logs = match to {
        LogsTo::Stdout => log_layer(format, std::io::stdout, colour(std::io::stdout())),
        LogsTo::Stderr => log_layer(format, std::io::stderr, colour(std::io::stderr())),
    };
    let layers: Vec<telemetry::BoxedLayer> = std::iter::once(logs).chain(traces).collect();
    tracing_subscriber::registry().with(layers).try_init().is_ok()
}

/// The log layer writing to `writer`, filtered by `RUST_LOG`.
fn log_layer<W>(format: &str, writer: W, ansi: bool) -> telemetry::BoxedLayer
where
    W: for<'w> tracing_subscriber::fmt::MakeWriter<'w> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG_FILTER));
    let fmt = tracing_subscriber::fmt::layer().with_writer(writer).with_target(false);
    if format.eq_ignore_ascii_case("json") {
        fmt.json().flatten_event(true).with_filter(filter).boxed()
    } else {
        fmt.with_ansi(ansi).with_filter(filter).boxed()
    }
}

/// Whether text logs are coloured: only on a terminal, and not when `NO_COLOR` is set
/// (<https://no-color.org>). Log files and collectors get plain lines, which are also smaller
/// (a third of an access-log line was escape codes) and cheaper to write.
fn colour(stream: impl std::io::IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Sets up a component's process: logs in the configured format and, when configured, trace
/// export under `service_name`. Keep the guard alive until `main` returns: dropping it flushes
/// the spans not yet exported.
pub fn init(process: &ProcessArgs, service_name: &'static str) -> telemetry::TelemetryGuard {
    match telemetry::start(&process.telemetry, service_name) {
        Ok(Some((layer, guard))) => {
            if install(&process.log_format, Some(layer), LogsTo::Stdout) {
                trace_context::enable();
                tracing::info!(url = guard.traces_url().unwrap_or_default(), "exporting traces (OTLP/HTTP)");
                guard
            } else {
                // Another subscriber (a test harness) was first: nothing would reach the exporter.
                telemetry::TelemetryGuard::disabled()
            }
        }
        Ok(None) => {
            init_logging(&process.log_format);
            telemetry::TelemetryGuard::disabled()
        }
        Err(error) => {
            init_logging(&process.log_format);
            tracing::error!(%error, "trace export is not running");
            telemetry::TelemetryGuard::disabled()
        }
    }
}
