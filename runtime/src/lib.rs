//! Process plumbing shared by every binary: logging set-up, shutdown signals and metrics.
//!
//! # Layout
//! - `lib.rs`: [`init_logging`], [`shutdown_signal`], [`shutdown_token`].
//! - [`metrics`]: the Prometheus recorder, `/metrics` and the HTTP request middleware.
//! - [`request_id`]: the `X-Request-Id` that crosses from the gateways into core-service.

pub mod metrics;
pub mod request_id;

use tracing_subscriber::EnvFilter;

/// Installs the global subscriber. `format` is `text` or `json`.
pub fn init_logging(format: &str) {
    // rmcp (the MCP SDK) logs the start and end of every stateless request at INFO.
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,h2=warn,hyper=warn,tower=warn,rmcp=warn"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_target(false);
    let result = if format.eq_ignore_ascii_case("json") {
        builder.json().flatten_event(true).try_init()
    } else {
        builder.try_init()
    };
    // A second init (tests, canvasctl) keeps the first subscriber.
    let _ = result;
}

/// Resolves when the process gets SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut sig) => {
                sig.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}

/// A token cancelled on SIGINT or SIGTERM; hand it to `run(listener, shutdown)`.
pub fn shutdown_token() -> tokio_util::sync::CancellationToken {
    let token = tokio_util::sync::CancellationToken::new();
    let trigger = token.clone();
    tokio::spawn(async move {
        shutdown_signal().await;
        tracing::info!("shutdown requested; finishing requests in flight");
        trigger.cancel();
    });
    token
}
