//! The account site's HTML: escaping, the one page layout with its security headers, redirects,
//! the shared error pages, and the site's two assets (compiled in, as the map's are).
//!
//! Every interpolated value goes through [`escape`]; attribute values are always double-quoted.
//! The pages need no script: forms post, links navigate. The one script only adds the copy
//! button next to a new token.

use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION, RETRY_AFTER, SET_COOKIE};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

const STYLE: &str = include_str!("../../assets/account/account.css");
const SCRIPT: &str = include_str!("../../assets/account/copy.js");

/// The policy of every account page (docs/ACCOUNTS.md): only this origin's script and style, no
/// frames, forms only to this origin.
pub(crate) const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                                 form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The words of a refused CSRF check or cross-site post (docs/ACCOUNTS.md).
pub(crate) const FORM_EXPIRED: &str = "This form has expired or came from another site. Go back, reload and try again.";

/// `text` safe inside an element or a quoted attribute (`canvas_html::escape::markup`).
pub(crate) use canvas_html::escape::markup as escape;

/// The signed-in part of the layout: the site's navigation and the sign-out form.
#[derive(Debug, Clone)]
pub(crate) struct Nav {
    /// The person's name and login, to say whose account this is.
    pub name: String,
    pub login: String,
    /// The session's CSRF value, for the sign-out form.
    pub csrf: String,
    /// The path of the page shown, marked `aria-current`.
    pub current: &'static str,
}

const NAV_LINKS: [(&str, &str); 6] = [
    ("/account/projects", "Projects"),
    ("/account/mentions", "Mentions"),
    ("/account/api-tokens", "API tokens"),
    ("/account/apps", "Connected apps"),
    ("/account/password", "Password"),
    ("/account/activity", "Activity"),
];

impl Nav {
    fn render(&self) -> String {
        let links: String = NAV_LINKS
            .iter()
            .map(|(href, label)| {
                let current = if *href == self.current { " aria-current=\"page\"" } else { "" };
                format!("<li><a href=\"{href}\"{current}>{label}</a></li>")
            })
            .collect();
        format!(
            "<header class=\"site\"><a class=\"brand\" href=\"/account/projects\">Canvas account</a>\
             <nav aria-label=\"Account\"><ul>{links}</ul></nav>\
             <form class=\"sign-out\" method=\"post\" action=\"/account/sign-out\">{csrf}\
             <span>Signed in as <strong>{name}</strong> ({login})</span> \
             <button type=\"submit\" id=\"sign-out\">Sign out</button></form></header>",
            csrf = csrf_field(&self.csrf),
            name = escape(&self.name),
            login = escape(&self.login),
        )
    }
}

/// The hidden `csrf` field every state-changing form carries.
pub(crate) fn csrf_field(value: &str) -> String {
    format!("<input type=\"hidden\" name=\"csrf\" value=\"{}\">", escape(value))
}

/// A hidden form field.
pub(crate) fn hidden(name: &str, value: &str) -> String {
    format!("<input type=\"hidden\" name=\"{}\" value=\"{}\">", escape(name), escape(value))
}

/// What went wrong with a form, shown above it and announced to screen readers.
pub(crate) fn problems(messages: &[String]) -> String {
    match messages {
        [] => String::new(),
        [one] => format!("<div class=\"problem\" role=\"alert\" id=\"problem\"><p>{}</p></div>", escape(one)),
        many => {
            let items: String = many.iter().map(|m| format!("<li>{}</li>", escape(m))).collect();
            format!(
                "<div class=\"problem\" role=\"alert\" id=\"problem\"><p>Please correct the following:</p>\
                 <ul>{items}</ul></div>"
            )
        }
    }
}

/// An HTML page of the account site, with its headers.
#[derive(Debug)]
pub(crate) struct Page {
    status: StatusCode,
    title: String,
    nav: Option<Nav>,
    body: String,
    cookies: Vec<String>,
    retry_after: Option<u64>,
    /// Origins the page's form may be sent on to (the OAuth client's, for the consent page).
    form_targets: Vec<String>,
    script: bool,
}

impl Page {
    pub(crate) fn new(title: impl Into<String>, body: impl Into<String>) -> Self {
        Self {
            status: StatusCode::OK,
            title: title.into(),
            nav: None,
            body: body.into(),
            cookies: Vec::new(),
            retry_after: None,
            form_targets: Vec::new(),
            script: false,
        }
    }

    pub(crate) fn status(mut self, status: StatusCode) -> Self {
        self.status = status;
        self
    }

    pub(crate) fn nav(mut self, nav: Nav) -> Self {
        self.nav = Some(nav);
        self
    }

    /// Adds a `Set-Cookie` value.
    pub(crate) fn cookie(mut self, cookie: impl Into<String>) -> Self {
        self.cookies.push(cookie.into());
        self
    }

    pub(crate) fn retry_after(mut self, seconds: Option<u64>) -> Self {
        self.retry_after = seconds;
        self
    }

    /// Lets the page's form lead to `origin`: browsers apply `form-action` to the redirect that
    /// answers a form, so the consent page's answer could not reach the client without it.
    pub(crate) fn form_target(mut self, origin: String) -> Self {
        self.form_targets.push(origin);
        self
    }

    /// Loads the copy button's script.
    pub(crate) fn with_script(mut self) -> Self {
        self.script = true;
        self
    }
}

