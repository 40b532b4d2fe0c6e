//! The gateways' HTTP server: HTTP/1.1 and HTTP/2 (cleartext, prior knowledge) on one listener,
//! with the edge limits of [`EdgeLimits`] applied before a request reaches a handler, and the
//! graceful shutdown of [`Shutdown`].
//!
//! The limits are the edge's ([`crate::edge`]): hyper's own buffer, header-count, header-list and
//! stream limits are set from them here, and [`head::check`] answers a head within hyper's buffer
//! but over a limit with 414 or 431 and a problem body.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::edge::{head, EdgeLimits, GatewayArgs};
use crate::Shutdown;

/// Room in the HTTP/1 read buffer beyond the URI and header limits: the request line's method
/// and version, and the `: ` and line ends of each header, so that a request within both limits
/// always reaches [`head::check`], which answers with a readable problem body.
const HEAD_SLACK_BYTES: usize = 4 * 1024;

/// Serves `router` on `listener` until shutdown is requested, within the edge limits of `limits`;
/// then stops accepting, lets requests in flight finish within the grace period, and drops
/// whatever is still open after it (a long-lived stream, a stuck client). The limits are copied,
/// so the server does not borrow them.
pub fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: &GatewayArgs,
    shutdown: impl Into<Shutdown>,
) -> impl Future<Output = anyhow::Result<()>> + Send + 'static {
    serve_answering(listener, router, limits, head::plain_problem(), shutdown)
}

/// [`serve`], answering the requests refused at the edge with `answer` (each gateway's own
/// protocol: a problem body in the requested casing, a JSON-RPC error).
pub fn serve_answering(
    listener: TcpListener,
    router: axum::Router,
    limits: &GatewayArgs,
    answer: head::RefusalAnswer,
    shutdown: impl Into<Shutdown>,
) -> impl Future<Output = anyhow::Result<()>> + Send + 'static {
    let (edge, shutdown) = (limits.edge.clone(), shutdown.into());
    async move { run(listener, router, &edge, answer, shutdown).await }
}

/// The accept loop of [`serve`].
async fn run(
    listener: TcpListener,
    router: axum::Router,
    limits: &EdgeLimits,
    answer: head::RefusalAnswer,
    shutdown: Shutdown,
) -> anyhow::Result<()> {
    tracing::info!(addr = %listener.local_addr()?, "HTTP listening");
    // `/webhooks/` is `/webhooks`: the trailing slash is trimmed before routing (the spec writes
    // collections as `/`, clients add one or not).
    let head_limits = limits.clone();
    let router = router.layer(axum::middleware::from_fn(move |request, next| {
        let (limits, answer) = (head_limits.clone(), answer.clone());
        async move { head::check(&limits, &answer, request, next).await }
    }));
    let app = tower::Layer::layer(&tower_http::normalize_path::NormalizePathLayer::trim_trailing_slash(), router);
    let builder = Arc::new(connection_builder(limits));
    let connections = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let accepting = async {
        loop {
            // At the connection limit the next connection waits in the kernel's accept queue
            // until one closes: served late rather than refused.
            let Ok(permit) = connections.clone().acquire_owned().await else { break };
            let (tcp, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors, or a connection reset before it was accepted.
                    tracing::warn!(%error, "could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            // Answers go out at once rather than waiting on Nagle's algorithm.
            if let Err(error) = tcp.set_nodelay(true) {
                tracing::debug!(%error, "could not set TCP_NODELAY");
            }
            let app = app.clone();
            let service = hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                // The peer address lets `GET /config` answer loopback only, and the account site
                // throttle sign-ins per address.
                request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
                app.clone().oneshot(request.map(axum::body::Body::new))
            });
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(tcp), service).into_owned();
            let connection = graceful.watch(connection);
            tokio::spawn(async move {
                if let Err(error) = connection.await {
                    tracing::debug!(%peer, error = %error, "HTTP connection ended with an error");
                }
                drop(permit);
            });
        }
    };
    tokio::select! {
        () = accepting => {}
        () = shutdown.token.cancelled() => {}
    }
    drop(listener);
    if shutdown.finish_within("HTTP requests", graceful.shutdown()).await.is_none() {
        tracing::warn!("HTTP connections still open after the grace period were closed");
    }
    tracing::info!("HTTP server stopped");
    Ok(())
}

/// The header fields hyper parses before refusing on its own: twice `--max-headers`.
fn hyper_max_headers(max_headers: usize) -> usize {
    max_headers.saturating_mul(2).max(max_headers + 1)
}

/// hyper's connection settings from the limits. HTTP/1: the read buffer bounds the request head
/// (hyper answers a larger one 431 itself), the header count, the time to send a head (a client
/// trickling header bytes is disconnected). HTTP/2: the header list size (a larger one is reset
/// with 431), concurrent streams per connection, and hyper's protection against rapid resets.
fn connection_builder(limits: &EdgeLimits) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    let head = limits.max_header_bytes + limits.max_uri_bytes + HEAD_SLACK_BYTES;
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout())
        .max_buf_size(head.max(8 * 1024))
        // Room beyond `--max-headers`, so that a head just over it reaches [`head::check`] and
        // gets its problem body; hyper's own 431 (without a body) is for twice the limit.
        .max_headers(hyper_max_headers(limits.max_headers));
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_header_list_size(u32::try_from(head).unwrap_or(u32::MAX))
        .max_concurrent_streams(limits.max_streams)
        .max_pending_accept_reset_streams(Some(limits.max_streams as usize))
        .keep_alive_interval(Some(Duration::from_secs(30)))
        .keep_alive_timeout(Duration::from_secs(20));
    builder
}
