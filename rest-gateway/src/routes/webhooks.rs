//! `/api/v2/projects/{projectId}/webhooks…` and the public key set
//! `/api/v2/webhooks/keys`: each handler is one WebhookService call.
//!
//! Definitions are forwarded as the JSON text the client sent: core-service
//! validates every field by its REST name and keeps `customData` byte for
//! byte. Records come back with `customData` re-parsed and exempt from
//! `jsonCasing` (user data is returned as sent).

use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::channel::CoreChannel;
use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_service_client::WebhookServiceClient;
use serde_json::{json, Map, Value};

use crate::caller::Caller;
use crate::content_type::{JsonBody, Rejected};
use crate::error::ApiError;
use crate::respond::Format;
use crate::state::{mark_replayed, with_idempotency_key, AppState};

/// Receivers may cache the key set this long (the spec's maximum).
const KEYS_MAX_AGE_SECS: u32 = 300;

fn client(state: &AppState) -> WebhookServiceClient<CoreChannel> {
    WebhookServiceClient::new(state.channel.clone())
}

/// The body as text; an empty or non-UTF-8 body is a 400 naming `body`.
fn definition_text(body: Result<JsonBody, Rejected>) -> Result<String, ApiError> {
    let bytes = body?.0;
    String::from_utf8(bytes.to_vec()).map_err(|_| ApiError::invalid("body", "must be UTF-8 JSON"))
}

/// A time of a webhook answer: RFC 3339 with milliseconds and `+00:00`, or null when absent (the
/// webhook routes, recoveries included, answer times this one way).
pub(crate) fn rfc3339(ts: Option<prost_types::Timestamp>) -> Value {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .map(|at| Value::String(at.to_rfc3339_opts(chrono::SecondsFormat::Millis, false)))
        .unwrap_or(Value::Null)
}

/// The REST record of a webhook.
pub fn record(hook: pb::Webhook) -> Value {
    let mut body = Map::new();
    body.insert("id".into(), Value::String(hook.webhook_id));
    if let Some(name) = hook.name {
        body.insert("name".into(), Value::String(name));
    }
    body.insert("url".into(), Value::String(hook.url));
    body.insert("enabled".into(), Value::Bool(hook.enabled));
    body.insert("events".into(), json!(hook.events));
    if let Some(text) = hook.custom_data_json {
        body.insert("customData".into(), serde_json::from_str(&text).unwrap_or(Value::Null));
    }
    body.insert("createdAt".into(), rfc3339(hook.created_at));
    let status = hook.status.unwrap_or_default();
    body.insert(
        "status".into(),
        json!({
            "lastAttemptAt": rfc3339(status.last_attempt_at),
            "lastSuccessAt": rfc3339(status.last_success_at),
            "lastStatusCode": status.last_status_code,
            "lastError": status.last_error,
            "consecutiveFailures": status.consecutive_failures,
            "disabledAt": rfc3339(status.disabled_at),
            "disabledReason": status.disabled_reason,
            "slowDownUntil": rfc3339(status.slow_down_until),
        }),
    );
    if let Some(pace) = hook.max_deliveries_per_second {
        body.insert("maxDeliveriesPerSecond".into(), json!(pace));
    }
    if let Some(inactive) = hook.inactive {
        body.insert("inactive".into(), Value::String(inactive));
    }
    Value::Object(body)
}

/// `GET /webhooks`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/webhooks",
    tag = "webhooks",
    operation_id = "listWebhooks",
    summary = "List the project's webhooks",
    params(("projectId" = String, Path, format = "uuid")),
    responses((status = 200, description = "Every webhook of the project.", body = crate::bodies::webhooks::WebhookList))
)]
pub async fn list(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
) -> Response {
    let result = async {
        let message = pb::ListWebhooksRequest { project_id };
        let reply = caller
            .idempotent(message, |r| {
                let mut client = client(&state);
                async move { client.list_webhooks(r).await }
            })
            .await?
            .into_inner();
        Ok(json!({"elements": reply.webhooks.into_iter().map(record).collect::<Vec<_>>()}))
    }
    .await;
    format.reply(result)
}

