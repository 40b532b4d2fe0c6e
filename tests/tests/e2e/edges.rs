//! The edges the outside checks found weak, each as a user meets it: status and body asserted.
//! One label dimension given and the other auto-sized; integer-valued JSON numbers (`20.0`);
//! collection routes with a trailing slash; webhook records PUT back in any casing; a browser
//! page of another origin calling `/mcp`; a dependency that is down; core-service gone or slow;
//! a request body that arrives too slowly; JSON bodies told apart by the same media types on both
//! gateways.

use std::time::{Duration, Instant};

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use crate::mcp::{post, BOTH};
use crate::support::{assert_invalid, create_label, owner_with_project, send};

backend_tests!(
    one_label_dimension_may_be_left_to_auto_size,
    integer_valued_numbers_are_integers,
    collections_answer_with_a_trailing_slash,
    webhook_records_go_back_in_any_casing,
    mcp_refuses_browser_pages_of_other_origins,
    a_database_that_is_down_is_named,
    both_gateways_read_json_by_the_same_media_types
);

async fn one_label_dimension_may_be_left_to_auto_size(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    // The issue's request: height fixed, width auto-sized and omitted.
    let id =
        create_label(&app, &owner, &project, json!({"text": "t", "isAutoSizeHeight": false, "size": {"height": 40}}))
            .await;
    let url = app.item_url(&project, &format!("/{id}/size?jsonCasing=camel"));
    let size = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(size.body, json!({"width": 0, "height": 40}));

    let patched = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        Some(&owner.bearer()),
        Some(json!({"size": {"height": 64}})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    assert_eq!(
        send(&app, Method::GET, &url, Some(&owner.bearer()), None).await.body,
        json!({"width": 0, "height": 64})
    );

    // A fixed dimension still needs its value: the 400 names it and the rule.
    let missing = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/label?jsonCasing=camel"),
        Some(&owner.bearer()),
        Some(json!({"text": "t", "isAutoSizeWidth": false, "size": {"height": 40}})),
    )
    .await;
    assert_invalid(&missing, "size.width");
    assert!(missing.body["detail"].as_str().unwrap().contains("must be >= 5 when isAutoSizeWidth is false"));
    assert_eq!(missing.body["reason"], "VALIDATION_FAILED");
}

