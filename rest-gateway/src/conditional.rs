//! Conditional requests (RFC 9110 section 13), as protocol only: the entity tags this gateway
//! writes, `If-Match` read into the item versions core-service compares (strong comparison: a weak
//! tag never matches), and `If-None-Match` on reads answered 304 (weak comparison).
//!
//! Tags: an item's is its version, `"7"`, the same in every `jsonCasing` (the casing is part of
//! the URL, so each casing is a resource of its own for caches); its MessagePack representation
//! is `"7-msgpack"`, which names the same version. A property value and a listing page carry a
//! weak tag of their rendered bytes, `W/"…"`, so every casing and format has its own.

use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH, VARY};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

use crate::error::ApiError;

/// Suffix of the tags of MessagePack representations of an item.
const MSGPACK_SUFFIX: &str = "-msgpack";

/// One entity tag of a request header: `W/"x"` or `"x"`, the quotes removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntityTag<'a> {
    pub weak: bool,
    pub opaque: &'a str,
}

/// An `If-Match` or `If-None-Match` field value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition<'a> {
    /// `*`: any current representation.
    Any,
    /// A list of entity tags (possibly empty: the field held only empty list elements).
    Tags(Vec<EntityTag<'a>>),
}

/// Parses `"*" / #entity-tag` (RFC 9110 8.8.3, 13.1.1); None when the value is not that. Tags
/// may hold commas, so the list is scanned, not split.
pub fn parse(value: &str) -> Option<Condition<'_>> {
    if value.trim() == "*" {
        return Some(Condition::Any);
    }
    let mut tags = Vec::new();
    let mut rest = value;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return Some(Condition::Tags(tags));
        }
        let (weak, quoted) = match rest.strip_prefix("W/") {
            Some(after) => (true, after),
            None => (false, rest),
        };
        let inner = quoted.strip_prefix('"')?;
        let end = inner.find('"')?;
        let opaque = &inner[..end];
        // etagc: %x21 / %x23-7E / obs-text; a str's non-ASCII characters are obs-text bytes.
        if !opaque.bytes().all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80) {
            return None;
        }
        tags.push(EntityTag { weak, opaque });
        rest = inner[end + 1..].trim_start_matches([' ', '\t']);
        if !(rest.is_empty() || rest.starts_with(',')) {
            return None;
        }
    }
}

/// Every value of a header joined as one list (a field may be sent on several lines).
fn joined(headers: &HeaderMap, name: &HeaderName) -> Option<Result<String, ()>> {
    let mut values = headers.get_all(name).iter().peekable();
    values.peek()?;
    let texts: Result<Vec<&str>, _> = values.map(|v| v.to_str()).collect();
    Some(texts.map(|t| t.join(", ")).map_err(|_| ()))
}

/// The item tag of `version`, in its MessagePack representation when `msgpack` (the negotiated
/// format, `crate::respond::Format`, decides).
pub fn item_tag(version: i64, msgpack: bool) -> String {
    match msgpack {
        true => format!("\"{version}{MSGPACK_SUFFIX}\""),
        false => format!("\"{version}\""),
    }
}

/// The item version a strong tag written by [`item_tag`] names.
fn tagged_version(opaque: &str) -> Option<i64> {
    let number = opaque.strip_suffix(MSGPACK_SUFFIX).unwrap_or(opaque);
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    number.parse().ok()
}

/// The versions an `If-Match` header accepts: None without the header or with `*` (any current
/// version); else the versions its strong tags name, possibly none (only weak tags, or tags that
/// name no version: then no version matches and core-service answers 412). A value that is not
/// an entity-tag list is a 400 naming the header.
pub fn if_match(headers: &HeaderMap) -> Result<Option<Vec<i64>>, ApiError> {
    let rule = "must be * or a list of the item's ETags as GET answers them (quoted, such as \"7\" or \"6\", \"7\")";
    let Some(value) = joined(headers, &axum::http::header::IF_MATCH) else { return Ok(None) };
    let value = value.map_err(|_| ApiError::invalid("If-Match", rule))?;
    match parse(&value) {
        Some(Condition::Any) => Ok(None),
        // If-Match uses the strong comparison: a weak tag never matches.
        Some(Condition::Tags(tags)) => {
            Ok(Some(tags.iter().filter(|t| !t.weak).filter_map(|t| tagged_version(t.opaque)).collect()))
        }
        None => Err(ApiError::invalid("If-Match", rule)),
    }
}

