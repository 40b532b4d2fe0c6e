//! `/account/api-tokens`: the person's own API tokens. Listing, creating (of the server's
//! environment, core-service decides) and revoking are core-service's `ListMyTokens`,
//! `CreateMyToken` and `RevokeMyToken`; this page only shows them. A new token's secret is shown
//! once, in the answer to the form that created it, and never again.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Form;
use canvas_proto::v1 as pb;
use canvas_proto::v1::ErrorReason;
use serde::Deserialize;

use super::calls;
use super::html::{self, escape, Page};
use super::pages::{path_segment, signed_in};
use super::sign_in::CsrfForm;
use super::site::{self, Visitor};
use crate::state::{with_session, AppState};

const HERE: &str = "/account/api-tokens";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct CreateForm {
    csrf: String,
    name: String,
}

/// An environment in words.
fn environment(value: i32) -> &'static str {
    match pb::Environment::try_from(value) {
        Ok(pb::Environment::Production) => "production",
        Ok(pb::Environment::Staging) => "staging",
        Ok(pb::Environment::Development) => "development",
        _ => "unknown",
    }
}

fn row(token: &pb::MyToken, csrf: &str) -> String {
    let info = token.info.clone().unwrap_or_default();
    let action = if info.revoked_at.is_some() {
        format!("Revoked {}", html::time(info.revoked_at.as_ref(), ""))
    } else {
        format!(
            "<form method=\"post\" action=\"{action}\">{csrf}\
             <button type=\"submit\" class=\"revoke\" aria-label=\"Revoke {name}\">Revoke</button></form>",
            action = escape(&format!("{HERE}/{}/revoke", path_segment(&info.token_id))),
            csrf = html::csrf_field(csrf),
            name = escape(&info.name),
        )
    };
    format!(
        "<tr data-token-id=\"{id}\"><td>{name}</td><td>{environment}</td><td>{created}</td><td>{used}</td>\
         <td><code>{prefix}…</code></td><td>{action}</td></tr>",
        id = escape(&info.token_id),
        name = escape(&info.name),
        environment = environment(info.environment),
        created = html::time(info.created_at.as_ref(), ""),
        used = html::time(info.last_used_at.as_ref(), "never"),
        prefix = escape(&token.prefix),
    )
}

/// The list, the create form, and above them `top` (a new token, or what went wrong).
fn body(tokens: &[pb::MyToken], csrf: &str, top: &str, problems: &[String]) -> String {
    let table = if tokens.is_empty() {
        "<p>You have no API tokens yet.</p>".to_owned()
    } else {
        let rows: String = tokens.iter().map(|t| row(t, csrf)).collect();
        format!(
            "<table class=\"tokens\"><caption>Your API tokens</caption><thead><tr><th scope=\"col\">Name</th>\
             <th scope=\"col\">Environment</th><th scope=\"col\">Created</th><th scope=\"col\">Last used</th>\
             <th scope=\"col\">Starts with</th><th scope=\"col\"><span class=\"visually-hidden\">Action</span></th>\
             </tr></thead><tbody>{rows}</tbody></table>"
        )
    };
    let described = if problems.is_empty() { "" } else { " aria-describedby=\"problem\"" };
    format!(
        "{top}{problems}<section aria-labelledby=\"create-title\"><h2 id=\"create-title\">Create a token</h2>\
         <form method=\"post\" action=\"{HERE}\" class=\"inline\">{csrf}\
         <div class=\"field\"><label for=\"token-name\">Name</label>\
         <input id=\"token-name\" name=\"name\" type=\"text\" required autocomplete=\"off\"{described}></div>\
         <div class=\"actions\"><button type=\"submit\" id=\"create-token\" class=\"primary\">Create token</button></div>\
         </form></section><section aria-labelledby=\"list-title\"><h2 id=\"list-title\">Tokens</h2>{table}</section>",
        problems = html::problems(problems),
        csrf = html::csrf_field(csrf),
    )
}

/// The shown-once secret with its copy button (shown by the script; without it the secret is a
/// read-only field to select and copy).
fn new_token(reply: &pb::CreateMyTokenResponse) -> String {
    let name = reply.info.as_ref().and_then(|t| t.info.as_ref()).map(|i| i.name.as_str()).unwrap_or("");
    format!(
        "<section class=\"new-token\" aria-labelledby=\"new-token-title\"><h2 id=\"new-token-title\">New token \
         “{name}”</h2><p id=\"new-token-hint\">Copy it now: it is shown only this once.</p>\
         <p class=\"secret\"><input id=\"new-token\" value=\"{token}\" type=\"text\" readonly spellcheck=\"false\" \
         aria-labelledby=\"new-token-title\" aria-describedby=\"new-token-hint\"> \
         <button type=\"button\" id=\"copy-token\" hidden>Copy</button> <span id=\"copy-status\" role=\"status\"></span></p>\
         </section>",
        name = escape(name),
        token = escape(&reply.token),
    )
}

async fn list(state: &AppState, visitor: &Visitor) -> Result<Vec<pb::MyToken>, Response> {
    calls::read(pb::ListMyTokensRequest {}, visitor.session.as_deref(), |r| {
        let mut client = state.sessions.clone();
        async move { client.list_my_tokens(r).await }
    })
    .await
    .map(|reply| reply.tokens)
    .map_err(|failure| failure.respond(visitor, HERE, false))
}

/// `GET /account/api-tokens`
pub(crate) async fn page(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    let tokens = match list(&state, &visitor).await {
        Ok(tokens) => tokens,
        Err(response) => return response,
    };
    Page::new("API tokens", body(&tokens, &info.csrf_token, "", &[])).nav(site::nav(&info, HERE)).into_response()
}

/// `POST /account/api-tokens`: `CreateMyToken`; the answer shows the secret once.
pub(crate) async fn create(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<CreateForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let request = pb::CreateMyTokenRequest { csrf_token: form.csrf, name: form.name };
    let created = state.sessions.clone().create_my_token(with_session(request, visitor.session.as_deref())).await;
    let (top, problems, status) = match created.map_err(super::failure::Failure::from) {
        Ok(reply) => (new_token(&reply.into_inner()), Vec::new(), axum::http::StatusCode::OK),
        Err(failure) if failure.is(ErrorReason::ValidationFailed) => {
            (String::new(), failure.messages(), failure.status())
        }
        Err(failure) => return failure.respond(&visitor, HERE, true),
    };
    let info = signed_in!(state, visitor);
    let tokens = match list(&state, &visitor).await {
        Ok(tokens) => tokens,
        Err(response) => return response,
    };
    let page = Page::new("API tokens", body(&tokens, &info.csrf_token, &top, &problems))
        .status(status)
        .nav(site::nav(&info, HERE));
    if top.is_empty() {
        page.into_response()
    } else {
        page.with_script().into_response()
    }
}

/// `POST /account/api-tokens/{tokenId}/revoke`: `RevokeMyToken`, `303` back to the list.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(token_id): Path<String>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let request = pb::RevokeMyTokenRequest { csrf_token: form.csrf, token_id };
    match state.sessions.clone().revoke_my_token(with_session(request, visitor.session.as_deref())).await {
        Ok(_) => html::see_other(HERE, &[]),
        Err(status) => super::failure::Failure::from(status).respond(&visitor, HERE, true),
    }
}
