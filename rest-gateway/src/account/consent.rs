//! `/oauth/authorize`: the authorization endpoint (RFC 6749 §4.1.1 with PKCE) as a person sees
//! it. core-service judges the request (`CheckAuthorization`: client, redirect URI, PKCE,
//! resource) and issues the code (`Authorize`); this page only frames it: an error shown or sent
//! back to the client as core-service says, sign-in first, then the consent form.

use axum::extract::rejection::FormRejection;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Form;
use canvas_proto::v1 as pb;
use canvas_proto::v1::ErrorReason;
use serde::Deserialize;
use url::Url;

use super::calls;
use super::failure::{sign_in_again, Failure};
use super::html::{self, escape, Page};
use super::site::{self, Visitor};
use crate::respond::url_pairs;
use crate::state::{with_session, AppState};

/// The authorization request's parameters as received, in one shape for the query and the form.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Parameters {
    response_type: String,
    client_id: String,
    redirect_uri: String,
    scope: String,
    state: String,
    code_challenge: String,
    code_challenge_method: String,
    resource: String,
}

impl Parameters {
    /// The first value of each parameter of a query string.
    fn from_query(query: &str) -> Self {
        let mut parameters = Self::default();
        let mut seen = std::collections::HashSet::new();
        for (name, value) in url_pairs(query) {
            if seen.insert(name.clone()) {
                if let Some(slot) = parameters.slot(&name) {
                    *slot = value;
                }
            }
        }
        parameters
    }

    fn slot(&mut self, name: &str) -> Option<&mut String> {
        Some(match name {
            "response_type" => &mut self.response_type,
            "client_id" => &mut self.client_id,
            "redirect_uri" => &mut self.redirect_uri,
            "scope" => &mut self.scope,
            "state" => &mut self.state,
            "code_challenge" => &mut self.code_challenge,
            "code_challenge_method" => &mut self.code_challenge_method,
            "resource" => &mut self.resource,
            _ => return None,
        })
    }

    fn fields(&self) -> [(&'static str, &str); 8] {
        [
            ("response_type", &self.response_type),
            ("client_id", &self.client_id),
            ("redirect_uri", &self.redirect_uri),
            ("scope", &self.scope),
            ("state", &self.state),
            ("code_challenge", &self.code_challenge),
            ("code_challenge_method", &self.code_challenge_method),
            ("resource", &self.resource),
        ]
    }

    /// This request as the GET URL it came from (to come back to after signing in).
    fn authorize_path(&self) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (name, value) in self.fields().into_iter().filter(|(_, v)| !v.is_empty()) {
            query.append_pair(name, value);
        }
        format!("/oauth/authorize?{}", query.finish())
    }

    fn proto(&self) -> pb::AuthorizationParameters {
        pb::AuthorizationParameters {
            response_type: self.response_type.clone(),
            client_id: self.client_id.clone(),
            redirect_uri: self.redirect_uri.clone(),
            scope: self.scope.clone(),
            state: self.state.clone(),
            code_challenge: self.code_challenge.clone(),
            code_challenge_method: self.code_challenge_method.clone(),
            resource: self.resource.clone(),
        }
    }
}

/// An OAuth error shown to the person: the client or its redirect URI is not to be trusted.
fn error_page(error: &pb::OAuthError) -> Response {
    let body = format!(
        "<div class=\"problem\" role=\"alert\" id=\"problem\"><p>The app's request cannot be accepted: {description}</p>\
         <p>Error code: <code id=\"oauth-error\">{code}</code></p></div>\
         <p>You can close this page. <a href=\"/account\">Go to your account</a></p>",
        description = escape(if error.description.is_empty() { &error.error } else { &error.description }),
        code = escape(&error.error),
    );
    Page::new("App request refused", body).status(StatusCode::BAD_REQUEST).into_response()
}

