//! The gateways' HTTP server: HTTP/1.1 and HTTP/2 (cleartext, prior knowledge) on one listener,
//! with the edge limits of [`EdgeLimits`] applied before a request reaches a handler, and the
//! graceful shutdown of [`Shutdown`].
//!
//! Why the limits live here and not in a handler: whatever a gateway forwards travels to
//! core-service as gRPC metadata on a connection every caller shares. A request whose head is
//! larger than core-service accepts would be refused there at the transport level (a reset
//! stream, or for a large enough header block a connection-level `GOAWAY` that fails every call
//! in flight). So a gateway refuses such a request itself, with 431 or 414, and what it forwards
//! always fits within core-service's explicit limits (`core-service/src/grpc/mod.rs`).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::http::{header, HeaderValue, Request, Response, StatusCode};
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;

use crate::http::EdgeLimits;
use crate::Shutdown;

/// The problem `reason` of a URI over `--max-uri-bytes` (414).
pub const URI_TOO_LONG: &str = "URI_TOO_LONG";
/// The problem `reason` of header fields over `--max-header-bytes` or `--max-headers` (431).
pub const HEADERS_TOO_LARGE: &str = "HEADERS_TOO_LARGE";

/// Room in the HTTP/1 read buffer beyond the URI and header limits: the request line's method
/// and version, and the `: ` and line ends of each header, so that a request within both limits
/// always reaches [`check_head`], which answers with a readable problem body.
const HEAD_SLACK_BYTES: usize = 4 * 1024;

/// Serves `router` on `listener` until shutdown is requested, within `limits`; then stops
/// accepting, lets requests in flight finish within the grace period, and drops whatever is still
/// open after it (a long-lived stream, a stuck client).
pub async fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: &EdgeLimits,
    shutdown: impl Into<Shutdown>,
) -> anyhow::Result<()> {
    let shutdown: Shutdown = shutdown.into();
    tracing::info!(addr = %listener.local_addr()?, "HTTP listening");
    // `/webhooks/` is `/webhooks`: the trailing slash is trimmed before routing (the spec writes
    // collections as `/`, clients add one or not).
    let head_limits = limits.clone();
    let router = router.layer(axum::middleware::from_fn(move |request, next| {
        let limits = head_limits.clone();
        async move { check_head(&limits, request, next).await }
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
        .max_headers(limits.max_headers);
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

/// Refuses a request whose URI or headers are over the limits (414, 431) before any handler
/// reads it, with a problem body that names the limit and its setting.
async fn check_head(
    limits: &EdgeLimits,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let uri_bytes = request.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_bytes > limits.max_uri_bytes {
        return problem(
            StatusCode::URI_TOO_LONG,
            URI_TOO_LONG,
            &format!(
                "the request URI is {uri_bytes} bytes; at most {} are accepted (--max-uri-bytes)",
                limits.max_uri_bytes
            ),
        );
    }
    let headers = request.headers();
    if headers.len() > limits.max_headers {
        return problem(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            HEADERS_TOO_LARGE,
            &format!(
                "the request has {} header fields; at most {} are accepted (--max-headers)",
                headers.len(),
                limits.max_headers
            ),
        );
    }
    let header_bytes: usize = headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    if header_bytes > limits.max_header_bytes {
        return problem(
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            HEADERS_TOO_LARGE,
            &format!(
                "the request's header fields are {header_bytes} bytes; at most {} are accepted (--max-header-bytes)",
                limits.max_header_bytes
            ),
        );
    }
    next.run(request).await
}

/// An RFC 9457 problem answer of the edge (it has no `jsonCasing`: every member is one word).
fn problem(status: StatusCode, reason: &str, detail: &str) -> axum::response::Response {
    let body = serde_json::json!({
        "type": "about:blank",
        "title": status.canonical_reason().unwrap_or(""),
        "status": status.as_u16(),
        "detail": detail,
        "reason": reason,
    });
    let mut response = Response::new(axum::body::Body::from(body.to_string()));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/problem+json"));
    response
}
