//! Request bodies by their `Content-Type`: every handler that reads a JSON body takes it through
//! [`JsonBody`], which answers 415 Unsupported Media Type (a problem body naming
//! `application/json`, and `Accept-Post` / `Accept-Patch`) to any other type, a missing one
//! included, before the body is read. So what a cross-site form can send without a CORS preflight
//! (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`) never reaches a
//! write. Accepted: `application/json` and every `+json` type (RFC 6839:
//! `application/merge-patch+json`, `application/vnd.foo+json`), in any letter case, with any
//! parameters but a charset other than UTF-8 (RFC 8259: JSON is UTF-8). Multipart uploads check
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
pub const MULTIPART: &str = "multipart/form-data";

/// The media type's essence (`type/subtype`, lower case) and its `charset` parameter, if any.
fn media_type(headers: &HeaderMap) -> Option<(String, Option<String>)> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let mut parts = value.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    let charset = parts.filter_map(|p| p.split_once('=')).find_map(|(name, value)| {
        name.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"').to_ascii_lowercase())
    });
    Some((essence, charset))
}

/// Whether `headers` declare a JSON body.
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some((essence, charset)) = media_type(headers) else { return false };
    let Some((kind, subtype)) = essence.split_once('/') else { return false };
    let json = subtype == "json" || (subtype.ends_with("+json") && subtype.len() > "+json".len());
    let token = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b));
    json && kind == "application" && token(subtype) && charset.is_none_or(|c| c == "utf-8" || c == "utf8")
}

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
    match media_type(headers) {
        Some((essence, _)) if essence == MULTIPART => Ok(()),
        _ => Err(unsupported(method, headers, MULTIPART)),
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

    fn json(value: Option<&str>) -> bool {
        let mut headers = HeaderMap::new();
        if let Some(value) = value {
            headers.insert(CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
        }
        is_json(&headers)
    }

    #[test]
    fn json_types_are_recognised() {
        for accepted in [
            "application/json",
            "Application/JSON",
            "application/json; charset=utf-8",
            "application/json;charset=\"UTF-8\"",
            "application/merge-patch+json",
            "application/vnd.foo+json",
            "application/vnd.api+json; version=2",
            "application/problem+json",
        ] {
            assert!(json(Some(accepted)), "{accepted}");
        }
        for refused in [
            None,
            Some(""),
            Some("text/plain"),
            Some("text/plain; charset=utf-8"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            Some("application/jsonx"),
            Some("application/+json"),
            Some("text/json"),
            Some("text/vnd.foo+json"),
            Some("application/json; charset=iso-8859-1"),
            Some("application/msgpack"),
        ] {
            assert!(!json(refused), "{refused:?}");
        }
    }

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
