//! OpenTelemetry trace export, switched on by configuration.
//!
//! With `--otlp-endpoint` set, [`start`] builds a tracer provider whose spans go over OTLP/HTTP
//! (protobuf) to `{endpoint}/v1/traces`, batched by a task on the tokio runtime, and a
//! `tracing` layer turning the components' spans (INFO and above, whatever `RUST_LOG` says about
//! log lines) into OpenTelemetry spans; [`crate::init`] installs that layer next to the log
//! layer. Without an endpoint nothing is built: no layer, no task, no propagation.
//!
//! The standard `OTEL_*` variables the SDK reads keep working: `OTEL_EXPORTER_OTLP_HEADERS`
//! (`key=value,…`, e.g. an `Authorization` for a hosted collector), `OTEL_EXPORTER_OTLP_TIMEOUT`
//! (ms, default 10 s per export), `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_BSP_*` (batching).
//!
//! A collector that is down or refuses spans never stops a request: spans wait in a bounded
//! queue, a failed batch is dropped, and the failure is logged at most once a minute. The
//! [`TelemetryGuard`] flushes what is queued when the process ends, for at most
//! [`SHUTDOWN_TIMEOUT`].
//!
//! How the trace continues across processes: [`crate::trace_context`].

use std::sync::Mutex;
use std::time::{Duration, Instant};

use opentelemetry::trace::{Link, SpanKind, TraceContextExt, TraceId, TracerProvider as _};
use opentelemetry::{Context, KeyValue};
use opentelemetry_otlp::{Protocol, WithExportConfig};
use opentelemetry_sdk::error::{OTelSdkError, OTelSdkResult};
use opentelemetry_sdk::trace::span_processor_with_async_runtime::BatchSpanProcessor;
use opentelemetry_sdk::trace::{
    BatchConfigBuilder, Sampler, SamplingDecision, SamplingResult, SdkTracerProvider, ShouldSample, SpanData,
    SpanExporter,
};
use opentelemetry_sdk::Resource;
use tracing_subscriber::{EnvFilter, Layer, Registry};

/// A layer of the one global subscriber (see [`crate::init`]).
pub type BoxedLayer = Box<dyn Layer<Registry> + Send + Sync>;

/// Longest the guard waits, at exit, for the last spans to reach the collector.
pub const SHUTDOWN_TIMEOUT: Duration = Duration::from_secs(5);

/// Longest one batch export may take before it is abandoned and reported (the HTTP client's own
/// time-out, OTEL_EXPORTER_OTLP_TIMEOUT, is 10 s by default).
const EXPORT_TIMEOUT: Duration = Duration::from_secs(15);

/// A failing collector is reported at most this often.
const REPORT_EVERY: Duration = Duration::from_secs(60);

/// Which spans (and events within them) become OpenTelemetry spans: the components' own at INFO,
/// never the HTTP/2 and client plumbing, nor the exporter's own requests.
const SPAN_FILTER: &str = "info,h2=off,hyper=off,hyper_util=off,reqwest=off,tower=off,tonic=off,sqlx=warn,\
                           rmcp=warn,opentelemetry=off,opentelemetry_sdk=off,opentelemetry_otlp=off";

/// Spans of these names are not recorded when they start a trace: probes, scrapes and the
/// dispatchers' lease polls, which would otherwise be most of the traces. Within a caller's
/// trace they are.
const UNTRACED_ROOTS: &[&str] = &[
    "GET /healthz",
    "GET /readyz",
    "GET /metrics",
    "GET /config",
    "grpc.health.v1.Health/Check",
    "canvas.v1.WebhookDispatchService/LeaseDeliveries",
];

/// Probes, scrapes and polls (`name` as a span is named: `GET /healthz`, a gRPC method path without
/// its leading slash): neither traced as roots nor written to the access log.
pub fn is_background(name: &str) -> bool {
    UNTRACED_ROOTS.contains(&name.trim_start_matches('/'))
}

/// Where spans go; with no endpoint, nothing is exported.
#[derive(Debug, Clone, clap::Args)]
pub struct TelemetryArgs {
    /// OTLP/HTTP collector base URL: spans are POSTed as protobuf to `{url}/v1/traces`, and W3C
    /// trace context (`traceparent`) is passed between components. Unset: no export. Collector
    /// headers (e.g. authorization) come from OTEL_EXPORTER_OTLP_HEADERS (`key=value,…`).
    #[arg(long = "otlp-endpoint", env = "OTEL_EXPORTER_OTLP_ENDPOINT")]
    pub otlp_endpoint: Option<String>,

