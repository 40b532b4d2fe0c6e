//! The OAuth 2.1 authorization server's machine endpoints: metadata (RFC 8414), dynamic client
//! registration (RFC 7591), the token endpoint (RFC 6749 §3.2) and revocation (RFC 7009).
//! core-service holds every rule and answers a refusal the RFCs describe as an `OAuthError`;
//! this module only speaks the HTTP: form and JSON bodies, statuses, `no-store`, and CORS, since
//! browser-based MCP clients call these endpoints from their own origin (no cookie is involved).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, PRAGMA, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use canvas_proto::v1 as pb;
use canvas_proto::v1::ErrorReason;
use canvas_vocabulary::limits::oauth;
use serde_json::{json, Map, Value};

use super::calls;
use super::failure::Failure;
use super::site::Visitor;
use crate::error::ApiError;
use crate::respond::url_pairs;
use crate::state::{with_session, AppState};

/// Lets any origin's page read the answer: these endpoints take no cookie, so nothing of the
/// visitor's rides along.
pub(crate) fn cors(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(HeaderName::from_static("access-control-allow-origin"), HeaderValue::from_static("*"));
    response
}

/// `OPTIONS` of the CORS endpoints: the preflight a browser sends before a form or JSON post.
pub(crate) async fn preflight() -> Response {
    let mut response = cors(StatusCode::NO_CONTENT.into_response());
    let headers = response.headers_mut();
    headers.insert(
        HeaderName::from_static("access-control-allow-methods"),
        HeaderValue::from_static("GET, POST, OPTIONS"),
    );
    headers.insert(
        HeaderName::from_static("access-control-allow-headers"),
        HeaderValue::from_static("Authorization, Content-Type, MCP-Protocol-Version"),
    );
    headers.insert(HeaderName::from_static("access-control-max-age"), HeaderValue::from_static("86400"));
    response
}

/// A JSON answer, never cached (tokens, client ids), readable from any origin.
fn json_answer(status: StatusCode, body: &Value) -> Response {
    json_text(status, body.to_string())
}

fn json_text(status: StatusCode, body: String) -> Response {
    let mut response = (status, body).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(PRAGMA, HeaderValue::from_static("no-cache"));
    cors(response)
}

/// `{error, error_description}` with `status`.
pub(crate) fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    let mut body = json!({"error": error});
    if !description.is_empty() {
        body["error_description"] = Value::from(description);
    }
    json_answer(status, &body)
}

/// A failed call (no answer, or a refusal outside the RFC's errors) in the RFC's error shape.
fn call_failed(error: ApiError) -> Response {
    let code = match error.status {
        StatusCode::SERVICE_UNAVAILABLE | StatusCode::GATEWAY_TIMEOUT => "temporarily_unavailable",
        s if s.is_client_error() => "invalid_request",
        _ => "server_error",
    };
    let retry_after = error.retry_after;
    let mut response = oauth_error(error.status, code, &error.detail);
    if let Some(seconds) = retry_after {
        response.headers_mut().insert(RETRY_AFTER, HeaderValue::from(seconds.max(1)));
    }
    response
}

/// `GET /.well-known/oauth-authorization-server`: RFC 8414 metadata, the issuer being the account
/// site's base URL and the scopes core-service's (`GetServerInfo`).
pub(crate) async fn metadata(State(state): State<AppState>, visitor: Visitor) -> Response {
    let info = calls::read(pb::GetOAuthServerInfoRequest {}, None, |r| {
        let mut client = state.oauth.clone();
        async move { client.get_server_info(r).await }
    })
    .await;
    let info = match info {
        Ok(info) => info,
        Err(failure) => return call_failed(failure.error),
    };
    let issuer = visitor.base_url;
    let body = json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/oauth/authorize"),
        "token_endpoint": format!("{issuer}/oauth/token"),
        "registration_endpoint": format!("{issuer}/oauth/register"),
        "revocation_endpoint": format!("{issuer}/oauth/revoke"),
        "response_types_supported": oauth::RESPONSE_TYPES,
        "grant_types_supported": oauth::GRANT_TYPES,
        "code_challenge_methods_supported": oauth::CODE_CHALLENGE_METHODS,
        "token_endpoint_auth_methods_supported": oauth::CLIENT_AUTH_METHODS,
        "revocation_endpoint_auth_methods_supported": oauth::CLIENT_AUTH_METHODS,
        "scopes_supported": info.scopes,
        // MCP 2026-07-28: a client may name itself by its metadata document's URL, and every
        // answer at the redirect URI carries `iss` (RFC 9207). Dynamic registration stays, deprecated.
        "client_id_metadata_document_supported": true,
        "authorization_response_iss_parameter_supported": true,
    });
    json_answer(StatusCode::OK, &body)
}

