//! How a failed core-service call shows on the account site. Read by its `ErrorReason` only
//! (through [`ApiError`], the gateway's one mapping), never by its message, which is only shown:
//! UNAUTHENTICATED sends the person to sign in, RATE_LIMITED answers 429 with `Retry-After`,
//! VALIDATION_FAILED lists the violations next to the form, and PERMISSION_DENIED on a form is
//! core-service's failed CSRF check.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use canvas_proto::v1::ErrorReason;

use super::html::{self, Page};
use super::security;
use super::site::Visitor;
use crate::error::ApiError;

/// A failed call, with the reason core-service gave (`None`: no answer at all).
#[derive(Debug)]
pub(crate) struct Failure {
    pub reason: Option<ErrorReason>,
    pub error: ApiError,
}

impl From<tonic::Status> for Failure {
    fn from(status: tonic::Status) -> Self {
        let error = ApiError::from(status);
        // `ApiError::reason` is the ErrorReason's name, or one of the gateway's own reasons for
        // a call that got no answer, which no ErrorReason parses as.
        let reason = ErrorReason::from_str_name(error.reason).filter(|r| *r != ErrorReason::Unspecified);
        Self { reason, error }
    }
}

impl Failure {
    /// Not signed in, without asking core-service (no session cookie was sent).
    pub(crate) fn signed_out() -> Self {
        Self {
            reason: Some(ErrorReason::Unauthenticated),
            error: ApiError::new(StatusCode::UNAUTHORIZED, "sign in to continue"),
        }
    }

    pub(crate) fn is(&self, reason: ErrorReason) -> bool {
        self.reason == Some(reason)
    }

    /// The page's status: the REST mapping's, except that a slowed-down sign-in is 429 on the
    /// account site (docs/ACCOUNTS.md) where the REST API's one rate limit answers 503.
    pub(crate) fn status(&self) -> StatusCode {
        if self.is(ErrorReason::RateLimited) || self.is(ErrorReason::TooManyRequests) {
            StatusCode::TOO_MANY_REQUESTS
        } else {
            self.error.status
        }
    }

    pub(crate) fn retry_after(&self) -> Option<u64> {
        self.error.retry_after
    }

    /// What to tell the person: each violation's message, or the refusal's text.
    pub(crate) fn messages(&self) -> Vec<String> {
        if self.error.fields.is_empty() {
            return vec![self.error.detail.clone()];
        }
        self.error.fields.iter().map(|f| f.message.clone()).collect()
    }

    /// The answer to a page or form whose call failed in a way the page has no better words for.
    /// `back` is where to return after signing in (the page's own path and query); `form` says
    /// the call carried the session's CSRF value, so PERMISSION_DENIED means it did not match.
    pub(crate) fn respond(self, visitor: &Visitor, back: &str, form: bool) -> Response {
        match self.reason {
            Some(ErrorReason::Unauthenticated) => sign_in_again(visitor, back),
            Some(ErrorReason::PermissionDenied) if form => html::form_expired(),
            Some(ErrorReason::RateLimited | ErrorReason::TooManyRequests) => {
                Page::new("Please wait", html::problems(&self.messages()))
                    .status(StatusCode::TOO_MANY_REQUESTS)
                    .retry_after(self.retry_after())
                    .into_response()
            }
            _ => {
                let status = self.status();
                let title = match status {
                    StatusCode::BAD_REQUEST => "That did not work",
                    StatusCode::FORBIDDEN => "Not allowed",
                    StatusCode::NOT_FOUND => "Not found",
                    s if s.is_server_error() => "The service is not available",
                    _ => "Something went wrong",
                };
                let body =
                    format!("{}<p><a href=\"/account\">Go to your account</a></p>", html::problems(&self.messages()));
                Page::new(title, body).status(status).retry_after(self.retry_after()).into_response()
            }
        }
    }
}

/// `303` to the sign-in page, coming back to `back` afterwards. A session cookie core-service no
/// longer accepts is removed on the way, so the browser stops sending it.
pub(crate) fn sign_in_again(visitor: &Visitor, back: &str) -> Response {
    let cookies = if visitor.session.is_some() { vec![visitor.cookies.clear_session()] } else { Vec::new() };
    html::see_other(&security::sign_in_url(back), &cookies)
}