    /// Share of new traces recorded and exported, 0.0 to 1.0; a request arriving with a
    /// `traceparent` follows its caller's sampling decision instead (parent-based sampling).
    #[arg(long = "otlp-sample-ratio", env = "OTEL_TRACES_SAMPLER_ARG", default_value_t = 1.0,
          value_parser = parse_ratio)]
    pub otlp_sample_ratio: f64,

    /// `service.name` of the exported spans; default: the component's name (core-service,
    /// rest-gateway, mcp-gateway, webhook-dispatcher, canvasctl).
    #[arg(long = "otlp-service-name", env = "OTEL_SERVICE_NAME")]
    pub otlp_service_name: Option<String>,
}

impl Default for TelemetryArgs {
    fn default() -> Self {
        Self { otlp_endpoint: None, otlp_sample_ratio: 1.0, otlp_service_name: None }
    }
}

fn parse_ratio(value: &str) -> Result<f64, String> {
    match value.trim().parse::<f64>() {
        Ok(ratio) if (0.0..=1.0).contains(&ratio) => Ok(ratio),
        _ => Err(format!("`{value}` is not a ratio between 0.0 and 1.0")),
    }
}

/// `{base}/v1/traces`, as the OTLP/HTTP specification derives it from the base endpoint.
fn traces_url(base: &str) -> String {
    format!("{}/v1/traces", base.trim_end_matches('/'))
}

/// Builds the exporter, the batch task and the `tracing` layer when an endpoint is configured;
/// `Ok(None)` when none is. Needs a tokio runtime (the batch task runs on it).
pub fn start(args: &TelemetryArgs, component: &str) -> Result<Option<(BoxedLayer, TelemetryGuard)>, String> {
    let Some(endpoint) = args.otlp_endpoint.as_deref().map(str::trim).filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    if tokio::runtime::Handle::try_current().is_err() {
        return Err("trace export needs a tokio runtime; spans are not exported".to_owned());
    }
    let url = traces_url(endpoint);
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_protocol(Protocol::HttpBinary)
        .with_endpoint(url.clone())
        .build()
        .map_err(|e| format!("cannot export spans to {url}: {e}"))?;
    // BatchConfigBuilder reads OTEL_BSP_* (queue size, delay, batch size) from the environment.
    // The processor's own limit only backs up `Reported`'s, which logs what it cuts off.
    let batching = BatchConfigBuilder::default().with_max_export_timeout(EXPORT_TIMEOUT * 2).build();
    let processor = BatchSpanProcessor::builder(Reported::new(exporter), opentelemetry_sdk::runtime::Tokio)
        .with_batch_config(batching)
        .build();
    let service_name =
        args.otlp_service_name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| component.to_owned());
    // Resource::builder() also reads OTEL_RESOURCE_ATTRIBUTES; the service name set here wins.
    let resource = Resource::builder().with_service_name(service_name).build();
    let sampler = QuietRoots(Sampler::ParentBased(Box::new(Sampler::TraceIdRatioBased(args.otlp_sample_ratio))));
    let provider = SdkTracerProvider::builder()
        .with_span_processor(processor)
        .with_sampler(sampler)
        .with_resource(resource)
        .build();
    let layer = tracing_opentelemetry::layer()
        .with_tracer(provider.tracer("canvas"))
        .with_filter(EnvFilter::new(SPAN_FILTER))
        .boxed();
    Ok(Some((layer, TelemetryGuard { provider: Some(provider), url })))
}

/// Flushes and shuts the exporter down when dropped (at most [`SHUTDOWN_TIMEOUT`]).
#[must_use = "dropping the guard stops trace export"]
#[derive(Debug, Default)]
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
    url: String,
}

impl TelemetryGuard {
    /// A guard with nothing to flush (no endpoint configured).
    pub fn disabled() -> Self {
        Self::default()
    }

    /// The traces URL spans go to, when exporting.
    pub fn traces_url(&self) -> Option<&str> {
        self.provider.as_ref().map(|_| self.url.as_str())
    }
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        let Some(provider) = self.provider.take() else { return };
        // The batch task flushes on the tokio runtime, still alive while `main` drops its
        // locals; waiting for it on another thread bounds the wait even if the collector hangs.
        let (done, finished) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new().name("otel-shutdown".into()).spawn(move || {
            let _ = done.send(provider.shutdown_with_timeout(SHUTDOWN_TIMEOUT));
        });
        if spawned.is_err() {
            return;
        }
        match finished.recv_timeout(SHUTDOWN_TIMEOUT + Duration::from_millis(500)) {
            Ok(Ok(())) => {}
            Ok(Err(error)) => tracing::warn!(%error, "trace export did not shut down cleanly"),
            Err(_) => tracing::warn!("trace export did not finish in time; the last spans are dropped"),
        }
    }
}

/// The configured sampler, except that [`UNTRACED_ROOTS`] never start a trace.
#[derive(Debug, Clone)]
struct QuietRoots(Sampler);

