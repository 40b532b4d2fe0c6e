//! The HTTP front of `POST /mcp`: everything the MCP Streamable HTTP
//! transport needs before a JSON-RPC message reaches rmcp, done here so every
//! refusal is a JSON-RPC error with the right HTTP status rather than rmcp's
//! plain-text answers.
//!
//! In order: the `Host` allow-list (DNS-rebinding guard, configurable unlike
//! rmcp's loopback-only default), the `Origin` allow-list (403 for a browser
//! page of another origin, as the transport requires), POST only (405 otherwise: the server is
//! stateless, so there is no stream to GET and no session to DELETE), `Content-Type` (415),
//! `Accept` (JSON or SSE answer, 406), the body limits (413 over 25 MiB instead of rmcp's 4 MiB,
//! 408 when slower than `--body-timeout-secs`), JSON syntax (-32700) and JSON-RPC shape
//! (-32600/-32602). Then rmcp's stateless `StreamableHttpService` runs the protocol: one instance
//! answering JSON, one answering SSE, chosen by the client's `Accept`.
//!
//! The token check with core-service (401) wins over every refusal after the method's: a request
//! without `Authorization` is checked before its body is read; one with a token, once its body is
//! read, by `WhoAmI` before anything runs, except a `tools/call`, whose own core-service calls are
//! the check (one verification per call; see [`crate::auth`]). Like the REST gateway, the gateway
//! reads a body within its limits before the token is judged.
//!
//! Reading the media types and the body is [`crate::request`]'s.
//!
//! The router also serves the endpoint's OAuth protected-resource metadata at
//! `/.well-known/oauth-protected-resource/mcp` and `/.well-known/oauth-protected-resource`
//! (see [`crate::auth::resource_metadata`]).

use std::sync::Arc;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use bytes::{Bytes, BytesMut};
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::authenticate;
use crate::config::{split_host_port, WELL_KNOWN_RESOURCE};
use crate::error::Rejection;
use crate::request::{is_json, negotiate, read_body, Answer};
use crate::server::CanvasMcp;
use crate::state::McpState;
use crate::token_check::Verdict;

/// The one MCP endpoint.
pub const MCP_PATH: &str = "/mcp";

type McpService = StreamableHttpService<CanvasMcp, NeverSessionManager>;

/// The `/mcp` route and its OAuth protected-resource metadata, ready to merge into any router on
/// the same base URL.
pub fn router(state: McpState) -> Router {
    let mut metadata_paths = vec![format!("{WELL_KNOWN_RESOURCE}{MCP_PATH}"), WELL_KNOWN_RESOURCE.to_owned()];
    // Also where `--resource-url` says the metadata is, when a proxy keeps that path.
    let configured = state.settings.resource_metadata_url();
    if let Some(path) = url::Url::parse(&configured).ok().map(|u| u.path().to_owned()) {
        let routable = path.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b));
        if routable && !metadata_paths.contains(&path) {
            metadata_paths.push(path);
        }
    }
    let mut router = Router::new();
    for path in metadata_paths {
        router = router.route(&path, get(resource_metadata).options(|| async { crate::auth::metadata_preflight() }));
    }
    router
        .route(MCP_PATH, any(handle))
        .layer(axum::middleware::from_fn(|request, next| {
            canvas_runtime::metrics::track_http("mcp-gateway", request, next)
        }))
        .layer(axum::middleware::from_fn(canvas_runtime::client_address::record))
        .layer(axum::middleware::from_fn(canvas_runtime::request_id::propagate))
        .with_state(Arc::new(Transport::new(state)))
}