/// `POST /oauth/register`: the client metadata document goes to core-service as sent
/// (`RegisterClient`); `201` with the registered client, or `400` with the RFC 7591 error.
pub(crate) async fn register(State(state): State<AppState>, body: Result<Bytes, BytesRejection>) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(rejection) => return call_failed(ApiError::from(rejection)),
    };
    let Ok(metadata_json) = String::from_utf8(bytes.to_vec()) else {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_client_metadata",
            "the body must be a JSON document (UTF-8)",
        );
    };
    let request = with_session(pb::RegisterClientRequest { metadata_json }, None);
    match state.oauth.clone().register_client(request).await {
        Ok(reply) => match reply.into_inner() {
            pb::RegisterClientResponse { error: Some(error), .. } => {
                oauth_error(StatusCode::BAD_REQUEST, &error.error, &error.description)
            }
            pb::RegisterClientResponse { client_json, .. } => json_text(StatusCode::CREATED, client_json),
        },
        Err(status) => call_failed(ApiError::from(status)),
    }
}

/// The fields of a form-encoded body; `Err` names what makes it unusable. A repeated parameter is
/// refused (RFC 6749 §3.2), as the map core-service receives could hold only one of them.
fn form_fields(headers: &HeaderMap, body: &[u8]) -> Result<Map<String, Value>, &'static str> {
    let content_type = headers.get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim();
    if !essence.eq_ignore_ascii_case("application/x-www-form-urlencoded") {
        return Err("the request must be sent as application/x-www-form-urlencoded");
    }
    let text = std::str::from_utf8(body).map_err(|_| "the form is not UTF-8")?;
    let mut fields = Map::new();
    for (name, value) in url_pairs(text) {
        if fields.insert(name, Value::String(value)).is_some() {
            return Err("a parameter was sent more than once");
        }
    }
    Ok(fields)
}

fn text_fields(fields: Map<String, Value>) -> std::collections::HashMap<String, String> {
    fields.into_iter().map(|(k, v)| (k, v.as_str().unwrap_or_default().to_owned())).collect()
}

/// `POST /oauth/token`: the form goes to core-service as received (`Token`), which answers the
/// tokens or the RFC error with its HTTP status.
pub(crate) async fn token(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(rejection) => return call_failed(ApiError::from(rejection)),
    };
    let form = match form_fields(&headers, &bytes) {
        Ok(fields) => text_fields(fields),
        Err(problem) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", problem),
    };
    let reply = match state.oauth.clone().token(with_session(pb::TokenRequest { form }, None)).await {
        Ok(reply) => reply.into_inner(),
        Err(status) => return call_failed(ApiError::from(status)),
    };
    if let Some(error) = &reply.error {
        let status = u16::try_from(reply.status)
            .ok()
            .and_then(|s| StatusCode::from_u16(s).ok())
            .filter(|s| s.is_client_error())
            .unwrap_or(StatusCode::BAD_REQUEST);
        return oauth_error(status, &error.error, &error.description);
    }
    let mut body = json!({
        "access_token": reply.access_token,
        "token_type": reply.token_type,
        "expires_in": reply.expires_in,
    });
    if !reply.refresh_token.is_empty() {
        body["refresh_token"] = Value::from(reply.refresh_token);
    }
    if !reply.scope.is_empty() {
        body["scope"] = Value::from(reply.scope);
    }
    json_answer(StatusCode::OK, &body)
}

/// `POST /oauth/revoke`: `Revoke`; `200 {}` whatever the token (RFC 7009 §2.2), so the answer
/// says nothing about which tokens exist. Only a malformed request or an unavailable service
/// answers otherwise.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let bytes = match body {
        Ok(bytes) => bytes,
        Err(rejection) => return call_failed(ApiError::from(rejection)),
    };
    let mut form = match form_fields(&headers, &bytes) {
        Ok(fields) => text_fields(fields),
        Err(problem) => return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", problem),
    };
    let Some(token) = form.remove("token").filter(|t| !t.is_empty()) else {
        return oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "the token parameter is required");
    };
    let request = pb::RevokeOAuthTokenRequest {
        token,
        token_type_hint: form.remove("token_type_hint").unwrap_or_default(),
        client_id: form.remove("client_id").unwrap_or_default(),
    };
    match state.oauth.clone().revoke(with_session(request, None)).await {
        Ok(_) => json_answer(StatusCode::OK, &json!({})),
        Err(status) => {
            let failure = Failure::from(status);
            let unavailable = matches!(
                failure.reason,
                None | Some(ErrorReason::DependencyUnavailable | ErrorReason::Internal | ErrorReason::DeadlineExceeded)
            );
            if unavailable {
                call_failed(failure.error)
            } else {
                json_answer(StatusCode::OK, &json!({}))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form_headers() -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/x-www-form-urlencoded; charset=utf-8"));
        headers
    }

    #[test]
    fn token_forms_are_read_whole() {
        let fields =
            form_fields(&form_headers(), b"grant_type=authorization_code&code=a%2Bb&redirect_uri=x+y").unwrap();
        assert_eq!(
            Value::Object(fields),
            json!({"grant_type": "authorization_code", "code": "a+b", "redirect_uri": "x y"})
        );
        assert_eq!(form_fields(&form_headers(), b"code=a&code=b"), Err("a parameter was sent more than once"));
        assert_eq!(
            form_fields(&HeaderMap::new(), b"code=a"),
            Err("the request must be sent as application/x-www-form-urlencoded")
        );
    }

    #[test]
    fn errors_have_the_rfc_shape() {
        let response = oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "unknown client");
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
        assert_eq!(header("cache-control"), "no-store");
        assert_eq!(header("pragma"), "no-cache");
        assert_eq!(header("access-control-allow-origin"), "*");
    }
}
