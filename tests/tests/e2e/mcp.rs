//! The MCP endpoint over raw HTTP, as a client without an SDK sees it: the
//! 401 body and challenge, 405, the 25 MB limit, JSON or SSE answers by
//! `Accept`, JSON-RPC errors for malformed requests, both protocol eras, and
//! tool errors that name the argument. The official Python SDK and the MCP
//! Inspector drive the same endpoint in `mcp_clients`.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::{Environment, ProjectRole, UserId};
use reqwest::header::HeaderMap;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::owner_with_project;

backend_tests!(
    unauthenticated_calls_get_the_spec_401,
    get_and_delete_answer_405,
    bodies_over_25_mib_get_413,
    answers_json_or_sse_by_accept,
    malformed_requests_get_json_rpc_errors,
    both_protocol_eras_negotiate,
    tool_errors_name_the_argument,
    hosts_outside_the_allow_list_get_403,
    a_401_before_the_body_is_read_closes_its_connection_openly
);

pub const BOTH: &str = "application/json, text/event-stream";

/// An answer of the MCP endpoint.
pub struct Raw {
    /// The HTTP status, asserted for every refusal.
    pub status: StatusCode,
    /// `WWW-Authenticate`, `Allow` and `Content-Type` are part of the contract.
    pub headers: HeaderMap,
    /// The body as received, JSON or SSE.
    pub text: String,
}

impl Raw {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }

    /// The body as JSON; for an SSE answer, the data of its one message.
    pub fn json(&self) -> Value {
        if self.header("content-type").starts_with("text/event-stream") {
            let data: Vec<&str> = self.text.lines().filter_map(|l| l.strip_prefix("data:")).map(str::trim).collect();
            let message = data.iter().find(|d| !d.is_empty()).copied().unwrap_or("null");
            return serde_json::from_str(message).unwrap_or(Value::Null);
        }
        serde_json::from_str(&self.text).unwrap_or(Value::Null)
    }
}

/// POSTs `body` to `/mcp`.
pub async fn post(app: &TestApp, auth: Option<&str>, accept: &str, body: impl Into<reqwest::Body>) -> Raw {
    let mut request =
        app.http.post(app.mcp_url()).header("content-type", "application/json").header("accept", accept).body(body);
    if let Some(auth) = auth {
        request = request.header("authorization", auth);
    }
    answer(request).await
}

/// Sends a request to the MCP endpoint and keeps its answer as it came.
async fn answer(request: reqwest::RequestBuilder) -> Raw {
    let response = request.send().await.expect("the MCP endpoint answers");
    Raw {
        status: response.status(),
        headers: response.headers().clone(),
        text: response.text().await.expect("a readable body"),
    }
}

pub async fn rpc(app: &TestApp, user: &TestUser, method: &str, params: Value) -> Value {
    let message = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
    let raw = post(app, Some(&user.bearer()), BOTH, message.to_string()).await;
    assert_eq!(raw.status, StatusCode::OK, "{method}: {}", raw.text);
    raw.json()
}

/// A JSON-RPC request of the 2026-07-28 revision: per-request metadata (`_meta` with the protocol
/// version, client info and the client's declared `capabilities`) and the routing headers
/// (`Mcp-Method`, `Mcp-Name`). Answers the HTTP answer as it came.
pub(crate) async fn post_newest(
    app: &TestApp,
    user: &TestUser,
    method: &str,
    name: &str,
    mut params: Value,
    capabilities: Value,
) -> Raw {
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": capabilities,
    });
    let message = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    let request = app
        .http
        .post(app.mcp_url())
        .header("authorization", user.bearer())
        .header("content-type", "application/json")
        .header("accept", BOTH)
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .header("mcp-name", name)
        .body(message.to_string());
    answer(request).await
}

pub(crate) async fn call_tool(app: &TestApp, user: &TestUser, name: &str, arguments: Value) -> Value {
    rpc(app, user, "tools/call", json!({"name": name, "arguments": arguments})).await
}

fn initialize(version: &str) -> String {
    json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "1"}}})
    .to_string()
}

fn assert_json_rpc_error(raw: &Raw, status: StatusCode, code: i64) -> String {
    assert_eq!(raw.status, status, "{}", raw.text);
    assert!(raw.header("content-type").starts_with("application/json"), "{:?}", raw.headers);
    let body: Value = serde_json::from_str(&raw.text).expect("a JSON-RPC error body");
    assert_eq!(body["jsonrpc"], "2.0", "{body}");
    assert_eq!(body["error"]["code"], json!(code), "{body}");
    body["error"]["message"].as_str().expect("an error message").to_owned()
}

