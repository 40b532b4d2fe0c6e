//! The HTTP server loop both gateways use, with the graceful shutdown of [`Shutdown`].

use std::future::{Future, IntoFuture};

use axum::serve::ListenerExt;
use tokio::net::TcpListener;

use crate::Shutdown;

/// Time limits both gateways put on their work: how long a call to core-service may take, and how
/// long a client may take to send its request body. One definition, flattened into both gateways'
/// and `canvasctl up`'s command lines.
#[derive(Debug, Clone, clap::Args)]
pub struct GatewayArgs {
    /// Seconds a gateway waits for core-service to answer a call (the gRPC deadline, also sent to
    /// core-service so it stops working on calls nobody waits for); then the client gets a 504.
    #[arg(long = "core-timeout-secs", env = "CANVAS_CORE_TIMEOUT_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub core_timeout_secs: u64,

    /// Seconds a client may take to send a request body (a 25 MiB upload needs about 3.5 Mbit/s
    /// at the default); a slower body is answered 408 and its connection closed, so a slow sender
    /// cannot hold a connection and its memory indefinitely.
    #[arg(long = "body-timeout-secs", env = "CANVAS_BODY_TIMEOUT_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout_secs: u64,
}

impl GatewayArgs {
    /// The deadline of a call to core-service.
    pub fn core_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.core_timeout_secs)
    }

    /// The time limit of a request body.
    pub fn body_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.body_timeout_secs)
    }
}

impl Default for GatewayArgs {
    fn default() -> Self {
        Self { core_timeout_secs: 30, body_timeout_secs: 60 }
    }
}

/// The error a request body gives once its time is up (see [`body_deadline`]); found in the error
/// chain of a failed body read, so a handler can answer 408.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDeadlineExceeded;

impl std::fmt::Display for BodyDeadlineExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the request body did not arrive within its time limit")
    }
}

impl std::error::Error for BodyDeadlineExceeded {}

/// Whether a failed body read (or anything wrapping it) ran out of time.
pub fn is_body_deadline(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if e.is::<BodyDeadlineExceeded>() {
            return true;
        }
        current = e.source();
    }
    false
}

/// Middleware: the whole request body must arrive within `limit` of the request's start (a total
/// deadline, unlike an idle time-out, so a client trickling a byte a second cannot hold a
/// connection and its buffers for ever). Reading past it fails with [`BodyDeadlineExceeded`].
pub async fn body_deadline(
    limit: std::time::Duration,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let deadline = tokio::time::Instant::now() + limit;
    let request = request
        .map(|body| axum::body::Body::new(DeadlineBody { inner: body, sleep: tokio::time::sleep_until(deadline) }));
    next.run(request).await
}

pin_project_lite::pin_project! {
    /// A body that fails with [`BodyDeadlineExceeded`] once `sleep` has elapsed.
    struct DeadlineBody {
        #[pin]
        inner: axum::body::Body,
        #[pin]
        sleep: tokio::time::Sleep,
    }
}

impl http_body::Body for DeadlineBody {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let this = self.project();
        if let std::task::Poll::Ready(frame) = this.inner.poll_frame(cx) {
            return std::task::Poll::Ready(frame);
        }
        match this.sleep.poll(cx) {
            std::task::Poll::Ready(()) => std::task::Poll::Ready(Some(Err(axum::Error::new(BodyDeadlineExceeded)))),
            std::task::Poll::Pending => std::task::Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

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
    // `/webhooks/` is `/webhooks`: the trailing slash is trimmed before routing (the spec writes
    // collections as `/`, clients add one or not). The peer address lets `GET /config` answer
    // loopback only.
    let app = tower::Layer::layer(&tower_http::normalize_path::NormalizePathLayer::trim_trailing_slash(), router);
    let app =
        axum::ServiceExt::<axum::extract::Request>::into_make_service_with_connect_info::<std::net::SocketAddr>(app);
    let server = axum::serve(listener, app).with_graceful_shutdown(shutdown.token.clone().cancelled_owned());
    if let Some(served) = shutdown.finish_within("HTTP requests", server.into_future()).await {
        served?;
    }
    tracing::info!("HTTP server stopped");
    Ok(())
}