/// A weak tag of a rendered body: the first 128 bits of its SHA-256, in hex.
pub fn content_tag(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    format!("W/\"{hex}\"")
}

/// Adds `tag` as the `ETag` of a successful answer, with `Vary: Accept` (the tag depends on the
/// negotiated format).
pub fn tagged(mut response: Response, tag: Option<String>) -> Response {
    if !response.status().is_success() {
        return response;
    }
    if let Some(value) = tag.and_then(|t| HeaderValue::from_str(&t).ok()) {
        response.headers_mut().insert(ETAG, value);
        response.headers_mut().insert(VARY, HeaderValue::from_static("Accept"));
    }
    response
}

/// Answers a `GET` 304 Not Modified when its `If-None-Match` matches the `ETag` of the answer it
/// would give (weak comparison, RFC 9110 13.1.2; `*` matches any current representation): the
/// `ETag` and the caching fields of that answer, no body. Only a 200 (a representation the caller
/// may read) is ever turned into a 304; an `If-None-Match` that is not an entity-tag list is
/// ignored.
pub fn not_modified(request: &HeaderMap, response: Response) -> Response {
    if response.status() != StatusCode::OK {
        return response;
    }
    let Some(Ok(value)) = joined(request, &IF_NONE_MATCH) else { return response };
    let Some(current) = response.headers().get(ETAG).and_then(|v| v.to_str().ok()) else { return response };
    let Some(Condition::Tags(current)) = parse(current) else { return response };
    let Some(current) = current.first().copied() else { return response };
    let matches = match parse(&value) {
        Some(Condition::Any) => true,
        Some(Condition::Tags(tags)) => tags.iter().any(|t| t.opaque == current.opaque),
        None => false,
    };
    if !matches {
        return response;
    }
    let mut answer = StatusCode::NOT_MODIFIED.into_response();
    for name in [ETAG, VARY, CACHE_CONTROL] {
        if let Some(value) = response.headers().get(&name) {
            answer.headers_mut().insert(name, value.clone());
        }
    }
    answer
}

/// The conditions of a write after `If-Match`, for core-service to evaluate in RFC 9110's order
/// (13.2.2): `If-Unmodified-Since` only without `If-Match` (step 2), ignored when it is no
/// HTTP-date (13.1.4); `If-None-Match` as the versions its tags name, weak or strong (a write
/// compares weakly), or `*`. A malformed `If-None-Match` is a 400 naming it: a write must not go
/// ahead on a condition the client got wrong.
pub fn write_conditions(headers: &HeaderMap) -> Result<Option<canvas_proto::v1::Preconditions>, ApiError> {
    let mut conditions = canvas_proto::v1::Preconditions::default();
    if headers.get(axum::http::header::IF_MATCH).is_none() {
        conditions.unmodified_since = http_date(headers, &axum::http::header::IF_UNMODIFIED_SINCE)
            .map(|secs| prost_types::Timestamp { seconds: secs, nanos: 0 });
    }
    if let Some(value) = joined(headers, &IF_NONE_MATCH) {
        let rule = "must be * or a list of ETags (quoted, such as \"7\" or W/\"7\")";
        let value = value.map_err(|_| ApiError::invalid("If-None-Match", rule))?;
        match parse(&value) {
            Some(Condition::Any) => conditions.none_match_any = true,
            Some(Condition::Tags(tags)) => {
                conditions.none_match_versions = tags.iter().filter_map(|t| tagged_version(t.opaque)).collect()
            }
            None => return Err(ApiError::invalid("If-None-Match", rule)),
        }
    }
    let none = conditions == canvas_proto::v1::Preconditions::default();
    Ok((!none).then_some(conditions))
}

/// A header's HTTP-date as Unix seconds; None when absent or not an HTTP-date.
fn http_date(headers: &HeaderMap, name: &HeaderName) -> Option<i64> {
    let value = headers.get(name)?.to_str().ok()?;
    let time = httpdate::parse_http_date(value.trim()).ok()?;
    time.duration_since(std::time::UNIX_EPOCH).ok().map(|d| d.as_secs() as i64)
}

