//! Who is asking: the [`Visitor`] every account handler extracts (cookies, client address, user
//! agent, the site's base URL), and the middleware that lets a session cookie authenticate the
//! REST API's reads. The calls made for it are in `calls.rs`.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::header::{AUTHORIZATION, HOST, USER_AGENT};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use canvas_proto::v1 as pb;

use super::cookies::{self, Cookies};
use super::html::Nav;
use super::security;
use crate::caller::ForwardedSession;
use crate::casing::Casing;
use crate::error::ApiError;
use crate::state::AppState;

/// The browser behind an account request.
#[derive(Debug, Clone)]
pub(crate) struct Visitor {
    /// The site's cookie names and attributes.
    pub cookies: Cookies,
    /// The session cookie's value, when one was sent.
    pub session: Option<String>,
    /// The pre-session double-submit cookie's value, when one was sent.
    pub csrf_cookie: Option<String>,
    /// The peer address as the server saw it (empty when unknown), for throttling and the audit.
    pub client_address: String,
    pub user_agent: String,
    /// The account site's public base URL: `--account-url`, else this request's own origin.
    pub base_url: String,
    /// The request's path and query, to come back to after signing in.
    pub here: String,
}

/// The client's address: the last value of the trusted proxy's header when one is configured
/// (the proxy appends the address it saw; earlier values are the client's own claims), else the
/// connection's peer. core-service bounds its length, as it does the user agent's.
fn client_address(parts: &Parts, header: Option<&axum::http::HeaderName>) -> String {
    let from_proxy = header
        .and_then(|name| parts.headers.get_all(name).iter().next_back())
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.rsplit(',').next())
        .map(str::trim)
        .filter(|value| !value.is_empty());
    match from_proxy {
        Some(address) => address.to_owned(),
        None => parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(peer)| peer.ip().to_string())
            .unwrap_or_default(),
    }
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let cookies = Cookies::for_account_url(state.account_url.as_deref());
        let client_address = client_address(parts, state.client_ip_header.as_ref());
        let user_agent: String = parts.headers.get(USER_AGENT).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        let base_url = match state.account_url.as_deref() {
            Some(url) => url.to_owned(),
            // Unset is the plain-HTTP development setup (see `--account-url`).
            None => {
                let host = parts.headers.get(HOST).and_then(|h| h.to_str().ok()).unwrap_or("localhost");
                format!("http://{}", host.trim())
            }
        };
        let here = parts.uri.path_and_query().map(|p| p.as_str().to_owned()).unwrap_or_else(|| "/".to_owned());
        Ok(Self {
            session: cookies::read(&parts.headers, cookies.session_name()),
            csrf_cookie: cookies::read(&parts.headers, cookies.csrf_name()),
            cookies,
            client_address,
            user_agent,
            base_url,
            here,
        })
    }
}

/// The navigation of a signed-in page at `current`.
pub(crate) fn nav(info: &pb::SessionInfo, current: &'static str) -> Nav {
    Nav {
        name: info.user.as_ref().map(|u| u.name.clone()).unwrap_or_default(),
        login: info.login.clone(),
        csrf: info.csrf_token.clone(),
        current,
    }
}

/// The header a page of this site sends its session's CSRF value in, to write with the cookie.
pub(crate) const CSRF_HEADER: &str = "x-canvas-csrf";

/// axum middleware of the REST routes: when a request sends no `Authorization` header, its
/// session cookie is forwarded as `x-canvas-session` on GET and HEAD (what the web map reads
/// with), and on an `/api/` write only beside its `X-Canvas-CSRF` header (forwarded as
/// `x-canvas-csrf`; core-service compares it with the session's). A write without the header
/// never forwards the cookie, so a cookie alone (a forged form post) is never ridden into a
/// write. A cookie write from another site (`Origin` not this site's, `Sec-Fetch-Site`
/// `cross-site` or `same-site`) is refused here with 403, before anything is forwarded. What is
/// let through goes in the request's extensions, where the handlers' `crate::caller::Caller` reads it.
pub(crate) async fn forward_session(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    if request.headers().contains_key(AUTHORIZATION) {
        return next.run(request).await;
    }
    let name = Cookies::for_account_url(state.account_url.as_deref()).session_name();
    let Some(session) = cookies::read(request.headers(), name) else { return next.run(request).await };
    if matches!(*request.method(), Method::GET | Method::HEAD) {
        request.extensions_mut().insert(ForwardedSession { session, csrf: None });
        return next.run(request).await;
    }
    let csrf = request.headers().get(CSRF_HEADER).map(|v| v.to_str().unwrap_or("").to_owned());
    match csrf {
        Some(csrf) if request.uri().path().starts_with("/api/") => {
            if security::is_foreign_write(request.headers(), state.account_url.as_deref()) {
                return ApiError::new(
                    StatusCode::FORBIDDEN,
                    "a write with the session cookie must come from this site's own pages: its Origin is another \
                     site's, or Sec-Fetch-Site says cross-site or same-site",
                )
                .into_problem(Casing::default());
            }
            request.extensions_mut().insert(ForwardedSession { session, csrf: Some(csrf) });
            next.run(request).await
        }
        _ => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(headers: &[(&str, &str)], peer: Option<&str>) -> Parts {
        let mut request = axum::http::Request::builder().uri("/account/sign-in");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let (mut parts, ()) = request.body(()).unwrap().into_parts();
        if let Some(peer) = peer {
            parts.extensions.insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
        }
        parts
    }

    #[test]
    fn the_client_address_is_the_peer_unless_a_trusted_proxy_header_is_configured() {
        let forwarded = [("x-forwarded-for", "6.6.6.6, 203.0.113.9")];
        let header = axum::http::HeaderName::from_static("x-forwarded-for");
        // Without the setting a client's own header is ignored: it could name any address.
        assert_eq!(client_address(&parts(&forwarded, Some("10.0.0.5:4000")), None), "10.0.0.5");
        // With it, the value the proxy appended (the last), not the client's claim before it.
        assert_eq!(client_address(&parts(&forwarded, Some("10.0.0.5:4000")), Some(&header)), "203.0.113.9");
        assert_eq!(client_address(&parts(&[], Some("[::1]:9")), Some(&header)), "::1", "no header: the peer");
    }
}
