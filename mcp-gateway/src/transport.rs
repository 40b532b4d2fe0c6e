//! The HTTP front of `POST /mcp`: everything the MCP Streamable HTTP
//! transport needs before a JSON-RPC message reaches rmcp, done here so every
//! refusal is a JSON-RPC error with the right HTTP status rather than rmcp's
//! plain-text answers.
//!
//! In order: the `Host` allow-list (DNS-rebinding guard, configurable unlike
//! rmcp's loopback-only default), the `Origin` allow-list (403 for a browser
//! page of another origin, as the transport requires), POST only (405 otherwise: the server is
//! stateless, so there is no stream to GET and no session to DELETE), the
//! token check with core-service (401), `Content-Type` (415), `Accept`
//! (JSON or SSE answer, 406), the body limits (413 over 25 MiB instead of rmcp's
//! 4 MiB, 408 when slower than `--body-timeout-secs`), JSON syntax (-32700) and JSON-RPC shape (-32600/-32602). Then
//! rmcp's stateless `StreamableHttpService` runs the protocol: one instance
//! answering JSON, one answering SSE, chosen by the client's `Accept`.
//!
//! The router also serves the endpoint's OAuth protected-resource metadata at
//! `/.well-known/oauth-protected-resource/mcp` and `/.well-known/oauth-protected-resource`
//! (see [`crate::auth::resource_metadata`]).

use std::sync::Arc;
use std::time::Duration;

use axum::body::{to_bytes, Body};
use axum::extract::{Request, State};
use axum::http::header::{ACCEPT, CONTENT_LENGTH, CONTENT_TYPE, HOST, ORIGIN};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use axum::Router;
use bytes::{Bytes, BytesMut};
use futures::StreamExt;
use rmcp::model::ClientJsonRpcMessage;
use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use serde::Deserialize;
use serde_json::Value;

use crate::auth::authenticate;
use crate::config::{split_host_port, WELL_KNOWN_RESOURCE};
use crate::error::Rejection;
use crate::server::CanvasMcp;
use crate::state::McpState;

/// The one MCP endpoint.
pub const MCP_PATH: &str = "/mcp";

/// After an oversized body, read (and drop) at most this much more before
/// answering, so the client sees the 413 instead of a reset connection.
const DRAIN_LIMIT: usize = 64 * 1024 * 1024;
const DRAIN_TIME: Duration = Duration::from_secs(30);

type McpService = StreamableHttpService<CanvasMcp, NeverSessionManager>;

/// How the client wants its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Json,
    Sse,
}

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
        self.check_host(&parts)?;
        self.check_origin(&parts)?;
        if parts.method != Method::POST {
            return Err(Rejection::method_not_allowed());
        }
        let caller = authenticate(&self.state, &parts.headers).await?;
        if !is_json(&parts.headers) {
            return Err(Rejection::unsupported_media_type());
        }
        let answer = negotiate(&parts.headers).ok_or_else(Rejection::not_acceptable)?;
        let limit = self.state.settings.max_body_bytes;
        let bytes =
            tokio::time::timeout(self.state.settings.limits.body_timeout(), read_body(body, &parts.headers, limit))
                .await
                .map_err(|_| Rejection::body_timeout())??;
        let message: Value = serde_json::from_slice(&bytes).map_err(Rejection::parse_error)?;
        // rmcp insists on both media types; the choice was made above.
        parts.headers.insert(ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
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

/// `Content-Type: application/json`, parameters allowed.
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// Picks JSON or SSE from `Accept`: the media type with the higher quality
/// wins, JSON on a tie (one body is simpler for every client); explicit
/// types beat wildcards; no `Accept` at all means JSON.
fn negotiate(headers: &HeaderMap) -> Option<Answer> {
    let values: Vec<&str> = headers.get_all(ACCEPT).iter().filter_map(|v| v.to_str().ok()).collect();
    if values.is_empty() {
        return Some(Answer::Json);
    }
    let (mut json, mut sse, mut application, mut text, mut any) = (None, None, None, None, None);
    for entry in values.iter().flat_map(|v| v.split(',')) {
        let mut params = entry.split(';');
        let media = params.next().unwrap_or("").trim().to_ascii_lowercase();
        let quality = params
            .find_map(|p| p.trim().strip_prefix("q=").map(|q| q.trim().parse::<f32>().unwrap_or(1.0)))
            .unwrap_or(1.0);
        let slot = match media.as_str() {
            "application/json" => &mut json,
            "text/event-stream" => &mut sse,
            "application/*" => &mut application,
            "text/*" => &mut text,
            "*/*" => &mut any,
            _ => continue,
        };
        *slot = Some(slot.map_or(quality, |q: f32| q.max(quality)));
    }
    let json = json.or(application).or(any).unwrap_or(0.0);
    let sse = sse.or(text).or(any).unwrap_or(0.0);
    match (json, sse) {
        (j, s) if s > j => Some(Answer::Sse),
        (j, _) if j > 0.0 => Some(Answer::Json),
        _ => None,
    }
}

/// The body, at most `limit` bytes. An oversized body is drained (within
/// bounds) before the 413 so the client reads the answer.
async fn read_body(body: Body, headers: &HeaderMap, limit: usize) -> Result<Bytes, Rejection> {
    let declared = headers.get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<usize>().ok());
    let mut stream = body.into_data_stream();
    if declared.is_some_and(|length| length > limit) {
        drain(stream).await;
        return Err(Rejection::payload_too_large(limit));
    }
    let mut buffer = BytesMut::with_capacity(declared.unwrap_or(0));
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| Rejection::invalid_request(Value::Null, format!("unreadable body: {err}")))?;
        if buffer.len() + chunk.len() > limit {
            drain(stream).await;
            return Err(Rejection::payload_too_large(limit));
        }
        buffer.extend_from_slice(&chunk);
    }
    Ok(buffer.freeze())
}

async fn drain(mut stream: axum::body::BodyDataStream) {
    let discard = async {
        let mut seen = 0usize;
        while let Some(Ok(chunk)) = stream.next().await {
            seen += chunk.len();
            if seen > DRAIN_LIMIT {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(DRAIN_TIME, discard).await;
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

    fn accept(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT, HeaderValue::from_str(value).unwrap_or(HeaderValue::from_static("")));
        headers
    }

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
    fn negotiates_by_accept() {
        assert_eq!(negotiate(&HeaderMap::new()), Some(Answer::Json));
        assert_eq!(negotiate(&accept("application/json, text/event-stream")), Some(Answer::Json));
        assert_eq!(negotiate(&accept("text/event-stream")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("application/json;q=0.5, text/event-stream")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("text/event-stream, */*;q=0.1")), Some(Answer::Sse));
        assert_eq!(negotiate(&accept("*/*")), Some(Answer::Json));
        assert_eq!(negotiate(&accept("text/html")), None);
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
