//! The REST routes, one module per resource, with the account site and the map merged in.

pub mod body;
pub mod bulk;
pub mod diagrams;
pub mod files;
pub mod health;
pub mod items;
pub mod knowledge;
pub mod webhooks;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;

use crate::error::ApiError;
use crate::respond::Format;
use crate::state::AppState;

pub use crate::limits::MAX_BODY_BYTES;

/// Every REST route. `canvasctl up` merges this with the MCP and map routes.
pub fn router(state: AppState) -> Router {
    let body_timeout = state.body_timeout;
    let session_reads = state.clone();
    let item = "/api/v2/projects/{project_id}/item";
    Router::new()
        .route(&format!("{item}/{{a}}/{{b}}"), post(items::create).get(items::get_property).patch(items::update))
        .route(&format!("{item}/{{a}}"), get(items::get).delete(items::delete))
        .route(&format!("{item}/{{a}}/{{b}}/file"), post(files::upload))
        .route("/api/v2/projects/{project_id}/items", get(items::list))
        .route("/api/v2/projects/{project_id}/items/bulk", post(bulk::create_items))
        .route("/api/v2/projects/{project_id}/items/arrange", post(bulk::arrange_items))
        .route("/api/v2/projects/{project_id}/diagrams", post(bulk::create_diagram).get(diagrams::list))
        .route(
            "/api/v2/projects/{project_id}/diagrams/{diagram_id}",
            get(diagrams::get).put(diagrams::update).delete(diagrams::delete),
        )
        .route("/api/v2/projects/{project_id}/items/export", get(diagrams::export))
        .route("/api/v1/memory/retrieve", post(knowledge::retrieve))
        .route("/api/v1/memory/index", get(knowledge::index_status))
        .merge(webhook_routes())
        .merge(crate::map::routes())
        .merge(crate::openapi::routes())
        .merge(crate::account::routes(state.clone()))
        .route("/healthz", get(health::live))
        .route("/readyz", get(health::ready))
        .route("/metrics", get(canvas_runtime::metrics::handler))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // A session cookie authenticates GET and HEAD requests that carry no Authorization header
        // (what the web map reads), and writes only beside the page's X-Canvas-CSRF header.
        .layer(axum::middleware::from_fn_with_state(session_reads, crate::account::forward_session))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(crate::limits::reject_oversized))
        .layer(axum::middleware::from_fn(move |request, next| {
            canvas_runtime::http::body_deadline(body_timeout, request, next)
        }))
        .layer(axum::middleware::from_fn(|request, next| {
            canvas_runtime::metrics::track_http("rest-gateway", request, next)
        }))
        .layer(axum::middleware::from_fn(canvas_runtime::client_address::record))
        .layer(axum::middleware::from_fn(canvas_runtime::request_id::propagate))
        .with_state(state)
}

/// Webhook management (Manager or Admin) and the public key set.
fn webhook_routes() -> Router<AppState> {
    let hooks = "/api/v2/projects/{project_id}/webhooks";
    Router::new()
        .route(hooks, get(webhooks::list).post(webhooks::create))
        .route(&format!("{hooks}/test"), post(webhooks::test))
        .route(&format!("{hooks}/{{webhook_id}}"), get(webhooks::get).put(webhooks::replace).delete(webhooks::delete))
        .route(&format!("{hooks}/{{webhook_id}}/enable"), post(webhooks::enable))
        .route(&format!("{hooks}/{{webhook_id}}/deliveries"), get(webhooks::deliveries))
        .route(&format!("{hooks}/{{webhook_id}}/deliveries/{{delivery_id}}/redeliver"), post(webhooks::redeliver))
        .route("/api/v2/webhooks/keys", get(webhooks::keys))
}

async fn not_found(format: Format) -> Response {
    format.error(ApiError::new(StatusCode::NOT_FOUND, "no such endpoint"))
}

async fn method_not_allowed(format: Format) -> Response {
    format.error(ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not accept that method"))
}
