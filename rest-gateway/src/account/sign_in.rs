//! Signing in and out: the sign-in form, sign-in links (invitations and the demo user's link), and
//! sign-out. The first two come before any session, so their forms are guarded by the
//! double-submit cookie; sign-out carries the session's CSRF value, which core-service checks.

use axum::extract::rejection::FormRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use canvas_proto::v1 as pb;
use canvas_proto::v1::ErrorReason;
use serde::Deserialize;

use super::calls;
use super::cookies;
use super::failure::Failure;
use super::html::{self, escape, Page};
use super::security::{self, csrf_matches, safe_next};
use super::site::Visitor;
use crate::respond::query_value;
use crate::state::{with_session, AppState};

/// Unknown login and wrong password get these same words (docs/ACCOUNTS.md).
pub(crate) const WRONG_CREDENTIALS: &str = "The login or password is not correct.";

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct SignInForm {
    login: String,
    password: String,
    csrf: String,
    next: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct LinkForm {
    code: String,
    new_password: String,
    csrf: String,
}

/// A form whose only field is the session's CSRF value.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct CsrfForm {
    pub csrf: String,
}

/// The visitor's double-submit value, with the `Set-Cookie` that sets it when it is new; `None`
/// when no random value could be made (logged).
fn double_submit(visitor: &Visitor) -> Option<(String, Option<String>)> {
    if let Some(value) = &visitor.csrf_cookie {
        return Some((value.clone(), None));
    }
    match security::new_csrf_value() {
        Ok(value) => {
            let cookie = visitor.cookies.csrf(&value);
            Some((value, Some(cookie)))
        }
        Err(error) => {
            tracing::error!(%error, "no random value for a form's double-submit cookie");
            None
        }
    }
}

/// The page of a failure already logged.
fn internal_error() -> Response {
    html::error_page(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "internal error")
}

fn sign_in_body(next: &str, csrf: &str, login: &str, problems: &[String]) -> String {
    let described = if problems.is_empty() { "" } else { " aria-describedby=\"problem\"" };
    let token_link = security::token_map_url(next)
        .map(|url| format!("<p><a id=\"use-token\" href=\"{}\">Use an API token instead</a></p>", escape(&url)))
        .unwrap_or_default();
    format!(
        "{problems}<form method=\"post\" action=\"/account/sign-in\" class=\"stack\">{csrf}{next}\
         <div class=\"field\"><label for=\"login\">Login</label>\
         <input id=\"login\" name=\"login\" type=\"text\" autocomplete=\"username\" autocapitalize=\"none\" \
         spellcheck=\"false\" required value=\"{login}\"{described}></div>\
         <div class=\"field\"><label for=\"password\">Password</label>\
         <input id=\"password\" name=\"password\" type=\"password\" autocomplete=\"current-password\" required{described}></div>\
         <div class=\"actions\"><button type=\"submit\" id=\"sign-in\" class=\"primary\">Sign in</button></div></form>\
         {token_link}<p class=\"hint\">No password yet, or forgot it? An administrator can send you a sign-in link.</p>",
        problems = html::problems(problems),
        csrf = html::csrf_field(csrf),
        next = html::hidden("next", next),
        login = escape(login),
    )
}

/// `GET /account/sign-in?next=<path>`: the form; someone already signed in goes straight on.
pub(crate) async fn page(State(state): State<AppState>, visitor: Visitor, RawQuery(query): RawQuery) -> Response {
    let next = safe_next(query_value(query.as_deref().unwrap_or(""), "next").as_deref());
    if visitor.session.is_some() && calls::session(&state, &visitor).await.is_ok() {
        return html::see_other(&next, &[]);
    }
    let Some((csrf, cookie)) = double_submit(&visitor) else { return internal_error() };
    let mut page = Page::new("Sign in", sign_in_body(&next, &csrf, "", &[]));
    if let Some(cookie) = cookie {
        page = page.cookie(cookie);
    }
    page.into_response()
}

/// `POST /account/sign-in`: `SignIn`, then the session cookie and `303` to `next`.
pub(crate) async fn submit(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<SignInForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    if !csrf_matches(visitor.csrf_cookie.as_deref(), &form.csrf) {
        return html::form_expired();
    }
    let next = safe_next(Some(&form.next));
    let request = pb::SignInRequest {
        login: form.login.clone(),
        password: form.password,
        client_address: visitor.client_address.clone(),
        user_agent: visitor.user_agent.clone(),
    };
    match state.sessions.clone().sign_in(with_session(request, None)).await {
        Ok(reply) => signed_in(&visitor, reply.into_inner(), &next),
        Err(status) => {
            let failure = Failure::from(status);
            let problems = match failure.reason {
                Some(ErrorReason::Unauthenticated) => vec![WRONG_CREDENTIALS.to_owned()],
                Some(ErrorReason::RateLimited) => vec![wait_words(failure.retry_after())],
                Some(ErrorReason::ValidationFailed) => failure.messages(),
                _ => return failure.respond(&visitor, "/account/sign-in", false),
            };
            Page::new("Sign in", sign_in_body(&next, &form.csrf, &form.login, &problems))
                .status(failure.status())
                .retry_after(failure.retry_after())
                .into_response()
        }
    }
}

/// "Wait N seconds": the words of a slowed-down sign-in.
fn wait_words(seconds: Option<u64>) -> String {
    match seconds {
        Some(1) => "Too many failed sign-ins. Wait 1 second, then try again.".to_owned(),
        Some(n) => format!("Too many failed sign-ins. Wait {n} seconds, then try again."),
        None => "Too many failed sign-ins. Wait a little, then try again.".to_owned(),
    }
}

