//! `POST .../webhooks/{webhookId}/recover` and `GET .../webhooks/{webhookId}/recoveries/{recoveryId}`:
//! each one WebhookService call. The window's rules (RFC 3339, order, the most events) are
//! core-service's; the recovery itself runs in the dispatcher (docs/WEBHOOKS.md, "Recovery").

use axum::extract::{Path, State};
use axum::http::header::LOCATION;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_service_client::WebhookServiceClient;
use serde_json::{json, Value};

use super::webhooks::rfc3339;
use crate::bodies::parse;
use crate::bodies::webhooks::RecoverRequest;
use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::Format;
use crate::state::{mark_replayed, with_idempotency_key, AppState};

/// The REST shape of a recovery (camelCase here, re-cased by `jsonCasing`).
fn recovery_json(r: pb::DeliveryRecovery) -> Value {
    let state = if r.finished_at.is_some() { "finished" } else { "running" };
    json!({
        "recoveryId": r.recovery_id,
        "webhookId": r.webhook_id,
        "projectId": r.project_id,
        "since": rfc3339(r.since),
        "until": rfc3339(r.until),
        "createdAt": rfc3339(r.created_at),
        "finishedAt": rfc3339(r.finished_at),
        "state": state,
        "total": r.total,
        "queued": r.queued,
        "sending": r.sending,
        "delivered": r.delivered,
        "failed": r.failed,
    })
}

/// `POST .../webhooks/{webhookId}/recover`: 202 with the job and its `Location`.
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}/recover",
    tag = "webhooks",
    operation_id = "recoverDeliveries",
    summary = "Send again every failed delivery of a time window, once, in order (beyond the spec)",
    description = "Every delivery of the webhook made in `[since, until)` that failed (given up after its \
        attempts, or failing and waiting for its next retry, which the recovery takes over) has its event sent \
        again under a new delivery id: once per event, in the order the events happened, one call at a time, at \
        the webhook's `maxDeliveriesPerSecond`. An event already delivered since, or about to be, is not sent \
        again. The answer is the job; follow it at its `Location`. With an `Idempotency-Key`, a retry answers \
        the first request's recovery.",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid")),
    request_body = RecoverRequest,
    responses((status = 202, description = "The recovery, started.", body = crate::bodies::webhooks::DeliveryRecovery,
        headers(("Location" = String, description = "The recovery's URL."))))
)]
pub async fn recover(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result: Result<pb::DeliveryRecovery, ApiError> = async {
        let window: RecoverRequest = parse(body, "a recovery window ({since, until})")?;
        let message = pb::RecoverDeliveriesRequest {
            project_id: project_id.clone(),
            webhook_id: webhook_id.clone(),
            since: window.since,
            until: window.until,
        };
        let request = with_idempotency_key(caller.request(message)?, &headers)?;
        let reply = WebhookServiceClient::new(state.channel.clone()).recover_deliveries(request).await?;
        replayed = crate::state::replayed(&reply);
        Ok(reply.into_inner())
    }
    .await;
    let location = result
        .as_ref()
        .ok()
        .map(|r| format!("/api/v2/projects/{}/webhooks/{}/recoveries/{}", r.project_id, r.webhook_id, r.recovery_id));
    let mut response = format.reply(result.map(recovery_json));
    if let Some(location) = location.and_then(|l| HeaderValue::from_str(&l).ok()) {
        *response.status_mut() = StatusCode::ACCEPTED;
        response.headers_mut().insert(LOCATION, location);
    }
    mark_replayed(response, replayed)
}

/// `GET .../webhooks/{webhookId}/recoveries/{recoveryId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}/recoveries/{recoveryId}",
    tag = "webhooks",
    operation_id = "getRecovery",
    summary = "A recovery and where its deliveries are (beyond the spec)",
    params(
        ("projectId" = String, Path, format = "uuid"),
        ("webhookId" = String, Path, format = "uuid"),
        ("recoveryId" = String, Path, format = "uuid")
    ),
    responses((status = 200, description = "The recovery.", body = crate::bodies::webhooks::DeliveryRecovery))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id, recovery_id)): Path<(String, String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let message = pb::GetRecoveryRequest { project_id, webhook_id, recovery_id };
        let reply = WebhookServiceClient::new(state.channel.clone()).get_recovery(caller.request(message)?).await?;
        Ok(recovery_json(reply.into_inner()))
    }
    .await;
    format.reply(result)
}
