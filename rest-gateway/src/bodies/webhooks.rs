//! The webhook routes' bodies: the definition a client sends (create, replace, test), which the
//! handlers deserialise with this very type, and the records, delivery attempts and key set they
//! answer, described to `utoipa`. Requests are written with the canonical camelCase names (the
//! gateway accepts any casing); responses with the default PascalCase. Every limit is
//! core-service's, from `canvas_vocabulary::limits`.

use canvas_vocabulary::limits::webhooks;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Object;
use utoipa::ToSchema;

use super::common::one_of;

fn event_kind() -> Object {
    one_of(&webhooks::EVENT_KINDS)
}

/// A webhook definition (create, replace, test). Unknown names are a 400; the record's own
/// read-only names (`id`, `createdAt`, `status`, `inactive`) are ignored, so a GET can be PUT back.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookDefinition {
    /// Display name.
    #[schema(schema_with = webhook_name)]
    pub name: Option<String>,
    /// The absolute `https` URL receiving the calls.
    #[schema(format = "uri", pattern = "^https://")]
    pub url: String,
    /// Disabled webhooks are kept but not called (default true).
    pub enabled: Option<bool>,
    /// The event kinds to deliver: not empty, no duplicates.
    #[schema(schema_with = event_kinds)]
    pub events: Vec<String>,
    /// Any JSON, sent back byte for byte in every call.
    #[schema(schema_with = custom_data)]
    pub custom_data: Option<Value>,
    /// The most calls per second the receiver takes; null or absent: no limit.
    #[schema(schema_with = max_deliveries_per_second)]
    pub max_deliveries_per_second: Option<u32>,
}

fn max_deliveries_per_second() -> Object {
    let max = webhooks::MAX_DELIVERIES_PER_SECOND;
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::Integer, Type::Null]))
        .minimum(Some(1))
        .maximum(Some(max))
        .description(Some(format!(
            "The most calls per second this webhook gets, 1 to {max} (a token bucket holding one second \
             of calls: a burst of that many, then that pace); null or absent: no limit. A receiver's 429 \
             with Retry-After slows it further (docs/WEBHOOKS.md)."
        )))
        .build()
}

fn webhook_name() -> Object {
    let max = webhooks::MAX_NAME_CHARS;
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
        .max_length(Some(max))
        .description(Some(format!("Display name, at most {max} characters.")))
        .build()
}

/// Any JSON: no `type` (generators read a `type: object` without properties as an empty object).
fn custom_data() -> Object {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .description(Some(format!(
            "Any JSON (at most {} bytes of JSON text), sent back byte for byte in every call.",
            webhooks::MAX_CUSTOM_DATA_BYTES
        )))
        .build()
}

fn event_kinds() -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(event_kind())
        .min_items(Some(1))
        .unique_items(true)
        .description(Some("The event kinds: not empty, no duplicates."))
        .build()
}

/// A webhook record.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookRecord {
    #[schema(format = "uuid")]
    pub id: String,
    /// Absent when none was given.
    #[schema(required = false)]
    pub name: String,
    pub url: String,
    pub enabled: bool,
    #[schema(schema_with = event_kinds)]
    pub events: Vec<String>,
    /// Exactly as registered; never re-cased. Absent when none was registered.
    #[schema(schema_with = custom_data, required = false)]
    pub custom_data: Option<Value>,
    /// RFC 3339 with offset.
    #[schema(format = DateTime)]
    pub created_at: String,
    pub status: WebhookStatus,
    /// Absent when the webhook has no limit.
    #[schema(schema_with = max_deliveries_per_second, required = false)]
    pub max_deliveries_per_second: Option<u32>,
    /// Present when an enabled webhook is never called.
    #[schema(required = false, schema_with = inactive_reasons)]
    pub inactive: String,
}

fn inactive_reasons() -> Object {
    one_of(&["copiedFromOtherProject", "invalidDefinition"])
}

/// Delivery state of a webhook.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookStatus {
    #[schema(format = DateTime)]
    pub last_attempt_at: Option<String>,
    #[schema(format = DateTime)]
    pub last_success_at: Option<String>,
    pub last_status_code: Option<i32>,
    pub last_error: Option<String>,
    pub consecutive_failures: u32,
    #[schema(format = DateTime)]
    pub disabled_at: Option<String>,
    pub disabled_reason: Option<String>,
    /// Until then the receiver asked, with a 429 and `Retry-After`, not to be called: every
    /// delivery waits (docs/WEBHOOKS.md). Null when it asked nothing, or that time has passed.
    #[schema(format = DateTime)]
    pub slow_down_until: Option<String>,
}

/// `GET .../webhooks`
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookList {
    pub elements: Vec<WebhookRecord>,
}