/// The session cookie of a successful sign-in and `303` to `next`.
fn signed_in(visitor: &Visitor, reply: pb::SignInResponse, next: &str) -> Response {
    if !cookies::is_plain_value(&reply.session) {
        tracing::error!("core-service answered a session secret that cannot be a cookie value");
        return internal_error();
    }
    let idle = reply.info.as_ref().map_or(0, |info| info.idle_seconds);
    html::see_other(next, &[visitor.cookies.session(&reply.session, idle)])
}

/// `POST /account/sign-out`: `SignOut`, the cookie removed, `303` to sign-in. A session that was
/// already gone ends the same way.
pub(crate) async fn sign_out(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let signed_out = || html::see_other("/account/sign-in", &[visitor.cookies.clear_session()]);
    let Some(session) = visitor.session.as_deref() else { return signed_out() };
    let request = with_session(pb::SignOutRequest { csrf_token: form.csrf }, Some(session));
    match state.sessions.clone().sign_out(request).await {
        Ok(_) => signed_out(),
        Err(status) => match Failure::from(status) {
            failure if failure.is(ErrorReason::Unauthenticated) => signed_out(),
            failure => failure.respond(&visitor, "/account/projects", true),
        },
    }
}

fn link_body(info: &pb::SignInLinkInfo, code: &str, csrf: &str, problems: &[String]) -> String {
    let (label, hint) = if info.password_missing {
        ("Choose a password (optional)", "Set one to sign in without a link next time.")
    } else {
        ("New password (optional)", "Leave it empty to keep your current password.")
    };
    format!(
        "{problems}<p>This link signs you in as <strong>{name}</strong> (login <strong>{login}</strong>). \
         It works once and is valid until {expires}.</p>\
         <form method=\"post\" action=\"/account/link\" class=\"stack\">{csrf}{code}\
         <div class=\"field\"><label for=\"new-password\">{label}</label>\
         <p class=\"hint\" id=\"new-password-hint\">{hint}</p>\
         <input id=\"new-password\" name=\"new_password\" type=\"password\" autocomplete=\"new-password\" \
         aria-describedby=\"new-password-hint\"></div>\
         <div class=\"actions\"><button type=\"submit\" id=\"continue\" class=\"primary\">Continue</button></div></form>",
        problems = html::problems(problems),
        name = escape(&info.user_name),
        login = escape(&info.login),
        expires = html::time(info.expires_at.as_ref(), "its expiry"),
        csrf = html::csrf_field(csrf),
        code = html::hidden("code", code),
    )
}

/// The link's owner, or the page saying why the link cannot be used. Opening the page does not
/// use the link up (mail scanners prefetch links): only the form's post does.
async fn check_link(state: &AppState, visitor: &Visitor, code: &str) -> Result<pb::SignInLinkInfo, Response> {
    let request = pb::CheckSignInLinkRequest { link: code.to_owned() };
    calls::read(request, None, |r| {
        let mut client = state.sessions.clone();
        async move { client.check_sign_in_link(r).await }
    })
    .await
    .map_err(|failure| link_refused(visitor, failure))
}

/// A link core-service does not accept is explained, never a redirect to sign-in.
fn link_refused(visitor: &Visitor, failure: Failure) -> Response {
    if failure.is(ErrorReason::Unauthenticated) || failure.is(ErrorReason::NotFound) {
        let message = "This sign-in link cannot be used: it was already used, has expired, or is incomplete. \
                       Ask an administrator for a new one.";
        return html::error_page(failure.status(), "Sign-in link not valid", message);
    }
    failure.respond(visitor, "/account/sign-in", false)
}

/// `GET /account/link?code=<link>`: "Continue as …" with an optional new password.
pub(crate) async fn link_page(State(state): State<AppState>, visitor: Visitor, RawQuery(query): RawQuery) -> Response {
    let code = query_value(query.as_deref().unwrap_or(""), "code").unwrap_or_default();
    let info = match check_link(&state, &visitor, &code).await {
        Ok(info) => info,
        Err(response) => return response,
    };
    let Some((csrf, cookie)) = double_submit(&visitor) else { return internal_error() };
    let mut page = Page::new(format!("Continue as {}", info.user_name), link_body(&info, &code, &csrf, &[]));
    if let Some(cookie) = cookie {
        page = page.cookie(cookie);
    }
    page.into_response()
}

/// `POST /account/link`: `RedeemSignInLink`, then the session cookie and `303` to the projects.
pub(crate) async fn link_submit(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<LinkForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    if !csrf_matches(visitor.csrf_cookie.as_deref(), &form.csrf) {
        return html::form_expired();
    }
    let request = pb::RedeemSignInLinkRequest {
        link: form.code.clone(),
        new_password: form.new_password,
        client_address: visitor.client_address.clone(),
        user_agent: visitor.user_agent.clone(),
    };
    match state.sessions.clone().redeem_sign_in_link(with_session(request, None)).await {
        Ok(reply) => signed_in(&visitor, reply.into_inner(), security::DEFAULT_NEXT),
        Err(status) => {
            let failure = Failure::from(status);
            if !failure.is(ErrorReason::ValidationFailed) && !failure.is(ErrorReason::RateLimited) {
                return link_refused(&visitor, failure);
            }
            // The password was refused (or sign-ins are slowed): the same form, with the reason.
            let info = match check_link(&state, &visitor, &form.code).await {
                Ok(info) => info,
                Err(response) => return response,
            };
            let problems = if failure.is(ErrorReason::RateLimited) {
                vec![wait_words(failure.retry_after())]
            } else {
                failure.messages()
            };
            Page::new(format!("Continue as {}", info.user_name), link_body(&info, &form.code, &form.csrf, &problems))
                .status(failure.status())
                .retry_after(failure.retry_after())
                .into_response()
        }
    }
}
