//! gRPC server metrics: `grpc_server_handled_total{method, code}` and
//! `grpc_server_handling_seconds{method}`, as a tower layer around every service, plus gauges of
//! the database pool and the knowledge index queue refreshed in the background. The same layer
//! gives statuses tonic made itself (a deadline passed, an unknown method, an unreadable message)
//! their `ErrorReason`, so every non-OK answer is typed.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;
use tower::{Layer, Service};

use crate::service::Core;

/// How often the gauges are refreshed.
const GAUGE_INTERVAL: Duration = Duration::from_secs(15);

/// Wraps each gRPC service with [`GrpcMetrics`].
#[derive(Debug, Clone, Default)]
pub struct GrpcMetricsLayer;

impl<S> Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics { inner }
    }
}

/// Counts and times each call by its method path.
#[derive(Debug, Clone)]
pub struct GrpcMetrics<S> {
    inner: S,
}

/// The method label: our RPCs and the standard ones by path, anything else as `other` so a client
/// sending random paths cannot grow the label set.
fn method_label(path: &str) -> String {
    if path.starts_with("/canvas.v1.") || path.starts_with("/grpc.") {
        path.to_owned()
    } else {
        "other".to_owned()
    }
}

/// The status name of a `grpc-status` header value (unary errors are trailers-only responses,
/// so their status is in the headers; a response without it completed with OK).
fn code_name(value: Option<&str>) -> &'static str {
    match value.and_then(|v| v.parse::<i32>().ok()).map(tonic::Code::from_i32) {
        None | Some(tonic::Code::Ok) => "OK",
        Some(tonic::Code::Cancelled) => "CANCELLED",
        Some(tonic::Code::InvalidArgument) => "INVALID_ARGUMENT",
        Some(tonic::Code::DeadlineExceeded) => "DEADLINE_EXCEEDED",
        Some(tonic::Code::NotFound) => "NOT_FOUND",
        Some(tonic::Code::AlreadyExists) => "ALREADY_EXISTS",
        Some(tonic::Code::PermissionDenied) => "PERMISSION_DENIED",
        Some(tonic::Code::ResourceExhausted) => "RESOURCE_EXHAUSTED",
        Some(tonic::Code::FailedPrecondition) => "FAILED_PRECONDITION",
        Some(tonic::Code::Aborted) => "ABORTED",
        Some(tonic::Code::OutOfRange) => "OUT_OF_RANGE",
        Some(tonic::Code::Unimplemented) => "UNIMPLEMENTED",
        Some(tonic::Code::Internal) => "INTERNAL",
        Some(tonic::Code::Unavailable) => "UNAVAILABLE",
        Some(tonic::Code::DataLoss) => "DATA_LOSS",
        Some(tonic::Code::Unauthenticated) => "UNAUTHENTICATED",
        Some(tonic::Code::Unknown) => "UNKNOWN",
    }
}

impl<S, ReqBody, ResBody> Service<http::Request<ReqBody>> for GrpcMetrics<S>
where
    S: Service<http::Request<ReqBody>, Response = http::Response<ResBody>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<ReqBody>) -> Self::Future {
        let method = method_label(request.uri().path());
        let request_id = canvas_runtime::request_id::accept(
            request.headers().get(canvas_runtime::request_id::HEADER).and_then(|v| v.to_str().ok()),
        );
        // Every log line of the call carries the method and the gateway's request id.
        let span = tracing::info_span!("grpc", method = %method, request_id = request_id.as_deref().unwrap_or("-"),
            otel.name = tracing::field::Empty, otel.kind = tracing::field::Empty);
        // With trace export: named by the method, the child of the gateway's `traceparent`.
        canvas_runtime::trace_context::server_span(&span, method.trim_start_matches('/'), request.headers());
        let traced = span.clone();
        let background = canvas_runtime::telemetry::is_background(&method);
        let started = Instant::now();
        let call = self.inner.call(request);
        let timed = async move {
            let mut result = call.await;
            if let Ok(response) = &mut result {
                super::status::type_bare_status(response.headers_mut());
            }
            let code = match &result {
                Ok(response) => code_name(response.headers().get("grpc-status").and_then(|v| v.to_str().ok())),
                Err(_) => "UNKNOWN",
            };
            canvas_runtime::trace_context::record_grpc_status(&traced, code);
            if !background {
                // The access log: one line per call, within the span carrying the gateway's request id.
                let ms = started.elapsed().as_secs_f64() * 1000.0;
                tracing::info!(parent: &traced, code, ms, "call done");
            }
            metrics::counter!("grpc_server_handled_total", "method" => method.clone(), "code" => code).increment(1);
            metrics::histogram!("grpc_server_handling_seconds", "method" => method)
                .record(started.elapsed().as_secs_f64());
            result
        };
        Box::pin(tracing::Instrument::instrument(timed, span))
    }
}

/// Keeps the pool and queue gauges current until `shutdown`: read from the database right before
/// every `/metrics` answer of this process (a collector), and every [`GAUGE_INTERVAL`] besides.
pub fn spawn_gauges(core: Arc<Core>, shutdown: CancellationToken) {
    let weak = Arc::downgrade(&core);
    let collector: canvas_runtime::metrics::Collector = Arc::new(move || {
        let weak = weak.clone();
        Box::pin(async move {
            if let Some(core) = weak.upgrade() {
                refresh_gauges(&core).await;
            }
        })
    });
    let registered = canvas_runtime::metrics::add_collector(collector);
    tokio::spawn(async move {
        let _registered = registered;
        loop {
            refresh_gauges(&core).await;
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tokio::time::sleep(GAUGE_INTERVAL) => {}
            }
        }
    });
}

async fn refresh_gauges(core: &Core) {
    let (size, idle) = core.storage().pool_stats();
    metrics::gauge!("db_pool_connections", "state" => "open").set(size as f64);
    metrics::gauge!("db_pool_connections", "state" => "idle").set(idle as f64);
    // What retrieval holds in memory on this replica (placement by project keeps each busy
    // project's index on one replica: compare the replicas' figures).
    let indexes = core.retrieval().search_indexes();
    metrics::gauge!("search_index_projects").set(indexes.loaded_projects().len() as f64);
    metrics::gauge!("search_index_bytes").set(indexes.total_bytes() as f64);
    match core.retrieval().queue_stats().await {
        Ok((queued, oldest_secs)) => {
            metrics::gauge!("knowledge_index_queue_items").set(queued as f64);
            metrics::gauge!("knowledge_index_lag_seconds").set(oldest_secs);
        }
        Err(error) => tracing::warn!(%error, "could not read the knowledge queue for its gauges"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_stay_bounded() {
        assert_eq!(method_label("/canvas.v1.ItemService/CreateItem"), "/canvas.v1.ItemService/CreateItem");
        assert_eq!(method_label("/evil/1234"), "other");
        assert_eq!(code_name(None), "OK");
        assert_eq!(code_name(Some("5")), "NOT_FOUND");
        assert_eq!(code_name(Some("junk")), "OK");
    }
}
