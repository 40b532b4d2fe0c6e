//! rest-gateway: the REST interface of the canvas service, translated into
//! core-service gRPC calls. It holds no business rule: it parses HTTP,
//! forwards the caller's `Authorization` header, and renders the answer in the
//! requested casing or MessagePack.
//!
//! # Layout
//! - [`routes`]: the router and one module per resource.
//! - [`respond`]: response negotiation (`jsonCasing`, MessagePack).
//! - [`casing`]: property-name casing, the only place that knows about it.
//! - [`error`]: gRPC status → HTTP problem+json, in one place.
//! - [`limits`]: the request-body limit, answered readably.
//! - [`state`]: the gRPC clients.
//! - [`map`]: the rendered map (SVG, PNG), the live web map page and its change stream.

pub mod casing;
pub mod config;
pub mod error;
pub mod limits;
pub mod map;
pub mod respond;
pub mod routes;
pub mod state;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

pub use routes::router;
pub use state::AppState;

/// Serves `router` on `listener` until `shutdown` is cancelled, then lets
/// in-flight requests finish.
pub async fn serve(listener: TcpListener, router: axum::Router, shutdown: CancellationToken) -> anyhow::Result<()> {
    use axum::serve::ListenerExt;
    tracing::info!(addr = %listener.local_addr()?, "HTTP listening");
    // Answers go out at once rather than waiting on Nagle's algorithm.
    let listener = listener.tap_io(|tcp| {
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(error = %err, "could not set TCP_NODELAY");
        }
    });
    axum::serve(listener, router).with_graceful_shutdown(shutdown.cancelled_owned()).await?;
    Ok(())
}