async fn unauthenticated_calls_get_the_spec_401(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;

    let missing = post(&app, None, BOTH, initialize("2025-03-26")).await;
    let message = assert_json_rpc_error(&missing, StatusCode::UNAUTHORIZED, -32001);
    assert!(message.contains("valid API token is required"), "{message}");
    assert_eq!(missing.json()["id"], Value::Null);
    // The spec's challenge, and (MCP authorization, RFC 9728) where the resource's metadata is.
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", app.base_url);
    assert_eq!(missing.header("www-authenticate"), format!(r#"Bearer realm="canvas", resource_metadata="{metadata}""#));

    let user = UserId::parse(&owner.id).unwrap();
    let staging =
        app.core.accounts().create_token(&app.admin, user, Some(Environment::Staging), "other env").await.unwrap();
    let foreign_env = format!("Bearer {}", staging.secret);
    for bad in ["Bearer svc_tk_notarealtoken", "ServiceApiKey nonsense", "Basic dXNlcjpwYXNz", foreign_env.as_str()] {
        let raw = post(&app, Some(bad), BOTH, initialize("2025-03-26")).await;
        let message = assert_json_rpc_error(&raw, StatusCode::UNAUTHORIZED, -32001);
        assert!(message.contains("valid API token is required"), "{message}");
        assert_eq!(raw.json()["id"], Value::Null, "{bad}");
        assert_eq!(
            raw.header("www-authenticate"),
            format!(r#"Bearer realm="canvas", error="invalid_token", resource_metadata="{metadata}""#),
            "{bad}"
        );
    }

    // Both schemes of the spec work with a valid token.
    for scheme in ["Bearer", "ServiceApiKey"] {
        let raw = post(&app, Some(&format!("{scheme} {}", owner.token)), BOTH, initialize("2025-03-26")).await;
        assert_eq!(raw.status, StatusCode::OK, "{scheme}: {}", raw.text);
    }
    app.revoke(&owner).await;
    let revoked = post(&app, Some(&owner.bearer()), BOTH, initialize("2025-03-26")).await;
    assert_json_rpc_error(&revoked, StatusCode::UNAUTHORIZED, -32001);
    assert_eq!(
        revoked.header("www-authenticate"),
        format!(r#"Bearer realm="canvas", error="invalid_token", resource_metadata="{metadata}""#)
    );
}

async fn get_and_delete_answer_405(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    for method in [reqwest::Method::GET, reqwest::Method::DELETE] {
        for auth in [Some(owner.bearer()), None] {
            let mut request = app.http.request(method.clone(), app.mcp_url()).header("accept", "text/event-stream");
            if let Some(auth) = &auth {
                request = request.header("authorization", auth);
            }
            let response = request.send().await.unwrap();
            let raw = Raw {
                status: response.status(),
                headers: response.headers().clone(),
                text: response.text().await.unwrap(),
            };
            assert_json_rpc_error(&raw, StatusCode::METHOD_NOT_ALLOWED, -32600);
            assert_eq!(raw.header("allow"), "POST", "{method}");
        }
    }
}

async fn bodies_over_25_mib_get_413(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    const LIMIT: usize = 25 * 1024 * 1024;
    let ping = br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;

    // Exactly at the limit: accepted (JSON may end in whitespace).
    let mut at_limit = ping.to_vec();
    at_limit.resize(LIMIT, b' ');
    let raw = post(&app, Some(&owner.bearer()), BOTH, at_limit).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    assert_eq!(raw.json()["result"], json!({}));

    // One byte more: 413 with a JSON-RPC error, not plain text.
    let mut over = ping.to_vec();
    over.resize(LIMIT + 1, b' ');
    let raw = post(&app, Some(&owner.bearer()), BOTH, over).await;
    let message = assert_json_rpc_error(&raw, StatusCode::PAYLOAD_TOO_LARGE, -32600);
    assert!(message.contains("25 MB"), "{message}");

    // A chunked body without Content-Length is cut off the same way.
    let (status, body) = post_chunked(&app, &owner.bearer(), 26, 1024 * 1024).await;
    assert_eq!(status, 413, "{body}");
    let body: Value = serde_json::from_str(&body).expect("a JSON-RPC error body");
    assert_eq!(body["error"]["code"], -32600, "{body}");
}

/// POSTs `chunks` chunks of `size` spaces with `Transfer-Encoding: chunked`
/// over a plain socket (reqwest cannot stream bodies with the workspace's
/// features); returns the status and the body.
async fn post_chunked(app: &TestApp, auth: &str, chunks: usize, size: usize) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let authority = app.base_url.trim_start_matches("http://").to_owned();
    let mut socket = tokio::net::TcpStream::connect(&authority).await.expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nAuthorization: {auth}\r\nContent-Type: application/json\r\n\
         Accept: {BOTH}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.expect("write head");
    let chunk = vec![b' '; size];
    for _ in 0..chunks {
        let framed = [format!("{size:x}\r\n").as_bytes(), chunk.as_slice(), b"\r\n".as_slice()].concat();
        if socket.write_all(&framed).await.is_err() {
            break; // the server answered and closed: read what it said
        }
    }
    let _ = socket.write_all(b"0\r\n\r\n").await;
    let mut answer = Vec::new();
    let _ = socket.read_to_end(&mut answer).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split_once("\r\n\r\n").map(|(_, b)| b.to_owned()).unwrap_or_default();
    (status, body)
}

async fn answers_json_or_sse_by_accept(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    let list = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}).to_string();

    for accept in [BOTH, "application/json"] {
        let raw = post(&app, Some(&owner.bearer()), accept, list.clone()).await;
        assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
        assert!(raw.header("content-type").starts_with("application/json"), "{accept}: {:?}", raw.headers);
        let body: Value = serde_json::from_str(&raw.text).expect("one JSON body");
        assert_eq!(body["id"], 7);
        assert_eq!(body["result"]["tools"].as_array().map(Vec::len), Some(30), "{body}");
    }

    for accept in ["text/event-stream", "application/json;q=0.5, text/event-stream"] {
        let raw = post(&app, Some(&owner.bearer()), accept, list.clone()).await;
        assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
        assert!(raw.header("content-type").starts_with("text/event-stream"), "{accept}: {:?}", raw.headers);
        assert!(raw.text.lines().any(|l| l.starts_with("data:")), "{}", raw.text);
        let message = raw.json();
        assert_eq!(message["id"], 7);
        assert_eq!(message["result"]["tools"].as_array().map(Vec::len), Some(30), "{message}");
    }

    let raw = post(&app, Some(&owner.bearer()), "text/html", list).await;
    assert_json_rpc_error(&raw, StatusCode::NOT_ACCEPTABLE, -32600);
}

async fn malformed_requests_get_json_rpc_errors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    let auth = owner.bearer();

    let raw = post(&app, Some(&auth), BOTH, r#"{"jsonrpc": "2.0", "id": 1, "method":"#).await;
    let message = assert_json_rpc_error(&raw, StatusCode::BAD_REQUEST, -32700);
    assert!(message.contains("not valid JSON"), "{message}");
    assert_eq!(raw.json()["id"], Value::Null);

    let raw = post(&app, Some(&auth), BOTH, "42").await;
    assert_json_rpc_error(&raw, StatusCode::BAD_REQUEST, -32600);
    let raw = post(&app, Some(&auth), BOTH, r#"{"jsonrpc": "1.0", "id": 3, "method": "ping"}"#).await;
    assert_json_rpc_error(&raw, StatusCode::BAD_REQUEST, -32600);
    assert_eq!(raw.json()["id"], 3);
    let raw = post(&app, Some(&auth), BOTH, "[]").await;
    assert_json_rpc_error(&raw, StatusCode::BAD_REQUEST, -32600);

    let wrong_type = app
        .http
        .post(app.mcp_url())
        .header("authorization", &auth)
        .header("accept", BOTH)
        .header("content-type", "text/plain")
        .body(initialize("2025-03-26"))
        .send()
        .await
        .unwrap();
    let raw = Raw {
        status: wrong_type.status(),
        headers: wrong_type.headers().clone(),
        text: wrong_type.text().await.unwrap(),
    };
    assert_json_rpc_error(&raw, StatusCode::UNSUPPORTED_MEDIA_TYPE, -32600);

    // Unknown method: JSON-RPC -32601.
    let raw = post(&app, Some(&auth), BOTH, json!({"jsonrpc": "2.0", "id": 4, "method": "nope/x"}).to_string()).await;
    assert_eq!(raw.json()["error"]["code"], -32601, "{}", raw.text);

    // A 2025-03-26 batch: two requests and a notification, two answers.
    let batch = json!([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
    ]);
    let raw = post(&app, Some(&auth), BOTH, batch.to_string()).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    let answers = raw.json();
    let answers = answers.as_array().expect("a batch answer");
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0]["id"], 1);
    assert_eq!(answers[1]["result"]["tools"].as_array().map(Vec::len), Some(30));
}

