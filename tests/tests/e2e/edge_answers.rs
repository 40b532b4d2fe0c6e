//! Every refusal of the HTTP edge is answered in the protocol of its route: on REST the problem
//! body every REST error has, in the `jsonCasing` the request asked for (PascalCase, the spec's,
//! when it asked for none), for a URI too long (414), a head too large or with too many fields
//! (431), a body too large (413), too slow (408) or of another media type (415), and a rate limit
//! (429); on `/mcp` a JSON-RPC error whose `data.reason` names the same limit. Before, the 414 and
//! 431 bodies were one casing whatever was asked, and `/mcp` got them as REST problems.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::service::rate_limits::RateLimitConfig;
use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{create_label, owner_with_project};

backend_tests!(edge_refusals_are_problems_in_the_requested_casing, edge_refusals_at_mcp_are_json_rpc_errors);

/// The casings a client may ask for (`None`: none asked, the default PascalCase).
const CASINGS: [Option<&str>; 5] = [None, Some("pascal"), Some("camel"), Some("snake"), Some("kebab")];

/// A problem member's name in `casing` (every member of these problems is one word).
fn member(casing: Option<&str>, camel: &str) -> String {
    match casing {
        None | Some("pascal") => camel[..1].to_uppercase() + &camel[1..],
        _ => camel.to_owned(),
    }
}

