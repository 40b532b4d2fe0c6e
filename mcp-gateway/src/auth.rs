//! Who is calling. The gateway never judges a token itself: core-service does, on every call it
//! gets, and an UNAUTHENTICATED answer becomes the spec's 401 before any MCP answer is sent.
//! That keeps one authority for tokens (revocation, environments, schemes).
//!
//! One verification per MCP request: a `tools/call` lets the tool's own core-service calls check
//! the token ([`TokenCheck`]): their UNAUTHENTICATED becomes the 401 (the tool's answer is
//! dropped), and only a call that reached no answer from core-service (arguments refused by the
//! gateway, an unknown tool, core-service unreachable) asks `WhoAmI` afterwards. Every other
//! request (`initialize`, `tools/list`, a malformed one) makes no core-service call of its own, so
//! [`authenticate`] asks `WhoAmI` before it runs, as the spec's MCP error table asks.
//!
//! `/mcp` is also an OAuth 2.1 protected resource (MCP authorization, revision 2025-06-18): its
//! metadata (RFC 9728, [`resource_metadata`]) names the account site as the authorization server,
//! and every 401 points at that metadata, so an MCP client can get a token by itself.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Mutex;

use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::failure::{classify, CallFailure, Refusal};
use canvas_proto::v1::ErrorReason;
use canvas_proto::v1::WhoAmIRequest;

use crate::config::McpSettings;
use crate::error::Rejection;
use crate::state::{Caller, McpState};

/// The `Authorization` header as sent, when it is text.
pub fn authorization(headers: &HeaderMap) -> Option<String> {
    headers.get(AUTHORIZATION).and_then(|value| value.to_str().ok()).map(str::to_owned)
}

/// The spec's 401 for this request: "a token was sent" decides whether the challenge carries
/// error="invalid_token"; an empty header counts as none.
pub fn unauthorized(state: &McpState, headers: &HeaderMap) -> Rejection {
    let token_sent =
        headers.get(AUTHORIZATION).is_some_and(|value| !value.as_bytes().iter().all(u8::is_ascii_whitespace));
    Rejection::unauthorized(&state.settings.realm, token_sent, &state.settings.resource_metadata_url())
}

/// Checks the request's credentials with core-service (`WhoAmI`) and returns the caller whose
/// header every tool call forwards.
pub async fn authenticate(state: &McpState, headers: &HeaderMap) -> Result<Caller, Rejection> {
    let caller = state.caller(authorization(headers));
    match state.projects.clone().who_am_i(caller.request(WhoAmIRequest {})).await {
        Ok(user) => {
            tracing::debug!(user = %user.get_ref().user_id, "MCP caller authenticated");
            Ok(caller)
        }
        Err(status) => Err(match classify(&status) {
            CallFailure::Refused(refusal) if refusal.reason == ErrorReason::Unauthenticated => {
                unauthorized(state, headers)
            }
            CallFailure::Refused(refusal) if refusal.reason == ErrorReason::TooManyRequests => {
                Rejection::rate_limited(&refusal)
            }
            CallFailure::Refused(refusal) if refusal.reason == ErrorReason::DependencyUnavailable => {
                tracing::warn!(message = %refusal.message, "core-service could not check the token");
                Rejection::dependency_unavailable(&refusal)
            }
            CallFailure::Unreachable { cause } => {
                tracing::warn!(%cause, "core-service did not answer the token check");
                Rejection::core_unreachable()
            }
            CallFailure::TimedOut => Rejection::core_timed_out(),
            other => {
                tracing::error!(failure = ?other, "token check failed");
                Rejection::internal()
            }
        }),
    }
}

/// What core-service said of the token while a tool ran.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// No core-service answer says anything of the token (no call was made, or none was answered).
    Unknown,
    /// A call was answered as this caller: core-service authenticates every call before anything
    /// else, so any answer but UNAUTHENTICATED accepted the token.
    Accepted,
    /// A call was answered UNAUTHENTICATED.
    Refused,
}

/// The token check of one `tools/call`, filled in by the tool's own core-service calls and read
/// by the transport before it sends the answer. Shared by the clones of the request's [`Caller`].
#[derive(Debug, Default)]
pub struct TokenCheck {
    /// A core-service call was sent with the caller's credentials.
    sent: AtomicBool,
    /// The [`Verdict`] (as its index), [`Verdict::Unknown`] until the tool settles it.
    verdict: AtomicU8,
    /// The caller's request budget was used up: an HTTP 429, as when `WhoAmI` meets it.
    rate_limited: Mutex<Option<Refusal>>,
}

