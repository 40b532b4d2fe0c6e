//! `/healthz` (alive) and `/readyz` (core-service answers its health check).

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde_json::{json, Value};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

use crate::state::AppState;

/// Ready when core-service reports SERVING (it reports NOT_SERVING while its
/// database is unreachable), so "ready" means "requests will work".
#[utoipa::path(
    get,
    path = "/readyz",
    tag = "health",
    operation_id = "ready",
    summary = "Readiness: core-service answers SERVING",
    responses(
        (status = 200, description = "Ready.", body = crate::bodies::common::Health),
        (status = 503, description = "core-service is not serving.", body = crate::bodies::common::Health),
    )
)]
pub async fn ready(State(state): State<AppState>) -> (StatusCode, Json<Value>) {
    let mut client = HealthClient::new(state.channel.clone());
    let request = tonic::Request::new(HealthCheckRequest { service: String::new() });
    let check = tokio::time::timeout(std::time::Duration::from_secs(2), client.check(request)).await;
    match check {
        Ok(Ok(reply)) if reply.get_ref().status == ServingStatus::Serving as i32 => {
            (StatusCode::OK, Json(json!({"status": "ok"})))
        }
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "unavailable", "detail": "core-service is not serving"})),
        ),
    }
}

/// Liveness: the process answers. It deliberately does not look at
/// core-service: an orchestrator restarts a container whose liveness fails,
/// and restarting every gateway because core-service is down helps nobody.
#[utoipa::path(
    get,
    path = "/healthz",
    tag = "health",
    operation_id = "live",
    summary = "Liveness: the gateway process answers",
    responses((status = 200, description = "Alive.", body = crate::bodies::common::Health))
)]
pub async fn live() -> (StatusCode, Json<Value>) {
    (StatusCode::OK, Json(json!({"status": "ok"})))
}