/// `POST .../webhooks/test`: what the receiver answered (its body is never read).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebhookTestResult {
    /// Absent or null when the receiver never answered.
    pub status_code: Option<i32>,
    pub duration_ms: u64,
    pub error: Option<String>,
}

/// `GET .../webhooks/{webhookId}/deliveries`: recent attempts, newest first.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DeliveryList {
    pub elements: Vec<DeliveryAttempt>,
}

/// One delivery attempt.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DeliveryAttempt {
    #[schema(format = "uuid")]
    pub delivery_id: String,
    #[schema(format = "uuid")]
    pub event_id: String,
    /// The event kind.
    pub event: String,
    pub attempt: u32,
    #[schema(format = DateTime)]
    pub attempted_at: Option<String>,
    pub status_code: Option<i32>,
    pub duration_ms: u64,
    pub error: Option<String>,
}

/// `POST .../redeliver`: the new delivery.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Redelivery {
    #[schema(format = "uuid")]
    pub delivery_id: String,
}

/// `GET /api/v2/webhooks/keys`: a JSON Web Key Set (RFC 7517; names fixed, never re-cased).
#[derive(Serialize, ToSchema)]
pub struct JwkSet {
    pub keys: Vec<Jwk>,
}

/// A P-256 public key that signs webhook calls.
#[derive(Serialize, ToSchema)]
pub struct Jwk {
    #[schema(schema_with = jwk_kty)]
    pub kty: String,
    #[schema(schema_with = jwk_crv)]
    pub crv: String,
    /// base64url
    pub x: String,
    /// base64url
    pub y: String,
    pub kid: String,
    #[serde(rename = "use")]
    #[schema(schema_with = jwk_use)]
    pub usage: String,
    #[schema(schema_with = jwk_alg)]
    pub alg: String,
}

fn jwk_kty() -> Object {
    one_of(&["EC"])
}
fn jwk_crv() -> Object {
    one_of(&["P-256"])
}
fn jwk_use() -> Object {
    one_of(&["sig"])
}
fn jwk_alg() -> Object {
    one_of(&["ES256"])
}

/// `GET /api/v2/webhooks/event-types`: the event catalog (names fixed, never re-cased).
#[derive(Serialize, ToSchema)]
pub struct EventTypeList {
    /// The spec's six kinds in its order, then the test call's `ping`.
    pub elements: Vec<EventType>,
}

/// One kind of webhook call.
#[derive(Serialize, ToSchema)]
pub struct EventType {
    /// The change's `kind`, as a definition's `events` names it.
    #[schema(schema_with = event_type_name)]
    pub name: String,
    /// When it is sent.
    pub description: String,
    /// The JSON Schema (draft 2020-12) of the whole call body; the same as the `webhooks` section
    /// of this document.
    #[schema(schema_with = json_schema_document)]
    pub schema: serde_json::Value,
}

fn json_schema_document() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Object)
        .additional_properties(Some(
            utoipa::openapi::schema::AdditionalProperties::<utoipa::openapi::Schema>::FreeForm(true),
        ))
        .description(Some("A JSON Schema (draft 2020-12) document."))
        .build()
}

fn event_type_name() -> Object {
    let names: Vec<&str> = canvas_vocabulary::webhook_payloads::EVENT_TYPES.iter().map(|event| event.name).collect();
    one_of(&names)
}

/// `POST .../webhooks/{webhookId}/recover`: the window of deliveries to recover.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a recovery window {since, until}")]
pub struct RecoverRequest {
    /// Start of the window (inclusive), RFC 3339 with an offset, not in the future: deliveries made
    /// (their events recorded) from then on.
    #[schema(format = DateTime)]
    pub since: String,
    /// End of the window (exclusive), after `since`; absent: now.
    #[serde(default)]
    #[schema(format = DateTime)]
    pub until: Option<String>,
}

/// A recovery: the job `POST .../recover` starts, and where its deliveries are.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DeliveryRecovery {
    #[schema(format = "uuid")]
    pub recovery_id: String,
    #[schema(format = "uuid")]
    pub webhook_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    #[schema(format = DateTime)]
    pub since: String,
    #[schema(format = DateTime)]
    pub until: String,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// When the last of its deliveries was delivered or given up; null while it runs.
    #[schema(format = DateTime)]
    pub finished_at: Option<String>,
    /// `running` or `finished`.
    #[schema(schema_with = recovery_state)]
    pub state: String,
    /// Events it sends again, one delivery each, in the order they happened.
    pub total: u32,
    /// Waiting for the ones before them.
    pub queued: u32,
    /// Being sent, or waiting for a retry after a failed attempt.
    pub sending: u32,
    pub delivered: u32,
    /// Given up after every attempt (they can be recovered again).
    pub failed: u32,
}

fn recovery_state() -> Object {
    one_of(&["running", "finished"])
}