impl TokenCheck {
    /// Notes that a core-service call carries the credentials.
    pub fn sent(&self) {
        self.sent.store(true, Ordering::Release);
    }

    /// Settles the verdict from how the tool ended (its last core-service answer, or its output).
    pub fn settle(&self, verdict: Verdict) {
        let code = match verdict {
            Verdict::Unknown => 0,
            Verdict::Accepted => 1,
            Verdict::Refused => 2,
        };
        self.verdict.store(code, Ordering::Release);
    }

    /// Notes that core-service refused a call for the caller's rate limit.
    pub fn rate_limited(&self, refusal: &Refusal) {
        if let Ok(mut slot) = self.rate_limited.lock() {
            *slot = Some(refusal.clone());
        }
    }

    /// The rate-limit refusal met by the tool, if any.
    pub fn rate_limit(&self) -> Option<Refusal> {
        self.rate_limited.lock().ok().and_then(|slot| slot.clone())
    }

    /// The verdict; an acceptance counts only when a call was sent (a tool whose arguments the
    /// gateway refused reached no core-service).
    pub fn verdict(&self) -> Verdict {
        match self.verdict.load(Ordering::Acquire) {
            2 => Verdict::Refused,
            1 if self.sent.load(Ordering::Acquire) => Verdict::Accepted,
            _ => Verdict::Unknown,
        }
    }
}

/// The protected-resource metadata of `/mcp` (RFC 9728 §2): the resource, its authorization
/// server, and how to present a token. Public and the same for everyone, so any origin may read
/// it (browser-based MCP clients fetch it from their own page).
pub fn resource_metadata(settings: &McpSettings) -> Response {
    let body = serde_json::json!({
        "resource": settings.resource_url,
        "authorization_servers": [settings.authorization_server],
        "scopes_supported": [canvas_vocabulary::limits::oauth::SCOPE],
        "bearer_methods_supported": ["header"],
        "resource_name": "Canvas MCP",
    });
    let mut response = (StatusCode::OK, body.to_string()).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    allow_any_origin(headers);
    response
}

/// The CORS preflight of the metadata: a client that sends `MCP-Protocol-Version` triggers one.
pub fn metadata_preflight() -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let headers = response.headers_mut();
    allow_any_origin(headers);
    headers.insert(HeaderName::from_static("access-control-allow-methods"), HeaderValue::from_static("GET, OPTIONS"));
    headers.insert(
        HeaderName::from_static("access-control-allow-headers"),
        HeaderValue::from_static("Authorization, Content-Type, MCP-Protocol-Version"),
    );
    headers.insert(HeaderName::from_static("access-control-max-age"), HeaderValue::from_static("86400"));
    response
}

fn allow_any_origin(headers: &mut HeaderMap) {
    headers.insert(HeaderName::from_static("access-control-allow-origin"), HeaderValue::from_static("*"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_acceptance_needs_a_call() {
        let check = TokenCheck::default();
        check.settle(Verdict::Accepted);
        assert_eq!(check.verdict(), Verdict::Unknown, "the gateway refused the arguments: nothing was checked");
        check.sent();
        assert_eq!(check.verdict(), Verdict::Accepted);
        check.settle(Verdict::Refused);
        assert_eq!(check.verdict(), Verdict::Refused);
    }

    #[tokio::test]
    async fn the_metadata_names_the_resource_and_its_server() {
        let settings = McpSettings {
            authorization_server: "https://account.example".into(),
            ..McpSettings::new("https://canvas.example")
        };
        let response = resource_metadata(&settings);
        assert_eq!(response.headers().get("access-control-allow-origin").and_then(|v| v.to_str().ok()), Some("*"));
        let body = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap_or_default();
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        assert_eq!(
            json,
            serde_json::json!({
                "resource": "https://canvas.example/mcp",
                "authorization_servers": ["https://account.example"],
                "scopes_supported": ["mcp"],
                "bearer_methods_supported": ["header"],
                "resource_name": "Canvas MCP",
            })
        );
    }
}