impl IntoResponse for Page {
    fn into_response(self) -> Response {
        let header = self.nav.as_ref().map(Nav::render).unwrap_or_default();
        let script = if self.script { "<script src=\"/account/assets/copy.js\" defer></script>" } else { "" };
        let html = format!(
            "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{title} · Canvas</title><link rel=\"stylesheet\" href=\"/account/assets/account.css\">{script}</head>\
             <body><a class=\"skip\" href=\"#content\">Skip to content</a>{header}\
             <main id=\"content\"><h1>{title}</h1>{body}</main></body></html>\n",
            title = escape(&self.title),
            body = self.body,
        );
        let mut response = (self.status, html).into_response();
        let policy = if self.form_targets.is_empty() {
            POLICY.to_owned()
        } else {
            POLICY.replace("form-action 'self'", &format!("form-action 'self' {}", self.form_targets.join(" ")))
        };
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
        if let Ok(policy) = HeaderValue::from_str(&policy) {
            headers.insert(HeaderName::from_static("content-security-policy"), policy);
        }
        secure_headers(headers);
        for cookie in self.cookies.iter().filter_map(|c| HeaderValue::from_str(c).ok()) {
            headers.append(SET_COOKIE, cookie);
        }
        if let Some(seconds) = self.retry_after {
            headers.insert(RETRY_AFTER, HeaderValue::from(seconds.max(1)));
        }
        response
    }
}

/// The headers every account answer carries besides its policy: no sniffing, no referrer (a
/// sign-in link's code or a consent's parameters must not leak), never cached (a page may show a
/// new token).
fn secure_headers(headers: &mut axum::http::HeaderMap) {
    headers.insert(HeaderName::from_static("x-content-type-options"), HeaderValue::from_static("nosniff"));
    headers.insert(HeaderName::from_static("referrer-policy"), HeaderValue::from_static("no-referrer"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// `303 See Other` to `location` (a path of this site or core-service's OAuth redirect), with
/// cookies to set on the way.
pub(crate) fn see_other(location: &str, cookies: &[String]) -> Response {
    let Ok(location) = HeaderValue::from_str(location) else {
        tracing::error!("a redirect target is not a valid header value");
        return error_page(StatusCode::INTERNAL_SERVER_ERROR, "Something went wrong", "internal error");
    };
    let mut response = StatusCode::SEE_OTHER.into_response();
    let headers = response.headers_mut();
    headers.insert(LOCATION, location);
    headers.insert(HeaderName::from_static("content-security-policy"), HeaderValue::from_static(POLICY));
    secure_headers(headers);
    for cookie in cookies.iter().filter_map(|c| HeaderValue::from_str(c).ok()) {
        headers.append(SET_COOKIE, cookie);
    }
    response
}

/// A point in time as people read it (`2026-11-23 10:00 UTC`), machine-readable in `datetime`;
/// `absent` when there is none.
pub(crate) fn time(at: Option<&prost_types::Timestamp>, absent: &str) -> String {
    match at.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32)) {
        Some(at) => format!(
            "<time datetime=\"{}\">{}</time>",
            at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            at.format("%Y-%m-%d %H:%M UTC")
        ),
        None => escape(absent),
    }
}

/// The 400 of a form body that could not be read at all (not form-encoded, broken encoding).
pub(crate) fn unreadable_form() -> Response {
    error_page(
        StatusCode::BAD_REQUEST,
        "That did not work",
        "The form could not be read. Go back, reload and try again.",
    )
}

/// A page that only says what went wrong.
pub(crate) fn error_page(status: StatusCode, title: &str, message: &str) -> Response {
    let body = format!(
        "<div class=\"problem\" role=\"alert\" id=\"problem\"><p>{}</p></div>\
         <p><a href=\"/account\">Go to your account</a></p>",
        escape(message)
    );
    Page::new(title, body).status(status).into_response()
}

/// The 403 of a failed CSRF check or a cross-site post.
pub(crate) fn form_expired() -> Response {
    error_page(StatusCode::FORBIDDEN, "Form expired", FORM_EXPIRED)
}

/// `GET /account/assets/{file}`: the style sheet and the copy button's script.
pub(crate) async fn asset(Path(file): Path<String>) -> Response {
    let (content_type, body) = match file.as_str() {
        "account.css" => ("text/css; charset=utf-8", STYLE),
        "copy.js" => ("text/javascript; charset=utf-8", SCRIPT),
        _ => return error_page(StatusCode::NOT_FOUND, "Not found", "There is no such file."),
    };
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(HeaderName::from_static("content-security-policy"), HeaderValue::from_static(POLICY));
    secure_headers(headers);
    // Assets change only with the binary; revalidating keeps an upgrade visible at once.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_every_special_character() {
        assert_eq!(escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
        assert_eq!(escape("plain text"), "plain text");
    }

    #[test]
    fn times_are_readable_and_tagged() {
        let at = prost_types::Timestamp { seconds: 1_795_428_000, nanos: 0 };
        assert_eq!(time(Some(&at), "never"), "<time datetime=\"2026-11-23T10:00:00Z\">2026-11-23 10:00 UTC</time>");
        assert_eq!(time(None, "never"), "never");
    }

    #[test]
    fn pages_carry_the_security_headers() {
        let response = Page::new("T<", "<p>x</p>").cookie("a=b").into_response();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        assert_eq!(header("content-security-policy"), POLICY);
        assert_eq!(header("x-content-type-options"), "nosniff");
        assert_eq!(header("referrer-policy"), "no-referrer");
        assert_eq!(header("cache-control"), "no-store");
        assert_eq!(header("set-cookie"), "a=b");
        let consent = Page::new("c", "").form_target("http://127.0.0.1:3000".into()).into_response();
        let policy = consent.headers().get("content-security-policy").and_then(|v| v.to_str().ok()).unwrap_or("");
        assert!(policy.contains("form-action 'self' http://127.0.0.1:3000; "), "{policy}");
    }
}