/// The media types rmcp insists on, once the gateway has read the request by its own: `Accept`
/// naming both answers (the choice of one was made by [`negotiate`]), and `Content-Type:
/// application/json` (rmcp knows no `+json` type; the body was accepted as JSON by the HTTP edge's
/// rule, `canvas_runtime::edge::content_type`).
fn rmcp_media_types(headers: &mut HeaderMap) {
    headers.insert(ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
}

/// The state of the route.
struct Transport {
    /// Clients and settings (host list, body limit, realm).
    state: McpState,
    /// rmcp answering with one `application/json` body.
    json: McpService,
    /// rmcp answering with a `text/event-stream`.
    sse: McpService,
}

impl Transport {
    fn new(state: McpState) -> Self {
        let service = |json_response: bool| {
            let config = StreamableHttpServerConfig::default()
                .with_legacy_session_mode(false)
                .with_json_response(json_response)
                // Checked before the token check, with a JSON-RPC answer.
                .disable_allowed_hosts()
                .with_max_request_body_bytes(state.settings.max_body_bytes);
            let for_requests = state.clone();
            McpService::new(
                move || Ok(CanvasMcp::new(for_requests.clone())),
                Arc::new(NeverSessionManager::default()),
                config,
            )
        };
        Self { json: service(true), sse: service(false), state }
    }

    async fn serve(&self, request: Request) -> Result<Response, Rejection> {
        let (mut parts, body) = request.into_parts();
        let unread = |rejection: Rejection| rejection.body_unread(&parts.headers);
        self.check_host(&parts).map_err(unread)?;
        self.check_origin(&parts).map_err(unread)?;
        if parts.method != Method::POST {
            return Err(unread(Rejection::method_not_allowed()));
        }
        // Without a token there is nothing a tool call could check: asked before reading the body.
        let early = match parts.headers.contains_key(AUTHORIZATION) {
            true => None,
            false => Some(authenticate(&self.state, &parts.headers).await.map_err(unread)?),
        };
        let read = self.read(&parts.headers, body).await;
        if let (None, Ok((answer, bytes, message))) = (&early, &read) {
            if is_tool_call(message) {
                return self.tool_call(parts, bytes.clone(), *answer).await;
            }
        }
        // Anything else is checked with core-service before it runs, so a refused token is a 401
        // whatever else is wrong with the request.
        let caller = match early {
            Some(caller) => caller,
            None => authenticate(&self.state, &parts.headers).await?,
        };
        let (answer, bytes, message) = read?;
        rmcp_media_types(&mut parts.headers);
        parts.extensions.insert(caller);
        match message {
            Value::Object(_) => {
                check_message(&message)?;
                let service = if answer == Answer::Json { &self.json } else { &self.sse };
                Ok(forward(service, Request::from_parts(parts, Body::from(bytes))).await)
            }
            Value::Array(batch) => self.batch(&parts, batch, answer).await,
            _ => Err(Rejection::invalid_request(Value::Null, "a JSON-RPC message must be a JSON object")),
        }
    }

    /// `Content-Type` (415), `Accept` (406), the body within its limits (413, 408) and JSON (-32700).
    async fn read(&self, headers: &HeaderMap, body: Body) -> Result<(Answer, Bytes, Value), Rejection> {
        if !is_json(headers) {
            return Err(Rejection::unsupported_media_type().body_unread(headers));
        }
        let answer = negotiate(headers).ok_or_else(|| Rejection::not_acceptable().body_unread(headers))?;
        let limit = self.state.settings.max_body_bytes;
        let bytes = tokio::time::timeout(self.state.settings.limits.body_timeout(), read_body(body, headers, limit))
            .await
            .map_err(|_| Rejection::body_timeout())??;
        let message: Value = serde_json::from_slice(&bytes).map_err(Rejection::parse_error)?;
        Ok((answer, bytes, message))
    }

    /// One `tools/call`, whose own core-service calls check the token (see [`crate::auth`]): rmcp
    /// answers in JSON, and the answer leaves only once the token is known to be good. An SSE
    /// answer is that JSON as one event, so nothing is sent before the check either.
    async fn tool_call(&self, mut parts: Parts, bytes: Bytes, answer: Answer) -> Result<Response, Rejection> {
        let headers = parts.headers.clone();
        let caller = self.state.caller(crate::auth::authorization(&headers));
        let check = caller.check.clone();
        rmcp_media_types(&mut parts.headers);
        parts.extensions.insert(caller);
        let response = forward(&self.json, Request::from_parts(parts, Body::from(bytes))).await;
        if let Some(refusal) = check.rate_limit() {
            return Err(Rejection::rate_limited(&refusal));
        }
        match check.verdict() {
            Verdict::Accepted => {}
            Verdict::Refused => return Err(crate::auth::unauthorized(&self.state, &headers)),
            // No core-service answer said anything of the token: ask once.
            Verdict::Unknown => {
                authenticate(&self.state, &headers).await?;
            }
        }
        if answer == Answer::Json || response.status() != StatusCode::OK {
            return Ok(response);
        }
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap_or_default();
        let mut event = BytesMut::from(&b"data: "[..]);
        event.extend_from_slice(&body);
        event.extend_from_slice(b"\n\n");
        Ok(([(CONTENT_TYPE, "text/event-stream")], event.freeze()).into_response())
    }

    fn check_host(&self, parts: &Parts) -> Result<(), Rejection> {
        let raw = parts
            .headers
            .get(HOST)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
            .or_else(|| parts.uri.authority().map(|a| a.to_string()))
            .unwrap_or_default();
        let (host, port) = split_host_port(raw.trim());
        if self.state.settings.host_allowed(&host.to_ascii_lowercase(), port) {
            Ok(())
        } else {
            Err(Rejection::host_not_allowed(&raw))
        }
    }

    /// The MCP transport's DNS-rebinding guard for browsers: a request whose `Origin` is not
    /// allowed is refused with 403 before anything else runs. Requests without `Origin`
    /// (non-browser clients) pass.
    fn check_origin(&self, parts: &Parts) -> Result<(), Rejection> {
        let Some(origin) = parts.headers.get(ORIGIN) else { return Ok(()) };
        let origin = origin.to_str().unwrap_or("");
        if self.state.settings.origin_allowed(origin) {
            Ok(())
        } else {
            Err(Rejection::origin_not_allowed(origin))
        }
    }

    /// A JSON-RPC batch, which the 2025-03-26 revision allows (later ones
    /// removed it, and rmcp never took it): each message goes through rmcp
    /// on its own, the answers come back together.
    async fn batch(&self, parts: &Parts, batch: Vec<Value>, answer: Answer) -> Result<Response, Rejection> {
        if batch.is_empty() {
            return Err(Rejection::invalid_request(Value::Null, "an empty batch is not a JSON-RPC message"));
        }
        let version = parts.headers.get("mcp-protocol-version").and_then(|v| v.to_str().ok()).unwrap_or("");
        if version >= "2025-06-18" {
            return Err(Rejection::invalid_request(
                Value::Null,
                format!("MCP revision {version} has no JSON-RPC batches; send one message per request"),
            ));
        }
        let mut replies = Vec::new();
        for message in batch {
            let checked = if message.is_object() {
                check_message(&message)
            } else {
                Err(Rejection::invalid_request(Value::Null, "a JSON-RPC message must be a JSON object"))
            };
            if let Err(rejection) = checked {
                replies.push(rejection.body());
                continue;
            }
            let mut request = Request::new(Body::from(serde_json::to_vec(&message).unwrap_or_default()));
            *request.method_mut() = Method::POST;
            *request.uri_mut() = parts.uri.clone();
            *request.headers_mut() = parts.headers.clone();
            *request.extensions_mut() = parts.extensions.clone();
            let response = forward(&self.json, request).await;
            if response.status() == StatusCode::ACCEPTED {
                continue;
            }
            let body = to_bytes(response.into_body(), usize::MAX).await.unwrap_or_default();
            match serde_json::from_slice::<Value>(&body) {
                Ok(reply @ Value::Object(_)) => replies.push(reply),
                _ => replies.push(Rejection::internal().body()),
            }
        }
        if replies.is_empty() {
            return Ok(StatusCode::ACCEPTED.into_response());
        }
        let replies = serde_json::to_string(&Value::Array(replies)).unwrap_or_default();
        Ok(match answer {
            Answer::Json => ([(CONTENT_TYPE, "application/json")], replies).into_response(),
            Answer::Sse => ([(CONTENT_TYPE, "text/event-stream")], format!("data: {replies}\n\n")).into_response(),
        })
    }
}

/// `GET /.well-known/oauth-protected-resource[/mcp]`
async fn resource_metadata(State(transport): State<Arc<Transport>>) -> Response {
    crate::auth::resource_metadata(&transport.state.settings)
}

async fn handle(State(transport): State<Arc<Transport>>, request: Request) -> Response {
    transport.serve(request).await.unwrap_or_else(IntoResponse::into_response)
}

/// Runs one message through rmcp. Should rmcp still refuse it in plain
/// text, the refusal is rewritten as a JSON-RPC error with the same status.
async fn forward(service: &McpService, request: Request) -> Response {
    let response = service.handle(request).await.map(Body::new);
    let status = response.status();
    let content_type = response.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let structured = content_type.starts_with("application/json") || content_type.starts_with("text/event-stream");
    if !(status.is_client_error() || status.is_server_error()) || structured {
        return response;
    }
    let text = to_bytes(response.into_body(), 64 * 1024).await.unwrap_or_default();
    Rejection::from_plain(status, String::from_utf8_lossy(&text).trim()).into_response()
}

/// A single, well-formed `tools/call` request: the one kind of message whose token check is the
/// tool's own core-service call.
fn is_tool_call(message: &Value) -> bool {
    message.get("method").and_then(Value::as_str) == Some("tools/call")
        && message.get("id").is_some()
        && check_message(message).is_ok()
}

/// Refuses what is JSON but not a JSON-RPC 2.0 message rmcp can take, with
/// the request's id when it has one.
fn check_message(message: &Value) -> Result<(), Rejection> {
    let id = message.get("id").cloned().unwrap_or(Value::Null);
    if message.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Rejection::invalid_request(id, "Invalid Request: \"jsonrpc\" must be \"2.0\""));
    }
    match ClientJsonRpcMessage::deserialize(message) {
        Ok(_) => Ok(()),
        Err(err) => match message.get("method").and_then(Value::as_str) {
            Some(method) => Err(Rejection::invalid_params(id, format!("Invalid params for {method}: {err}"))),
            None => Err(Rejection::invalid_request(id, format!("Invalid Request: {err}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn serves_the_resource_metadata_where_the_challenge_points() {
        use tower::ServiceExt;
        let settings = crate::McpSettings {
            resource_url: "http://127.0.0.1:8081/tools/mcp".into(),
            ..crate::McpSettings::new("http://127.0.0.1:8081")
        };
        let app = router(McpState::connect("http://127.0.0.1:9", settings).unwrap());
        for path in [
            "/.well-known/oauth-protected-resource/mcp",
            "/.well-known/oauth-protected-resource",
            "/.well-known/oauth-protected-resource/tools/mcp",
        ] {
            let request = Request::builder().uri(path).body(Body::empty()).unwrap();
            let response = app.clone().oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path}");
            let request = Request::builder().method(Method::OPTIONS).uri(path).body(Body::empty()).unwrap();
            assert_eq!(app.clone().oneshot(request).await.unwrap().status(), StatusCode::NO_CONTENT, "{path}");
        }
    }

    #[test]
    fn only_a_well_formed_tool_call_is_checked_by_its_own_calls() {
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "get_item", "arguments": {}}});
        assert!(is_tool_call(&call));
        for other in [
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            serde_json::json!({"jsonrpc": "2.0", "method": "tools/call", "params": {"name": "get_item"}}),
            serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": 3}),
            serde_json::json!([{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}]),
        ] {
            assert!(!is_tool_call(&other), "{other}");
        }
    }

    #[test]
    fn checks_the_json_rpc_shape() {
        let ok = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        assert!(check_message(&ok).is_ok());
        let wrong_version = serde_json::json!({"jsonrpc": "1.0", "id": 7, "method": "ping"});
        let rejection = check_message(&wrong_version).err().map(|r| (r.code, r.id));
        assert_eq!(rejection, Some((-32600, serde_json::json!(7))));
    }
}
