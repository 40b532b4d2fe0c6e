//! Who is calling: the one place that reads a REST request's credentials and makes them travel on
//! its core-service calls. The gateway judges no credential itself; core-service does, on every
//! call (the MCP gateway's `Caller` is the same idea on its side).
//!
//! A handler takes a [`Caller`] like any extractor and wraps each message with
//! [`Caller::request`] (or runs a read with [`Caller::idempotent`]). What it carries:
//! - the `Authorization` header, unchanged, when it is text (a header core-service could not
//!   receive as metadata is refused here with 401, when the call is made);
//! - without one, the account site's session cookie, when `crate::account::forward_session` let it
//!   through (on GET and HEAD, or on an `/api/` write beside its `X-Canvas-CSRF` header, which
//!   travels with it), as `x-canvas-session` and `x-canvas-csrf`.
//!
//! Extraction never fails: a missing or unusable credential is core-service's to answer (401), in
//! the order the handler makes its calls, so a request's other faults are answered as before.

use std::convert::Infallible;
use std::future::Future;

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use axum::http::StatusCode;
use canvas_proto::client::{self, Credentials};
use tonic::{Request, Response, Status};

use crate::error::ApiError;

/// The session cookie a request forwards (when it sent no `Authorization` header), put in the
/// request's extensions by `crate::account::forward_session`: a GET or HEAD request's, or a
/// write's that carries the page's `X-Canvas-CSRF` header, which travels with it.
#[derive(Debug, Clone)]
pub struct ForwardedSession {
    pub session: String,
    /// The `X-Canvas-CSRF` value of a write; `None` on reads.
    pub csrf: Option<String>,
}

/// The credentials of the request being served (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// The `Authorization` header, when it is text.
    authorization: Option<String>,
    /// The session the middleware forwards, when there is no `Authorization` header.
    session: Option<ForwardedSession>,
}

impl<S: Send + Sync> FromRequestParts<S> for Caller {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self {
            authorization: parts.headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()).map(str::to_owned),
            session: parts.extensions.get::<ForwardedSession>().cloned(),
        })
    }
}

impl Caller {
    /// The caller of a public call: no token travels (a wrong one must not refuse a public read);
    /// a forwarded session does, as on every read.
    pub fn public(&self) -> Self {
        Self { authorization: None, session: self.session.clone() }
    }

    /// Wraps a message in a gRPC request carrying the caller's `Authorization` header unchanged;
    /// core-service does all authentication. Without the header, the forwarded session goes as
    /// `x-canvas-session` instead, with a write's `X-Canvas-CSRF` as `x-canvas-csrf`.
    pub fn request<T>(&self, message: T) -> Result<Request<T>, ApiError> {
        if self.authorization.as_deref().is_some_and(|value| !client::sendable(value)) {
            return Err(ApiError::new(StatusCode::UNAUTHORIZED, "the Authorization header is not valid text"));
        }
        Ok(self.framed(message))
    }

    /// The request of [`Self::request`] once its header is known to travel.
    fn framed<T>(&self, message: T) -> Request<T> {
        let forwarded = match self.authorization {
            Some(_) => None,
            None => self.session.as_ref(),
        };
        let credentials = Credentials {
            authorization: self.authorization.as_deref(),
            session: forwarded.map(|f| f.session.as_str()),
            csrf: forwarded.and_then(|f| f.csrf.as_deref()),
            resource: None,
        };
        client::request(message, &credentials)
    }

    /// Runs an idempotent (read-only) call under the shared retry rule ([`client::idempotent`]):
    /// once more if the first attempt got no answer. Never used for writes.
    pub async fn idempotent<T, R, F, Fut>(&self, message: T, call: F) -> Result<Response<R>, ApiError>
    where
        T: Clone,
        F: Fn(Request<T>) -> Fut,
        Fut: Future<Output = Result<Response<R>, Status>>,
    {
        let mut first = Some(self.request(message.clone())?);
        let reply = client::idempotent(|| {
            let request = first.take().unwrap_or_else(|| {
                tracing::warn!("core-service call failed in transport; retrying once");
                self.framed(message.clone())
            });
            call(request)
        })
        .await;
        Ok(reply?)
    }
}
