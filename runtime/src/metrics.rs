//! Prometheus metrics shared by every component: one process-wide recorder (so `canvasctl up`,
//! which runs every component in one process, shows them all on one `/metrics`), the text
//! exposition handler, and an axum middleware counting HTTP requests by route and status.
//!
//! Names follow Prometheus conventions: `_total` counters, `_seconds` histograms, labels of low
//! cardinality only (the matched route pattern, never the raw path with its ids).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

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

/// Sets gauges whose truth lives elsewhere (a database table) from their source.
pub type Collector = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync>;

/// Collectors run before each scrape, by registration id.
static COLLECTORS: Mutex<Vec<(u64, Collector)>> = Mutex::new(Vec::new());
static NEXT_COLLECTOR: AtomicU64 = AtomicU64::new(0);
/// How long a scrape waits for the collectors before it shows the values it has.
const COLLECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Keeps a collector registered; dropping it removes the collector.
#[must_use = "the collector is removed when this is dropped"]
pub struct CollectorGuard(u64);

impl Drop for CollectorGuard {
    fn drop(&mut self) {
        COLLECTORS.lock().unwrap_or_else(|e| e.into_inner()).retain(|(id, _)| *id != self.0);
    }
}

/// Registers `collector` to run right before every `/metrics` answer of this process, so gauges
/// such as the length of a queue are exact when scraped, on whichever component serves `/metrics`
/// (`canvasctl up` serves every component's metrics from the gateway's port).
pub fn add_collector(collector: Collector) -> CollectorGuard {
    let id = NEXT_COLLECTOR.fetch_add(1, Ordering::Relaxed);
    COLLECTORS.lock().unwrap_or_else(|e| e.into_inner()).push((id, collector));
    CollectorGuard(id)
}

/// Runs the registered collectors (bounded in time).
async fn collect() {
    let collectors: Vec<Collector> =
        COLLECTORS.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|(_, c)| c.clone()).collect();
    for collector in collectors {
        if tokio::time::timeout(COLLECT_TIMEOUT, collector()).await.is_err() {
            tracing::warn!("a metrics collector took longer than {COLLECT_TIMEOUT:?}; its gauges may be stale");
        }
    }
}

/// The Prometheus text exposition of every metric recorded in this process.
pub fn render() -> String {
    install().render()
}

/// `GET /metrics`.
pub async fn handler() -> Response {
    collect().await;
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
