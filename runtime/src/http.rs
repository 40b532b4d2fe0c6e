//! The HTTP server loop both gateways use, with the graceful shutdown of [`Shutdown`].

use std::future::IntoFuture;

use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::Shutdown;

/// Serves `router` on `listener` until shutdown is requested; then stops accepting, lets requests
/// in flight finish within the grace period, and drops whatever is still open after it (a
/// long-lived stream, a stuck client).
pub async fn serve(listener: TcpListener, router: axum::Router, shutdown: impl Into<Shutdown>) -> anyhow::Result<()> {
    let shutdown: Shutdown = shutdown.into();
    tracing::info!(addr = %listener.local_addr()?, "HTTP listening");
    // Answers go out at once rather than waiting on Nagle's algorithm.
    let listener = listener.tap_io(|tcp| {
        if let Err(err) = tcp.set_nodelay(true) {
            tracing::debug!(error = %err, "could not set TCP_NODELAY");
        }
    });
    // The peer address lets `GET /config` answer loopback only.
    let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
    let server = axum::serve(listener, app).with_graceful_shutdown(shutdown.token.clone().cancelled_owned());
    if let Some(served) = shutdown.finish_within("HTTP requests", server.into_future()).await {
        served?;
    }
    tracing::info!("HTTP server stopped");
    Ok(())
}
