//! The account site's two cookies, named and shaped as docs/ACCOUNTS.md says.
//!
//! On an `https://` account URL they are `__Host-` cookies with `Secure`: the prefix makes the
//! browser refuse them unless set by this host over HTTPS with `Path=/` and no `Domain`, so a
//! sibling subdomain cannot plant or overwrite one. Browsers refuse `Secure` cookies on plain HTTP,
//! so a development URL gets the plain names without it. Both are `HttpOnly` (no script needs
//! them: the double-submit value is written into the form by the server) and `SameSite=Lax`.

use axum::http::header::COOKIE;
use axum::http::HeaderMap;

/// Longest cookie value read back: ours are about 50 characters; anything far longer is not ours.
const MAX_VALUE_LEN: usize = 512;

/// Which names and attributes the site's cookies have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cookies {
    /// The account URL is `https://`: `__Host-` names and `Secure`.
    secure: bool,
}

impl Cookies {
    pub(crate) fn new(secure: bool) -> Self {
        Self { secure }
    }

    /// The cookies of a site whose public base URL is `account_url` (`None`: plain HTTP).
    pub(crate) fn for_account_url(account_url: Option<&str>) -> Self {
        Self::new(account_url.is_some_and(|url| url.get(..8).is_some_and(|s| s.eq_ignore_ascii_case("https://"))))
    }

    pub(crate) fn session_name(self) -> &'static str {
        if self.secure {
            "__Host-canvas_session"
        } else {
            "canvas_session"
        }
    }

    pub(crate) fn csrf_name(self) -> &'static str {
        if self.secure {
            "__Host-canvas_csrf"
        } else {
            "canvas_csrf"
        }
    }

    /// `Set-Cookie` for a new session. `Max-Age` is core-service's idle expiry, so the browser
    /// forgets the cookie about when an unused session ends; whether a session is still valid is
    /// decided by core-service alone (absolute expiry, sign-out).
    pub(crate) fn session(self, value: &str, idle_seconds: u32) -> String {
        self.build(self.session_name(), value, (idle_seconds > 0).then_some(idle_seconds))
    }

    /// `Set-Cookie` that removes the session cookie (sign-out, or a session core-service no
    /// longer knows).
    pub(crate) fn clear_session(self) -> String {
        self.build(self.session_name(), "", Some(0))
    }

    /// `Set-Cookie` of the pre-session double-submit value: a browser-session cookie, gone when
    /// the browser closes.
    pub(crate) fn csrf(self, value: &str) -> String {
        self.build(self.csrf_name(), value, None)
    }

    fn build(self, name: &str, value: &str, max_age: Option<u32>) -> String {
        let mut cookie = format!("{name}={value}; Path=/; HttpOnly; SameSite=Lax");
        if let Some(seconds) = max_age {
            cookie.push_str(&format!("; Max-Age={seconds}"));
        }
        if self.secure {
            cookie.push_str("; Secure");
        }
        cookie
    }
}

/// Whether `value` can be written into a cookie as is: every value we set is base64url or
/// `svc_ss_` + base62, so anything else is refused rather than quoted.
pub(crate) fn is_plain_value(value: &str) -> bool {
    !value.is_empty()
        && value.len() <= MAX_VALUE_LEN
        && value.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The value of the cookie `name`, from every `Cookie` header of the request. A value that is
/// not plain (see [`is_plain_value`]) is not one of ours and is ignored.
pub(crate) fn read(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|header| header.to_str().ok())
        .flat_map(|header| header.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .filter(|(key, _)| *key == name)
        .map(|(_, value)| value.trim())
        .find(|value| is_plain_value(value))
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    #[test]
    fn https_cookies_are_host_prefixed_and_secure() {
        let cookies = Cookies::for_account_url(Some("HTTPS://canvas.example"));
        assert_eq!(
            cookies.session("svc_ss_abc", 43200),
            "__Host-canvas_session=svc_ss_abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure"
        );
        assert_eq!(
            cookies.clear_session(),
            "__Host-canvas_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure"
        );
        assert_eq!(cookies.csrf("q-_9"), "__Host-canvas_csrf=q-_9; Path=/; HttpOnly; SameSite=Lax; Secure");
    }

    #[test]
    fn plain_http_cookies_have_plain_names_and_no_secure() {
        for cookies in [Cookies::for_account_url(None), Cookies::for_account_url(Some("http://127.0.0.1:8080"))] {
            assert_eq!(
                cookies.session("svc_ss_abc", 60),
                "canvas_session=svc_ss_abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"
            );
            assert_eq!(cookies.session("svc_ss_abc", 0), "canvas_session=svc_ss_abc; Path=/; HttpOnly; SameSite=Lax");
            assert_eq!(cookies.clear_session(), "canvas_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0");
            assert_eq!(cookies.csrf("x"), "canvas_csrf=x; Path=/; HttpOnly; SameSite=Lax");
        }
    }

    #[test]
    fn reads_only_plain_values_of_the_exact_name() {
        let mut headers = HeaderMap::new();
        headers.append(COOKIE, HeaderValue::from_static("other=1; canvas_session=bad\"value; x_canvas_session=no"));
        headers.append(COOKIE, HeaderValue::from_static("canvas_session=svc_ss_Ok9; canvas_csrf=abc-_"));
        assert_eq!(read(&headers, "canvas_session").as_deref(), Some("svc_ss_Ok9"));
        assert_eq!(read(&headers, "canvas_csrf").as_deref(), Some("abc-_"));
        assert_eq!(read(&headers, "__Host-canvas_session"), None);
        assert!(!is_plain_value(""));
        assert!(!is_plain_value("a b"));
    }
}
