//! What a `POST /mcp` says about itself before its message is read: its media type, the answer
//! it accepts (JSON or SSE), and its body within the size and time limits. Which media types are
//! JSON and what becomes of an oversized body are the HTTP edge's rules, the same as the REST
//! gateway's (`canvas_runtime::edge`).

use axum::body::Body;
use axum::http::header::ACCEPT;
use axum::http::HeaderMap;
use bytes::{Bytes, BytesMut};
use canvas_runtime::edge::drain::{declared_length, drain, DRAIN_LIMIT};
use futures::StreamExt;
use serde_json::Value;

use crate::error::Rejection;

/// How the client wants its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Json,
    Sse,
}

/// Whether the body is declared as JSON: `application/json` or an `application/*+json` type, as
/// on the REST gateway (`canvas_runtime::edge::content_type`).
pub use canvas_runtime::edge::content_type::is_json;

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

/// The body, at most `limit` bytes. An oversized body, declared or found so while reading, is
/// drained by the edge's rule (`canvas_runtime::edge::drain`) before the 413 so the client reads
/// the answer; a 413 whose body could not be drained closes the connection.
pub async fn read_body(body: Body, headers: &HeaderMap, limit: usize) -> Result<Bytes, Rejection> {
    let declared = declared_length(headers);
    let mut stream = body.into_data_stream();
    if declared.is_some_and(|length| length > limit as u64) {
        let oversized = drain(stream, declared, DRAIN_LIMIT).await;
        return Err(Rejection::payload_too_large(limit).after_drain(oversized));
    }
    let mut buffer = BytesMut::with_capacity(declared.map_or(0, |length| length as usize));
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| Rejection::invalid_request(Value::Null, format!("unreadable body: {err}")))?;
        if buffer.len() + chunk.len() > limit {
            let oversized = drain(stream, declared, DRAIN_LIMIT).await;
            return Err(Rejection::payload_too_large(limit).after_drain(oversized));
        }
        buffer.extend_from_slice(&chunk);
    }
    Ok(buffer.freeze())
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