async fn both_protocol_eras_negotiate(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;

    let raw = post(&app, Some(&owner.bearer()), BOTH, initialize("2025-03-26")).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    let result = &raw.json()["result"];
    assert_eq!(result["protocolVersion"], "2025-03-26", "{result}");
    assert_eq!(result["serverInfo"]["name"], "canvas-mcp");
    assert!(result["capabilities"]["tools"].is_object(), "{result}");
    assert!(raw.headers.get("mcp-session-id").is_none(), "the server is stateless");

    // The newest revision: no initialize; server/discover with per-request metadata.
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": "raw-test", "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    let discover = json!({"jsonrpc": "2.0", "id": 2, "method": "server/discover", "params": {"_meta": meta}});
    let response = app
        .http
        .post(app.mcp_url())
        .header("authorization", owner.bearer())
        .header("content-type", "application/json")
        .header("accept", BOTH)
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "server/discover")
        .body(discover.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let versions = body["result"]["supportedVersions"].as_array().cloned().unwrap_or_default();
    assert!(versions.contains(&json!("2026-07-28")) && versions.contains(&json!("2025-03-26")), "{body}");
}

async fn tool_errors_name_the_argument(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (_, foreign) = owner_with_project(&app).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;

    let created = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label",
        "properties": {"text": "Hello", "horizontalTextAlignment": "Center"}}),
    )
    .await;
    let result = &created["result"];
    assert_eq!(result["isError"], false, "{created}");
    let item = result["structuredContent"]["itemId"].as_str().expect("itemId").to_owned();
    let link = format!("{}/map/{project}?node={item}", app.base_url);
    assert_eq!(result["structuredContent"]["link"], link.as_str());
    let text: Value = serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, result["structuredContent"], "the text block repeats the structured result");

    let error_text = |reply: &Value| -> String {
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        reply["result"]["content"][0]["text"].as_str().unwrap_or("").to_owned()
    };
    // Validation: the argument and the allowed values.
    let invalid = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label",
        "properties": {"text": "x", "horizontalTextAlignment": "Middle"}}),
    )
    .await;
    let text = error_text(&invalid);
    assert!(text.contains("'properties.horizontalTextAlignment'") && text.contains("Left"), "{text}");
    let style =
        call_tool(&app, &owner, "style_item", json!({"projectId": project, "itemId": item, "fontSize": 0})).await;
    assert!(error_text(&style).contains("'fontSize'"), "{style}");
    // 403: not a member, and a Viewer writing.
    let denied = call_tool(&app, &owner, "list_items", json!({"projectId": foreign})).await;
    let text = error_text(&denied);
    assert!(text.contains("permission denied") && text.contains("'projectId'"), "{text}");
    let viewer_write = call_tool(&app, &viewer, "delete_item", json!({"projectId": project, "itemId": item})).await;
    assert!(error_text(&viewer_write).contains("'projectId'"), "{viewer_write}");
    // 404: the argument that held the unknown id.
    let unknown = uuid::Uuid::new_v4().to_string();
    let missing = call_tool(&app, &owner, "get_item", json!({"projectId": project, "itemId": unknown})).await;
    let text = error_text(&missing);
    assert!(text.contains("not found") && text.contains("'itemId'"), "{text}");

    // Protocol errors: unknown tool, missing, unknown and mistyped arguments.
    let cases = [
        (json!({"name": "no_such_tool", "arguments": {}}), "no_such_tool"),
        (json!({"name": "get_item", "arguments": {"itemId": item}}), "projectId"),
        (json!({"name": "get_item", "arguments": {"projectId": project, "itemId": item, "colour": 1}}), "colour"),
        (json!({"name": "list_projects", "arguments": {"amount": "lots"}}), "amount"),
    ];
    for (params, named) in cases {
        let reply = rpc(&app, &owner, "tools/call", params).await;
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap_or("").contains(named), "{reply}");
    }
}

