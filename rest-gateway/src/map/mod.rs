//! The map a person sees: the rendered project (`render.svg`, `render.png`),
//! the live web map at `/map/{projectId}?node={itemId}` with its assets, and
//! the change stream that keeps it live, and presence (who else has the map open, their cursors
//! and selections: `presence.rs`).
//!
//! The page and its script and style are plain files compiled into the
//! binary (`include_str!`), so a fresh `cargo run` serves the map with no
//! front-end build step. The page itself needs no `Authorization` header. A
//! person signed in to the account site gets the page and its reads go with the
//! session cookie; with `?auth=token` (or when the cookie is not accepted) it
//! asks for an API token, keeps it in `sessionStorage` (gone when the browser
//! session ends), and sends it on every API call it makes. Anyone else is sent
//! to the account site's sign-in, which comes back to the map.

pub(crate) mod changes;
pub(crate) mod page;
pub(crate) mod presence;
pub(crate) mod project;
pub mod render;

use axum::routing::get;
use axum::Router;

use crate::state::AppState;

/// The map routes, merged into the REST router.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/v2/projects/{project_id}/render.svg", get(render::svg))
        .route("/api/v2/projects/{project_id}/render.png", get(render::png))
        .route("/api/v2/projects/{project_id}/changes", get(changes::stream_changes))
        .route("/api/v2/projects/{project_id}/presence", get(presence::stream_presence).post(presence::announce))
        .route("/api/v2/projects/{project_id}", get(project::get))
        .route("/map/{project_id}", get(page::index))
        .route("/map/assets/{file}", get(page::asset))
}