async fn integer_valued_numbers_are_integers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "glider wings"})).await;
    // REST: `json.dumps(20.0)` is what Python sends.
    let body = r#"{"projectId": "P", "query": "glider", "maxResults": 20.0}"#.replace('P', &project);
    let response = app
        .http
        .post(format!("{}/api/v1/memory/retrieve", app.base_url))
        .header("Authorization", owner.bearer())
        .header("Content-Type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{}", response.text().await.unwrap());
    let fraction = r#"{"projectId": "P", "query": "glider", "maxResults": 20.5}"#.replace('P', &project);
    let response = app
        .http
        .post(format!("{}/api/v1/memory/retrieve?jsonCasing=camel", app.base_url))
        .header("Authorization", owner.bearer())
        .header("Content-Type", "application/json")
        .body(fraction)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_eq!(response.json::<Value>().await.unwrap()["errors"][0]["field"], "maxResults");

    // MCP: the same numbers in tool arguments (written as text, so 20.0 stays a float on the wire).
    for (tool, arguments) in [
        ("retrieve_knowledge", format!(r#"{{"projectId": "{project}", "query": "glider", "maxResults": 20.0}}"#)),
        ("list_projects", r#"{"amount": 20.0}"#.to_owned()),
        ("list_items", format!(r#"{{"projectId": "{project}", "limit": 2.0}}"#)),
    ] {
        let message = format!(
            r#"{{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {{"name": "{tool}", "arguments": {arguments}}}}}"#
        );
        let raw = post(&app, Some(&owner.bearer()), BOTH, message).await;
        let answer = raw.json();
        assert!(answer.get("error").is_none(), "{tool}: {answer}");
        assert_ne!(answer["result"]["isError"], json!(true), "{tool}: {answer}");
    }
    let message = format!(
        r#"{{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {{"name": "list_items", "arguments": {{"projectId": "{project}", "limit": 2.5}}}}}}"#
    );
    let answer = post(&app, Some(&owner.bearer()), BOTH, message).await.json();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert!(answer["error"]["message"].as_str().unwrap().contains("limit"), "{answer}");
}

async fn collections_answer_with_a_trailing_slash(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "one"})).await;
    for path in ["webhooks", "webhooks/", "items", "items/"] {
        let url = format!("{}/api/v2/projects/{project}/{path}?jsonCasing=camel", app.base_url);
        let reply = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}: {}", reply.body);
        let list = if path.starts_with("webhooks") { &reply.body["elements"] } else { &reply.body["items"] };
        assert!(list.is_array(), "{path}: {}", reply.body);
    }
    let created = send(
        &app,
        Method::POST,
        &format!("{}/api/v2/projects/{project}/webhooks/", app.base_url),
        Some(&owner.bearer()),
        Some(json!({"url": "https://example.com/hook", "events": ["item.created"]})),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
}

async fn webhook_records_go_back_in_any_casing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let hooks = format!("{}/api/v2/projects/{project}/webhooks", app.base_url);
    let created = send(
        &app,
        Method::POST,
        &hooks,
        Some(&owner.bearer()),
        Some(json!({"name": "n", "url": "https://example.com/hook", "events": ["item.created"], "customData": {"teamName": "blue"}})),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body["Id"].as_str().expect("Id").to_owned();
    for casing in ["default", "camel", "snake", "kebab"] {
        let url = format!("{hooks}/{id}?jsonCasing={casing}");
        let record = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
        assert_eq!(record.status, StatusCode::OK);
        // The record exactly as read, with one change, goes back.
        let mut edited = record.body.clone();
        let name_key = edited.as_object().unwrap().keys().find(|k| k.eq_ignore_ascii_case("name")).unwrap().clone();
        edited[&name_key] = json!(format!("renamed {casing}"));
        let put = send(&app, Method::PUT, &url, Some(&owner.bearer()), Some(edited)).await;
        assert_eq!(put.status, StatusCode::OK, "{casing}: {}", put.body);
        let after =
            send(&app, Method::GET, &format!("{hooks}/{id}?jsonCasing=camel"), Some(&owner.bearer()), None).await;
        assert_eq!(after.body["name"], format!("renamed {casing}"));
        assert_eq!(after.body["customData"], json!({"teamName": "blue"}), "customData is never re-cased");
    }
}

async fn mcp_refuses_browser_pages_of_other_origins(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
    .to_string();
    let call = |origin: Option<&str>| {
        let mut request = app
            .http
            .post(app.mcp_url())
            .header("authorization", owner.bearer())
            .header("content-type", "application/json")
            .header("accept", BOTH)
            .body(initialize.clone());
        if let Some(origin) = origin {
            request = request.header("origin", origin);
        }
        request.send()
    };
    let refused = call(Some("http://evil.example")).await.unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["id"], Value::Null);
    assert_eq!(body["jsonrpc"], "2.0");
    assert!(body["error"]["message"].as_str().unwrap().contains("CANVAS_MCP_ALLOWED_ORIGINS"), "{body}");
    for allowed in [None, Some(app.base_url.as_str()), Some("http://localhost:6274")] {
        let response = call(allowed).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{allowed:?}");
    }
}

