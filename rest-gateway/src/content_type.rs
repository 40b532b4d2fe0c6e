//! Request bodies by their `Content-Type`: every handler that reads a JSON body takes it through
//! [`JsonBody`], which answers 415 Unsupported Media Type (a problem body naming
//! `application/json`, and `Accept-Post` / `Accept-Patch`) to any other type, a missing one
//! included, before the body is read. So what a cross-site form can send without a CORS preflight
//! (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`) never reaches a
//! write. Which types are JSON is the HTTP edge's rule, the same on the MCP gateway
//! (`canvas_runtime::edge::content_type`): `application/json` and every `application/*+json` type,
//! in any letter case, with any parameters but a charset other than UTF-8. Multipart uploads check
//! theirs with [`require_multipart`]. Endpoints that read no body (`/enable`, `/redeliver`) do not
//! look at the type.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The type every JSON endpoint names in its 415.
pub const JSON: &str = "application/json";
/// What PATCH takes, for `Accept-Patch`.
const PATCH_TYPES: &str = "application/json, application/merge-patch+json";
/// The type of item uploads.
pub const MULTIPART: &str = canvas_runtime::edge::content_type::MULTIPART;

/// Whether `headers` declare a JSON body: the HTTP edge's rule, the same on both gateways.
pub use canvas_runtime::edge::content_type::is_json;

/// The 415 naming `expected`; with `Accept-Post` or `Accept-Patch` for the method.
pub fn unsupported(method: &Method, headers: &HeaderMap, expected: &'static str) -> ApiError {
    let sent = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty());
    let detail = match sent {
        Some(sent) => format!(
            "this endpoint reads a request body of type {expected}; it was sent as {}",
            sent.chars().take(100).collect::<String>()
        ),
        None => format!("this endpoint reads a request body of type {expected}; send Content-Type: {expected}"),
    };
    let mut error = ApiError::unsupported_media_type(detail);
    let accept = match *method {
        Method::PATCH if expected == JSON => Some(("accept-patch", PATCH_TYPES)),
        Method::PATCH => Some(("accept-patch", expected)),
        Method::POST => Some(("accept-post", expected)),
        _ => None,
    };
    if let Some((name, value)) = accept {
        let mut headers = HeaderMap::new();
        headers.insert(HeaderName::from_static(name), HeaderValue::from_static(value));
        error.headers = Some(Box::new(headers));
    }
    error
}

/// Refuses a request that is not `multipart/form-data` (uploads).
pub fn require_multipart(method: &Method, headers: &HeaderMap) -> Result<(), ApiError> {
    match canvas_runtime::edge::content_type::is_multipart(headers) {
        true => Ok(()),
        false => Err(unsupported(method, headers, MULTIPART)),
    }
}

/// A request body declared as JSON (see the module docs), as bytes; the handler parses it. The
/// rejection is an [`ApiError`] the handler renders in the requested casing.
pub struct JsonBody(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBody {
    type Rejection = Rejected;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(request.headers()) {
            return Err(Rejected(unsupported(request.method(), request.headers(), JSON)));
        }
        let bytes = Bytes::from_request(request, state).await.map_err(|r| Rejected(ApiError::from(r)))?;
        Ok(Self(bytes))
    }
}

/// Why a [`JsonBody`] was not read. Handlers take `Result<JsonBody, Rejected>` and render the
/// error themselves; rendered on its own it is a problem body in the default casing.
#[derive(Debug)]
pub struct Rejected(pub ApiError);

impl From<Rejected> for ApiError {
    fn from(rejected: Rejected) -> Self {
        rejected.0
    }
}

impl IntoResponse for Rejected {
    fn into_response(self) -> Response {
        self.0.into_problem(Default::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;

    #[test]
    fn the_415_names_the_type_and_what_the_method_accepts() {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/plain"));
        let error = unsupported(&Method::PATCH, &headers, JSON);
        assert_eq!(error.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(error.detail.contains("application/json") && error.detail.contains("text/plain"), "{}", error.detail);
        let answer = error.headers.expect("Accept-Patch");
        assert_eq!(answer["accept-patch"], "application/json, application/merge-patch+json");
        assert!(require_multipart(&Method::POST, &headers).is_err());
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("multipart/form-data; boundary=b"));
        assert!(require_multipart(&Method::POST, &headers).is_ok());
    }
}
