//! The 25 MiB request-body limit, answered so that every client can read the
//! answer.
//!
//! A server that answers 413 while the client is still sending and then
//! closes the connection makes many clients report a broken pipe instead of
//! the 413. So a body whose `Content-Length` is over the limit is read and
//! discarded (up to [`DRAIN_LIMIT`], like a lingering close) before the
//! problem answer goes out; larger ones are answered at once with
//! `Connection: close`. Bodies without a length are cut at the limit by
//! axum's `DefaultBodyLimit` in the handlers. A body that arrives slower than
//! `--body-timeout-secs` is cut off with a 408.

use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use futures_util::StreamExt;

use crate::error::ApiError;
use crate::respond::{query_value, Format};

/// Largest request body: 25 MiB, the spec's 25 MB limit with room for
/// multipart framing.
pub const MAX_BODY_BYTES: usize = canvas_vocabulary::limits::MAX_UPLOAD_BYTES;

/// Largest body of an account-site form or OAuth request: 64 KiB holds every form (a password is
/// at most 256 characters, an OAuth registration 16 KiB) many times over, and a sign-in form of
/// megabytes is never read whole just to be refused.
pub const MAX_FORM_BYTES: usize = 64 * 1024;

/// Whether reading a body failed because the client took longer than `--body-timeout-secs`.
pub fn is_body_timeout(error: &(dyn std::error::Error + 'static)) -> bool {
    canvas_runtime::http::is_body_deadline(error)
}

/// How much of an oversized body is read and dropped so the client sees the
/// 413; beyond this the connection is closed.
pub const DRAIN_LIMIT: u64 = 64 * 1024 * 1024;

/// How much of an oversized account form is read and dropped: a browser posting a form of a few
/// megabytes sees the 413 page instead of a reset; beyond this the connection is closed.
pub const FORM_DRAIN_LIMIT: u64 = 4 * 1024 * 1024;

/// What [`refuse_declared_over`] did with a body whose `Content-Length` is over the limit.
pub enum Oversized {
    /// The body was read to its end: the connection can carry the next request.
    Drained,
    /// The body was too large to read: the answer must close the connection, or the client
    /// would send its next request on a connection the server is about to drop.
    Unread,
}

/// Whether the request declares a body over `limit`; if so its body is read and dropped when it
/// is at most `drain_limit`, so that the client reads the answer. `Ok` gives the request back untouched.
pub async fn refuse_declared_over(request: Request, limit: usize, drain_limit: u64) -> Result<Request, Oversized> {
    let declared =
        request.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok());
    let Some(length) = declared.filter(|len| *len > limit as u64) else {
        return Ok(request);
    };
    if length > drain_limit {
        return Err(Oversized::Unread);
    }
    let mut stream = request.into_body().into_data_stream();
    while let Some(chunk) = stream.next().await {
        if chunk.is_err() {
            return Err(Oversized::Unread);
        }
    }
    Err(Oversized::Drained)
}

/// Marks an answer whose request body was not read to its end: the server drops the connection
/// after it, and `Connection: close` tells the client not to send another request on it.
pub fn close_after(mut response: Response, oversized: Oversized) -> Response {
    if matches!(oversized, Oversized::Unread) {
        response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

pub async fn reject_oversized(request: Request, next: Next) -> Response {
    let casing = query_value(request.uri().query().unwrap_or(""), "jsonCasing")
        .and_then(|raw| crate::casing::Casing::parse(&raw))
        .unwrap_or_default();
    match refuse_declared_over(request, MAX_BODY_BYTES, DRAIN_LIMIT).await {
        Ok(request) => next.run(request).await,
        Err(oversized) => {
            let format = Format { casing, msgpack: None };
            close_after(format.error(ApiError::too_large()), oversized)
        }
    }
}
