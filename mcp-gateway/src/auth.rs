//! Who is calling. The gateway never judges a token itself: it forwards the
//! `Authorization` header to core-service's `WhoAmI` once per request and
//! turns an UNAUTHENTICATED answer into the spec's 401. That keeps one
//! authority for tokens (revocation, environments, schemes) and lets a 401
//! happen before any MCP method runs, as the spec's MCP error table asks.

use axum::http::header::AUTHORIZATION;
use axum::http::HeaderMap;
use canvas_proto::failure::{classify, CallFailure};
use canvas_proto::v1::ErrorReason;
use canvas_proto::v1::WhoAmIRequest;

use crate::error::Rejection;
use crate::state::{Caller, McpState};

/// Checks the request's credentials with core-service and returns the
/// caller whose header every tool call forwards.
pub async fn authenticate(state: &McpState, headers: &HeaderMap) -> Result<Caller, Rejection> {
    let raw = headers.get(AUTHORIZATION);
    // "A token was sent" decides whether the challenge carries
    // error="invalid_token"; an empty header counts as none.
    let token_sent = raw.is_some_and(|value| !value.as_bytes().iter().all(u8::is_ascii_whitespace));
    let authorization = raw.and_then(|value| value.to_str().ok()).map(str::to_owned);
    let caller = Caller { authorization };
    match state.projects.clone().who_am_i(caller.request(WhoAmIRequest {})).await {
        Ok(user) => {
            tracing::debug!(user = %user.get_ref().user_id, "MCP caller authenticated");
            Ok(caller)
        }
        Err(status) => Err(match classify(&status) {
            CallFailure::Refused(refusal) if refusal.reason == ErrorReason::Unauthenticated => {
                Rejection::unauthorized(&state.settings.realm, token_sent)
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
