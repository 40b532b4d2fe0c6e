//! The account site's HTTP-level defences, which are framing rather than rules: refusing
//! cross-site form posts, keeping `next` on this site, and the pre-session double-submit value.
//! Everything about who may do what is core-service's.

use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::{HeaderMap, Method};
use axum::middleware::Next;
use axum::response::Response;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use subtle::ConstantTimeEq;
use url::Url;

use super::html;
use crate::state::AppState;

/// Where a signed-in person goes when `next` is missing or not a path of this site.
pub(crate) const DEFAULT_NEXT: &str = "/account/projects";

/// A stand-in origin to resolve `next` against: a path that leaves it was not a path.
const PROBE_BASE: &str = "http://next.invalid/";

/// axum middleware on the account pages and `/oauth/authorize`: a `POST` from another site is
/// refused with 403 before its body is read or anything else runs.
pub(crate) async fn refuse_cross_site(State(state): State<AppState>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && is_cross_site(request.headers(), state.account_url.as_deref()) {
        return html::form_expired();
    }
    next.run(request).await
}

/// Whether a request comes from another site: `Sec-Fetch-Site: cross-site`, or an `Origin` that
/// is not the account site's (`account_url`'s, or when unset the `Host` the request was sent to).
///
/// `Origin: null` names no origin: browsers send it for every form post from a page whose
/// referrer policy is `no-referrer`, which every account page has. It passes unless
/// `Sec-Fetch-Site` says a sibling origin sent it (`same-site`, which a page of another port or
/// subdomain hiding its origin would be); no `Origin` at all passes too (older browsers omit it
/// on same-origin posts). The double-submit value or the session's CSRF value still guard both.
pub(crate) fn is_cross_site(headers: &HeaderMap, account_url: Option<&str>) -> bool {
    let fetch_site = headers.get("sec-fetch-site").map(|v| v.as_bytes().to_ascii_lowercase());
    if fetch_site.as_deref() == Some(b"cross-site") {
        return true;
    }
    let Some(origin) = headers.get(ORIGIN) else { return false };
    let origin = origin.to_str().unwrap_or("").trim();
    if origin.eq_ignore_ascii_case("null") {
        return fetch_site.as_deref() == Some(b"same-site");
    }
    // Garbage names no origin of ours.
    let Ok(origin) = Url::parse(origin) else { return true };
    !is_own_origin(&origin, headers, account_url)
}

/// Whether a write with the session cookie comes from anywhere but this site's own pages, which
/// send it with `fetch` (so with their `Origin`): `Sec-Fetch-Site` `cross-site` or `same-site`, or
/// an `Origin` that is not the service's own (`account_url`'s, or when unset the `Host` the
/// request was sent to); `null` is no origin of ours. No `Origin` at all passes (the page's
/// `X-Canvas-CSRF` value, which core-service checks, still guards it).
pub(crate) fn is_foreign_write(headers: &HeaderMap, account_url: Option<&str>) -> bool {
    let fetch_site = headers.get("sec-fetch-site").map(|v| v.as_bytes().to_ascii_lowercase());
    if matches!(fetch_site.as_deref(), Some(b"cross-site" | b"same-site")) {
        return true;
    }
    let Some(origin) = headers.get(ORIGIN) else { return false };
    let Ok(origin) = Url::parse(origin.to_str().unwrap_or("").trim()) else { return true };
    !is_own_origin(&origin, headers, account_url)
}

/// Whether `origin` is the service's own: `account_url`'s, or when unset the request's `Host`.
fn is_own_origin(origin: &Url, headers: &HeaderMap, account_url: Option<&str>) -> bool {
    match account_url {
        Some(own) => Url::parse(own).is_ok_and(|own| own.origin() == origin.origin()),
        None => {
            let host = headers.get(HOST).and_then(|h| h.to_str().ok()).unwrap_or("");
            origin_is_host(origin, host)
        }
    }
}

/// Whether `origin` names the host (and port) of a `Host` header, the port defaulting to the
/// origin scheme's.
fn origin_is_host(origin: &Url, host: &str) -> bool {
    let Ok(own) = Url::parse(&format!("{}://{}", origin.scheme(), host.trim())) else { return false };
    own.host() == origin.host() && own.port_or_known_default() == origin.port_or_known_default()
}

