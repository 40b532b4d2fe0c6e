//! What an MCP tool call costs core-service, counted from outside the gateway: core-service's own
//! `grpc_server_handled_total{method, code}` on `/metrics` (one recorder per test process, and
//! nextest runs each test in its own). Every core-service method authenticates the token before
//! anything else, so the core-service calls a tool call causes are also its token verifications.
//!
//! And that letting the tool's own call check the token still gives the spec's 401, with its
//! challenge, for every shape of `tools/call`.

use std::collections::BTreeMap;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::mcp::{call_tool, post, BOTH};
use crate::support::{create_label, owner_with_project, send, Reply};

backend_tests!(an_mcp_update_is_one_core_call, a_tool_call_with_a_bad_token_is_the_spec_401);

const UPDATE: &str = "/canvas.v1.ItemService/UpdateItem";
const WHO_AM_I: &str = "/canvas.v1.ProjectService/WhoAmI";

/// core-service's handled calls so far, by method and code (`UpdateItem OK`), canvas methods only
/// (health checks are not calls a request makes).
async fn core_calls(app: &TestApp) -> BTreeMap<String, u64> {
    let text = app.http.get(format!("{}/metrics", app.base_url)).send().await.unwrap().text().await.unwrap();
    let mut calls = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("grpc_server_handled_total{")) {
        let label = |name: &str| {
            let start = line.find(&format!("{name}=\""))? + name.len() + 2;
            line[start..].split('"').next().map(str::to_owned)
        };
        let (Some(method), Some(code)) = (label("method"), label("code")) else { continue };
        let count = line.rsplit(' ').next().and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0) as u64;
        if method.starts_with("/canvas.v1.") {
            calls.insert(format!("{method} {code}"), count);
        }
    }
    calls
}

/// The calls made between two readings of [`core_calls`].
fn made(before: &BTreeMap<String, u64>, after: &BTreeMap<String, u64>) -> BTreeMap<String, u64> {
    after
        .iter()
        .map(|(key, count)| (key.clone(), count - before.get(key).copied().unwrap_or(0)))
        .filter(|(_, count)| *count > 0)
        .collect()
}

fn one(method: &str, code: &str) -> BTreeMap<String, u64> {
    BTreeMap::from([(format!("{method} {code}"), 1)])
}

/// The item as REST reads it back (state after, seen from outside MCP).
async fn stored_item(app: &TestApp, owner: &TestUser, project: &str, item: &str) -> Reply {
    let url = app.item_url(project, &format!("/{item}?jsonCasing=camel"));
    send(app, Method::GET, &url, Some(&owner.bearer()), None).await
}

async fn an_mcp_update_is_one_core_call(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "before"})).await;

    // update_item_property, style_item and arrange_item all update by id alone.
    let calls = [
        ("update_item_property", json!({"projectId": project, "itemId": label, "property": "text", "value": "after"})),
        ("style_item", json!({"projectId": project, "itemId": label, "textColor": "#FF0000"})),
        ("arrange_item", json!({"projectId": project, "itemId": label, "position": {"x": 40, "y": 30}})),
    ];
    for (tool, arguments) in calls {
        let before = core_calls(&app).await;
        let answer = call_tool(&app, &owner, tool, arguments).await;
        let after = core_calls(&app).await;
        assert_eq!(answer["result"]["isError"], json!(false), "{tool}: {answer}");
        assert_eq!(answer["result"]["structuredContent"]["itemType"], "label", "{tool}: {answer}");
        // One core-service call, which is also the one token verification: no WhoAmI, no GetItem.
        assert_eq!(made(&before, &after), one(UPDATE, "OK"), "{tool}");
    }

    let stored = stored_item(&app, &owner, &project, &label).await;
    assert_eq!(stored.status, StatusCode::OK);
    assert_eq!(stored.body["text"], "after", "{}", stored.body);
    assert_eq!(stored.body["textColor"], "#FF0000", "{}", stored.body);
    assert_eq!(stored.body["position"], json!({"x": 40, "y": 30}), "{}", stored.body);

    // A request that runs no tool verifies the token once, with WhoAmI.
    let before = core_calls(&app).await;
    let listed =
        post(&app, Some(&owner.bearer()), BOTH, json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}).to_string())
            .await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.text);
    assert_eq!(made(&before, &core_calls(&app).await), one(WHO_AM_I, "OK"));

    // Arguments the gateway refuses reach no tool call, so WhoAmI checks the token, once.
    let before = core_calls(&app).await;
    let refused = call_tool(&app, &owner, "update_item_property", json!({"projectId": project})).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(made(&before, &core_calls(&app).await), one(WHO_AM_I, "OK"));

    // An SSE answer of a tool call is one event holding the result.
    let update = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "update_item_property",
        "arguments": {"projectId": project, "itemId": label, "property": "text", "value": "streamed"}}});
    let raw = post(&app, Some(&owner.bearer()), "text/event-stream", update.to_string()).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    assert!(raw.header("content-type").starts_with("text/event-stream"), "{:?}", raw.headers);
    assert_eq!(raw.json()["id"], 5, "{}", raw.text);
    assert_eq!(raw.json()["result"]["structuredContent"]["changed"], json!({"text": "streamed"}), "{}", raw.text);
}

