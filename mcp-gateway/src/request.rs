//! What a `POST /mcp` says about itself before its message is read: its media type, the answer
//! it accepts (JSON or SSE), and its body within the size and time limits.

use std::time::Duration;

use axum::body::Body;
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::HeaderMap;
use bytes::{Bytes, BytesMut};
use futures::StreamExt;
use serde_json::Value;

use crate::error::Rejection;

/// After an oversized body, read (and drop) at most this much more before
/// answering, so the client sees the 413 instead of a reset connection.
const DRAIN_LIMIT: usize = 64 * 1024 * 1024;
const DRAIN_TIME: Duration = Duration::from_secs(30);

/// How the client wants its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Json,
    Sse,
}

/// `Content-Type: application/json`, parameters allowed.
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// Picks JSON or SSE from `Accept`: the media type with the higher quality
/// wins, JSON on a tie (one body is simpler for every client); explicit
/// types beat wildcards; no `Accept` at all means JSON.
pub fn negotiate(headers: &HeaderMap) -> Option<Answer> {
    let values: Vec<&str> = headers.get_all(ACCEPT).iter().filter_map(|v| v.to_str().ok()).collect();
    if values.is_empty() {
        return Some(Answer::Json);
    }
    let (mut json, mut sse, mut application, mut text, mut any) = (None, None, None, None, None);
    for entry in values.iter().flat_map(|v| v.split(',')) {
        let mut params = entry.split(';');
        let media = params.next().unwrap_or("").trim().to_ascii_lowercase();
        let quality = params
            .find_map(|p| p.trim().strip_prefix("q=").map(|q| q.trim().parse::<f32>().unwrap_or(1.0)))
            .unwrap_or(1.0);
        let slot = match media.as_str() {
            "application/json" => &mut json,
            "text/event-stream" => &mut sse,
            "application/*" => &mut application,
            "text/*" => &mut text,
            "*/*" => &mut any,
            _ => continue,
        };
        *slot = Some(slot.map_or(quality, |q: f32| q.max(quality)));
    }
    let json = json.or(application).or(any).unwrap_or(0.0);
    let sse = sse.or(text).or(any).unwrap_or(0.0);
    match (json, sse) {
        (j, s) if s > j => Some(Answer::Sse),
        (j, _) if j > 0.0 => Some(Answer::Json),
        _ => None,
    }
}

/// The body, at most `limit` bytes. An oversized body is drained (within
/// bounds) before the 413 so the client reads the answer.
pub async fn read_body(body: Body, headers: &HeaderMap, limit: usize) -> Result<Bytes, Rejection> {
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    let mut stream = body.into_data_stream();
    if declared.is_some_and(|length| length > limit) {
        drain(stream).await;
        return Err(Rejection::payload_too_large(limit));
    }
    let mut buffer = BytesMut::with_capacity(declared.unwrap_or(0));
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| Rejection::invalid_request(Value::Null, format!("unreadable body: {err}")))?;
        if buffer.len() + chunk.len() > limit {
            drain(stream).await;
            return Err(Rejection::payload_too_large(limit));
        }
        buffer.extend_from_slice(&chunk);
    }
    Ok(buffer.freeze())
}

async fn drain(mut stream: axum::body::BodyDataStream) {
    let discard = async {
        let mut seen = 0usize;
        while let Some(Ok(chunk)) = stream.next().await {
            seen += chunk.len();
            if seen > DRAIN_LIMIT {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, discard).await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")));
        headers
    }

    #[test]
    fn negotiates_by_accept() {
        assert_eq!(negotiate(&HeaderMap::new()), Some(Answer::Json));
        assert_eq!(negotiate(&accept("application/json, text/event-stream")), Some(Answer::Json));
        assert_eq!(negotiate(&accept("text/event-stream")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("application/json;q=0.5, text/event-stream")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("text/event-stream, */*;q=0.1")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("*/*")), Some(Answer::Json));
        assert_eq!(negotiate(&accept("text/html")), None);
    }
}
