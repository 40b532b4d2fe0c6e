//! `/account/apps`: the MCP clients the person let act for them (one OAuth consent each), and
//! ending one. Listing and revoking are core-service's `ListMyApps` and `RevokeMyApp`; revoking
//! stops the client's access and refresh tokens at once, so the next MCP call it makes is a 401
//! and it must ask the person again.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Form;
use canvas_proto::v1 as pb;

use super::calls;
use super::html::{self, escape, Page};
use super::pages::{path_segment, signed_in};
use super::sign_in::CsrfForm;
use super::site::{self, Visitor};
use crate::state::{with_session, AppState};

const HERE: &str = "/account/apps";

fn row(app: &pb::ConnectedApp, csrf: &str) -> String {
    let name = if app.client_name.is_empty() { "An unnamed client" } else { app.client_name.as_str() };
    format!(
        "<tr data-grant-id=\"{id}\"><td>{name}{vouched}</td><td><code>{host}</code></td><td>{created}</td><td>\
         <form method=\"post\" action=\"{action}\">{csrf}\
         <button type=\"submit\" class=\"revoke\" aria-label=\"Disconnect {name}\">Disconnect</button></form></td></tr>",
        id = escape(&app.grant_id),
        name = escape(name),
        vouched = if app.client_host.is_empty() {
            String::new()
        } else {
            format!(" <span class=\"hint\">published by {}</span>", escape(&app.client_host))
        },
        host = escape(&app.redirect_host),
        created = html::time(app.created_at.as_ref(), ""),
        action = escape(&format!("{HERE}/{}/revoke", path_segment(&app.grant_id))),
        csrf = html::csrf_field(csrf),
    )
}

fn body(apps: &[pb::ConnectedApp], csrf: &str) -> String {
    if apps.is_empty() {
        return "<p>No MCP client can act for you. When you allow one on a consent page, it is listed here \
                until you disconnect it.</p>"
            .to_owned();
    }
    let rows: String = apps.iter().map(|app| row(app, csrf)).collect();
    format!(
        "<p>These MCP clients can use the canvas tools as you. Disconnecting one ends its access at once.</p>\
         <table class=\"tokens\"><caption>Connected apps</caption><thead><tr><th scope=\"col\">App</th>\
         <th scope=\"col\">Answers went to</th><th scope=\"col\">Allowed</th>\
         <th scope=\"col\"><span class=\"visually-hidden\">Action</span></th></tr></thead><tbody>{rows}</tbody></table>"
    )
}

/// `GET /account/apps`
pub(crate) async fn page(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    let listed = calls::read(pb::ListMyAppsRequest {}, visitor.session.as_deref(), |r| {
        let mut client = state.sessions.clone();
        async move { client.list_my_apps(r).await }
    })
    .await;
    let apps = match listed {
        Ok(reply) => reply.apps,
        Err(failure) => return failure.respond(&visitor, HERE, false),
    };
    Page::new("Connected apps", body(&apps, &info.csrf_token)).nav(site::nav(&info, HERE)).into_response()
}

/// `POST /account/apps/{grantId}/revoke`: `RevokeMyApp`, `303` back to the list.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    visitor: Visitor,
    Path(grant_id): Path<String>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let request = pb::RevokeMyAppRequest { csrf_token: form.csrf, grant_id };
    match state.sessions.clone().revoke_my_app(with_session(request, visitor.session.as_deref())).await {
        Ok(_) => html::see_other(HERE, &[]),
        Err(status) => super::failure::Failure::from(status).respond(&visitor, HERE, true),
    }
}
