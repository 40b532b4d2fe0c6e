//! Webhook deliveries end to end: a real HTTPS receiver on loopback behind a
//! local CA, the dispatcher in this process, every event kind, signatures
//! checked by Python's `cryptography` from the JWK set alone, retries after
//! 500s, time-outs and `Retry-After`, automatic disable and re-enable.

use std::time::Duration;

use canvas_tests::webhook_checks::{python_verifies, rust_verifies};
use canvas_tests::webhooks::{Answer, WebhookEnv};
use canvas_tests::{backend_tests, Backend, TestUser};
use core_service::domain::{ProjectId, ProjectRole, UserId};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    every_event_kind_arrives_signed,
    webhooks_get_only_their_kinds_and_disabled_ones_nothing,
    failed_attempts_are_retried_under_the_same_delivery_id,
    retry_after_is_honoured,
    failing_webhooks_are_disabled_and_re_enabled
);

const WAIT: Duration = Duration::from_secs(20);

/// Creates a webhook and returns its id.
pub async fn create_hook(env: &WebhookEnv, user: &TestUser, project: &str, definition: Value) -> String {
    let reply =
        send(&env.app, Method::POST, &env.url(project, "?jsonCasing=camel"), Some(&user.bearer()), Some(definition))
            .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["id"].as_str().unwrap().to_owned()
}

pub async fn record(env: &WebhookEnv, user: &TestUser, project: &str, id: &str) -> Value {
    send(&env.app, Method::GET, &env.url(project, &format!("/{id}?jsonCasing=camel")), Some(&user.bearer()), None)
        .await
        .body
}

pub async fn jwks(env: &WebhookEnv) -> Value {
    env.app.http.get(format!("{}/api/v2/webhooks/keys", env.app.base_url)).send().await.unwrap().json().await.unwrap()
}

