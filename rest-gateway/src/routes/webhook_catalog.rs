//! `GET /api/v2/webhooks/event-types`: the webhook event catalog, each kind with the JSON Schema of
//! the call body it is sent in. The catalog is `canvas_vocabulary::webhook_payloads`, data stated
//! once beside the names core-service writes the bodies with; the same schemas are the OpenAPI
//! document's `webhooks` section (`openapi/webhook_payloads.rs`). Nothing here is a rule: no call to
//! core-service is needed to read a static table, as none is to serve the OpenAPI document.

use std::sync::LazyLock;

use axum::body::Bytes;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::respond::Format;

/// The catalog changes only with a new release: receivers and tools may keep it an hour.
const CACHE: &str = "public, max-age=3600";

/// The answer's bytes, made once: the catalog is a constant of the build, and this route needs no
/// token, so building it again on every call would let anyone spend the gateway's CPU on it.
static CATALOG: LazyLock<Bytes> = LazyLock::new(|| {
    Bytes::from(serde_json::to_vec(&canvas_vocabulary::webhook_payloads::catalog()).unwrap_or_default())
});

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
    let headers = [
        (CONTENT_TYPE, HeaderValue::from_static("application/json")),
        (CACHE_CONTROL, HeaderValue::from_static(CACHE)),
    ];
    (StatusCode::OK, headers, CATALOG.clone()).into_response()
}
