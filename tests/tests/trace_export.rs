//! OpenTelemetry trace export end to end, with real processes: core-service, rest-gateway and
//! mcp-gateway run as separate OS processes (the workspace binaries) with
//! `OTEL_EXPORTER_OTLP_ENDPOINT` pointing at a stand-in OTLP/HTTP collector in this test process,
//! which speaks the real protocol (`POST /v1/traces`, `application/x-protobuf`,
//! `ExportTraceServiceRequest` decoded with the `opentelemetry-proto` messages, an empty
//! `ExportTraceServiceResponse` back).
//!
//! One REST request carrying a client's W3C `traceparent` must come out as one trace: the
//! gateway's `GET /route` server span, child of the client's span, with route, status and request
//! id; core-service's gRPC handler span, child of the gateway's span. The same through
//! mcp-gateway (`POST /mcp`, a `tools/call`). The processes stop on SIGTERM, so what reaches the
//! collector was flushed by the exit path. Logs run at `RUST_LOG=warn`: the spans do not depend
//! on the log filter. Without an endpoint the same processes send nothing; with a collector that
//! never answers, calls are not slowed and the exit waits only the bounded flush.

#[path = "../src/deploy.rs"]
mod deploy;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::{bail, Context};
use axum::body::Bytes;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::IntoResponse;
use deploy::Proc;
use opentelemetry_proto::tonic::collector::trace::v1::{ExportTraceServiceRequest, ExportTraceServiceResponse};
use opentelemetry_proto::tonic::common::v1::{any_value, KeyValue};
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use prost::Message;
use tokio::process::Command;

/// The client's trace and span ids in the `traceparent` it sends (REST; MCP).
const TRACE_ID: &str = "4bf92f3577b34da6a3ce929d0e0e4736";
const MCP_TRACE_ID: &str = "5cf92f3577b34da6a3ce929d0e0e4737";
const CLIENT_SPAN_ID: &str = "00f067aa0ba902b7";

/// A span as the collector received it, with its resource's `service.name`.
#[derive(Debug, Clone)]
struct Received {
    service: String,
    name: String,
    kind: i32,
    trace_id: String,
    span_id: String,
    parent_span_id: String,
    attributes: Vec<KeyValue>,
}

impl Received {
    fn attribute(&self, key: &str) -> Option<String> {
        let value = self.attributes.iter().find(|kv| kv.key == key)?.value.as_ref()?.value.as_ref()?;
        Some(match value {
            any_value::Value::StringValue(s) => s.clone(),
            any_value::Value::IntValue(i) => i.to_string(),
            any_value::Value::BoolValue(b) => b.to_string(),
            any_value::Value::DoubleValue(d) => d.to_string(),
            other => format!("{other:?}"),
        })
    }
}

/// What the stand-in collector saw.
#[derive(Default)]
struct Collected {
    /// Export requests received (any content).
    posts: usize,
    /// Requests refused: wrong path, content type or body.
    refused: Vec<String>,
    spans: Vec<Received>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn export(
    axum::extract::State(collected): axum::extract::State<Arc<Mutex<Collected>>>,
    headers: HeaderMap,
    body: Bytes,
) -> axum::response::Response {
    let mut collected = collected.lock().unwrap();
    collected.posts += 1;
    let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if content_type != "application/x-protobuf" {
        collected.refused.push(format!("content type {content_type:?}"));
        return (StatusCode::UNSUPPORTED_MEDIA_TYPE, "protobuf only").into_response();
    }
    let request = match ExportTraceServiceRequest::decode(body) {
        Ok(request) => request,
        Err(error) => {
            collected.refused.push(format!("undecodable body: {error}"));
            return (StatusCode::BAD_REQUEST, "not an ExportTraceServiceRequest").into_response();
        }
    };
    for resource_spans in request.resource_spans {
        let service = resource_spans
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| kv.value.as_ref()?.value.as_ref().cloned())
            .map(|v| match v {
                any_value::Value::StringValue(s) => s,
                other => format!("{other:?}"),
            })
            .unwrap_or_default();
        for scope in resource_spans.scope_spans {
            for span in scope.spans {
                collected.spans.push(Received {
                    service: service.clone(),
                    name: span.name,
                    kind: span.kind,
                    trace_id: hex(&span.trace_id),
                    span_id: hex(&span.span_id),
                    parent_span_id: hex(&span.parent_span_id),
                    attributes: span.attributes,
                });
            }
        }
    }
    let answer = ExportTraceServiceResponse::default().encode_to_vec();
    ([(header::CONTENT_TYPE, "application/x-protobuf")], answer).into_response()
}

