//! `GET /api/openapi.json` and the interactive reference at `GET /api/docs`, neither behind a
//! token (the document describes the interface, not a project's data).
//!
//! The reference is Swagger UI (`swagger-ui-dist` 5.35.0, Apache-2.0, vendored unmodified under
//! `assets/openapi/`, see its README) compiled into the binary like the web map's assets, so it
//! works offline. Every answer carries a strict Content-Security-Policy: scripts and styles only
//! from this origin, no inline script, fetches only to this origin.

use std::sync::OnceLock;

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

const INDEX: &str = include_str!("../../assets/openapi/index.html");
const INIT_SCRIPT: &str = include_str!("../../assets/openapi/docs.js");
const STYLE: &str = include_str!("../../assets/openapi/docs.css");
const BUNDLE: &[u8] = include_bytes!("../../assets/openapi/swagger-ui-bundle.js");
const BUNDLE_STYLE: &[u8] = include_bytes!("../../assets/openapi/swagger-ui.css");
const LICENSE: &str = include_str!("../../assets/openapi/LICENSE");

/// The vendored script the page loads (the e2e test looks for it).
pub const BUNDLE_PATH: &str = "docs/assets/swagger-ui-bundle.js";

const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                      font-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; \
                      frame-ancestors 'none'";

fn answer(content_type: &'static str, cache: &'static str, body: impl IntoResponse) -> Response {
    let headers: [(HeaderName, HeaderValue); 5] = [
        (CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (CACHE_CONTROL, HeaderValue::from_static(cache)),
        (HeaderName::from_static("content-security-policy"), HeaderValue::from_static(POLICY)),
        (HeaderName::from_static("x-content-type-options"), HeaderValue::from_static("nosniff")),
        (HeaderName::from_static("referrer-policy"), HeaderValue::from_static("no-referrer")),
    ];
    (StatusCode::OK, headers, body).into_response()
}

/// The document, built once per process.
pub fn document_json() -> &'static str {
    static JSON: OnceLock<String> = OnceLock::new();
    JSON.get_or_init(|| super::to_json(&super::document()))
}

/// `GET /api/openapi.json`
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "documentation",
    operation_id = "getOpenApiDocument",
    summary = "This OpenAPI 3.1 document",
    responses((status = 200, description = "The document.", content_type = "application/json",
        body = serde_json::Map<String, serde_json::Value>))
)]
pub async fn openapi_json() -> Response {
    answer("application/json", "no-cache", document_json())
}

/// `GET /api/docs`
#[utoipa::path(
    get,
    path = "/api/docs",
    tag = "documentation",
    operation_id = "getApiReference",
    summary = "The interactive API reference (HTML)",
    responses((status = 200, description = "The page.", content_type = "text/html", body = String))
)]
pub async fn page() -> Response {
    answer("text/html; charset=utf-8", "no-cache", INDEX)
}

/// `GET /api/docs/assets/{file}`
#[utoipa::path(
    get,
    path = "/api/docs/assets/{file}",
    tag = "documentation",
    operation_id = "getApiReferenceAsset",
    summary = "A script or style of the reference page",
    params(("file" = String, Path, description = "`swagger-ui-bundle.js`, `swagger-ui.css`, `docs.js`, `docs.css` or `LICENSE`")),
    responses(
        (status = 200, description = "The asset.", content(
            (String = "text/javascript"), (String = "text/css"), (String = "text/plain"))),
        (status = 404, description = "No such asset.", content_type = "text/plain", body = String),
    )
)]
pub async fn asset(Path(file): Path<String>) -> Response {
    // The vendored files change only with the binary; a day's caching keeps reloads cheap.
    match file.as_str() {
        "swagger-ui-bundle.js" => answer("text/javascript; charset=utf-8", "public, max-age=86400", BUNDLE),
        "swagger-ui.css" => answer("text/css; charset=utf-8", "public, max-age=86400", BUNDLE_STYLE),
        "docs.js" => answer("text/javascript; charset=utf-8", "no-cache", INIT_SCRIPT),
        "docs.css" => answer("text/css; charset=utf-8", "no-cache", STYLE),
        "LICENSE" => answer("text/plain; charset=utf-8", "public, max-age=86400", LICENSE),
        _ => (StatusCode::NOT_FOUND, [(CONTENT_TYPE, "text/plain; charset=utf-8")], "no such asset").into_response(),
    }
}
