//! The request-body deadline: the whole body must arrive within `--body-timeout-secs` of the
//! request's start. A total deadline rather than an idle time-out, so a client trickling a byte a
//! second cannot hold a connection and its buffers for ever; the failed read names the deadline
//! ([`BodyDeadlineExceeded`]), so a gateway can answer 408 rather than 400.

use std::future::Future;

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