/// The stand-in collector on `127.0.0.1:0`: its base URL and what it collects.
async fn start_collector() -> anyhow::Result<(String, Arc<Mutex<Collected>>)> {
    let collected = Arc::new(Mutex::new(Collected::default()));
    let state = collected.clone();
    let app = axum::Router::new()
        .route("/v1/traces", axum::routing::post(export))
        .fallback(move |uri: axum::http::Uri| {
            let state = state.clone();
            async move {
                state.lock().unwrap().refused.push(format!("path {uri}"));
                StatusCode::NOT_FOUND
            }
        })
        .with_state(collected.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}", listener.local_addr()?);
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok((url, collected))
}

/// Settings shared by every child: a SQLite data dir, no embedding model, logs at WARN, and no
/// OpenTelemetry variable inherited from the test's environment.
fn base_command(binary: &str, data_dir: &std::path::Path) -> anyhow::Result<Command> {
    let mut command = Command::new(deploy::binary(binary)?);
    command
        .env("CANVAS_DATA_DIR", data_dir)
        .env("CANVAS_ENVIRONMENT", "development")
        .env("CANVAS_EMBEDDING_PROVIDER", "off")
        .env("CANVAS_LOG_FORMAT", "text")
        .env("CANVAS_SHUTDOWN_GRACE_SECS", "5")
        .env("RUST_LOG", "warn");
    for (name, _) in std::env::vars() {
        if name.starts_with("OTEL_") {
            command.env_remove(name);
        }
    }
    Ok(command)
}

/// SIGTERM, then waits (at most 30 s) for the process to exit on its own.
async fn terminate(proc: &mut Proc) -> anyhow::Result<()> {
    let pid = proc.child.id().context("process already reaped")?;
    let status = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status()?;
    anyhow::ensure!(status.success(), "kill -TERM {pid} failed");
    match tokio::time::timeout(Duration::from_secs(30), proc.child.wait()).await {
        Ok(status) => {
            let status = status?;
            anyhow::ensure!(status.success(), "{} exited with {status} after SIGTERM:\n{}", proc.name, proc.tail());
            Ok(())
        }
        Err(_) => bail!("{} still running 30 s after SIGTERM:\n{}", proc.name, proc.tail()),
    }
}

/// core-service, rest-gateway and mcp-gateway on loopback, exporting to `endpoint` when given.
struct Components {
    core: Proc,
    rest: Proc,
    mcp: Proc,
    core_url: String,
    base_url: String,
    mcp_url: String,
}

async fn start_components(dir: &std::path::Path, endpoint: Option<&str>, tag: &str) -> anyhow::Result<Components> {
    start_logging(dir, endpoint, tag, &[]).await
}

/// [`start_components`] with extra environment for every component (log settings).
async fn start_logging(
    dir: &std::path::Path,
    endpoint: Option<&str>,
    tag: &str,
    env: &[(&str, &str)],
) -> anyhow::Result<Components> {
    let data_dir = dir.join("data");
    let base_command = |binary: &str, data_dir: &std::path::Path| -> anyhow::Result<Command> {
        let mut command = base_command(binary, data_dir)?;
        command.envs(env.iter().copied());
        Ok(command)
    };
    let grpc_port = deploy::free_port();
    let mut command = base_command("core-service", &data_dir)?;
    command.args(["--grpc-addr", &format!("127.0.0.1:{grpc_port}")]);
    if let Some(endpoint) = endpoint {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    }
    let mut core = deploy::spawn(dir, &format!("core-service-{tag}"), &mut command, Some(grpc_port))?;
    let core_url = format!("http://127.0.0.1:{grpc_port}");
    deploy::wait_core(&mut core, &core_url).await?;

    let http_port = deploy::free_port();
    let mut command = base_command("rest-gateway", &data_dir)?;
    command.args(["--core", &core_url, "--http-addr", &format!("127.0.0.1:{http_port}")]);
    if let Some(endpoint) = endpoint {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    }
    let mut rest = deploy::spawn(dir, &format!("rest-gateway-{tag}"), &mut command, Some(http_port))?;
    let base_url = format!("http://127.0.0.1:{http_port}");
    deploy::wait_ready(&reqwest::Client::new(), &mut rest, &format!("{base_url}/readyz")).await?;

    let mcp_port = deploy::free_port();
    let mut command = base_command("mcp-gateway", &data_dir)?;
    command.args(["--core", &core_url, "--http-addr", &format!("127.0.0.1:{mcp_port}")]);
    if let Some(endpoint) = endpoint {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    }
    let mut mcp = deploy::spawn(dir, &format!("mcp-gateway-{tag}"), &mut command, Some(mcp_port))?;
    let mcp_base = format!("http://127.0.0.1:{mcp_port}");
    deploy::wait_ready(&reqwest::Client::new(), &mut mcp, &format!("{mcp_base}/readyz")).await?;
    Ok(Components { core, rest, mcp, core_url, base_url, mcp_url: format!("{mcp_base}/mcp") })
}

