//! Every item write leaves its change record in the outbox, in the same
//! transaction, with the acting user and the changed properties.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};

backend_tests!(writes_record_change_events, rejected_writes_record_nothing);

async fn writes_record_change_events(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "first", "fontSize": 10})).await;
    let patched = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        Some(&owner.bearer()),
        Some(json!({"text": "second"})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK);
    let deleted =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{id}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK);

    let project_id = uuid::Uuid::parse_str(&project).unwrap();
    let events = app.core.storage().project_events(project_id, 0, 100).await.unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["item.created", "item.updated", "item.deleted"]);
    for event in &events {
        assert_eq!(event.subject_id.to_string(), id);
        assert_eq!(event.subject_type, "label");
        assert_eq!(event.actor_user_id.to_string(), owner.id);
        assert_eq!(event.project_id, project_id);
    }
    assert!(events.windows(2).all(|w| w[0].seq < w[1].seq && w[0].occurred_at <= w[1].occurred_at));
    assert_eq!(events[0].payload["new"]["text"], "first");
    assert_eq!(events[0].payload["new"]["fontSize"], json!(10));
    assert_eq!(events[1].payload["new"], json!({"text": "second"}), "only the changed properties");
    assert_eq!(events[1].payload["old"], json!({"text": "first"}));
    assert_eq!(events[2].payload["old"]["text"], "second");
    assert_eq!(events[2].payload["new"], Value::Null);
}

async fn rejected_writes_record_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "only"})).await;
    let bad = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        Some(&owner.bearer()),
        Some(json!({"fontSize": 0})),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let bad =
        send(&app, Method::POST, &app.item_url(&project, "/panel/label"), Some(&owner.bearer()), Some(json!({}))).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let events = app.core.storage().project_events(uuid::Uuid::parse_str(&project).unwrap(), 0, 100).await.unwrap();
    assert_eq!(events.len(), 1);
}
