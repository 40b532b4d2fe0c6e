//! rest-gateway: the REST interface of the canvas service, translated into
//! core-service gRPC calls. It holds no business rule: it parses HTTP,
//! forwards the caller's `Authorization` header (or, on GET and HEAD only, the account site's
//! session cookie), and renders the answer in the requested casing or MessagePack.
//!
//! # Layout
//! Each module uses only the ones listed after it (no module cycles), so each can be read knowing
//! only what it depends on:
//! - [`app`]: the whole router: every part below merged, the fallbacks, and the edge layers in the
//!   order a request meets them (the request-body limit, the body deadline, session forwarding).
//! - [`openapi`]: the OpenAPI 3.1 document (`/api/openapi.json`) and its reference page (`/api/docs`),
//!   generated from the handlers of [`routes`] and [`map`] and the types of [`bodies`].
//! - [`map`]: the rendered map (SVG, PNG), the live web map page and its change stream.
//! - [`account`]: the account site (sign-in, the person's tokens and projects) and the OAuth 2.1
//!   authorization server's HTTP, as docs/ACCOUNTS.md describes; its middleware lets a session
//!   cookie through to the API.
//! - [`routes`]: one module per resource of the API (items, files, bulk, diagrams, knowledge,
//!   webhooks, health).
//! - [`bodies`]: request and response bodies as types: the parser of every JSON body, and the types
//!   that both read the bodies and write their schemas.
//! - [`caller`]: the caller's credentials (`Authorization`, or the forwarded session and CSRF
//!   value), in one extractor, and how they travel on a core-service call.
//! - [`state`]: the gRPC clients, the account site's session frame, idempotency keys.
//! - [`content_type`]: request bodies by `Content-Type` (JSON or 415), in one extractor.
//! - [`respond`]: response negotiation (`jsonCasing`, MessagePack).
//! - [`conditional`]: entity tags, `If-Match` lists and `If-None-Match` (304), RFC 9110 §13.
//! - [`error`]: gRPC status → HTTP problem+json, in one place.
//! - [`limits`]: the request-body limits (the rules at them are the HTTP edge's, shared with the
//!   MCP gateway: `canvas_runtime::edge`).
//! - [`casing`]: property-name casing, the only place that knows about it.
//! - [`config`]: the command line.

pub mod account;
pub mod app;
pub mod bodies;
pub mod caller;
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

pub use app::router;
pub use state::AppState;

/// Serves `router` on `listener` until shutdown, within the edge limits of `limits`; requests in
/// flight get the grace period. A request refused at the edge gets [`edge_refusal`]'s problem body.
pub fn serve(
    listener: TcpListener,
    router: axum::Router,
    limits: &canvas_runtime::GatewayArgs,
    shutdown: impl Into<canvas_runtime::Shutdown>,
) -> impl std::future::Future<Output = anyhow::Result<()>> + Send + 'static {
    canvas_runtime::server::serve_answering(listener, router, limits, edge_refusal(), shutdown)
}

/// [`serve`] with another answer to edge refusals (`canvasctl up` answers `/mcp`'s as MCP does).
pub fn serve_answering(
    listener: TcpListener,
    router: axum::Router,
    limits: &canvas_runtime::GatewayArgs,
    answer: canvas_runtime::edge::head::RefusalAnswer,
    shutdown: impl Into<canvas_runtime::Shutdown>,
) -> impl std::future::Future<Output = anyhow::Result<()>> + Send + 'static {
    canvas_runtime::server::serve_answering(listener, router, limits, answer, shutdown)
}

/// How REST answers a request refused at the edge (a URI or head over its limits): the problem
/// body every REST error has, in the `jsonCasing` the request asked for (the default when it asked
/// for none, or for one that does not exist: the refusal is about the head, not the casing).
pub fn edge_refusal() -> canvas_runtime::edge::head::RefusalAnswer {
    std::sync::Arc::new(|uri: &axum::http::Uri, refusal: canvas_runtime::edge::head::EdgeRefusal| {
        let asked = respond::query_value(uri.query().unwrap_or(""), "jsonCasing");
        let casing = asked.and_then(|raw| casing::Casing::parse(&raw)).unwrap_or_default();
        let error = error::ApiError { reason: refusal.reason, ..error::ApiError::new(refusal.status, refusal.detail) };
        error.into_problem(casing)
    })
}