/// `next` when it is a path on this site: it starts with one `/` (not `//`, a host), has no
/// backslash (browsers read `/\host` as `//host`), no control characters, and resolves to a path
/// of the same origin. The answer is the path and query as the URL parser writes them (the
/// fragment dropped); anything else gives [`DEFAULT_NEXT`].
pub(crate) fn safe_next(next: Option<&str>) -> String {
    next.and_then(same_site_path).unwrap_or_else(|| DEFAULT_NEXT.to_owned())
}

fn same_site_path(next: &str) -> Option<String> {
    if !next.starts_with('/') || next.starts_with("//") || next.contains('\\') || next.chars().any(char::is_control) {
        return None;
    }
    let base = Url::parse(PROBE_BASE).ok()?;
    let resolved = base.join(next).ok()?;
    // Dot segments can bring empty segments to the front: `/..//evil.example` resolves to the path
    // `//evil.example`, which a browser reads as another host (a protocol-relative reference).
    if resolved.origin() != base.origin() || resolved.path().starts_with("//") {
        return None;
    }
    Some(match resolved.query() {
        Some(query) => format!("{}?{query}", resolved.path()),
        None => resolved.path().to_owned(),
    })
}

/// The sign-in page's URL that comes back to `next` afterwards.
pub(crate) fn sign_in_url(next: &str) -> String {
    let next = safe_next(Some(next));
    if next == DEFAULT_NEXT {
        return "/account/sign-in".to_owned();
    }
    format!("/account/sign-in?next={}", form_urlencoded::byte_serialize(next.as_bytes()).collect::<String>())
}

/// The map page behind `next` with the token prompt instead of the session (`auth=token`), for
/// the sign-in page's "Use an API token instead"; `None` when `next` is not a map.
pub(crate) fn token_map_url(next: &str) -> Option<String> {
    let next = same_site_path(next)?;
    if !next.starts_with("/map/") {
        return None;
    }
    let mut url = Url::parse(PROBE_BASE).ok()?.join(&next).ok()?;
    url.query_pairs_mut().append_pair("auth", "token");
    Some(match url.query() {
        Some(query) => format!("{}?{query}", url.path()),
        None => url.path().to_owned(),
    })
}

/// A fresh double-submit value: 32 random bytes, base64url.
pub(crate) fn new_csrf_value() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)?;
    Ok(URL_SAFE_NO_PAD.encode(bytes))
}

