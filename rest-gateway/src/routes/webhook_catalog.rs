//! `GET /api/v2/webhooks/event-types`: the webhook event catalog, each kind with the JSON Schema of
//! the call body it is sent in. The catalog is `canvas_vocabulary::webhook_payloads`, data stated
//! once beside the names core-service writes the bodies with; the same schemas are the OpenAPI
//! document's `webhooks` section (`openapi/webhook_payloads.rs`). Nothing here is a rule: no call to
//! core-service is needed to read a static table, as none is to serve the OpenAPI document.

use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::respond::Format;

/// The catalog changes only with a new release: receivers and tools may keep it an hour.
const CATALOG_MAX_AGE_SECS: u32 = 3600;

/// `GET /api/v2/webhooks/event-types`: no token needed (it describes the service, not a project).
/// Its names are fixed: a JSON Schema's keywords and the call bodies' camelCase names are what
/// receivers get, so `jsonCasing` does not apply (an unknown value is still refused, as on every
/// route that reads it).
#[utoipa::path(
    get,
    path = "/api/v2/webhooks/event-types",
    tag = "webhooks",
    operation_id = "listWebhookEventTypes",
    summary = "The webhook event catalog: each kind with the JSON Schema of its call body (no token needed)",
    responses((status = 200, description = "The catalog; cacheable for an hour.", body = crate::bodies::webhooks::EventTypeList))
)]
pub async fn event_types(_format: Format) -> Response {
    let bytes = serde_json::to_vec(&canvas_vocabulary::webhook_payloads::catalog()).unwrap_or_default();
    let cache = HeaderValue::from_str(&format!("public, max-age={CATALOG_MAX_AGE_SECS}")).expect("static header");
    (StatusCode::OK, [(CONTENT_TYPE, HeaderValue::from_static("application/json")), (CACHE_CONTROL, cache)], bytes)
        .into_response()
}
