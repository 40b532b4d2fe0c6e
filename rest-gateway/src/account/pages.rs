//! The signed-in pages that only show what core-service answers: the account's start, the
//! person's projects, their activity, and the password form. Each starts with `GetSession`
//! (its navigation needs the person's name and the session's CSRF value); without a session it
//! sends the browser to sign in and back.

use axum::extract::rejection::FormRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use canvas_proto::v1 as pb;
use canvas_proto::v1::project_service_client::ProjectServiceClient;
use canvas_proto::v1::ErrorReason;
use serde::Deserialize;

use super::calls;
use super::failure::Failure;
use super::html::{self, escape, Page};
use super::site::{self, Visitor};
use crate::state::{with_session, AppState};

/// The visitor's session (`GetSession`), or returns the page's answer to its failure (a
/// redirect to sign in and back, for a missing or expired session).
macro_rules! signed_in {
    ($state:expr, $visitor:expr) => {
        match $crate::account::calls::session(&$state, &$visitor).await {
            Ok(info) => info,
            Err(failure) => return failure.respond(&$visitor, &$visitor.here, false),
        }
    };
}
pub(crate) use signed_in;

/// `GET /account`: the projects when signed in, else the sign-in page.
pub(crate) async fn home(State(state): State<AppState>, visitor: Visitor) -> Response {
    match calls::session(&state, &visitor).await {
        Ok(_) => html::see_other("/account/projects", &[]),
        // Signed in, the person lands on the projects: sign-in needs no `next` for that.
        Err(failure) => failure.respond(&visitor, super::security::DEFAULT_NEXT, false),
    }
}

/// A project role in words.
fn role(role: i32) -> &'static str {
    match pb::ProjectRole::try_from(role) {
        Ok(pb::ProjectRole::Viewer) => "viewer",
        Ok(pb::ProjectRole::Editor) => "editor",
        Ok(pb::ProjectRole::Manager) => "manager",
        Ok(pb::ProjectRole::Admin) => "admin",
        _ => "member",
    }
}

/// `GET /account/projects`: the person's projects (`ListMyProjects`), each linking to its map.
pub(crate) async fn projects(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    let request = pb::ListMyProjectsRequest { page_size: None, with_webhook_alerts: true };
    let reply = calls::read(request, visitor.session.as_deref(), |r| {
        let mut client = ProjectServiceClient::new(state.channel.clone());
        async move { client.list_my_projects(r).await }
    })
    .await;
    let projects = match reply {
        Ok(reply) => reply.projects,
        Err(failure) => return failure.respond(&visitor, &visitor.here, false),
    };
    let body = if projects.is_empty() {
        "<p>You are not a member of any project yet. A project admin can add you.</p>".to_owned()
    } else {
        let items: String = projects
            .iter()
            .map(|p| {
                let href = format!("/map/{}", path_segment(&p.project_id));
                let name = if p.name.is_empty() { &p.project_id } else { &p.name };
                format!(
                    "<li><a class=\"map-link\" href=\"{href}\">{name}</a> <span class=\"role\">{role}</span>{alerts}</li>",
                    href = escape(&href),
                    name = escape(name),
                    role = role(p.role),
                    alerts = webhook_alerts(p, name),
                )
            })
            .collect();
        format!("<p>Open a project's map:</p><ul class=\"projects\">{items}</ul>")
    };
    Page::new("Your projects", body).nav(site::nav(&info, "/account/projects")).into_response()
}

/// A time of an alert as RFC 3339 text (UTC, seconds), as the API writes times.
fn alert_time(at: Option<&prost_types::Timestamp>) -> String {
    at.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, 0))
        .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}

/// A managed project's webhooks that need attention (operational events: disabled by failures,
/// deliveries given up), each with what brings it back; empty when none.
fn webhook_alerts(project: &pb::Project, project_name: &str) -> String {
    if project.webhook_alerts.is_empty() {
        return String::new();
    }
    let hooks = format!("/api/v2/projects/{}/webhooks", path_segment(&project.project_id));
    let items: String = project
        .webhook_alerts
        .iter()
        .map(|alert| {
            let called = alert.name.as_deref().filter(|n| !n.trim().is_empty()).unwrap_or(&alert.url);
            let at = format!("{hooks}/{}", path_segment(&alert.webhook_id));
            let mut told = Vec::new();
            if alert.disabled_at.is_some() {
                told.push(format!(
                    "was disabled at {when}: {why}. Once its receiver answers again, enable it with <code>POST {at}/enable</code>.",
                    when = alert_time(alert.disabled_at.as_ref()),
                    why = escape(alert.disabled_reason.as_deref().unwrap_or("no reason recorded")),
                    at = escape(&at),
                ));
            }
            if alert.given_up > 0 {
                let since = alert_time(alert.first_given_up_at.as_ref());
                told.push(format!(
                    "gave up {n} deliver{ies} since {since}. Send {them} again, once and in order, with \
                     <code>POST {at}/recover</code> and <code>{{\"since\": \"{since}\"}}</code>.",
                    n = alert.given_up,
                    ies = if alert.given_up == 1 { "y" } else { "ies" },
                    them = if alert.given_up == 1 { "it" } else { "them" },
                    at = escape(&at),
                ));
            }
            format!("<li>Webhook <strong>{}</strong> {}</li>", escape(called), told.join(" It "))
        })
        .collect();
    format!("<ul class=\"alerts\" aria-label=\"Webhooks of {} that need attention\">{items}</ul>", escape(project_name))
}