/// Whether the form repeated the cookie's double-submit value, compared in constant time.
pub(crate) fn csrf_matches(cookie: Option<&str>, form: &str) -> bool {
    cookie.is_some_and(|cookie| !cookie.is_empty() && bool::from(cookie.as_bytes().ct_eq(form.as_bytes())))
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn next_is_kept_only_when_it_is_a_path_of_this_site() {
        assert_eq!(safe_next(Some("/map/p1?node=n2")), "/map/p1?node=n2");
        assert_eq!(
            safe_next(Some("/oauth/authorize?client_id=a&state=x%20y")),
            "/oauth/authorize?client_id=a&state=x%20y"
        );
        assert_eq!(safe_next(Some("/account/a/../api-tokens#top")), "/account/api-tokens");
        for refused in [
            "//evil.example/x",
            "/\\evil.example",
            "https://evil.example/",
            "map/p1",
            "",
            "/a\nb",
            "javascript:alert(1)",
            "/..//evil.example",
            "/a/../..//evil.example/x",
            "/.//evil.example",
        ] {
            assert_eq!(safe_next(Some(refused)), DEFAULT_NEXT, "{refused:?}");
        }
        assert_eq!(safe_next(None), DEFAULT_NEXT);
    }

    proptest::proptest! {
        /// Whatever `next` holds (pieces of the tricks open redirects use, in any order), the
        /// path kept sends a browser nowhere but this site.
        #[test]
        fn next_never_leaves_the_site(pieces in proptest::collection::vec(proptest::sample::select(vec![
            "/", "//", "\\", "\\\\", "%2F", "%5C", "evil.example", "@", ":", "https:", "javascript:", "..",
            "?", "#", "\t", "\n", " ", "%0a", "map", "\u{3000}", "\u{ff0f}", ".",
        ]), 0..10)) {
            let next = pieces.concat();
            let kept = safe_next(Some(&next));
            proptest::prop_assert!(kept.starts_with('/') && !kept.starts_with("//") && !kept.contains('\\'), "{next:?} kept as {kept:?}");
            let base = Url::parse("https://canvas.example/account/sign-in").unwrap();
            let landed = base.join(&kept).unwrap();
            proptest::prop_assert_eq!(landed.origin(), base.origin(), "{:?} kept as {:?}", next, kept);
        }
    }

    #[test]
    fn sign_in_and_token_links_carry_next() {
        assert_eq!(sign_in_url("/map/p1?node=n2"), "/account/sign-in?next=%2Fmap%2Fp1%3Fnode%3Dn2");
        assert_eq!(sign_in_url("/account/projects"), "/account/sign-in");
        assert_eq!(token_map_url("/map/p1?node=n2").as_deref(), Some("/map/p1?node=n2&auth=token"));
        assert_eq!(token_map_url("/map/p1").as_deref(), Some("/map/p1?auth=token"));
        assert_eq!(token_map_url("/account/projects"), None);
    }

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs.iter().map(|(k, v)| (axum::http::HeaderName::from_static(k), HeaderValue::from_static(v))).collect()
    }

    #[test]
    fn cross_site_posts_are_recognised() {
        let own = Some("https://canvas.example");
        assert!(!is_cross_site(&headers(&[("origin", "https://canvas.example")]), own));
        assert!(!is_cross_site(&headers(&[("origin", "https://CANVAS.example:443")]), own));
        assert!(!is_cross_site(&headers(&[]), own));
        assert!(is_cross_site(&headers(&[("origin", "https://evil.example")]), own));
        assert!(!is_cross_site(&headers(&[("origin", "null")]), own), "a no-referrer page's own form");
        assert!(!is_cross_site(&headers(&[("origin", "null"), ("sec-fetch-site", "same-origin")]), own));
        assert!(is_cross_site(&headers(&[("origin", "null"), ("sec-fetch-site", "same-site")]), own));
        assert!(is_cross_site(&headers(&[("origin", "null"), ("sec-fetch-site", "cross-site")]), own));
        assert!(is_cross_site(&headers(&[("origin", "not an origin")]), own));
        assert!(is_cross_site(&headers(&[("sec-fetch-site", "cross-site")]), own));
        let dev = [("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")];
        assert!(!is_cross_site(&headers(&dev), None));
        assert!(is_cross_site(&headers(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:9999")]), None));
        assert!(!is_cross_site(&headers(&[("host", "[::1]"), ("origin", "http://[::1]:80")]), None));
    }

    #[test]
    fn cookie_writes_from_other_sites_are_recognised() {
        let own = Some("https://canvas.example");
        assert!(!is_foreign_write(&headers(&[("origin", "https://canvas.example")]), own));
        assert!(!is_foreign_write(
            &headers(&[("origin", "https://canvas.example"), ("sec-fetch-site", "same-origin")]),
            own
        ));
        assert!(!is_foreign_write(&headers(&[]), own));
        assert!(is_foreign_write(&headers(&[("origin", "https://evil.example")]), own));
        assert!(is_foreign_write(&headers(&[("origin", "null")]), own), "no origin of ours");
        assert!(is_foreign_write(&headers(&[("sec-fetch-site", "same-site")]), own));
        assert!(is_foreign_write(
            &headers(&[("origin", "https://canvas.example"), ("sec-fetch-site", "cross-site")]),
            own
        ));
        assert!(!is_foreign_write(&headers(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:8080")]), None));
        assert!(is_foreign_write(&headers(&[("host", "127.0.0.1:8080"), ("origin", "http://127.0.0.1:9")]), None));
    }

    #[test]
    fn csrf_values_are_random_and_compared_whole() {
        let value = new_csrf_value().unwrap();
        assert_eq!(value.len(), 43);
        assert_ne!(value, new_csrf_value().unwrap());
        assert!(csrf_matches(Some(&value), &value));
        assert!(!csrf_matches(Some(&value), &value[..42]));
        assert!(!csrf_matches(None, ""));
        assert!(!csrf_matches(Some(""), ""));
    }
}