/// `POST /webhooks`
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/webhooks",
    tag = "webhooks",
    operation_id = "createWebhook",
    summary = "Register a webhook",
    params(("projectId" = String, Path, format = "uuid")),
    request_body = crate::bodies::webhooks::WebhookDefinition,
    responses((status = 200, description = "The new webhook.", body = crate::bodies::webhooks::WebhookRecord))
)]
pub async fn create(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    headers: HeaderMap,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let mut replayed = false;
    let result = async {
        let definition_json = definition_text(body)?;
        let request = caller.request(pb::CreateWebhookRequest { project_id, definition_json })?;
        let reply = client(&state).create_webhook(with_idempotency_key(request, &headers)?).await?;
        replayed = crate::state::replayed(&reply);
        Ok(record(reply.into_inner()))
    }
    .await;
    mark_replayed(format.reply(result), replayed)
}

/// `GET /webhooks/{webhookId}`
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}",
    tag = "webhooks",
    operation_id = "getWebhook",
    summary = "Read a webhook",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The webhook.", body = crate::bodies::webhooks::WebhookRecord))
)]
pub async fn get(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let message = pb::WebhookRef { project_id, webhook_id };
        let reply = caller
            .idempotent(message, |r| {
                let mut client = client(&state);
                async move { client.get_webhook(r).await }
            })
            .await?;
        Ok(record(reply.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `PUT /webhooks/{webhookId}`
#[utoipa::path(
    put,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}",
    tag = "webhooks",
    operation_id = "replaceWebhook",
    summary = "Replace a webhook's definition (also re-enables it)",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid")),
    request_body = crate::bodies::webhooks::WebhookDefinition,
    responses((status = 200, description = "The webhook.", body = crate::bodies::webhooks::WebhookRecord))
)]
pub async fn replace(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let definition_json = definition_text(body)?;
        let message = pb::ReplaceWebhookRequest { project_id, webhook_id, definition_json };
        Ok(record(client(&state).replace_webhook(caller.request(message)?).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `DELETE /webhooks/{webhookId}`: the deleted record.
#[utoipa::path(
    delete,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}",
    tag = "webhooks",
    operation_id = "deleteWebhook",
    summary = "Delete a webhook",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The deleted webhook.", body = crate::bodies::webhooks::WebhookRecord))
)]
pub async fn delete(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = caller.request(pb::WebhookRef { project_id, webhook_id })?;
        Ok(record(client(&state).delete_webhook(request).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `POST /webhooks/{webhookId}/enable`: the enabled record.
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}/enable",
    tag = "webhooks",
    operation_id = "enableWebhook",
    summary = "Enable a webhook (clears an automatic disable)",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The enabled webhook.", body = crate::bodies::webhooks::WebhookRecord))
)]
pub async fn enable(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let request = caller.request(pb::WebhookRef { project_id, webhook_id })?;
        Ok(record(client(&state).enable_webhook(request).await?.into_inner()))
    }
    .await;
    format.reply(result)
}

/// `POST /webhooks/test`: `{statusCode, durationMs, error}`.
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/webhooks/test",
    tag = "webhooks",
    operation_id = "testWebhook",
    summary = "Send one signed ping to a definition (not saved)",
    description = "At most 10 test calls per minute and user; beyond that a 503 with `Retry-After`.",
    params(("projectId" = String, Path, format = "uuid")),
    request_body = crate::bodies::webhooks::WebhookDefinition,
    responses((status = 200, description = "What the receiver answered.", body = crate::bodies::webhooks::WebhookTestResult))
)]
pub async fn test(
    State(state): State<AppState>,
    format: Format,
    Path(project_id): Path<String>,
    caller: Caller,
    body: Result<JsonBody, Rejected>,
) -> Response {
    let result = async {
        let definition_json = definition_text(body)?;
        let request = caller.request(pb::TestWebhookRequest { project_id, definition_json })?;
        let reply = client(&state).test_webhook(request).await?.into_inner();
        Ok(json!({"statusCode": reply.status_code, "durationMs": reply.duration_ms, "error": reply.error}))
    }
    .await;
    format.reply(result)
}

