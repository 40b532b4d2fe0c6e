//! Which request bodies count as JSON, the same on both gateways: `application/json` and every
//! `application/*+json` type (RFC 6839: `application/merge-patch+json`, `application/vnd.foo+json`),
//! in any letter case, with any parameters but a charset other than UTF-8 (RFC 8259: JSON is
//! UTF-8). A missing type is not JSON. So what a cross-site form can send without a CORS
//! preflight (`text/plain`, `application/x-www-form-urlencoded`, `multipart/form-data`) never
//! reaches a handler that reads JSON. Each gateway answers a body of another type with its own 415
//! (a problem body on REST, a JSON-RPC error on MCP).

use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;

/// The type of item uploads (REST only).
pub const MULTIPART: &str = "multipart/form-data";

/// The media type's essence (`type/subtype`, lower case) and its `charset` parameter, if any.
pub fn media_type(headers: &HeaderMap) -> Option<(String, Option<String>)> {
    let value = headers.get(CONTENT_TYPE)?.to_str().ok()?;
    let mut parts = value.split(';');
    let essence = parts.next()?.trim().to_ascii_lowercase();
    let charset = parts.filter_map(|p| p.split_once('=')).find_map(|(name, value)| {
        name.trim().eq_ignore_ascii_case("charset").then(|| value.trim().trim_matches('"').to_ascii_lowercase())
    });
    Some((essence, charset))
}

/// Whether `headers` declare a JSON body (see the module docs).
pub fn is_json(headers: &HeaderMap) -> bool {
    let Some((essence, charset)) = media_type(headers) else { return false };
    let Some((kind, subtype)) = essence.split_once('/') else { return false };
    let json = subtype == "json" || (subtype.ends_with("+json") && subtype.len() > "+json".len());
    let token = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(&b));
    json && kind == "application" && token(subtype) && charset.is_none_or(|c| c == "utf-8" || c == "utf8")
}

/// Whether `headers` declare a `multipart/form-data` body.
pub fn is_multipart(headers: &HeaderMap) -> bool {
    media_type(headers).is_some_and(|(essence, _)| essence == MULTIPART)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(value: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(value) = value {
            headers.insert(CONTENT_TYPE, HeaderValue::from_str(value).unwrap());
        }
        headers
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
            assert!(is_json(&headers(Some(accepted))), "{accepted}");
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
            assert!(!is_json(&headers(refused)), "{refused:?}");
        }
    }

    #[test]
    fn multipart_is_recognised_with_its_boundary() {
        assert!(is_multipart(&headers(Some("multipart/form-data; boundary=b"))));
        assert!(is_multipart(&headers(Some("Multipart/Form-Data"))));
        assert!(!is_multipart(&headers(Some("text/plain"))));
        assert!(!is_multipart(&headers(None)));
    }
}
