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

use std::sync::Arc;

use axum::http::{header, HeaderValue, Response, StatusCode, Uri};

use super::EdgeLimits;

/// A request refused at the edge, before any handler: what the gateway answers it with in its own
/// protocol (REST: a problem body in the requested `jsonCasing`; MCP: a JSON-RPC error).
#[derive(Debug, Clone, PartialEq)]
pub struct EdgeRefusal {
    pub status: StatusCode,
    /// The problem `reason` ([`URI_TOO_LONG`], [`HEADERS_TOO_LARGE`]).
    pub reason: &'static str,
    /// What was over which limit, naming its setting.
    pub detail: String,
}

/// How a server answers an [`EdgeRefusal`] of a request to `uri`. The runtime knows no protocol
/// (only rest-gateway knows JSON casing), so each gateway gives its own; [`plain_problem`] is the
/// default.
pub type RefusalAnswer = Arc<dyn Fn(&Uri, EdgeRefusal) -> axum::response::Response + Send + Sync>;

/// The problem `reason` of a URI over `--max-uri-bytes` (414).
pub const URI_TOO_LONG: &str = "URI_TOO_LONG";
/// The problem `reason` of header fields over `--max-header-bytes` or `--max-headers` (431).
pub const HEADERS_TOO_LARGE: &str = "HEADERS_TOO_LARGE";

/// Refuses a request whose URI or headers are over the limits (414, 431) before any handler
/// reads it, with a problem body that names the limit and its setting.
pub async fn check(
    limits: &EdgeLimits,
    answer: &RefusalAnswer,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    match refusal(limits, &request) {
        Some(refused) => answer(request.uri(), refused),
        None => next.run(request).await,
    }
}

/// What is over a limit in the request's head, if anything.
fn refusal(limits: &EdgeLimits, request: &axum::extract::Request) -> Option<EdgeRefusal> {
    let uri_bytes = request.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_bytes > limits.max_uri_bytes {
        return Some(EdgeRefusal {
            status: StatusCode::URI_TOO_LONG,
            reason: URI_TOO_LONG,
            detail: format!(
                "the request URI is {uri_bytes} bytes; at most {} are accepted (--max-uri-bytes)",
                limits.max_uri_bytes
            ),
        });
    }
    let headers = request.headers();
    if headers.len() > limits.max_headers {
        return Some(EdgeRefusal {
            status: StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            reason: HEADERS_TOO_LARGE,
            detail: format!(
                "the request has {} header fields; at most {} are accepted (--max-headers)",
                headers.len(),
                limits.max_headers
            ),
        });
    }
    let header_bytes: usize = headers.iter().map(|(name, value)| name.as_str().len() + value.len()).sum();
    (header_bytes > limits.max_header_bytes).then(|| EdgeRefusal {
        status: StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        reason: HEADERS_TOO_LARGE,
        detail: format!(
            "the request's header fields are {header_bytes} bytes; at most {} are accepted (--max-header-bytes)",
            limits.max_header_bytes
        ),
    })
}

/// The default answer: an RFC 9457 problem body with one-word members, for a server no gateway
/// configured.
pub fn plain_problem() -> RefusalAnswer {
    Arc::new(|_uri: &Uri, refusal: EdgeRefusal| problem(refusal.status, refusal.reason, &refusal.detail))
}

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
