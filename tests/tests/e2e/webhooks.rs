//! Webhook management over REST: the record, validation naming each field,
//! roles, and the public key set.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, owner_with_project, send};

backend_tests!(
    webhook_records_round_trip,
    webhook_definitions_are_validated_field_by_field,
    only_managers_and_admins_manage_webhooks,
    the_key_set_is_public_and_cacheable
);

fn hooks(app: &TestApp, project: &str, rest: &str) -> String {
    format!("{}/api/v2/projects/{project}/webhooks{rest}", app.base_url)
}

async fn webhook_records_round_trip(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    let definition = json!({
        "name": "CI hook",
        "url": "https://hooks.example.com/canvas",
        "events": ["item.created", "user.added"],
        "customData": {"Team_Name": "blue", "nested": {"KeepCase": [1, 2.5, null]}},
    });
    let created =
        send(&app, Method::POST, &hooks(&app, &project, "?jsonCasing=camel"), Some(&auth), Some(definition)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let record = &created.body;
    let id = record["id"].as_str().expect("id").to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok());
    assert_eq!(record["name"], "CI hook");
    assert_eq!(record["url"], "https://hooks.example.com/canvas");
    assert_eq!(record["enabled"], true, "enabled defaults to true");
    assert_eq!(record["events"], json!(["item.created", "user.added"]));
    assert_eq!(record["customData"], json!({"Team_Name": "blue", "nested": {"KeepCase": [1, 2.5, null]}}));
    let created_at = record["createdAt"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(created_at).is_ok() && created_at.ends_with("+00:00"), "{created_at}");
    assert_eq!(record["status"]["consecutiveFailures"], 0);
    for field in ["lastAttemptAt", "lastSuccessAt", "lastStatusCode", "lastError", "disabledAt", "disabledReason"] {
        assert_eq!(record["status"][field], Value::Null, "{field}");
    }
    assert!(record.get("inactive").is_none(), "an active webhook has no `inactive`");

    // Default (Pascal) casing renames the record's names but never customData's.
    let listed = send(&app, Method::GET, &hooks(&app, &project, ""), Some(&auth), None).await;
    assert_eq!(listed.status, StatusCode::OK);
    let elements = listed.body["Elements"].as_array().expect("Elements");
    assert_eq!(elements.len(), 1);
    assert_eq!(elements[0]["Id"], id.as_str());
    assert_eq!(elements[0]["CustomData"], json!({"Team_Name": "blue", "nested": {"KeepCase": [1, 2.5, null]}}));

    let replaced = send(
        &app,
        Method::PUT,
        &hooks(&app, &project, &format!("/{id}?jsonCasing=camel")),
        Some(&auth),
        Some(json!({"url": "https://hooks.example.com/v2", "events": ["item.deleted"], "enabled": false})),
    )
    .await;
    assert_eq!(replaced.status, StatusCode::OK, "{}", replaced.body);
    assert_eq!(replaced.body["id"], id.as_str());
    assert_eq!(replaced.body["url"], "https://hooks.example.com/v2");
    assert_eq!(replaced.body["enabled"], false);
    assert_eq!(replaced.body["events"], json!(["item.deleted"]));
    assert!(
        replaced.body.get("name").is_none() && replaced.body.get("customData").is_none(),
        "PUT is the full definition"
    );
    assert_eq!(replaced.body["createdAt"], created_at);

    let fetched =
        send(&app, Method::GET, &hooks(&app, &project, &format!("/{id}?jsonCasing=camel")), Some(&auth), None).await;
    assert_eq!(fetched.body, replaced.body);

    let deleted =
        send(&app, Method::DELETE, &hooks(&app, &project, &format!("/{id}?jsonCasing=camel")), Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::OK);
    assert_eq!(deleted.body, replaced.body, "DELETE returns the deleted record");
    let gone = send(&app, Method::GET, &hooks(&app, &project, &format!("/{id}")), Some(&auth), None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(gone.content_type, "application/problem+json");

    // MessagePack keeps the canonical names.
    let created = send(
        &app,
        Method::POST,
        &hooks(&app, &project, "?jsonCasing=camel"),
        Some(&auth),
        Some(json!({"url": "https://e.example.com", "events": ["user.removed"]})),
    )
    .await;
    let packed = app
        .http
        .get(hooks(&app, &project, &format!("/{}", created.body["id"].as_str().unwrap())))
        .header("Authorization", &auth)
        .header("Accept", "application/msgpack")
        .send()
        .await
        .unwrap();
    assert_eq!(packed.headers()["content-type"], "application/msgpack");
    let decoded: Value = rmp_serde::from_slice(&packed.bytes().await.unwrap()).unwrap();
    assert_eq!(decoded["events"], json!(["user.removed"]));
}

async fn webhook_definitions_are_validated_field_by_field(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    let url = hooks(&app, &project, "");
    let ok_events = json!(["item.created"]);
    let cases = [
        (json!({"name": "n".repeat(129), "url": "https://e.com", "events": ok_events}), "name"),
        (json!({"url": "http://e.com/hook", "events": ok_events}), "url"),
        (json!({"url": "not a url", "events": ok_events}), "url"),
        (json!({"events": ok_events}), "url"),
        (json!({"url": "https://10.0.0.8/hook", "events": ok_events}), "url"),
        (json!({"url": "https://169.254.169.254/latest", "events": ok_events}), "url"),
        (json!({"url": "https://e.com", "events": []}), "events"),
        (json!({"url": "https://e.com"}), "events"),
        (json!({"url": "https://e.com", "events": ["item.moved"]}), "events[0]"),
        (json!({"url": "https://e.com", "events": ["item.created", "item.created"]}), "events[1]"),
        (json!({"url": "https://e.com", "events": ok_events, "enabled": "yes"}), "enabled"),
        (json!({"url": "https://e.com", "events": ok_events, "customData": "x".repeat(4095)}), "customData"),
    ];
    for (body, field) in cases {
        let reply = send(&app, Method::POST, &url, Some(&auth), Some(body.clone())).await;
        assert_invalid(&reply, field);
    }
    // Exactly 4096 bytes of customData JSON is allowed: a string of 4094 characters plus its quotes.
    let edge = json!({"url": "https://e.com", "events": ok_events, "customData": "x".repeat(4094)});
    assert_eq!(send(&app, Method::POST, &url, Some(&auth), Some(edge)).await.status, StatusCode::OK);
    let listed = send(&app, Method::GET, &format!("{url}?jsonCasing=camel"), Some(&auth), None).await;
    assert_eq!(listed.body["elements"].as_array().unwrap().len(), 1, "rejected definitions were not stored");
}

async fn only_managers_and_admins_manage_webhooks(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let definition = json!({"url": "https://e.example.com/hook", "events": ["item.created"]});
    for (name, role, expected) in [
        ("viewer", Some(ProjectRole::Viewer), StatusCode::FORBIDDEN),
        ("editor", Some(ProjectRole::Editor), StatusCode::FORBIDDEN),
        ("stranger", None, StatusCode::FORBIDDEN),
        ("manager", Some(ProjectRole::Manager), StatusCode::OK),
    ] {
        let user = app.user(name).await;
        if let Some(role) = role {
            app.add_member(&project, &user, role).await;
        }
        let auth = user.bearer();
        let created = send(&app, Method::POST, &hooks(&app, &project, ""), Some(&auth), Some(definition.clone())).await;
        assert_eq!(created.status, expected, "{name} create: {}", created.body);
        let listed = send(&app, Method::GET, &hooks(&app, &project, ""), Some(&auth), None).await;
        assert_eq!(listed.status, expected, "{name} list");
        let tested =
            send(&app, Method::POST, &hooks(&app, &project, "/test"), Some(&auth), Some(definition.clone())).await;
        if expected == StatusCode::FORBIDDEN {
            assert_eq!(tested.status, StatusCode::FORBIDDEN, "{name} test");
            assert_eq!(tested.content_type, "application/problem+json");
        }
    }
    let admin_owner = send(&app, Method::GET, &hooks(&app, &project, ""), Some(&owner.bearer()), None).await;
    assert_eq!(admin_owner.status, StatusCode::OK);
    let no_token = send(&app, Method::GET, &hooks(&app, &project, ""), None, None).await;
    assert_eq!(no_token.status, StatusCode::UNAUTHORIZED);
    let unknown = uuid::Uuid::now_v7();
    let missing = send(&app, Method::GET, &hooks(&app, &unknown.to_string(), ""), Some(&owner.bearer()), None).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

async fn the_key_set_is_public_and_cacheable(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let response =
        app.http.get(format!("{}/api/v2/webhooks/keys?jsonCasing=snake", app.base_url)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let cache = response.headers()["cache-control"].to_str().unwrap().to_owned();
    let max_age: u64 =
        cache.split("max-age=").nth(1).and_then(|v| v.split(',').next()).unwrap().trim().parse().unwrap();
    assert!(max_age > 0 && max_age <= 300, "{cache}");
    let body: Value = response.json().await.unwrap();
    let keys = body["keys"].as_array().expect("`keys`, never re-cased");
    assert_eq!(keys.len(), 1, "one signing key on a fresh install");
    let key = &keys[0];
    assert_eq!((key["kty"].as_str(), key["crv"].as_str()), (Some("EC"), Some("P-256")));
    assert_eq!((key["use"].as_str(), key["alg"].as_str()), (Some("sig"), Some("ES256")));
    assert!(!key["kid"].as_str().unwrap().is_empty());
    for coordinate in ["x", "y"] {
        let text = key[coordinate].as_str().unwrap();
        use base64::Engine;
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(text).expect("base64url");
        assert_eq!(bytes.len(), 32, "{coordinate}");
    }
    assert!(!body.to_string().contains("\"d\""), "never a private part");
}