/// `text` as one percent-encoded path segment.
pub(crate) fn path_segment(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect::<String>().replace('+', "%20")
}

/// An audit record's kind in words; an unknown kind is shown as it came.
fn kind(kind: &str) -> &str {
    match kind {
        "sign_in" => "Signed in",
        "sign_in_failed" => "Sign-in failed",
        "sign_out" => "Signed out",
        "password_set" => "Password set",
        "token_created" => "API token created",
        "token_revoked" => "API token revoked",
        "oauth_authorized" => "App allowed",
        "oauth_denied" => "App denied",
        "oauth_revoked" => "App access revoked",
        other => other,
    }
}

/// `GET /account/activity`: the person's audit records (`ListMyAuditRecords`).
pub(crate) async fn activity(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    let reply = calls::read(pb::ListMyAuditRecordsRequest { page_size: None }, visitor.session.as_deref(), |r| {
        let mut client = state.sessions.clone();
        async move { client.list_my_audit_records(r).await }
    })
    .await;
    let records = match reply {
        Ok(reply) => reply.records,
        Err(failure) => return failure.respond(&visitor, &visitor.here, false),
    };
    let body = if records.is_empty() {
        "<p>Nothing recorded yet.</p>".to_owned()
    } else {
        let rows: String = records
            .iter()
            .map(|r| {
                format!(
                    "<tr data-record-id=\"{id}\" data-kind=\"{raw}\"><td>{at}</td><td>{what}</td><td>{detail}</td><td>{address}</td></tr>",
                    id = escape(&r.record_id),
                    raw = escape(&r.kind),
                    at = html::time(r.at.as_ref(), ""),
                    what = escape(kind(&r.kind)),
                    detail = escape(&r.detail),
                    address = escape(&r.client_address),
                )
            })
            .collect();
        format!(
            "<table class=\"records\"><caption>Sign-ins, password changes, tokens and app access, newest first</caption>\
             <thead><tr><th scope=\"col\">When</th><th scope=\"col\">What</th><th scope=\"col\">Detail</th>\
             <th scope=\"col\">Address</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    };
    Page::new("Activity", body).nav(site::nav(&info, "/account/activity")).into_response()
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct PasswordForm {
    csrf: String,
    current_password: String,
    new_password: String,
}

fn password_body(csrf: &str, notice: &str, problems: &[String]) -> String {
    let described = if problems.is_empty() { "" } else { " aria-describedby=\"problem\"" };
    let notice = if notice.is_empty() {
        String::new()
    } else {
        format!("<p class=\"notice\" role=\"status\">{}</p>", escape(notice))
    };
    format!(
        "{notice}{problems}<form method=\"post\" action=\"/account/password\" class=\"stack\">{csrf}\
         <div class=\"field\"><label for=\"current-password\">Current password</label>\
         <input id=\"current-password\" name=\"current_password\" type=\"password\" autocomplete=\"current-password\" \
         required{described}></div>\
         <div class=\"field\"><label for=\"new-password\">New password</label>\
         <p class=\"hint\" id=\"new-password-hint\">A long passphrase is easiest to remember; any characters are allowed.</p>\
         <input id=\"new-password\" name=\"new_password\" type=\"password\" autocomplete=\"new-password\" required \
         aria-describedby=\"new-password-hint\"></div>\
         <div class=\"actions\"><button type=\"submit\" id=\"change-password\" class=\"primary\">Change password</button></div></form>",
        problems = html::problems(problems),
        csrf = html::csrf_field(csrf),
    )
}

/// `GET /account/password`: the form.
pub(crate) async fn password(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = signed_in!(state, visitor);
    Page::new("Change your password", password_body(&info.csrf_token, "", &[]))
        .nav(site::nav(&info, "/account/password"))
        .into_response()
}

/// `POST /account/password`: `ChangePassword`; the form again with the outcome.
pub(crate) async fn change_password(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<PasswordForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let request = pb::ChangePasswordRequest {
        csrf_token: form.csrf,
        current_password: form.current_password,
        new_password: form.new_password,
    };
    let outcome = state.sessions.clone().change_password(with_session(request, visitor.session.as_deref())).await;
    let failure = outcome.err().map(Failure::from);
    if failure.as_ref().is_some_and(|f| f.is(ErrorReason::PermissionDenied)) {
        // core-service's CSRF check failed.
        return html::form_expired();
    }
    // UNAUTHENTICATED is either the session or the current password: the session tells which.
    let info = signed_in!(state, visitor);
    let nav = site::nav(&info, "/account/password");
    let page = match failure {
        None => {
            Page::new("Change your password", password_body(&info.csrf_token, "Your password has been changed.", &[]))
        }
        Some(failure) if failure.is(ErrorReason::Unauthenticated) => Page::new(
            "Change your password",
            password_body(&info.csrf_token, "", &["The current password is not correct.".to_owned()]),
        )
        .status(StatusCode::UNAUTHORIZED),
        Some(failure) if failure.is(ErrorReason::ValidationFailed) || failure.is(ErrorReason::RateLimited) => {
            Page::new("Change your password", password_body(&info.csrf_token, "", &failure.messages()))
                .status(failure.status())
                .retry_after(failure.retry_after())
        }
        Some(failure) => return failure.respond(&visitor, "/account/password", true),
    };
    page.nav(nav).into_response()
}