/// The origin (`scheme://host[:port]`) of a URL, for the consent page's `form-action`.
fn origin_of(url: &str) -> Option<String> {
    let origin = Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

fn consent_body(check: &pb::CheckAuthorizationResponse, parameters: &Parameters, csrf: &str) -> String {
    // The host with its port when it has one: on a loopback host the port is what tells apps apart.
    let host = Url::parse(&check.redirect_uri)
        .ok()
        .and_then(|u| {
            u.host_str().map(|host| u.port().map_or_else(|| host.to_owned(), |port| format!("{host}:{port}")))
        })
        .unwrap_or_default();
    let grants: String = check.grants.iter().map(|g| format!("<li>{}</li>", escape(g))).collect();
    let hidden: String = parameters.fields().into_iter().map(|(name, value)| html::hidden(name, value)).collect();
    let resource = if check.resource.is_empty() {
        String::new()
    } else {
        format!("<p>For: <code id=\"resource\">{}</code></p>", escape(&check.resource))
    };
    // A name in a metadata document is vouched for by the host that publishes it; a registered
    // client's name by nobody, so the person is told which.
    let vouched = if check.client_host.is_empty() {
        " (a name the app gave itself)".to_owned()
    } else {
        format!(", as published by <strong id=\"client-host\">{}</strong>,", escape(&check.client_host))
    };
    format!(
        "<p><strong id=\"client-name\">{client}</strong>{vouched} asks to use your Canvas account. \
         Its answer goes to <strong id=\"redirect-host\">{host}</strong>.</p>\
         <h2>If you allow it, it can</h2><ul class=\"grants\" id=\"grants\">{grants}</ul>{resource}\
         <form method=\"post\" action=\"/oauth/authorize\">{hidden}{csrf}<div class=\"actions\">\
         <button type=\"submit\" id=\"approve\" name=\"decision\" value=\"approve\" class=\"primary\">Allow</button> \
         <button type=\"submit\" id=\"deny\" name=\"decision\" value=\"deny\">Deny</button></div></form>\
         <p class=\"hint\">Only allow apps you trust. You can disconnect it at any time under <a href=\"/account/apps\">Connected apps</a>.</p>",
        client = escape(&check.client_name),
        host = escape(&host),
        csrf = html::csrf_field(csrf),
    )
}

/// `GET /oauth/authorize`: `CheckAuthorization`, then the sign-in (no session) or the consent
/// page (with `GetSession` for the form's CSRF value).
pub(crate) async fn page(State(state): State<AppState>, visitor: Visitor, RawQuery(query): RawQuery) -> Response {
    let parameters = Parameters::from_query(query.as_deref().unwrap_or(""));
    let request =
        pb::CheckAuthorizationRequest { parameters: Some(parameters.proto()), issuer: visitor.base_url.clone() };
    let check = calls::read(request, visitor.session.as_deref(), |r| {
        let mut client = state.oauth.clone();
        async move { client.check_authorization(r).await }
    })
    .await;
    let check = match check {
        Ok(check) => check,
        Err(failure) => return failure.respond(&visitor, &visitor.here, false),
    };
    if let Some(error) = &check.error {
        if !check.redirect_error {
            return error_page(error);
        }
        // core-service answers the whole address: the redirect URI with `error` and `state`.
        return html::see_other(&check.redirect_uri, &[]);
    }
    let info = match calls::session(&state, &visitor).await {
        Ok(info) => info,
        Err(failure) => return failure.respond(&visitor, &visitor.here, false),
    };
    let mut page =
        Page::new(format!("Allow {}?", check.client_name), consent_body(&check, &parameters, &info.csrf_token))
            .nav(site::nav(&info, ""));
    let mut origins: Vec<String> =
        [check.redirect_uri.as_str(), parameters.redirect_uri.as_str()].into_iter().filter_map(origin_of).collect();
    origins.dedup();
    for origin in origins {
        page = page.form_target(origin);
    }
    page.into_response()
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ConsentForm {
    #[serde(flatten)]
    parameters: Parameters,
    csrf: String,
    decision: String,
}

/// `POST /oauth/authorize`: the person's answer (`Authorize`), then `303` to where core-service
/// sends the browser (the client's redirect URI with the code or the error).
pub(crate) async fn decide(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<ConsentForm>, FormRejection>,
) -> Response {
    let Ok(Form(form)) = form else { return html::unreadable_form() };
    let back = form.parameters.authorize_path();
    let request = pb::AuthorizeRequest {
        parameters: Some(form.parameters.proto()),
        csrf_token: form.csrf,
        approve: form.decision == "approve",
        client_address: visitor.client_address.clone(),
        issuer: visitor.base_url.clone(),
    };
    let reply = match state.oauth.clone().authorize(with_session(request, visitor.session.as_deref())).await {
        Ok(reply) => reply.into_inner(),
        Err(status) => {
            let failure = Failure::from(status);
            if failure.is(ErrorReason::Unauthenticated) {
                return sign_in_again(&visitor, &back);
            }
            return failure.respond(&visitor, &back, true);
        }
    };
    match (reply.error, reply.redirect_to.is_empty()) {
        (_, false) => html::see_other(&reply.redirect_to, &[]),
        (Some(error), true) => error_page(&error),
        (None, true) => {
            tracing::error!("core-service authorized without a redirect target");
            html::error_page(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "internal error")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_round_trip_to_the_sign_in_path() {
        let parameters =
            Parameters::from_query("client_id=c1&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&state=a+b&state=second&x=y");
        assert_eq!(parameters.state, "a b");
        assert_eq!(
            parameters.authorize_path(),
            "/oauth/authorize?client_id=c1&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&state=a+b"
        );
        assert_eq!(origin_of("http://127.0.0.1:3000/cb").as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(origin_of("urn:x"), None);
    }
}