async fn every_event_kind_arrives_signed(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let custom = r#"{"zeta": 1, "Alpha": [1.50, "x"], "n": null}"#;
    let definition = format!(
        r#"{{"url": "{}", "events": ["item.created", "item.updated", "item.deleted", "user.added", "user.roleChanged", "user.removed"], "customData": {custom}}}"#,
        env.receiver.url
    );
    let created = app
        .http
        .post(env.url(&project, "?jsonCasing=camel"))
        .header("Authorization", owner.bearer())
        .header("Content-Type", "application/json")
        .body(definition)
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), StatusCode::OK);
    let hook: Value = created.json().await.unwrap();
    let hook_id = hook["id"].as_str().unwrap().to_owned();

    let label = create_label(app, &owner, &project, json!({"text": "first"})).await;
    let patched = send(
        app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{label}")),
        Some(&owner.bearer()),
        Some(json!({"text": "second"})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK);
    let deleted =
        send(app, Method::DELETE, &app.item_url(&project, &format!("/{label}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK);
    let member = app.user("member").await;
    let (project_id, member_id) = (ProjectId::parse(&project).unwrap(), UserId::parse(&member.id).unwrap());
    app.core.accounts().add_member(&app.admin, project_id, member_id, ProjectRole::Viewer).await.unwrap();
    app.core.accounts().set_member_role(&app.admin, project_id, member_id, ProjectRole::Editor).await.unwrap();
    app.core.accounts().remove_member(&app.admin, project_id, member_id).await.unwrap();

    let calls = env.receiver.wait_for(6, WAIT).await;
    let mut kinds: Vec<String> =
        calls.iter().map(|c| c.json()["changes"][0]["kind"].as_str().unwrap().to_owned()).collect();
    kinds.sort();
    assert_eq!(
        kinds,
        ["item.created", "item.deleted", "item.updated", "user.added", "user.removed", "user.roleChanged"]
    );
    let now = chrono::Utc::now().timestamp();
    for call in &calls {
        let body = call.json();
        assert_eq!(call.header("content-type"), "application/json");
        assert_eq!(call.header("webhook-id"), body["deliveryId"].as_str().unwrap(), "Webhook-Id is the deliveryId");
        let timestamp: i64 = call.header("webhook-timestamp").parse().unwrap();
        assert!((now - timestamp).abs() <= 30, "timestamp at sending: {timestamp} vs {now}");
        assert_eq!(body["projectId"], project.as_str());
        assert_eq!(body["webhookId"], hook_id.as_str());
        assert_eq!(body["changes"].as_array().unwrap().len(), 1);
        let text = String::from_utf8(call.body.clone()).unwrap();
        assert!(text.contains(&format!(r#""customData":{custom}"#)), "customData byte for byte: {text}");
    }
    let by_kind = |kind: &str| calls.iter().map(|c| c.json()).find(|b| b["changes"][0]["kind"] == kind).unwrap();
    let updated = by_kind("item.updated");
    let change = &updated["changes"][0];
    assert_eq!(change["subject"], json!({"type": "label", "id": label}));
    assert_eq!(change["new"], json!({"text": "second"}));
    assert_eq!(change["old"], json!({"text": "first"}));
    assert_eq!(change["actorUserId"], owner.id.as_str());
    assert_eq!(by_kind("item.created")["changes"][0]["new"]["text"], "first");
    assert_eq!(by_kind("user.roleChanged")["changes"][0]["new"], json!({"role": "Editor"}));
    assert_eq!(by_kind("user.added")["changes"][0]["subject"], json!({"type": "user", "id": member.id}));

    let keys = jwks(&env).await;
    assert_eq!(python_verifies(&keys, &calls), vec![true; 6], "Python's cryptography verifies every call");
    assert!(calls.iter().all(|c| rust_verifies(&keys, c)), "p256 from the JWK set alone verifies every call");
    let mut tampered = calls[0].clone();
    tampered.body.push(b' ');
    assert_eq!(python_verifies(&keys, &[tampered]), vec![false], "one extra byte breaks the signature");

    let status = &super::webhooks_delivery::record(&env, &owner, &project, &hook_id).await["status"];
    assert_eq!(status["lastStatusCode"], 200);
    assert_eq!(status["consecutiveFailures"], 0);
    assert!(status["lastSuccessAt"].is_string() && status["lastAttemptAt"].is_string());
}

async fn webhooks_get_only_their_kinds_and_disabled_ones_nothing(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let url = env.receiver.url.clone();
    create_hook(&env, &owner, &project, json!({"url": url, "events": ["item.updated"], "customData": "updates"})).await;
    create_hook(&env, &owner, &project, json!({"url": url, "events": ["item.created"], "enabled": false})).await;
    let (other_owner, other_project) = owner_with_project(&env.app).await;
    create_hook(
        &env,
        &other_owner,
        &other_project,
        json!({"url": url, "events": ["item.created"], "customData": "other"}),
    )
    .await;

    let label = create_label(&env.app, &owner, &project, json!({"text": "a"})).await;
    let patch = env.app.item_url(&project, &format!("/label/{label}"));
    assert_eq!(
        send(&env.app, Method::PATCH, &patch, Some(&owner.bearer()), Some(json!({"text": "b"}))).await.status,
        StatusCode::OK
    );
    let calls = env.receiver.wait_for(1, WAIT).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let calls = if calls.len() == 1 { env.receiver.calls() } else { calls };
    assert_eq!(calls.len(), 1, "only the enabled webhook selecting item.updated is called");
    assert_eq!(calls[0].json()["customData"], "updates");
    assert_eq!(calls[0].json()["changes"][0]["kind"], "item.updated");
}

async fn failed_attempts_are_retried_under_the_same_delivery_id(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // A 500, then a reply slower than the 2 s time-out, then success.
    env.receiver.script([Answer::Status(500), Answer::Slow(Duration::from_millis(3500))]);
    create_label(&env.app, &owner, &project, json!({"text": "retry me"})).await;
    let calls = env.receiver.wait_for(3, WAIT).await;
    let ids: Vec<&str> = calls.iter().map(|c| c.header("webhook-id")).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one deliveryId on every attempt: {ids:?}");
    let keys = jwks(&env).await;
    assert_eq!(python_verifies(&keys, &calls), vec![true; calls.len()], "every attempt is signed afresh");

    // The success is reported after the call; wait for the status to show it.
    let mut status = Value::Null;
    for _ in 0..50 {
        status = record(&env, &owner, &project, &hook).await["status"].clone();
        if status["lastStatusCode"] == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status["lastStatusCode"], 200, "{status}");
    assert_eq!(status["consecutiveFailures"], 0);
    assert_eq!(status["lastError"], Value::Null);

    let listed = send(
        &env.app,
        Method::GET,
        &env.url(&project, &format!("/{hook}/deliveries?jsonCasing=camel")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(listed.status, StatusCode::OK);
    let attempts = listed.body["elements"].as_array().unwrap();
    let summary: Vec<(u64, Value)> =
        attempts.iter().map(|a| (a["attempt"].as_u64().unwrap(), a["statusCode"].clone())).collect();
    assert_eq!(summary, [(3, json!(200)), (2, Value::Null), (1, json!(500))], "newest first");
    assert!(attempts[1]["error"].as_str().unwrap().contains("timed out"), "{}", attempts[1]);
    assert_eq!(attempts[2]["error"], "HTTP 500");
    assert!(attempts.iter().all(|a| a["deliveryId"] == ids[0] && a["event"] == "item.created"));

    // Redeliver: the same event again under a new delivery id.
    let path = format!("/{hook}/deliveries/{}/redeliver?jsonCasing=camel", ids[0]);
    let again = send(&env.app, Method::POST, &env.url(&project, &path), Some(&owner.bearer()), None).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    let new_id = again.body["deliveryId"].as_str().unwrap().to_owned();
    assert_ne!(new_id, ids[0]);
    let calls = env.receiver.wait_for(4, WAIT).await;
    assert_eq!(calls[3].header("webhook-id"), new_id);
    assert_eq!(calls[3].json()["changes"][0]["eventId"], calls[0].json()["changes"][0]["eventId"]);
}

async fn retry_after_is_honoured(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // The schedule says 1 s (±20 %); the receiver asks for 3 s.
    env.receiver.script([Answer::RetryAfter(503, 3)]);
    create_label(&env.app, &owner, &project, json!({"text": "later"})).await;
    let calls = env.receiver.wait_for(2, WAIT).await;
    let gap = calls[1].at - calls[0].at;
    assert!(gap >= Duration::from_millis(2900), "Retry-After: 3 waited only {gap:?}");
}

async fn failing_webhooks_are_disabled_and_re_enabled(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    env.receiver.script([Answer::Status(500); 3]);
    create_label(&env.app, &owner, &project, json!({"text": "fails"})).await;
    env.receiver.wait_for(3, WAIT).await;
    let mut status = Value::Null;
    for _ in 0..50 {
        status = record(&env, &owner, &project, &hook).await["status"].clone();
        if status["disabledAt"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(status["disabledAt"].is_string(), "3 failures over >= 1 s disable the webhook: {status}");
    assert!(status["disabledReason"].as_str().unwrap().contains("failed deliveries"));
    assert_eq!(status["consecutiveFailures"], 3);
    assert_eq!(status["lastStatusCode"], 500);
    assert_eq!(status["lastError"], "HTTP 500");

    // A disabled webhook is never called: the pending retry and new events wait.
    create_label(&env.app, &owner, &project, json!({"text": "while disabled"})).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(env.receiver.calls().len(), 3, "nothing sent while disabled");

    let enabled = send(
        &env.app,
        Method::POST,
        &env.url(&project, &format!("/{hook}/enable?jsonCasing=camel")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.body);
    assert_eq!(enabled.body["status"]["disabledAt"], Value::Null);
    assert_eq!(enabled.body["status"]["disabledReason"], Value::Null);
    assert_eq!(enabled.body["status"]["consecutiveFailures"], 0);
    // What waited is delivered now: the last retry of the first event and the second event.
    let calls = env.receiver.wait_for(5, WAIT).await;
    let texts: Vec<Value> = calls[3..].iter().map(|c| c.json()["changes"][0]["new"]["text"].clone()).collect();
    assert!(texts.contains(&json!("while disabled")), "{texts:?}");

    // A 410 Gone disables at once; PUT re-enables.
    env.receiver.script([Answer::Status(410)]);
    create_label(&env.app, &owner, &project, json!({"text": "gone"})).await;
    env.receiver.wait_for(6, WAIT).await;
    let mut status = Value::Null;
    for _ in 0..50 {
        status = record(&env, &owner, &project, &hook).await["status"].clone();
        if status["disabledAt"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status["disabledReason"], "the receiver answered 410 Gone");
    let put = send(
        &env.app,
        Method::PUT,
        &env.url(&project, &format!("/{hook}?jsonCasing=camel")),
        Some(&owner.bearer()),
        Some(json!({"url": env.receiver.url, "events": ["item.created"]})),
    )
    .await;
    assert_eq!(put.status, StatusCode::OK);
    assert_eq!(put.body["status"]["disabledAt"], Value::Null);
    assert_eq!(put.body["status"]["consecutiveFailures"], 0);
    create_label(&env.app, &owner, &project, json!({"text": "back"})).await;
    let calls = env.receiver.wait_for(7, WAIT).await;
    assert!(calls.iter().any(|c| c.json()["changes"][0]["new"]["text"] == "back"));
}
