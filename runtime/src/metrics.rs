//! Prometheus metrics shared by every component: one process-wide recorder (so `canvasctl up`,
//! which runs every component in one process, shows them all on one `/metrics`), the text
//! exposition handler, and an axum middleware counting HTTP requests by route and status.
//!
//! Names follow Prometheus conventions: `_total` counters, `_seconds` histograms, labels of low
//! cardinality only (the matched route pattern, never the raw path with its ids).

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Latency buckets (seconds) for every `_seconds` histogram: 1 ms to 30 s.
const BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// Installs the global recorder once; later calls (tests, `canvasctl up`) reuse it.
pub fn install() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), BUCKETS)
            .expect("static bucket list is not empty");
        match builder.install_recorder() {
            Ok(handle) => handle,
            // Another recorder is installed (a test harness): render from a detached one.
            Err(_) => PrometheusBuilder::new().build_recorder().handle(),
        }
    })
}

/// The Prometheus text exposition of every metric recorded in this process.
pub fn render() -> String {
    install().render()
}

/// `GET /metrics`.
pub async fn handler() -> Response {
    let mut response = (StatusCode::OK, render()).into_response();
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    response
}

/// Counts each request (`http_requests_total{component, method, route, status}`) and times it
/// (`http_request_duration_seconds{component, method, route}`).
pub async fn track_http(component: &'static str, request: Request, next: Next) -> Response {
    install();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "unmatched".to_owned());
    let method = request.method().as_str().to_owned();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    ::metrics::counter!("http_requests_total", "component" => component, "method" => method.clone(), "route" => route.clone(), "status" => status)
        .increment(1);
    ::metrics::histogram!("http_request_duration_seconds", "component" => component, "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
    response
}

/// Serves `GET /metrics` and the routes of `extra` (such as `GET /config`) on `listener` until
/// `shutdown`: for components without an HTTP listener of their own (core-service speaks gRPC).
pub async fn serve(
    listener: tokio::net::TcpListener,
    shutdown: tokio_util::sync::CancellationToken,
    extra: axum::Router,
) -> std::io::Result<()> {
    install();
    let app = axum::Router::new().route("/metrics", axum::routing::get(handler)).merge(extra);
    axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}