impl Components {
    /// Gateways first (their last calls reach core), then core-service.
    async fn stop(mut self) -> anyhow::Result<()> {
        terminate(&mut self.rest).await?;
        terminate(&mut self.mcp).await?;
        terminate(&mut self.core).await
    }
}

/// `GET /items` of the project with the client's `traceparent` and a known request id.
async fn traced_list(base_url: &str, token: &str, project: &str, request_id: &str) -> anyhow::Result<()> {
    let reply = reqwest::Client::new()
        .get(format!("{base_url}/api/v2/projects/{project}/items"))
        .bearer_auth(token)
        .header("traceparent", format!("00-{TRACE_ID}-{CLIENT_SPAN_ID}-01"))
        .header("x-request-id", request_id)
        .timeout(Duration::from_secs(30))
        .send()
        .await?;
    anyhow::ensure!(reply.status() == StatusCode::OK, "list answered {}: {}", reply.status(), reply.text().await?);
    Ok(())
}

/// MCP `tools/call list_items` with the client's `traceparent` and a known request id.
async fn traced_mcp_list(mcp_url: &str, token: &str, project: &str, request_id: &str) -> anyhow::Result<()> {
    let message = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "list_items", "arguments": {"projectId": project}}});
    let reply = reqwest::Client::new()
        .post(mcp_url)
        .bearer_auth(token)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("traceparent", format!("00-{MCP_TRACE_ID}-{CLIENT_SPAN_ID}-01"))
        .header("x-request-id", request_id)
        .body(message.to_string())
        .timeout(Duration::from_secs(30))
        .send()
        .await?;
    let status = reply.status();
    let text = reply.text().await?;
    anyhow::ensure!(
        status == StatusCode::OK && !text.contains("\"isError\":true"),
        "tools/call answered {status}: {text}"
    );
    Ok(())
}

/// The administrator (`core-service bootstrap-admin` on the data directory); its token.
async fn admin_token(data_dir: &std::path::Path) -> anyhow::Result<String> {
    let out = base_command("core-service", data_dir)?.arg("bootstrap-admin").output().await?;
    anyhow::ensure!(out.status.success(), "bootstrap-admin failed: {}", String::from_utf8_lossy(&out.stderr));
    // Its standard output is the answer alone (its logs go to standard error).
    let stdout = String::from_utf8_lossy(&out.stdout);
    let admin: serde_json::Value = serde_json::from_str(stdout.trim())
        .with_context(|| format!("bootstrap-admin printed more than its JSON: {stdout}"))?;
    Ok(admin["adminToken"].as_str().context("adminToken")?.to_owned())
}

