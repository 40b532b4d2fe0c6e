//! The whole REST router: the API's resources ([`crate::routes`]), the map, the OpenAPI document
//! and the account site merged into one, with the fallbacks and the edge layers in the order a
//! request meets them. The one module that knows every part of the gateway, so no part needs to
//! know another to be served.

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use canvas_runtime::edge::drain::{close_after, refuse_declared_over, DRAIN_LIMIT};

use crate::casing::Casing;
use crate::error::ApiError;
use crate::limits::MAX_BODY_BYTES;
use crate::respond::{query_value, Format};
use crate::state::AppState;

/// Every REST route. `canvasctl up` merges this with the MCP and map routes.
pub fn router(state: AppState) -> Router {
    let body_timeout = state.body_timeout;
    let session_reads = state.clone();
    Router::new()
        .merge(crate::routes::routes())
        .merge(crate::map::routes())
        .merge(crate::openapi::routes())
        .merge(crate::account::routes(state.clone()))
        .route("/metrics", get(canvas_runtime::metrics::handler))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        // A session cookie authenticates GET and HEAD requests that carry no Authorization header
        // (what the web map reads), and writes only beside the page's X-Canvas-CSRF header; the
        // handlers' `Caller` takes what this lets through.
        .layer(axum::middleware::from_fn_with_state(session_reads, crate::account::forward_session))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn(reject_oversized))
        .layer(axum::middleware::from_fn(move |request, next| {
            canvas_runtime::edge::deadline::body_deadline(body_timeout, request, next)
        }))
        .layer(axum::middleware::from_fn(|request, next| {
            canvas_runtime::metrics::track_http("rest-gateway", request, next)
        }))
        .layer(axum::middleware::from_fn(canvas_runtime::client_address::record))
        .layer(axum::middleware::from_fn(canvas_runtime::request_id::propagate))
        .with_state(state)
}

/// A body whose `Content-Length` is over [`MAX_BODY_BYTES`] is answered 413 before any handler,
/// after the edge's drain rule (`canvas_runtime::edge::drain`): read and dropped so the client
/// reads the 413, or, when it cannot be, the 413 closes the connection. The problem body follows
/// `jsonCasing` when it is valid (an invalid one is not worth a second refusal).
async fn reject_oversized(request: Request, next: Next) -> Response {
    let casing = query_value(request.uri().query().unwrap_or(""), "jsonCasing")
        .and_then(|raw| Casing::parse(&raw))
        .unwrap_or_default();
    // A project archive is the one body that may be larger (`routes::archive`: it is streamed on,
    // never held whole).
    let archive = request.uri().path().trim_end_matches('/') == crate::routes::archive::IMPORT_PATH;
    let limit = if archive { crate::routes::archive::MAX_ARCHIVE_BODY } else { MAX_BODY_BYTES };
    match refuse_declared_over(request, limit, DRAIN_LIMIT).await {
        Ok(request) => next.run(request).await,
        Err(oversized) => {
            let format = Format { casing, msgpack: None };
            let error = if archive { crate::routes::archive::too_large() } else { ApiError::too_large() };
            close_after(format.error(error), oversized)
        }
    }
}

async fn not_found(format: Format) -> Response {
    format.error(ApiError::new(StatusCode::NOT_FOUND, "no such endpoint"))
}

async fn method_not_allowed(format: Format) -> Response {
    format.error(ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "this endpoint does not accept that method"))
}
