//! A request id that follows a request across components: rest-gateway and mcp-gateway take the
//! client's `X-Request-Id` (or make one), log within a span carrying it, answer with it, and pass
//! it to core-service as gRPC metadata, whose handlers log within a span carrying the same id.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

/// The HTTP header and gRPC metadata key.
pub const HEADER: &str = "x-request-id";

/// Longest id accepted from a client; longer or non-printable ones are replaced.
const MAX_LEN: usize = 128;

tokio::task_local! {
    static REQUEST_ID: String;
}

/// The id of the request this task serves, if any.
pub fn current() -> Option<String> {
    REQUEST_ID.try_with(Clone::clone).ok()
}

/// A client's id when it is short printable ASCII, else `None`.
pub fn accept(value: Option<&str>) -> Option<String> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.len() <= MAX_LEN && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_owned)
}

/// axum middleware: runs the request inside a span and task-local scope carrying its id, and
/// answers with the id in `X-Request-Id`.
pub async fn propagate(request: Request, next: Next) -> Response {
    let id = accept(request.headers().get(HEADER).and_then(|v| v.to_str().ok()))
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let span = tracing::info_span!("request", request_id = %id, method = %request.method(),
        path = %request.uri().path(), otel.name = tracing::field::Empty, otel.kind = tracing::field::Empty);
    // With trace export: named by the route pattern, continuing a caller's `traceparent`.
    crate::trace_context::http_server_span(&span, &request);
    let background = crate::telemetry::is_background(&format!("{} {}", request.method(), request.uri().path()));
    let started = std::time::Instant::now();
    let mut response = REQUEST_ID.scope(id.clone(), next.run(request).instrument(span.clone())).await;
    crate::trace_context::record_http_status(&span, response.status().as_u16());
    if !background {
        // The access log: one line per request, within the span that carries the request id.
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        tracing::info!(parent: &span, status = response.status().as_u16(), ms, "request done");
    }
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_ids_are_checked() {
        assert_eq!(accept(Some("abc-123")).as_deref(), Some("abc-123"));
        assert_eq!(accept(Some("has space")), None);
        assert_eq!(accept(Some(&"x".repeat(129))), None);
        assert_eq!(accept(Some("")), None);
        assert_eq!(accept(None), None);
    }
}