/// `GET /webhooks/{webhookId}/deliveries?limit=`: recent attempts, newest first.
#[utoipa::path(
    get,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries",
    tag = "webhooks",
    operation_id = "listDeliveries",
    summary = "Recent delivery attempts, newest first",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid"), ("limit" = Option<u32>, Query, description = "How many.")),
    responses((status = 200, description = "The attempts.", body = crate::bodies::webhooks::DeliveryList))
)]
pub async fn deliveries(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id)): Path<(String, String)>,
    RawQuery(query): RawQuery,
    caller: Caller,
) -> Response {
    let result = async {
        let limit = super::items::count_parameter(query.as_deref().unwrap_or(""), "limit")?;
        let message = pb::ListDeliveriesRequest { project_id, webhook_id, limit };
        let reply = caller
            .idempotent(message, |r| {
                let mut client = client(&state);
                async move { client.list_deliveries(r).await }
            })
            .await?
            .into_inner();
        let elements: Vec<Value> = reply
            .attempts
            .into_iter()
            .map(|a| {
                json!({
                    "deliveryId": a.delivery_id,
                    "eventId": a.event_id,
                    "event": a.event_kind,
                    "attempt": a.attempt,
                    "attemptedAt": rfc3339(a.attempted_at),
                    "statusCode": a.status_code,
                    "durationMs": a.duration_ms,
                    "error": a.error,
                })
            })
            .collect();
        Ok(json!({"elements": elements}))
    }
    .await;
    format.reply(result)
}

/// `POST /webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`: `{deliveryId}` of the new delivery.
#[utoipa::path(
    post,
    path = "/api/v2/projects/{projectId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
    tag = "webhooks",
    operation_id = "redeliver",
    summary = "Queue a delivery's event again under a new delivery id",
    params(("projectId" = String, Path, format = "uuid"), ("webhookId" = String, Path, format = "uuid"), ("deliveryId" = String, Path, format = "uuid")),
    responses((status = 200, description = "The new delivery.", body = crate::bodies::webhooks::Redelivery))
)]
pub async fn redeliver(
    State(state): State<AppState>,
    format: Format,
    Path((project_id, webhook_id, delivery_id)): Path<(String, String, String)>,
    caller: Caller,
) -> Response {
    let result = async {
        let message = pb::RedeliverRequest { project_id, webhook_id, delivery_id };
        let reply = client(&state).redeliver(caller.request(message)?).await?.into_inner();
        Ok(json!({"deliveryId": reply.delivery_id}))
    }
    .await;
    format.reply(result)
}

/// `GET /api/v2/webhooks/keys`: a standard JWK Set, no token needed. Its
/// member names are fixed by RFC 7517, so `jsonCasing` does not apply.
#[utoipa::path(
    get,
    path = "/api/v2/webhooks/keys",
    tag = "webhooks",
    operation_id = "getSigningKeys",
    summary = "The public keys that sign webhook calls (JWK Set; no token needed)",
    responses((status = 200, description = "The key set; cacheable for 300 s.", body = crate::bodies::webhooks::JwkSet))
)]
pub async fn keys(State(state): State<AppState>, format: Format, caller: Caller) -> Response {
    let public = caller.public();
    let keys = public.idempotent(pb::GetSigningKeysRequest {}, |r| {
        let mut client = client(&state);
        async move { client.get_signing_keys(r).await }
    });
    let reply = match keys.await {
        Ok(reply) => reply.into_inner(),
        Err(error) => return format.error(error),
    };
    let keys: Vec<Value> = reply
        .keys
        .into_iter()
        .map(|k| json!({"kty": "EC", "crv": "P-256", "x": k.x, "y": k.y, "kid": k.kid, "use": "sig", "alg": "ES256"}))
        .collect();
    let bytes = serde_json::to_vec(&json!({"keys": keys})).unwrap_or_default();
    let cache = HeaderValue::from_str(&format!("public, max-age={KEYS_MAX_AGE_SECS}")).expect("static header");
    (StatusCode::OK, [(CONTENT_TYPE, HeaderValue::from_static("application/json")), (CACHE_CONTROL, cache)], bytes)
        .into_response()
}
