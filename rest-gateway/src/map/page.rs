//! The web map page and its assets, served from the binary.
//!
//! Every answer carries a strict Content-Security-Policy: scripts and styles
//! only from this origin, pictures only from here or `data:` URIs (the
//! embedded images of the drawing), no frames. The drawing inserted into the
//! page comes from our own renderer, whose text is escaped and whose
//! uploaded SVGs are pictures, so the policy is a second line of defence.

use axum::extract::{Path, RawQuery, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use crate::account::calls;
use crate::account::failure::Failure;
use crate::account::html::escape;
use crate::account::site::Visitor;
use crate::respond::query_value;
use crate::state::AppState;

const INDEX: &str = include_str!("../../assets/map/index.html");
/// Where a signed-in visitor's CSRF value goes (a `<meta>`, never a URL or an inline script).
const CSRF_SLOT: &str = "<!-- canvas-csrf -->";

const JS: &str = "text/javascript; charset=utf-8";
/// The page's scripts and style, by file name. The scripts load in the order `index.html` lists
/// them (`core.js` first, `map.js` last, which starts the page).
const ASSETS: &[(&str, &str, &str)] = &[
    ("core.js", JS, include_str!("../../assets/map/core.js")),
    ("history.js", JS, include_str!("../../assets/map/history.js")),
    ("presence.js", JS, include_str!("../../assets/map/presence.js")),
    ("editor.js", JS, include_str!("../../assets/map/editor.js")),
    ("panel.js", JS, include_str!("../../assets/map/panel.js")),
    ("gestures.js", JS, include_str!("../../assets/map/gestures.js")),
    ("keys.js", JS, include_str!("../../assets/map/keys.js")),
    ("tags.js", JS, include_str!("../../assets/map/tags.js")),
    ("comments.js", JS, include_str!("../../assets/map/comments.js")),
    ("frames.js", JS, include_str!("../../assets/map/frames.js")),
    ("map.js", JS, include_str!("../../assets/map/map.js")),
    ("map.css", "text/css; charset=utf-8", include_str!("../../assets/map/map.css")),
];

const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                      connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn asset_response(content_type: &'static str, body: impl Into<axum::body::Body>) -> Response {
    let headers: [(HeaderName, HeaderValue); 5] = [
        (CONTENT_TYPE, HeaderValue::from_static(content_type)),
        // Assets change with the binary; a short cache keeps upgrades visible.
        (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (HeaderName::from_static("content-security-policy"), HeaderValue::from_static(POLICY)),
        (HeaderName::from_static("x-content-type-options"), HeaderValue::from_static("nosniff")),
        (HeaderName::from_static("referrer-policy"), HeaderValue::from_static("no-referrer")),
    ];
    (StatusCode::OK, headers, body.into()).into_response()
}

/// `GET /map/{projectId}`: the page; it reads the project and `node` from its own URL. A person
/// signed in to the account site gets it at once (its reads go with the session cookie, its
/// writes with it and the session's CSRF value, which the page carries in a `<meta>`); with
/// `auth=token` it asks for an API token instead; anyone else is sent to sign in and back.
#[utoipa::path(
    get,
    path = "/map/{projectId}",
    tag = "map",
    operation_id = "getMapPage",
    summary = "The live web map (HTML; signed in to the account site, or it asks for a token itself)",
    params(
        ("projectId" = String, Path),
        ("node" = Option<String>, Query, description = "An item to select."),
        ("auth" = Option<String>, Query, description = "`token`: ask for an API token instead of signing in."),
    ),
    responses(
        (status = 200, description = "The page.", content_type = "text/html", body = String),
        (status = 303, description = "Not signed in: to the account site's sign-in, which comes back here."),
    )
)]
pub async fn index(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(_project_id): Path<String>,
    RawQuery(query): RawQuery,
) -> Response {
    if query_value(query.as_deref().unwrap_or(""), "auth").as_deref() == Some("token") {
        return asset_response("text/html; charset=utf-8", INDEX);
    }
    match calls::session(&state, &visitor).await {
        // Writes with the session cookie must carry the session's CSRF value (`X-Canvas-CSRF`).
        Ok(info) => asset_response("text/html; charset=utf-8", with_csrf(&info.csrf_token)),
        Err(failure) => Failure::respond(failure, &visitor, &visitor.here, false),
    }
}

/// `GET /map/assets/{file}`
#[utoipa::path(
    get,
    path = "/map/assets/{file}",
    tag = "map",
    operation_id = "getMapAsset",
    summary = "A script or style of the web map",
    params(("file" = String, Path, description = "`core.js`, `history.js`, `presence.js`, `editor.js`, `panel.js`, \
        `gestures.js`, `keys.js`, `tags.js`, `comments.js`, `map.js` or `map.css`")),
    responses(
        (status = 200, description = "The asset.", content((String = "text/javascript"), (String = "text/css"))),
        (status = 404, description = "No such asset.", content_type = "text/plain", body = String),
    )
)]
pub async fn asset(Path(file): Path<String>) -> Response {
    match ASSETS.iter().find(|(name, _, _)| *name == file) {
        Some((_, content_type, body)) => asset_response(content_type, *body),
        None => (StatusCode::NOT_FOUND, "no such map asset").into_response(),
    }
}

/// The page with the session's CSRF value in `<meta name="canvas-csrf">`, escaped.
fn with_csrf(csrf: &str) -> String {
    let meta = format!("<meta name=\"canvas-csrf\" content=\"{}\">", escape(csrf));
    INDEX.replacen(CSRF_SLOT, &meta, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csrf_value_goes_into_a_meta_escaped_and_every_script_is_served() {
        assert!(INDEX.contains(CSRF_SLOT));
        let page = with_csrf("a\"<b>&c");
        assert!(page.contains("<meta name=\"canvas-csrf\" content=\"a&quot;&lt;b&gt;&amp;c\">"), "{page}");
        assert!(!page.contains(CSRF_SLOT));
        for (name, _, _) in ASSETS.iter().filter(|(name, _, _)| name.ends_with(".js")) {
            assert!(INDEX.contains(&format!("<script src=\"/map/assets/{name}\" defer></script>")), "{name}");
        }
    }
}