/// A read's answer under its request's conditions, in RFC 9110's order (13.2.2), given the
/// `Last-Modified` of the representation (Unix seconds) when known, which it also sets:
/// 1. `If-Match` (strong comparison with the answer's `ETag`): false → 412;
/// 2. without `If-Match`, `If-Unmodified-Since`: modified after it → 412;
/// 3. `If-None-Match` (weak comparison): true → 304 ([`not_modified`]);
/// 4. without `If-None-Match`, `If-Modified-Since`: not modified after it → 304.
///
/// Only a 200 is ever changed: a caller without access keeps its 401/403/404.
pub fn conditional_read(
    request: &HeaderMap,
    mut response: Response,
    last_modified: Option<i64>,
    casing: crate::casing::Casing,
) -> Response {
    if response.status() != StatusCode::OK {
        return response;
    }
    if let Some(value) = last_modified.and_then(|secs| {
        let time = std::time::UNIX_EPOCH + std::time::Duration::from_secs(u64::try_from(secs).ok()?);
        HeaderValue::from_str(&httpdate::fmt_http_date(time)).ok()
    }) {
        response.headers_mut().insert(axum::http::header::LAST_MODIFIED, value);
        // With a Last-Modified and no freshness of its own, a browser's cache may serve the answer
        // without asking for a while (heuristic freshness, RFC 9111 4.2.2): an editor would then
        // read an item's old state. `no-cache` keeps it stored but revalidated (a 304) every time.
        if !response.headers().contains_key(CACHE_CONTROL) {
            response.headers_mut().insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        }
    }
    let current = response.headers().get(ETAG).and_then(|v| v.to_str().ok()).map(str::to_owned);
    if let Some(value) = joined(request, &axum::http::header::IF_MATCH) {
        let matches = match value.ok().as_deref().map(parse) {
            Some(Some(Condition::Any)) => true,
            Some(Some(Condition::Tags(tags))) => current.as_deref().and_then(parse).is_some_and(|c| match c {
                Condition::Tags(c) => {
                    c.first().is_some_and(|c| !c.weak && tags.iter().any(|t| !t.weak && t.opaque == c.opaque))
                }
                Condition::Any => false,
            }),
            _ => false,
        };
        if !matches {
            let detail = "If-Match names no current ETag of this resource (strong comparison)";
            return precondition_failed(detail, current_version(current.as_deref()), casing);
        }
    } else if let (Some(since), Some(modified)) =
        (http_date(request, &axum::http::header::IF_UNMODIFIED_SINCE), last_modified)
    {
        if modified > since {
            let detail = "it was changed after the If-Unmodified-Since date";
            return precondition_failed(detail, current_version(current.as_deref()), casing);
        }
    }
    if request.get(IF_NONE_MATCH).is_some() {
        return not_modified(request, response);
    }
    if let (Some(since), Some(modified)) = (http_date(request, &axum::http::header::IF_MODIFIED_SINCE), last_modified) {
        if modified <= since {
            // As a 304 of If-None-Match: the ETag makes Last-Modified unneeded (RFC 9110 15.4.5).
            let mut answer = StatusCode::NOT_MODIFIED.into_response();
            for name in [ETAG, VARY, CACHE_CONTROL] {
                if let Some(value) = response.headers().get(&name) {
                    answer.headers_mut().insert(name, value.clone());
                }
            }
            return answer;
        }
    }
    response
}

/// The version a resource's current (strong) `ETag` names, when it names one (an item's or a
/// record's; a listing's weak content tag names none).
fn current_version(etag: Option<&str>) -> Option<i64> {
    match parse(etag?)? {
        Condition::Tags(tags) => tags.first().filter(|t| !t.weak).and_then(|t| tagged_version(t.opaque)),
        Condition::Any => None,
    }
}