impl ShouldSample for QuietRoots {
    fn should_sample(
        &self,
        parent: Option<&Context>,
        trace_id: TraceId,
        name: &str,
        kind: &SpanKind,
        attributes: &[KeyValue],
        links: &[Link],
    ) -> SamplingResult {
        let has_parent = parent.is_some_and(|cx| cx.span().span_context().is_valid());
        if !has_parent && is_background(name) {
            return SamplingResult {
                decision: SamplingDecision::Drop,
                attributes: Vec::new(),
                trace_state: Default::default(),
            };
        }
        self.0.should_sample(parent, trace_id, name, kind, attributes, links)
    }
}

/// Wraps the OTLP exporter so that a failing collector costs one log line a minute, never an
/// error per batch: the batch is dropped and the SDK told it went fine.
#[derive(Debug)]
struct Reported<E> {
    inner: E,
    failures: Mutex<Failures>,
}

#[derive(Debug, Default)]
struct Failures {
    /// Spans lost since the last successful export.
    lost_spans: u64,
    last_report: Option<Instant>,
}

impl<E> Reported<E> {
    fn new(inner: E) -> Self {
        Self { inner, failures: Mutex::new(Failures::default()) }
    }

    fn note(&self, spans: usize, result: &OTelSdkResult) {
        let mut failures = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        match result {
            Ok(()) => {
                if failures.lost_spans > 0 {
                    tracing::info!(lost_spans = failures.lost_spans, "trace export works again");
                }
                *failures = Failures::default();
            }
            Err(error) => {
                failures.lost_spans += spans as u64;
                if failures.last_report.is_none_or(|at| at.elapsed() >= REPORT_EVERY) {
                    failures.last_report = Some(Instant::now());
                    tracing::warn!(%error, lost_spans = failures.lost_spans,
                        "trace export failed; spans dropped (reported at most once a minute)");
                }
            }
        }
    }
}

impl<E: SpanExporter> SpanExporter for Reported<E> {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let spans = batch.len();
        let result = match tokio::time::timeout(EXPORT_TIMEOUT, self.inner.export(batch)).await {
            Ok(result) => result,
            Err(_) => Err(OTelSdkError::Timeout(EXPORT_TIMEOUT)),
        };
        self.note(spans, &result);
        Ok(())
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.inner.set_resource(resource);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_urls() {
        assert_eq!(parse_ratio("0.25"), Ok(0.25));
        assert!(parse_ratio("1.5").is_err());
        assert!(parse_ratio("-0.1").is_err());
        assert!(parse_ratio("all").is_err());
        assert_eq!(traces_url("http://collector:4318"), "http://collector:4318/v1/traces");
        assert_eq!(traces_url("http://collector:4318/"), "http://collector:4318/v1/traces");
    }

    #[test]
    fn probes_start_no_trace() {
        let sampler = QuietRoots(Sampler::AlwaysOn);
        let decide = |parent: Option<&Context>, name: &str| {
            sampler.should_sample(parent, TraceId::from(7), name, &SpanKind::Server, &[], &[]).decision
        };
        assert_eq!(decide(None, "GET /readyz"), SamplingDecision::Drop);
        assert_eq!(decide(Some(&Context::new()), "grpc.health.v1.Health/Check"), SamplingDecision::Drop);
        assert_eq!(decide(None, "GET /api/v2/projects/{project_id}/items"), SamplingDecision::RecordAndSample);
        let remote = opentelemetry::trace::SpanContext::new(
            TraceId::from(7),
            opentelemetry::trace::SpanId::from(9),
            opentelemetry::trace::TraceFlags::SAMPLED,
            true,
            Default::default(),
        );
        let parent = Context::new().with_remote_span_context(remote);
        assert_eq!(decide(Some(&parent), "GET /readyz"), SamplingDecision::RecordAndSample);
    }

    #[derive(Debug)]
    struct Down;

    impl SpanExporter for Down {
        async fn export(&self, _batch: Vec<SpanData>) -> OTelSdkResult {
            Err(OTelSdkError::InternalFailure("collector down".into()))
        }
    }

    #[tokio::test]
    async fn export_failures_are_reported_not_returned() {
        let exporter = Reported::new(Down);
        for _ in 0..3 {
            assert!(exporter.export(Vec::new()).await.is_ok());
        }
        assert!(exporter.failures.lock().unwrap().last_report.is_some());
    }

    #[test]
    fn no_endpoint_builds_nothing() {
        let args = TelemetryArgs { otlp_endpoint: Some("  ".into()), ..TelemetryArgs::default() };
        assert!(matches!(start(&args, "test"), Ok(None)));
        assert!(matches!(start(&TelemetryArgs::default(), "test"), Ok(None)));
    }
}
