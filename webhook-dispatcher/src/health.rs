//! The dispatcher's small HTTP port (`--health-addr`): `/healthz` (the process runs), `/readyz`
//! (core-service answers its gRPC health check as SERVING), `/metrics` (Prometheus text,
//! including `webhook_deliveries_total` and `webhook_delivery_duration_seconds`) and `/config`
//! (the effective configuration, to loopback callers).

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use canvas_proto::channel::CoreChannel as Channel;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

/// Serves the health and metrics routes on `listener` until `shutdown`.
/// `config` is what `GET /config` shows (to loopback callers only).
pub async fn serve(
    listener: TcpListener,
    core: Channel,
    shutdown: CancellationToken,
    config: canvas_runtime::settings::ConfigReport,
) -> std::io::Result<()> {
    canvas_runtime::metrics::install();
    let app = Router::new()
        .route("/healthz", get(|| async { (StatusCode::OK, Json(json!({"status": "ok"}))) }))
        .route("/readyz", get(ready))
        .route("/metrics", get(canvas_runtime::metrics::handler))
        .with_state(core)
        .merge(canvas_runtime::settings::route(config));
    axum::serve(listener, app.into_make_service_with_connect_info::<std::net::SocketAddr>())
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

async fn ready(State(core): State<Channel>) -> (StatusCode, Json<Value>) {
    let mut client = HealthClient::new(core);
    let check = client.check(HealthCheckRequest { service: String::new() });
    match tokio::time::timeout(Duration::from_secs(2), check).await {
        Ok(Ok(reply)) if reply.get_ref().status == ServingStatus::Serving as i32 => {
            (StatusCode::OK, Json(json!({"status": "ok"})))
        }
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "unavailable", "detail": "core-service is not serving"})),
        ),
    }
}

/// Records one attempt: `outcome` is `success` (2xx), `http_error` (any other status) or
/// `network_error` (no status: refused, time-out, blocked destination).
pub fn record_attempt(status_code: Option<u16>, attempt: u32, duration: Duration) {
    let outcome = match status_code {
        Some(code) if (200..300).contains(&code) => "success",
        Some(_) => "http_error",
        None => "network_error",
    };
    // Attempts beyond the schedule's length share one label value, keeping the series bounded.
    let attempt = if attempt >= 10 { "10+".to_owned() } else { attempt.to_string() };
    metrics::counter!("webhook_deliveries_total", "outcome" => outcome, "attempt" => attempt).increment(1);
    metrics::histogram!("webhook_delivery_duration_seconds", "outcome" => outcome).record(duration.as_secs_f64());
}