async fn hosts_outside_the_allow_list_get_403(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    let response = app
        .http
        .post(app.mcp_url())
        .header("host", "attacker.example")
        .header("authorization", owner.bearer())
        .header("content-type", "application/json")
        .header("accept", BOTH)
        .body(initialize("2025-03-26"))
        .send()
        .await
        .unwrap();
    let raw =
        Raw { status: response.status(), headers: response.headers().clone(), text: response.text().await.unwrap() };
    let message = assert_json_rpc_error(&raw, StatusCode::FORBIDDEN, -32000);
    assert!(message.contains("CANVAS_MCP_ALLOWED_HOSTS"), "{message}");
}

/// A request without a token is answered 401 before its body is read. The HTTP/1.1 connection it
/// came on cannot serve another request (its body was never read), so the 401 must say so
/// (`Connection: close`) and the server must close it: a client that reused it (the MCP Python
/// SDK's httpx fetching the resource metadata right after the 401) met a socket closed without
/// warning ("Server disconnected without sending a response", seen in CI twice, the last time
/// on 2026-11-29 under load). The next request, on a new connection, is served; a refused
/// request that sent no body leaves its connection open for the next.
async fn a_401_before_the_body_is_read_closes_its_connection_openly(backend: Backend) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let app = TestApp::spawn(backend).await;
    let url = reqwest::Url::parse(&app.mcp_url()).unwrap();
    let host = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    let body = initialize("2025-03-26");
    let mut socket = tokio::net::TcpStream::connect(&host).await.unwrap();
    // The head first and the body a moment later, as a client writing them separately does.
    let first = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nAccept: {BOTH}\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    socket.write_all(first.as_bytes()).await.unwrap();
    let (head, _) = read_response(&mut socket).await.expect("the 401 arrives before the body is sent");
    assert!(head.starts_with("HTTP/1.1 401"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("\r\nconnection: close"),
        "the 401 does not say the connection ends: {head}"
    );
    let _ = socket.write_all(body.as_bytes()).await;
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(std::time::Duration::from_secs(5), socket.read_to_end(&mut rest)).await;
    assert!(closed.is_ok(), "the connection announced as closing stays open");
    let mut socket = tokio::net::TcpStream::connect(&host).await.unwrap();
    let second = format!("GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: {host}\r\n\r\n");
    socket.write_all(second.as_bytes()).await.unwrap();
    let (head, _) = read_response(&mut socket).await.expect("a new connection is served");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    // A refusal of a request without a body (the SDK's `GET /mcp`) keeps the connection.
    socket.write_all(format!("GET /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: {BOTH}\r\n\r\n").as_bytes()).await.unwrap();
    let (head, _) = read_response(&mut socket).await.expect("the 405 arrives");
    assert!(head.starts_with("HTTP/1.1 405"), "{head}");
    assert!(!head.to_ascii_lowercase().contains("\r\nconnection: close"), "a bodiless refusal closes: {head}");
    socket.write_all(second.as_bytes()).await.unwrap();
    let (head, _) = read_response(&mut socket).await.expect("the connection serves the next request");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
}

/// One HTTP/1.1 response read off `socket`: its head and body (by `Content-Length`); None when
/// the connection ends before a whole head arrives.
async fn read_response(socket: &mut tokio::net::TcpStream) -> Option<(String, Vec<u8>)> {
    use tokio::io::AsyncReadExt;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        let read = tokio::time::timeout(std::time::Duration::from_secs(5), socket.read(&mut chunk)).await.ok()?.ok()?;
        if read == 0 {
            return None;
        }
        bytes.extend_from_slice(&chunk[..read]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let length = head
        .lines()
        .find_map(|line| {
            line.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().parse::<usize>().unwrap())
        })
        .unwrap_or(0);
    while bytes.len() < head_end + length {
        let read = tokio::time::timeout(std::time::Duration::from_secs(5), socket.read(&mut chunk)).await.ok()?.ok()?;
        if read == 0 {
            return None;
        }
        bytes.extend_from_slice(&chunk[..read]);
    }
    Some((head, bytes[head_end..head_end + length].to_vec()))
}