/// Checks a refusal: its status, a problem body, and every member in the asked casing.
async fn assert_problem(response: reqwest::Response, status: StatusCode, reason: &str, casing: Option<&str>) {
    assert_eq!(response.status(), status, "{casing:?}");
    let content_type = response.headers()["content-type"].to_str().unwrap().to_owned();
    assert_eq!(content_type, "application/problem+json", "{status} {casing:?}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body[member(casing, "reason")], reason, "{status} {casing:?}: {body}");
    assert_eq!(body[member(casing, "status")], status.as_u16(), "{body}");
    for camel in ["type", "title", "detail"] {
        assert!(body.get(member(casing, camel)).is_some(), "{status} {casing:?}: no {camel} in {body}");
    }
}

fn with_casing(url: &str, casing: Option<&str>) -> String {
    let separator = if url.contains('?') { '&' } else { '?' };
    casing.map_or_else(|| url.to_owned(), |casing| format!("{url}{separator}jsonCasing={casing}"))
}

async fn edge_refusals_are_problems_in_the_requested_casing(backend: Backend) {
    let app =
        TestApp::spawn_rate_limited(backend, RateLimitConfig { requests: 60, ..RateLimitConfig::default() }).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, serde_json::json!({"text": "x"})).await;
    let item = app.item_url(&project, &format!("/{label}"));
    let create = app.item_url(&project, "/panel/label");
    // A gateway in front of the same core-service with a 1 s body deadline, for the 408.
    let slow_base = slow_gateway(&app).await;
    let slow_create = format!("{slow_base}{}", create.trim_start_matches(&app.base_url));
    for casing in CASINGS {
        let long = with_casing(&format!("{item}?pad={}", "a".repeat(9 * 1024)), casing);
        let reply = app.http.get(long).header("Authorization", owner.bearer()).send().await.unwrap();
        assert_problem(reply, StatusCode::URI_TOO_LONG, "URI_TOO_LONG", casing).await;

        let url = with_casing(&item, casing);
        let big = app.http.get(&url).header("Authorization", owner.bearer()).header("X-Pad", "p".repeat(17 * 1024));
        assert_problem(
            big.send().await.unwrap(),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "HEADERS_TOO_LARGE",
            casing,
        )
        .await;
        let mut many = app.http.get(&url).header("Authorization", owner.bearer());
        for i in 0..110 {
            many = many.header(format!("X-Filler-{i}"), "v");
        }
        assert_problem(
            many.send().await.unwrap(),
            StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "HEADERS_TOO_LARGE",
            casing,
        )
        .await;

        let target = with_casing(&create, casing);
        let huge = vec![b' '; 26 * 1024 * 1024];
        let reply = app
            .http
            .post(&target)
            .header("Authorization", owner.bearer())
            .header("Content-Type", "application/json")
            .body(huge)
            .send()
            .await
            .unwrap();
        assert_problem(reply, StatusCode::PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE", casing).await;
        let reply = app
            .http
            .post(&target)
            .header("Authorization", owner.bearer())
            .header("Content-Type", "text/plain")
            .body("{\"text\": \"x\"}")
            .send()
            .await
            .unwrap();
        assert_problem(reply, StatusCode::UNSUPPORTED_MEDIA_TYPE, "UNSUPPORTED_MEDIA_TYPE", casing).await;

        // A body that stops after its first byte: 408 once the second deadline passes.
        let (status, body) = stalled_post(&with_casing(&slow_create, casing), &owner.bearer()).await;
        assert_eq!(status, 408, "{casing:?}: {body}");
        assert_eq!(body[member(casing, "reason")], "BODY_TIMEOUT", "{casing:?}: {body}");
    }
    // The rate limit last: flood the budget, then ask in each casing.
    for _ in 0..200 {
        let reply = app.http.get(&item).header("Authorization", owner.bearer()).send().await.unwrap();
        if reply.status() == StatusCode::TOO_MANY_REQUESTS {
            break;
        }
    }
    for casing in CASINGS {
        let reply =
            app.http.get(with_casing(&item, casing)).header("Authorization", owner.bearer()).send().await.unwrap();
        assert_problem(reply, StatusCode::TOO_MANY_REQUESTS, "TOO_MANY_REQUESTS", casing).await;
    }
}

/// POSTs to `url` a head promising 100 bytes of body and sends one: the answer's status and body.
async fn stalled_post(url: &str, bearer: &str) -> (u16, Value) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let url = url::Url::parse(url).unwrap();
    let address = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
    let target = format!("{}?{}", url.path(), url.query().unwrap_or(""));
    let mut tcp = tokio::net::TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST {target} HTTP/1.1\r\nHost: {address}\r\nAuthorization: {bearer}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\nConnection: close\r\n\r\n{{"
    );
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), tcp.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text.split(' ').nth(1).and_then(|code| code.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

/// A REST gateway (with MCP on the same base URL) in front of `app`'s core-service whose bodies
/// must arrive within 1 s.
async fn slow_gateway(app: &TestApp) -> String {
    let limits = canvas_runtime::GatewayArgs { body_timeout_secs: 1, ..Default::default() };
    let state = rest_gateway::AppState::connect(&app.grpc_url, &limits).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let answer = mcp_gateway::edge_refusal_beside(rest_gateway::edge_refusal());
    let stop = tokio_util::sync::CancellationToken::new();
    tokio::spawn(rest_gateway::serve_answering(listener, rest_gateway::router(state), &limits, answer, stop));
    base
}

async fn edge_refusals_at_mcp_are_json_rpc_errors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "edge", "version": "1"}}});
    let post = |url: String| {
        app.http
            .post(url)
            .header("Authorization", owner.bearer())
            .header("Accept", "application/json, text/event-stream")
            .json(&initialize)
    };
    let long = post(format!("{}?pad={}", app.mcp_url(), "a".repeat(9 * 1024)));
    let big = post(app.mcp_url()).header("X-Pad", "p".repeat(17 * 1024));
    for (request, status, reason) in [
        (long, StatusCode::URI_TOO_LONG, "URI_TOO_LONG"),
        (big, StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE, "HEADERS_TOO_LARGE"),
    ] {
        let reply = request.send().await.unwrap();
        assert_eq!(reply.status(), status);
        let body: Value = reply.json().await.unwrap();
        assert_eq!(body["jsonrpc"], "2.0", "{body}");
        assert_eq!(body["id"], Value::Null, "{body}");
        assert_eq!(body["error"]["code"], -32600, "{body}");
        assert_eq!(body["error"]["data"]["reason"], reason, "{body}");
        assert!(body["error"]["message"].as_str().unwrap().contains("--max-"), "names the setting: {body}");
    }
    let reply = post(app.mcp_url()).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK, "a request within the limits is served");
}
