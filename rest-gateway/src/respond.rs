//! Response negotiation: JSON in the requested casing, or MessagePack.

use axum::extract::FromRequestParts;
use axum::http::header::{ACCEPT, CONTENT_TYPE};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::casing::Casing;
use crate::error::ApiError;

/// What the client asked the response to look like.
#[derive(Debug, Clone, Copy, Default)]
pub struct Format {
    /// JSON property-name casing (`jsonCasing`).
    pub casing: Casing,
    /// `Some(content type)` when the client accepts MessagePack.
    pub msgpack: Option<&'static str>,
}

impl<S: Send + Sync> FromRequestParts<S> for Format {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let casing = match query_value(parts.uri.query().unwrap_or(""), "jsonCasing") {
            None => Casing::default(),
            Some(raw) => Casing::parse(&raw).ok_or_else(|| {
                Format::default()
                    .error(ApiError::invalid("jsonCasing", "must be one of default, pascal, camel, snake, kebab"))
            })?,
        };
        let accept = parts.headers.get(ACCEPT).and_then(|v| v.to_str().ok()).unwrap_or("");
        let msgpack = accept.split(',').map(|part| part.split(';').next().unwrap_or("").trim()).find_map(|media| {
            if media.eq_ignore_ascii_case("application/msgpack") {
                Some("application/msgpack")
            } else if media.eq_ignore_ascii_case("application/x-msgpack") {
                Some("application/x-msgpack")
            } else {
                None
            }
        });
        Ok(Self { casing, msgpack })
    }
}

/// The value of a query parameter, name matched case-insensitively.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    url_pairs(query).find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v)
}

/// Percent-decoded `key=value` pairs of a query string (`application/x-www-form-urlencoded`, as
/// browsers and HTTP clients write it: `+` is a space, `%XX` a byte, invalid escapes kept as text).
pub fn url_pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    form_urlencoded::parse(query.as_bytes()).map(|(k, v)| (k.into_owned(), v.into_owned()))
}

impl Format {
    /// A success body in the negotiated format.
    pub fn ok(self, status: StatusCode, body: Value) -> Response {
        match self.render(body) {
            Ok((content_type, bytes)) => {
                (status, [(CONTENT_TYPE, HeaderValue::from_static(content_type))], bytes).into_response()
            }
            Err(err) => self.error(err),
        }
    }

    /// The bytes of a success body in the negotiated format, with their content type.
    fn render(self, body: Value) -> Result<(&'static str, Vec<u8>), ApiError> {
        if let Some(content_type) = self.msgpack {
            return rmp_serde::to_vec_named(&body).map(|bytes| (content_type, bytes)).map_err(ApiError::internal);
        }
        // User data keeps its names: webhook `customData`, and a diagram's `nodes` (Mermaid ids).
        let bytes = serde_json::to_vec(&self.casing.recased(&body, &["customData", "nodes"])).unwrap_or_default();
        Ok(("application/json", bytes))
    }

    /// Renders a read's result with a weak `ETag` of the rendered bytes
    /// ([`crate::conditional::content_tag`]), so every casing and format has its own.
    pub fn reply_tagged(self, result: Result<Value, ApiError>) -> Response {
        match result.and_then(|body| self.render(body)) {
            Ok((content_type, bytes)) => {
                let tag = crate::conditional::content_tag(&bytes);
                let response =
                    (StatusCode::OK, [(CONTENT_TYPE, HeaderValue::from_static(content_type))], bytes).into_response();
                crate::conditional::tagged(response, Some(tag))
            }
            Err(err) => self.error(err),
        }
    }

    /// An RFC 9457 problem body, always JSON, in the requested casing.
    pub fn error(self, error: ApiError) -> Response {
        error.into_problem(self.casing)
    }

    /// Renders a handler's result.
    pub fn reply(self, result: Result<Value, ApiError>) -> Response {
        match result {
            Ok(body) => self.ok(StatusCode::OK, body),
            Err(err) => self.error(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_decoded_and_case_insensitive() {
        assert_eq!(query_value("a=1&JSONCASING=snake", "jsonCasing").as_deref(), Some("snake"));
        assert_eq!(query_value("q=a%20b+c", "q").as_deref(), Some("a b c"));
        assert_eq!(query_value("q=%", "q").as_deref(), Some("%"));
        assert_eq!(query_value("", "q"), None);
    }
}
