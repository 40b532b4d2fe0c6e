//! The body-drain rule of both gateways: what happens to the body of a request refused for its
//! size.
//!
//! A server that answers 413 while the client is still sending, and then closes the connection,
//! makes many clients report a broken pipe (or a reset) instead of the 413. So a body over the
//! limit is read and dropped before the refusal goes out, as a lingering close would, within two
//! bounds: at most a byte budget ([`DRAIN_LIMIT`] for the API bodies, less for small forms) and at
//! most [`DRAIN_TIME`]. A body that declares more than the budget is not read at all. Whenever the
//! body was not read to its end, the refusal says `Connection: close` ([`close_after`]): the
//! server drops the connection after it, and the client must not send its next request on it.
//!
//! Why 30 s, and one cap for both gateways: the drain only serves a request already refused, so it
//! should hold a connection no longer than a client at a reasonable speed needs to finish sending
//! (64 MiB in 30 s is 17 Mbit/s; a 26 MiB body, the usual over-the-limit upload, needs 7 Mbit/s).
//! The body deadline (`--body-timeout-secs`, 60 s by default, up to an hour) bounds it too, but it
//! is set for bodies the gateway wants; a body it has refused gets the shorter of the two, so no
//! setting of the deadline lets a refused client hold a connection for long.

use std::time::Duration;

use axum::body::BodyDataStream;
use axum::extract::Request;
use axum::http::header::{CONNECTION, CONTENT_LENGTH};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use futures_util::StreamExt;

/// The most of an oversized API body that is read and dropped so the client sees the refusal.
pub const DRAIN_LIMIT: u64 = 64 * 1024 * 1024;

/// The longest an oversized body is read for (see the module docs for why 30 s).
pub const DRAIN_TIME: Duration = Duration::from_secs(30);

/// What became of the body of a request refused for its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Oversized {
    /// The body was read to its end: the connection can carry the next request.
    Drained,
    /// The body was too large, too slow or broken to read to its end: the answer must close the
    /// connection, or the client would send its next request on a connection the server is about
    /// to drop.
    Unread,
}

/// The body length a request declares (`Content-Length`), if any.
pub fn declared_length(headers: &HeaderMap) -> Option<u64> {
    headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok())
}

/// Reads and drops the rest of a refused body: the whole of it when it ends within `budget` bytes
/// and [`DRAIN_TIME`], else as much as those allow. `declared` is the request's
/// [`declared_length`]; a body declaring more than `budget` is not read at all.
pub async fn drain(stream: BodyDataStream, declared: Option<u64>, budget: u64) -> Oversized {
    drain_within(DRAIN_TIME, stream, declared, budget).await
}

/// [`drain`] within `time`.
async fn drain_within(time: Duration, mut stream: BodyDataStream, declared: Option<u64>, budget: u64) -> Oversized {
    if declared.is_some_and(|length| length > budget) {
        return Oversized::Unread;
    }
    let discard = async {
        let mut seen = 0u64;
        while let Some(chunk) = stream.next().await {
            let Ok(chunk) = chunk else { return Oversized::Unread };
            seen += chunk.len() as u64;
            if seen > budget {
                return Oversized::Unread;
            }
        }
        Oversized::Drained
    };
    tokio::time::timeout(time, discard).await.unwrap_or(Oversized::Unread)
}

/// Whether the request declares a body over `limit`; if so its body is drained ([`drain`], within
/// `budget`) so that the client reads the refusal. `Ok` gives the request back untouched.
pub async fn refuse_declared_over(request: Request, limit: usize, budget: u64) -> Result<Request, Oversized> {
    let Some(length) = declared_length(request.headers()).filter(|length| *length > limit as u64) else {
        return Ok(request);
    };
    Err(drain(request.into_body().into_data_stream(), Some(length), budget).await)
}

/// Marks an answer whose request body was not read to its end: the server drops the connection
/// after it, and `Connection: close` tells the client not to send another request on it.
pub fn close_after(mut response: Response, oversized: Oversized) -> Response {
    if oversized == Oversized::Unread {
        response.headers_mut().insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;

    fn body(chunks: usize, size: usize) -> BodyDataStream {
        let chunks = (0..chunks).map(move |_| Ok::<_, std::io::Error>(bytes::Bytes::from(vec![b' '; size])));
        Body::from_stream(futures_util::stream::iter(chunks)).into_data_stream()
    }

    #[tokio::test]
    async fn a_body_within_the_budget_is_read_to_its_end() {
        assert_eq!(drain(body(4, 1024), Some(4096), 4096).await, Oversized::Drained);
        assert_eq!(drain(body(4, 1024), None, 4096).await, Oversized::Drained);
    }

    #[tokio::test]
    async fn a_body_over_the_budget_is_left_unread() {
        assert_eq!(drain(body(5, 1024), None, 4096).await, Oversized::Unread);
        assert_eq!(drain(body(0, 0), Some(4097), 4096).await, Oversized::Unread, "not read at all");
    }

    #[tokio::test]
    async fn a_body_slower_than_the_drain_time_is_left_unread() {
        let pending = Body::from_stream(futures_util::stream::pending::<Result<bytes::Bytes, std::io::Error>>());
        let time = Duration::from_millis(20);
        assert_eq!(drain_within(time, pending.into_data_stream(), Some(10), 4096).await, Oversized::Unread);
    }

    #[tokio::test]
    async fn only_a_declared_length_over_the_limit_is_refused() {
        let request = |length: &str| {
            axum::http::Request::builder().header(CONTENT_LENGTH, length).body(Body::from("x".repeat(10))).unwrap()
        };
        assert!(refuse_declared_over(request("10"), 10, 4096).await.is_ok());
        assert_eq!(refuse_declared_over(request("11"), 10, 4096).await.err(), Some(Oversized::Drained));
        assert_eq!(refuse_declared_over(request("11"), 10, 10).await.err(), Some(Oversized::Unread), "over the budget");
        let closed = close_after(Response::new(Body::empty()), Oversized::Unread);
        assert_eq!(closed.headers()[CONNECTION], "close");
        assert!(close_after(Response::new(Body::empty()), Oversized::Drained).headers().get(CONNECTION).is_none());
    }
}
