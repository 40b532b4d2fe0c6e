//! The REST API's resources, one module per resource; each handler translates one request into
//! core-service calls. The whole router (with the map, the document and the account site) is
//! `crate::app`'s.

pub mod archive;
pub mod bulk;
pub mod comments;
pub mod diagrams;
pub mod files;
pub mod health;
pub mod items;
pub mod knowledge;
pub mod tags;
pub mod webhook_catalog;
pub mod webhook_recoveries;
pub mod webhooks;

use axum::routing::{get, patch, post};
use axum::Router;

use crate::state::AppState;

/// The API's resources: items, files, bulk writes, diagrams, tags, comment threads, project archives, retrieval,
/// webhooks and health.
/// `crate::app` merges them with the map, the OpenAPI document and the account site.
pub fn routes() -> Router<AppState> {
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
        .route("/api/v2/projects/{project_id}/tags", get(tags::list).post(tags::create))
        .route("/api/v2/projects/{project_id}/tags/{tag_id}", get(tags::get).patch(tags::update).delete(tags::delete))
        .route("/api/v2/projects/{project_id}/comments", get(comments::list).post(comments::create))
        .route(
            "/api/v2/projects/{project_id}/comments/{thread_id}",
            get(comments::get).patch(comments::update).delete(comments::delete),
        )
        .route("/api/v2/projects/{project_id}/comments/{thread_id}/replies", post(comments::reply))
        .route(
            "/api/v2/projects/{project_id}/comments/{thread_id}/replies/{comment_id}",
            patch(comments::update_reply).delete(comments::delete_reply),
        )
        .route("/api/v2/projects/{project_id}/export", get(archive::export))
        .route(archive::IMPORT_PATH, post(archive::import))
        .route("/api/v1/memory/retrieve", post(knowledge::retrieve))
        .route("/api/v1/memory/index", get(knowledge::index_status))
        .merge(webhook_routes())
        .route("/healthz", get(health::live))
        .route("/readyz", get(health::ready))
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
        .route(&format!("{hooks}/{{webhook_id}}/recover"), post(webhook_recoveries::recover))
        .route(&format!("{hooks}/{{webhook_id}}/recoveries/{{recovery_id}}"), get(webhook_recoveries::get))
        .route("/api/v2/webhooks/keys", get(webhooks::keys))
        .route("/api/v2/webhooks/event-types", get(webhook_catalog::event_types))
}
