//! W3C trace context across process boundaries: the gateways continue a caller's `traceparent`
//! in their HTTP request span, pass the current span's `traceparent`/`tracestate` to
//! core-service as gRPC metadata (next to `x-request-id`), and core-service makes its handler
//! span a child of it. So one REST or MCP request is one trace across the processes.
//!
//! Everything here does nothing unless this process exports spans ([`crate::init`] with an
//! `--otlp-endpoint`): without an exporter no span context exists to pass on.
//!
//! Spans that take part declare the fields `otel.name` and `otel.kind` as
//! `tracing::field::Empty`; they are filled only while exporting, so log lines stay unchanged
//! otherwise.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::HeaderMap;
use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{Status, TraceContextExt};
use opentelemetry_sdk::propagation::TraceContextPropagator;
use tracing::Span;
use tracing_opentelemetry::OpenTelemetrySpanExt;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// Whether this process exports spans (and so propagates their context).
pub fn enabled() -> bool {
    ENABLED.load(Ordering::Relaxed)
}

/// Called by [`crate::init`] once the OpenTelemetry layer is installed.
pub(crate) fn enable() {
    ENABLED.store(true, Ordering::Relaxed);
}

/// Names `span` as an OpenTelemetry server span and, when `headers` carry a valid W3C
/// `traceparent`, makes it the child of that remote span. Call before the span is entered.
pub fn server_span(span: &Span, name: &str, headers: &HeaderMap) {
    if !enabled() {
        return;
    }
    span.record("otel.name", name);
    span.record("otel.kind", "server");
    let parent = TraceContextPropagator::new().extract(&HeaderExtractor(headers));
    if parent.span().span_context().is_valid() {
        let _ = span.set_parent(parent);
    }
}

/// The HTTP request span of a gateway: named `METHOD /route/{pattern}` (just `METHOD` when no
/// route matched), with `http.request.method` and `http.route`, continuing a caller's trace.
pub fn http_server_span(span: &Span, request: &axum::extract::Request) {
    if !enabled() {
        return;
    }
    let method = request.method().as_str();
    let route = request.extensions().get::<axum::extract::MatchedPath>().map(|p| p.as_str());
    let name = match route {
        Some(route) => format!("{method} {route}"),
        None => method.to_owned(),
    };
    server_span(span, &name, request.headers());
    span.set_attribute("http.request.method", method.to_owned());
    if let Some(route) = route {
        span.set_attribute("http.route", route.to_owned());
    }
}

/// Records the HTTP status of a gateway's answer; a 5xx marks the span as failed.
pub fn record_http_status(span: &Span, status: u16) {
    if !enabled() {
        return;
    }
    span.set_attribute("http.response.status_code", i64::from(status));
    if status >= 500 {
        span.set_status(Status::error(format!("HTTP {status}")));
    }
}

/// Records the gRPC status name (`OK`, `NOT_FOUND`, …) of a call core-service answered; the
/// codes that mean a server fault mark the span as failed.
pub fn record_grpc_status(span: &Span, code: &str) {
    if !enabled() {
        return;
    }
    span.set_attribute("rpc.grpc.status_code", code.to_owned());
    if matches!(code, "UNKNOWN" | "INTERNAL" | "UNAVAILABLE" | "DATA_LOSS" | "DEADLINE_EXCEEDED") {
        span.set_status(Status::error(code.to_owned()));
    }
}

/// Adds the current span's `traceparent` (and `tracestate`) to an outgoing gRPC request.
pub fn inject_grpc(metadata: &mut tonic::metadata::MetadataMap) {
    if !enabled() {
        return;
    }
    let context = Span::current().context();
    if context.span().span_context().is_valid() {
        TraceContextPropagator::new().inject_context(&context, &mut MetadataInjector(metadata));
    }
}

/// Reads W3C headers from an HTTP request (an HTTP/2 gRPC call included).
struct HeaderExtractor<'a>(&'a HeaderMap);

impl Extractor for HeaderExtractor<'_> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).and_then(|v| v.to_str().ok())
    }

    fn keys(&self) -> Vec<&str> {
        self.0.keys().map(|k| k.as_str()).collect()
    }
}

/// Writes W3C headers into gRPC metadata.
struct MetadataInjector<'a>(&'a mut tonic::metadata::MetadataMap);

impl Injector for MetadataInjector<'_> {
    fn set(&mut self, key: &str, value: String) {
        let key = tonic::metadata::MetadataKey::from_bytes(key.as_bytes());
        if let (Ok(key), Ok(value)) = (key, tonic::metadata::MetadataValue::try_from(value)) {
            self.0.insert(key, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_is_inert() {
        let mut metadata = tonic::metadata::MetadataMap::new();
        inject_grpc(&mut metadata);
        assert!(metadata.is_empty());
        let span = tracing::info_span!("x", otel.name = tracing::field::Empty, otel.kind = tracing::field::Empty);
        server_span(&span, "name", &HeaderMap::new());
    }

    #[test]
    fn headers_are_read() {
        let mut headers = HeaderMap::new();
        headers.insert("traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01".parse().unwrap());
        let context = TraceContextPropagator::new().extract(&HeaderExtractor(&headers));
        let remote = context.span().span_context().clone();
        assert!(remote.is_valid() && remote.is_remote() && remote.is_sampled());
        assert_eq!(remote.trace_id().to_string(), "0af7651916cd43dd8448eb211c80319c");
    }
}