/// A read's 412, with `currentVersion` when the resource has one, as a write's 412 has.
fn precondition_failed(detail: &str, version: Option<i64>, casing: crate::casing::Casing) -> Response {
    let mut error = ApiError::new(StatusCode::PRECONDITION_FAILED, detail);
    if let Some(version) = version {
        error.extra.push(("currentVersion", version.into()));
    }
    error.into_problem(casing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(value: &str) -> Vec<(bool, &str)> {
        match parse(value) {
            Some(Condition::Tags(tags)) => tags.into_iter().map(|t| (t.weak, t.opaque)).collect(),
            other => panic!("{value}: {other:?}"),
        }
    }

    #[test]
    fn entity_tag_lists_are_scanned_per_rfc_9110() {
        assert_eq!(parse("*"), Some(Condition::Any));
        assert_eq!(parse(" * "), Some(Condition::Any));
        assert_eq!(tags("\"7\""), [(false, "7")]);
        assert_eq!(tags("\"999\", \"7\""), [(false, "999"), (false, "7")]);
        assert_eq!(tags("W/\"7\",\"8\""), [(true, "7"), (false, "8")]);
        assert_eq!(tags("\"a,b\", W/\"\""), [(false, "a,b"), (true, "")]);
        assert_eq!(tags(", ,\"7\",,"), [(false, "7")]);
        for malformed in ["7", "\"7", "\"7\" \"8\"", "*, \"7\"", "w/\"7\"", "W/7", "\"a b\"", "\"7\"x"] {
            assert_eq!(parse(malformed), None, "{malformed}");
        }
    }

    fn if_match_of(value: &str) -> Result<Option<Vec<i64>>, ApiError> {
        let mut headers = HeaderMap::new();
        headers.insert(axum::http::header::IF_MATCH, HeaderValue::from_str(value).unwrap());
        if_match(&headers)
    }

    #[test]
    fn if_match_keeps_the_versions_of_strong_tags_only() {
        assert_eq!(if_match(&HeaderMap::new()).unwrap(), None);
        assert_eq!(if_match_of("*").unwrap(), None);
        assert_eq!(if_match_of("\"999\", \"7\"").unwrap(), Some(vec![999, 7]));
        assert_eq!(if_match_of("\"7-msgpack\"").unwrap(), Some(vec![7]));
        assert_eq!(if_match_of("W/\"7\"").unwrap(), Some(vec![]));
        assert_eq!(if_match_of("\"abc\", \"-1\", \"7x\"").unwrap(), Some(vec![]));
        assert_eq!(if_match_of("7").unwrap_err().fields[0].field, "If-Match");
        let mut two_lines = HeaderMap::new();
        two_lines.append(axum::http::header::IF_MATCH, HeaderValue::from_static("\"1\""));
        two_lines.append(axum::http::header::IF_MATCH, HeaderValue::from_static("\"2\""));
        assert_eq!(if_match(&two_lines).unwrap(), Some(vec![1, 2]));
    }

    fn answer_with(tag: &str) -> Response {
        let mut response = (StatusCode::OK, "body").into_response();
        response.headers_mut().insert(ETAG, HeaderValue::from_str(tag).unwrap());
        response
    }

    fn none_match(value: &str, tag: &str) -> StatusCode {
        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        not_modified(&headers, answer_with(tag)).status()
    }

    #[test]
    fn if_none_match_compares_weakly() {
        assert_eq!(none_match("\"7\"", "\"7\""), StatusCode::NOT_MODIFIED);
        assert_eq!(none_match("W/\"7\"", "\"7\""), StatusCode::NOT_MODIFIED);
        assert_eq!(none_match("\"7\"", "W/\"7\""), StatusCode::NOT_MODIFIED);
        assert_eq!(none_match("\"1\", W/\"7\"", "\"7\""), StatusCode::NOT_MODIFIED);
        assert_eq!(none_match("*", "\"7\""), StatusCode::NOT_MODIFIED);
        assert_eq!(none_match("\"6\"", "\"7\""), StatusCode::OK);
        assert_eq!(none_match("\"7\"", "\"7-msgpack\""), StatusCode::OK);
        assert_eq!(none_match("garbage", "\"7\""), StatusCode::OK);
        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, HeaderValue::from_static("*"));
        let missing = (StatusCode::NOT_FOUND, "no").into_response();
        assert_eq!(not_modified(&headers, missing).status(), StatusCode::NOT_FOUND);
    }

    #[test]
    fn content_tags_are_weak_and_follow_the_bytes() {
        let tag = content_tag(b"{}");
        assert!(tag.starts_with("W/\"") && tag.len() == 3 + 32 + 1, "{tag}");
        assert_eq!(tag, content_tag(b"{}"));
        assert_ne!(tag, content_tag(b"{ }"));
    }
}
