//! rest-gateway: the REST interface of the canvas service, translated into
//! core-service gRPC calls. It holds no business rule: it parses HTTP,
//! forwards the caller's `Authorization` header (or, on GET and HEAD only, the account site's
//! session cookie), and renders the answer in the requested casing or MessagePack.
//!
//! # Layout
//! - [`routes`]: the router and one module per resource.
//! - [`respond`]: response negotiation (`jsonCasing`, MessagePack).
//! - [`conditional`]: entity tags, `If-Match` lists and `If-None-Match` (304), RFC 9110 §13.
//! - [`content_type`]: request bodies by `Content-Type` (JSON or 415), in one extractor.
//! - [`casing`]: property-name casing, the only place that knows about it.
//! - [`error`]: gRPC status → HTTP problem+json, in one place.
//! - [`limits`]: the request-body limit, answered readably.
//! - [`state`]: the gRPC clients.
//! - [`account`]: the account site (sign-in, the person's tokens and projects) and the OAuth 2.1
//!   authorization server's HTTP, as docs/ACCOUNTS.md describes.
//! - [`map`]: the rendered map (SVG, PNG), the live web map page and its change stream.
//! - [`openapi`]: the OpenAPI 3.1 document (`/api/openapi.json`) and its reference page (`/api/docs`).

pub mod account;
pub mod casing;
pub mod conditional;
pub mod config;
pub mod content_type;
pub mod error;
pub mod limits;
pub mod map;
pub mod openapi;
pub mod respond;
pub mod routes;
pub mod state;

use tokio::net::TcpListener;

pub use routes::router;
pub use state::AppState;

/// Serves `router` on `listener` until shutdown, within the edge limits of `limits`; requests in
/// flight get the grace period.
pub fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: &canvas_runtime::GatewayArgs,
    shutdown: impl Into<canvas_runtime::Shutdown>,
) -> impl std::future::Future<Output = anyhow::Result<()>> + Send + 'static {
    canvas_runtime::http::serve(listener, router, limits, shutdown)
}