/// JSON logs: rest-gateway writes one access-log line per request and core-service one per call,
/// each within the span carrying the same request id, so filtering both logs by that id (e.g.
/// `jq 'select(.span.request_id == "…")'`) follows the request across the gRPC hop. Probes write
/// no access-log lines.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_follow_a_request_id_across_the_grpc_hop() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let data_dir = dir.path().join("data");
    std::fs::create_dir_all(&data_dir)?;
    let admin_token = admin_token(&data_dir).await?;
    let json_logs = [("CANVAS_LOG_FORMAT", "json"), ("RUST_LOG", "info")];
    let components = start_logging(dir.path(), None, "json", &json_logs).await?;
    let (token, project) = deploy::owner_with_project(std::slice::from_ref(&components.core_url), &admin_token).await?;
    let request_id = "json-log-hop-1";
    traced_list(&components.base_url, &token, &project, request_id).await?;
    let (rest_log, core_log) = (components.rest.log.clone(), components.core.log.clone());
    components.stop().await?;

    // Every line of both logs is one JSON object.
    let lines = |path: &std::path::Path| -> anyhow::Result<Vec<serde_json::Value>> {
        let text = std::fs::read_to_string(path)?;
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).with_context(|| format!("not a JSON log line: {l}")))
            .collect()
    };
    let (rest, core) = (lines(&rest_log)?, lines(&core_log)?);
    let of_request = |lines: &[serde_json::Value], message: &str| -> Vec<serde_json::Value> {
        lines.iter().filter(|l| l["message"] == message && l["span"]["request_id"] == request_id).cloned().collect()
    };
    let gateway = of_request(&rest, "request done");
    assert_eq!(gateway.len(), 1, "rest-gateway access log: {rest:#?}");
    assert_eq!(gateway[0]["status"], 200);
    assert_eq!(gateway[0]["level"], "INFO");
    assert_eq!(gateway[0]["span"]["method"], "GET");
    let calls = of_request(&core, "call done");
    assert!(!calls.is_empty(), "core-service has no line with the request id: {core:#?}");
    assert!(calls.iter().all(|c| c["code"] == "OK" && c["span"]["method"].as_str().unwrap().contains("ItemService")));
    // Readiness probes (the harness polled /readyz, the gateway checked core's health) are not logged.
    let probes = rest.iter().chain(&core).filter(|l| {
        l["span"]["path"] == "/readyz" || l["span"]["method"].as_str().is_some_and(|m| m.contains("Health/Check"))
    });
    assert_eq!(probes.count(), 0, "probes in the access log");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_rest_request_is_one_trace_across_gateway_and_core() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let data_dir = dir.path().join("data");
    std::fs::create_dir_all(&data_dir)?;
    let (collector_url, collected) = start_collector().await?;

    let admin_token = admin_token(&data_dir).await?;
    let components = start_components(dir.path(), Some(&collector_url), "traced").await?;
    let (token, project) = deploy::owner_with_project(std::slice::from_ref(&components.core_url), &admin_token).await?;
    let request_id = "trace-export-test-1";
    traced_list(&components.base_url, &token, &project, request_id).await?;
    let mcp_request_id = "trace-export-mcp-1";
    traced_mcp_list(&components.mcp_url, &token, &project, mcp_request_id).await?;
    components.stop().await?;

    let spans = {
        let collected = collected.lock().unwrap();
        assert!(collected.refused.is_empty(), "the collector refused requests: {:?}", collected.refused);
        assert!(collected.posts > 0, "nothing was exported");
        collected.spans.clone()
    };
    let summary = || {
        spans
            .iter()
            .map(|s| {
                format!("{} {:?} trace={} id={} parent={}", s.service, s.name, s.trace_id, s.span_id, s.parent_span_id)
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    eprintln!("spans received:\n{}", summary());
    // Every span of the request, in either process, belongs to the client's trace.
    let of_request: Vec<&Received> =
        spans.iter().filter(|s| s.attribute("request_id").as_deref() == Some(request_id)).collect();
    assert!(of_request.len() >= 2, "spans of the request missing:\n{}", summary());
    for span in &of_request {
        assert_eq!(span.trace_id, TRACE_ID, "a span of the request left the client's trace:\n{}", summary());
    }

    let route = "/api/v2/projects/{project_id}/items";
    let gateway: Vec<&&Received> = of_request.iter().filter(|s| s.service == "rest-gateway").collect();
    assert_eq!(gateway.len(), 1, "one gateway span expected:\n{}", summary());
    let gateway = gateway[0];
    assert_eq!(gateway.name, format!("GET {route}"));
    assert_eq!(gateway.kind, SpanKind::Server as i32);
    assert_eq!(gateway.parent_span_id, CLIENT_SPAN_ID, "the gateway span continues the client's span");
    assert_eq!(gateway.attribute("http.route").as_deref(), Some(route));
    assert_eq!(gateway.attribute("http.request.method").as_deref(), Some("GET"));
    assert_eq!(gateway.attribute("http.response.status_code").as_deref(), Some("200"));

    let core: Vec<&&Received> = of_request.iter().filter(|s| s.service == "core-service").collect();
    assert!(!core.is_empty(), "no core-service span of the request:\n{}", summary());
    for span in &core {
        assert!(span.name.starts_with("canvas.v1.ItemService/"), "core span named {:?}", span.name);
        assert_eq!(span.kind, SpanKind::Server as i32);
        assert_eq!(span.parent_span_id, gateway.span_id, "core's handler span is a child of the gateway span");
        assert_eq!(span.attribute("rpc.grpc.status_code").as_deref(), Some("OK"));
    }
    // The same through mcp-gateway: `POST /mcp`, then core's handler span as its child.
    let of_mcp: Vec<&Received> =
        spans.iter().filter(|s| s.attribute("request_id").as_deref() == Some(mcp_request_id)).collect();
    let mcp: Vec<&&Received> = of_mcp.iter().filter(|s| s.service == "mcp-gateway").collect();
    assert_eq!(mcp.len(), 1, "one mcp-gateway span expected:\n{}", summary());
    let mcp = mcp[0];
    assert_eq!((mcp.name.as_str(), mcp.trace_id.as_str()), ("POST /mcp", MCP_TRACE_ID));
    assert_eq!(mcp.parent_span_id, CLIENT_SPAN_ID);
    assert_eq!(mcp.attribute("http.response.status_code").as_deref(), Some("200"));
    let core: Vec<&&Received> = of_mcp.iter().filter(|s| s.service == "core-service").collect();
    assert!(!core.is_empty(), "no core-service span of the MCP request:\n{}", summary());
    for span in core {
        assert_eq!((span.trace_id.as_str(), span.parent_span_id.as_str()), (MCP_TRACE_ID, mcp.span_id.as_str()));
    }

    // Only these services export, and each under its own name.
    for span in &spans {
        assert!(
            ["rest-gateway", "mcp-gateway", "core-service"].contains(&span.service.as_str()),
            "unexpected service.name {:?}",
            span.service
        );
    }

    // The same processes without an endpoint: they run and answer, and send nothing.
    let posts_before = collected.lock().unwrap().posts;
    let components = start_components(dir.path(), None, "untraced").await?;
    traced_list(&components.base_url, &token, &project, "trace-export-test-2").await?;
    traced_mcp_list(&components.mcp_url, &token, &project, "trace-export-mcp-2").await?;
    components.stop().await?;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(collected.lock().unwrap().posts, posts_before, "spans were exported without an endpoint");
    Ok(())
}

/// A collector that accepts connections and never answers must not hold up a request or the
/// exit: core-service still serves, and after SIGTERM exits within the guard's flush bound
/// (5 s) plus slack, logging the lost spans once rather than per batch.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_collector_delays_exit_boundedly() -> anyhow::Result<()> {
    let dir = tempfile::tempdir()?;
    let data_dir = dir.path().join("data");
    std::fs::create_dir_all(&data_dir)?;
    // Accepts and holds every connection, reads nothing, answers nothing.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let endpoint = format!("http://{}", silent.local_addr()?);
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });

    let grpc_port = deploy::free_port();
    let mut command = base_command("core-service", &data_dir)?;
    command.args(["--grpc-addr", &format!("127.0.0.1:{grpc_port}")]).env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint);
    let mut core = deploy::spawn(dir.path(), "core-service-silent", &mut command, Some(grpc_port))?;
    let core_url = format!("http://127.0.0.1:{grpc_port}");
    deploy::wait_core(&mut core, &core_url).await?;
    // Traced calls (bootstrap is not needed: an unauthenticated call is still a traced call).
    let channel = tonic::transport::Endpoint::from_shared(core_url.clone())?.connect().await?;
    let mut items = canvas_proto::v1::item_service_client::ItemServiceClient::new(channel);
    for _ in 0..5 {
        let started = tokio::time::Instant::now();
        let status = items.list_items(canvas_proto::v1::ListItemsRequest::default()).await.unwrap_err();
        assert_eq!(status.code(), tonic::Code::Unauthenticated);
        assert!(started.elapsed() < Duration::from_secs(2), "a call waited on the collector");
    }

    let started = std::time::Instant::now();
    terminate(&mut core).await?;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(12), "exit took {took:?} with a silent collector");
    let log = std::fs::read_to_string(&core.log)?;
    let warnings = log.lines().filter(|l| l.contains("trace export")).count();
    assert!(warnings <= 2, "trace export logged {warnings} lines:\n{log}");
    Ok(())
}