async fn a_tool_call_with_a_bad_token_is_the_spec_401(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp", app.base_url);
    let challenge = format!(r#"Bearer realm="canvas", error="invalid_token", resource_metadata="{metadata}""#);
    let call = |name: &str, arguments: Value| {
        json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
            .to_string()
    };
    let update =
        call("update_item_property", json!({"projectId": project, "itemId": label, "property": "text", "value": "x"}));

    // The tool's own call is the check: one core-service call, answered UNAUTHENTICATED.
    for accept in [BOTH, "text/event-stream"] {
        let before = core_calls(&app).await;
        let raw = post(&app, Some("Bearer svc_tk_notarealtoken"), accept, update.clone()).await;
        assert_eq!(raw.status, StatusCode::UNAUTHORIZED, "{accept}: {}", raw.text);
        assert!(raw.header("content-type").starts_with("application/json"), "{accept}: {:?}", raw.headers);
        let body: Value = serde_json::from_str(&raw.text).expect("a JSON-RPC error");
        assert_eq!(body["error"]["code"], -32001, "{body}");
        assert_eq!(body["id"], Value::Null, "{body}");
        assert!(body["error"]["message"].as_str().unwrap_or("").contains("valid API token is required"), "{body}");
        assert_eq!(raw.header("www-authenticate"), challenge);
        assert_eq!(made(&before, &core_calls(&app).await), one(UPDATE, "UNAUTHENTICATED"), "{accept}");
    }

    // Calls that reach no core-service call are checked with WhoAmI: still the 401.
    for message in [
        call("update_item_property", json!({"projectId": project})),
        call("no_such_tool", json!({})),
        call("upload_image", json!({"projectId": project, "data": "@@not base64@@", "fileName": "x.png"})),
    ] {
        let raw = post(&app, Some("Bearer svc_tk_notarealtoken"), BOTH, message.clone()).await;
        assert_eq!(raw.status, StatusCode::UNAUTHORIZED, "{message}: {}", raw.text);
        assert_eq!(raw.header("www-authenticate"), challenge, "{message}");
    }

    // Nothing changed.
    let stored = stored_item(&app, &owner, &project, &label).await;
    assert_eq!(stored.body["text"], "kept", "{}", stored.body);

    // A revoked token, and no token at all.
    app.revoke(&owner).await;
    let raw = post(&app, Some(&owner.bearer()), BOTH, update.clone()).await;
    assert_eq!(raw.status, StatusCode::UNAUTHORIZED, "{}", raw.text);
    assert_eq!(raw.header("www-authenticate"), challenge);
    let raw = post(&app, None, BOTH, update).await;
    assert_eq!(raw.status, StatusCode::UNAUTHORIZED, "{}", raw.text);
    assert_eq!(raw.header("www-authenticate"), format!(r#"Bearer realm="canvas", resource_metadata="{metadata}""#));
}
