//! mcp-gateway: the MCP server of the canvas service (Streamable HTTP at
//! `POST /mcp`), translated into core-service gRPC calls. It holds no canvas
//! rule: it authenticates through core-service, speaks MCP with the official
//! Rust SDK (rmcp, stateless), and turns tool calls into item, project and
//! knowledge calls made with the caller's own token (an API token, or an
//! OAuth access token minted for this endpoint: every call names the resource
//! it came through).
//!
//! # Layout
//! - [`transport`]: the `/mcp` route: host check, 405, auth, media types,
//!   body limit and JSON-RPC checks in front of rmcp; and the routes of its
//!   OAuth protected-resource metadata.
//! - [`request`]: media types, JSON-or-SSE negotiation and the body within its limits.
//! - [`auth`]: the token check, once per request (a tool call's own core-service call, else
//!   `WhoAmI`), the 401 and its challenge, and the protected-resource metadata (RFC 9728).
//! - [`token_check`]: what a tool call's own core-service calls said of the token.
//! - [`server`]: the rmcp `ServerHandler`: server info, `tools/list`,
//!   `tools/call`, `tasks/get`, `tasks/update`, `tasks/cancel`.
//! - [`confirm`]: asking the person before a large destructive change (2026-07-28
//!   `input_required`), or the tool error naming `confirm` for a client that cannot ask.
//! - [`tasks`]: long tool calls as MCP tasks (the `io.modelcontextprotocol/tasks` extension): the
//!   handle at once, the work in a worker renewing its lease, the state in core-service.
//! - [`tools`]: one type per tool, their schemas and outputs.
//! - [`app`]: the map as an MCP App view (`ui://canvas/map.html`), named by the tools whose
//!   results are places on the map.
//! - [`error`]: every error the gateway shows, mapped in one place.
//! - [`state`]: the gRPC clients, links and the caller's credentials (on the client frame both
//!   gateways share, `canvas_proto::client`).
//! - [`config`]: settings and the binary's command line.

pub mod app;
pub mod auth;
pub mod config;
pub mod confirm;
pub mod error;
pub mod request;
pub mod server;
pub mod state;
pub mod tasks;
pub mod token_check;
pub mod tools;
pub mod transport;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

pub use config::McpSettings;
pub use state::McpState;
pub use transport::{router, MCP_PATH};

/// `/healthz` and `/readyz` for the standalone binary (`canvasctl up` has
/// its own on the shared router): alive when the process answers, ready when
/// core-service reports SERVING.
pub fn health_router(state: McpState) -> Router {
    Router::new()
        .route("/healthz", get(live))
        .route("/readyz", get(ready))
        .route("/metrics", get(canvas_runtime::metrics::handler))
        .with_state(state)
}

async fn live() -> (StatusCode, Json<Value>) {
    (StatusCode::OK, Json(json!({"status": "ok"})))
}

async fn ready(State(state): State<McpState>) -> (StatusCode, Json<Value>) {
    let mut client = HealthClient::new(state.channel.clone());
    let request = tonic::Request::new(HealthCheckRequest { service: String::new() });
    match tokio::time::timeout(std::time::Duration::from_secs(2), client.check(request)).await {
        Ok(Ok(reply)) if reply.get_ref().status == ServingStatus::Serving as i32 => {
            (StatusCode::OK, Json(json!({"status": "ok"})))
        }
        _ => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "unavailable", "detail": "core-service is not serving"})),
        ),
    }
}

/// Serves `router` on `listener` until shutdown, within the edge limits of `limits`; requests in
/// flight get the grace period.
pub fn serve(
    listener: TcpListener,
    router: Router,
    limits: &canvas_runtime::GatewayArgs,
    shutdown: impl Into<canvas_runtime::Shutdown>,
) -> impl std::future::Future<Output = anyhow::Result<()>> + Send + 'static {
    let answer = edge_refusal_beside(canvas_runtime::edge::head::plain_problem());
    canvas_runtime::server::serve_answering(listener, router, limits, answer, shutdown)
}

/// How a request refused at the edge is answered when the server also serves other routes: one to
/// the MCP endpoint gets a JSON-RPC error (as every refusal there does, `error.rs`), any other
/// `others`' answer.
pub fn edge_refusal_beside(
    others: canvas_runtime::edge::head::RefusalAnswer,
) -> canvas_runtime::edge::head::RefusalAnswer {
    std::sync::Arc::new(move |uri: &axum::http::Uri, refusal: canvas_runtime::edge::head::EdgeRefusal| {
        if uri.path() == transport::MCP_PATH {
            axum::response::IntoResponse::into_response(error::Rejection::edge(refusal))
        } else {
            others(uri, refusal)
        }
    })
}