/// One HTTP edge for both gateways (`canvas_runtime::edge::content_type`): `application/json` and
/// every `application/*+json` type are JSON on REST and on MCP alike, in any letter case; another
/// charset than UTF-8, or another type, is a 415 on both.
async fn both_gateways_read_json_by_the_same_media_types(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let ping = json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}).to_string();
    for (content_type, accepted) in [
        ("application/json", true),
        ("application/vnd.api+json", true),
        ("Application/Merge-Patch+JSON; charset=utf-8", true),
        ("application/json; charset=iso-8859-1", false),
        ("text/plain", false),
    ] {
        let expected = if accepted { StatusCode::OK } else { StatusCode::UNSUPPORTED_MEDIA_TYPE };
        let mcp = app
            .http
            .post(app.mcp_url())
            .header("authorization", owner.bearer())
            .header("accept", BOTH)
            .header("content-type", content_type)
            .body(ping.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(mcp.status(), expected, "MCP, {content_type}");
        let rest = app
            .http
            .post(app.item_url(&project, "/panel/label"))
            .header("authorization", owner.bearer())
            .header("content-type", content_type)
            .body(json!({"text": "typed"}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(rest.status(), expected, "REST, {content_type}");
    }
}

async fn a_database_that_is_down_is_named(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    app.core.storage().close().await;
    let response = app
        .http
        .get(app.item_url(&project, &format!("/{id}?jsonCasing=camel")))
        .header("Authorization", owner.bearer())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(response.headers().get("retry-after").is_some());
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["reason"], "DEPENDENCY_UNAVAILABLE", "{problem}");
    assert_eq!(problem["dependency"], "database", "{problem}");
    assert!(!problem["detail"].as_str().unwrap().contains("core-service is unreachable"), "{problem}");
}

/// A REST gateway (and MCP) with a 1 s deadline and a 1 s body limit, in front of `core_url`.
async fn gateway(core_url: &str) -> String {
    let limits = canvas_runtime::GatewayArgs { core_timeout_secs: 1, body_timeout_secs: 1, ..Default::default() };
    let state = rest_gateway::AppState::connect(core_url, &limits).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let mut settings = mcp_gateway::McpSettings::new(&base);
    settings.limits = limits.clone();
    let mcp = mcp_gateway::McpState::connect(core_url, settings).unwrap();
    let router = rest_gateway::router(state).merge(mcp_gateway::router(mcp));
    let answer = mcp_gateway::edge_refusal_beside(rest_gateway::edge_refusal());
    tokio::spawn(async move {
        let stop = tokio_util::sync::CancellationToken::new();
        rest_gateway::serve_answering(listener, router, &limits, answer, stop).await
    });
    base
}

#[tokio::test]
async fn unreachable_and_slow_core_services_are_told_apart() {
    let http = canvas_tests::http_client();
    let item = "/api/v2/projects/0193a5c2-0000-7000-8000-000000000000/item/0193a5c2-0000-7000-8000-000000000001";

    // Nothing listens: "core-service is unreachable", 503 with Retry-After.
    let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let base = gateway(&format!("http://{closed}")).await;
    let response = http.get(format!("{base}{item}")).header("Authorization", "Bearer x").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers().get("retry-after").and_then(|v| v.to_str().ok()), Some("1"));
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["Reason"], "CORE_UNREACHABLE");
    assert_eq!(problem["Detail"], "core-service is unreachable; try again");

    // A server that speaks HTTP/2 and never answers: the gateway's deadline, a 504.
    let silent = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_url = format!("http://{}", silent.local_addr().unwrap());
    let never = axum::Router::new().fallback(|| async {
        tokio::time::sleep(Duration::from_secs(600)).await;
        ""
    });
    tokio::spawn(async move { axum::serve(silent, never).await });
    let base = gateway(&silent_url).await;
    let started = Instant::now();
    let response = http.get(format!("{base}{item}")).header("Authorization", "Bearer x").send().await.unwrap();
    assert_eq!(response.status(), StatusCode::GATEWAY_TIMEOUT);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    let problem: Value = response.json().await.unwrap();
    assert_eq!(problem["Reason"], "DEADLINE_EXCEEDED");
}

#[tokio::test]
async fn a_body_slower_than_the_limit_is_a_408() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    let base = gateway(&app.grpc_url).await;
    let addr = base.trim_start_matches("http://").to_owned();
    for path in [format!("/api/v2/projects/{project}/item/panel/label"), "/mcp".to_owned()] {
        let mut stream = tokio::net::TcpStream::connect(&addr).await.unwrap();
        // 100 bytes announced, 4 sent, then silence (and a trickle would not help: the limit is
        // on the whole body).
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nAuthorization: {}\r\nContent-Length: 100\r\n\r\n{{\"te",
            owner.bearer()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        let started = Instant::now();
        let mut answer = Vec::new();
        let mut chunk = [0u8; 4096];
        while !String::from_utf8_lossy(&answer).contains("\r\n\r\n") {
            match tokio::time::timeout(Duration::from_secs(10), stream.read(&mut chunk)).await {
                Ok(Ok(n)) if n > 0 => answer.extend_from_slice(&chunk[..n]),
                other => panic!("{path}: no answer to a stalled body: {other:?}"),
            }
        }
        let text = String::from_utf8_lossy(&answer);
        assert!(text.starts_with("HTTP/1.1 408"), "{path}: {text}");
        assert!(started.elapsed() >= Duration::from_millis(900), "{path}: answered before the limit");
    }
}
