//! The request head within the edge limits: a URI over `--max-uri-bytes` is answered 414, header
//! fields over `--max-headers` or `--max-header-bytes` 431, before any route reads the request.
//!
//! Why at the edge and not in a handler: whatever a gateway forwards travels to core-service as
//! gRPC metadata on a connection every caller shares. A request whose head is larger than
//! core-service accepts would be refused there at the transport level (a reset stream, or for a
//! large enough header block a connection-level `GOAWAY` that fails every call in flight). So a
//! gateway refuses such a request itself, and what it forwards always fits within core-service's
//! explicit limits (`core-service/src/grpc/mod.rs`). hyper bounds the head it buffers
//! ([`crate::server`]); this check answers the requests within hyper's buffer but over a limit with
//! a readable problem body.

use axum::http::{header, HeaderValue, Response, StatusCode};

use super::EdgeLimits;

/// The problem `reason` of a URI over `--max-uri-bytes` (414).
pub const URI_TOO_LONG: &str = "URI_TOO_LONG";
/// The problem `reason` of header fields over `--max-header-bytes` or `--max-headers` (431).
pub const HEADERS_TOO_LARGE: &str = "HEADERS_TOO_LARGE";

/// Refuses a request whose URI or headers are over the limits (414, 431) before any handler
/// reads it, with a problem body that names the limit and its setting.
pub async fn check(
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
