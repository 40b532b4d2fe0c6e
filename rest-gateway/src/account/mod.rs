//! The account site and the OAuth 2.1 authorization server's HTTP (docs/ACCOUNTS.md).
//!
//! People sign in here, manage their own API tokens, see their projects and activity, and let
//! MCP clients act for them. Every rule (passwords, throttling, sessions, tokens, OAuth clients,
//! codes, PKCE) is core-service's `SessionService` and `OAuthService`; these pages parse forms,
//! call one or two of those methods with the session cookie as `x-canvas-session`, and render
//! the answer as server-side HTML that needs no script. What is decided here is HTTP framing
//! only: cookies, the pre-session double-submit value, refusing cross-site posts, and keeping
//! `next` on this site.
//!
//! # Layout
//! - [`site`]: the [`site::Visitor`] every handler extracts, and the middleware that forwards a
//!   session cookie on the REST API's GET and HEAD requests.
//! - [`calls`]: the calls made for a visitor: reads retried once, the session look-up.
//! - [`cookies`]: the cookies' names (`__Host-` on HTTPS) and attributes.
//! - [`security`]: cross-site post refusal, `next` sanitising, the double-submit value.
//! - [`failure`]: a failed call as a page (sign-in redirect, 429, 400 with violations, 403).
//! - [`html`]: escaping, the page layout and its security headers, redirects, the assets.
//! - [`sign_in`]: sign-in, sign-in links, sign-out.
//! - [`pages`]: the account's start, projects, activity, password.
//! - [`tokens`]: the person's API tokens.
//! - [`apps`]: the MCP clients the person connected with OAuth, and disconnecting one.
//! - [`consent`]: `/oauth/authorize`, the consent page.
//! - [`oauth`]: metadata, registration, token and revocation endpoints (JSON, CORS).
//! - `tests`, `flow_tests` (tests only): a fake core-service, and the routes driven against it.

#[cfg(test)]
mod flow_tests;
#[cfg(test)]
mod tests;

pub(crate) mod apps;
pub(crate) mod calls;
pub(crate) mod consent;
pub(crate) mod cookies;
pub(crate) mod failure;
pub(crate) mod html;
pub(crate) mod mentions;
pub(crate) mod oauth;
pub(crate) mod pages;
pub(crate) mod security;
pub(crate) mod sign_in;
pub(crate) mod site;
pub(crate) mod tokens;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::header::CONTENT_LENGTH;
use axum::http::StatusCode;
use axum::middleware::{from_fn, Next};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use canvas_runtime::edge::drain::{close_after, refuse_declared_over, Oversized};

pub(crate) use site::forward_session;

use crate::limits::{FORM_DRAIN_LIMIT, MAX_FORM_BYTES};
use crate::state::AppState;

/// The account pages, the consent page and the OAuth endpoints, merged into the REST router.
/// `state` is needed here for the cross-site guard, which runs before any extractor.
pub fn routes(state: AppState) -> Router<AppState> {
    let pages = Router::new()
        .route("/account", get(pages::home))
        .route("/account/sign-in", get(sign_in::page).post(sign_in::submit))
        .route("/account/sign-out", post(sign_in::sign_out))
        .route("/account/link", get(sign_in::link_page).post(sign_in::link_submit))
        .route("/account/projects", get(pages::projects))
        .route("/account/api-tokens", get(tokens::page).post(tokens::create))
        .route("/account/api-tokens/{token_id}/revoke", post(tokens::revoke))
        .route("/account/apps", get(apps::page))
        .route("/account/apps/{grant_id}/revoke", post(apps::revoke))
        .route("/account/password", get(pages::password).post(pages::change_password))
        .route("/account/activity", get(pages::activity))
        .route("/account/mentions", get(mentions::page))
        .route("/oauth/authorize", get(consent::page).post(consent::decide))
        .route_layer(axum::middleware::from_fn_with_state(state, security::refuse_cross_site))
        .layer(DefaultBodyLimit::max(MAX_FORM_BYTES))
        .layer(from_fn(refuse_oversized_page_form));
    // Called by MCP clients, also from browser pages of their own origin: CORS, no cookies.
    let machine = Router::new()
        .route("/.well-known/oauth-authorization-server", get(oauth::metadata).options(oauth::preflight))
        .route("/oauth/register", post(oauth::register).options(oauth::preflight))
        .route("/oauth/token", post(oauth::token).options(oauth::preflight))
        .route("/oauth/revoke", post(oauth::revoke).options(oauth::preflight))
        .layer(DefaultBodyLimit::max(MAX_FORM_BYTES))
        .layer(from_fn(refuse_oversized_oauth_form));
    Router::new().merge(pages).merge(machine).route("/account/assets/{file}", get(html::asset))
}

/// The words of a 413 for a form over [`MAX_FORM_BYTES`].
fn form_too_large() -> String {
    format!("The form is larger than {} KiB, more than any form here needs.", MAX_FORM_BYTES / 1024)
}

/// A page form over [`MAX_FORM_BYTES`]: a 413 page, with the connection kept only when the body
/// could be read to its end (the edge's drain rule, `canvas_runtime::edge::drain`).
async fn refuse_oversized_page_form(request: Request, next: Next) -> Response {
    refuse_oversized_form(request, next, || {
        html::error_page(StatusCode::PAYLOAD_TOO_LARGE, "Form too large", &form_too_large())
    })
    .await
}

/// An OAuth request over [`MAX_FORM_BYTES`]: RFC 6749's error shape with a 413.
async fn refuse_oversized_oauth_form(request: Request, next: Next) -> Response {
    refuse_oversized_form(request, next, || {
        oauth::oauth_error(StatusCode::PAYLOAD_TOO_LARGE, "invalid_request", &form_too_large())
    })
    .await
}

async fn refuse_oversized_form(request: Request, next: Next, refusal: impl FnOnce() -> Response) -> Response {
    // A body without a length is cut at the limit by `DefaultBodyLimit`, unread past it: a
    // refusal of such a request closes the connection, like an oversized declared one.
    let undeclared = request.method() != axum::http::Method::GET && !request.headers().contains_key(CONTENT_LENGTH);
    match refuse_declared_over(request, MAX_FORM_BYTES, FORM_DRAIN_LIMIT).await {
        Ok(request) => {
            let response = next.run(request).await;
            if undeclared && response.status().is_client_error() {
                close_after(response, Oversized::Unread)
            } else {
                response
            }
        }
        Err(oversized) => close_after(refusal(), oversized),
    }
}
