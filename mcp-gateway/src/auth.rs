//! Who is calling. The gateway never judges a token itself: core-service does, on every call it
//! gets, and an UNAUTHENTICATED answer becomes the spec's 401 before any MCP answer is sent.
//! That keeps one authority for tokens (revocation, environments, schemes).
//!
//! One verification per MCP request: a `tools/call` lets the tool's own core-service calls check
//! the token ([`crate::token_check::TokenCheck`]): their UNAUTHENTICATED becomes the 401 (the tool's answer is
//! dropped), and only a call that reached no answer from core-service (arguments refused by the
//! gateway, an unknown tool, core-service unreachable) asks `WhoAmI` afterwards. Every other
//! request (`initialize`, `tools/list`, a malformed one) makes no core-service call of its own, so
//! [`authenticate`] asks `WhoAmI` before it runs, as the spec's MCP error table asks.
//!
//! `/mcp` is also an OAuth 2.1 protected resource (MCP authorization, revision 2025-06-18): its
//! metadata (RFC 9728, [`resource_metadata`]) names the account site as the authorization server,
//! and every 401 points at that metadata, so an MCP client can get a token by itself.

use axum::http::header::{AUTHORIZATION, CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::failure::{classify, CallFailure};
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
