//! Every item write leaves its change record in the outbox, in the same
//! transaction, with the acting user and the changed properties.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    writes_record_change_events,
    rejected_writes_record_nothing,
    a_follower_gets_a_record_whose_transaction_commits_late_once,
    followers_are_told_of_each_write_to_their_project,
);

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
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(project_id), 0, 100)
        .await
        .unwrap();
    let kinds: Vec<&str> = events.iter().map(|e| e.kind.as_str()).collect();
    assert_eq!(kinds, ["item.created", "item.updated", "item.deleted"]);
    for event in &events {
        assert_eq!(event.subject_id.to_string(), id);
        assert_eq!(event.subject_type, "label");
        assert_eq!(event.actor_user_id.to_string(), owner.id);
        assert_eq!(event.project_id, core_service::domain::ProjectId::from_uuid(project_id));
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
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()), 0, 100)
        .await
        .unwrap();
    assert_eq!(events.len(), 1);
}

/// The live change stream's follower (`WatchService`, the web map's SSE) against a record whose
/// transaction took its seq early and committed late: longer than the five seconds the follower
/// used to wait before moving past a seq, after a record with a larger seq had been delivered.
/// It must still be delivered, once, and a client resuming from a seq gets what came after it.
async fn a_follower_gets_a_record_whose_transaction_commits_late_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let first = create_label(&app, &owner, &project, json!({"text": "before the watch"})).await;
    let who = app.core.access().authenticate(Some(&owner.bearer())).await.unwrap();
    let project_id = core_service::domain::ProjectId::parse(&project).unwrap();
    let mut watch = app.core.items().watch_project(&who, project_id, None).await.unwrap();
    let start = watch.resume_point();
    assert!(start > 0, "the resume point is the project's last record");
    assert!(app.core.items().poll_watch(&mut watch).await.unwrap().is_empty(), "history is not replayed");

    let subjects =
        |rows: &[core_service::storage::EventRow]| rows.iter().map(|r| r.subject_id.to_string()).collect::<Vec<_>>();
    let mut held = None;
    if backend == Backend::Postgres {
        // A transaction takes a seq for a change of the first label and stays open.
        use sqlx::Connection;
        let mut connection = sqlx::PgConnection::connect(app.db.database_url.as_deref().unwrap()).await.unwrap();
        sqlx::Executor::execute(&mut connection, "BEGIN").await.unwrap();
        sqlx::query(
            "INSERT INTO events (id, project_id, kind, subject_id, subject_type, actor_user_id, occurred_at, payload) \
             VALUES ($1, $2, 'item.updated', $3, 'label', $4, now(), '{}'::jsonb)",
        )
        .bind(uuid::Uuid::now_v7())
        .bind(project_id.uuid())
        .bind(uuid::Uuid::parse_str(&first).unwrap())
        .bind(uuid::Uuid::parse_str(&owner.id).unwrap())
        .execute(&mut connection)
        .await
        .unwrap();
        held = Some(connection);
    }
    let second = create_label(&app, &owner, &project, json!({"text": "during the watch"})).await;
    let seen = app.core.items().poll_watch(&mut watch).await.unwrap();
    assert_eq!(subjects(&seen), std::slice::from_ref(&second), "the committed record, not the open one");
    let second_seq = seen[0].seq;

    if let Some(mut connection) = held {
        // Longer than the old five-second grace window, polling all the while.
        for _ in 0..7 {
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
            assert!(app.core.items().poll_watch(&mut watch).await.unwrap().is_empty());
        }
        sqlx::Executor::execute(&mut connection, "COMMIT").await.unwrap();
        let late = app.core.items().poll_watch(&mut watch).await.unwrap();
        assert_eq!(subjects(&late), std::slice::from_ref(&first), "the late commit is delivered");
        assert!(late[0].seq < second_seq, "with a seq below one already delivered");
    }
    assert!(app.core.items().poll_watch(&mut watch).await.unwrap().is_empty(), "each record once");

    // Resuming from the seq before the watch began: everything committed since, in seq order.
    let mut resumed = app.core.items().watch_project(&who, project_id, Some(start)).await.unwrap();
    let replay = app.core.items().poll_watch(&mut resumed).await.unwrap();
    let expected: Vec<String> =
        if backend == Backend::Postgres { vec![first.clone(), second.clone()] } else { vec![second.clone()] };
    assert_eq!(subjects(&replay), expected);
    assert!(replay.windows(2).all(|pair| pair[0].seq < pair[1].seq));
    assert!(app.core.items().poll_watch(&mut resumed).await.unwrap().is_empty(), "and nothing twice");
}

/// A change stream reads the outbox when its replica commits a write to the project, not only at
/// its poll (`grpc/watch.rs`): the project's bell rings after an item write and a comment write,
/// before their answers, and not for a write to another project.
async fn followers_are_told_of_each_write_to_their_project(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (other, elsewhere) = owner_with_project(&app).await;
    let id = core_service::domain::ProjectId::parse(&project).unwrap();
    let mut bell = app.core.items().changes_written(id);
    let comments = format!("{}/api/v2/projects/{project}/comments", app.base_url);
    for write in ["an item", "a comment"] {
        bell.borrow_and_update();
        if write == "an item" {
            create_label(&app, &owner, &project, json!({"text": "news"})).await;
        } else {
            let body = json!({"text": "news?", "position": {"x": 0, "y": 0}});
            let opened = send(&app, Method::POST, &comments, Some(&owner.bearer()), Some(body)).await;
            assert_eq!(opened.status, StatusCode::CREATED, "{}", opened.body);
        }
        assert!(bell.has_changed().unwrap(), "{write} written is rung before its answer");
    }
    bell.borrow_and_update();
    create_label(&app, &other, &elsewhere, json!({"text": "not news here"})).await;
    assert!(!bell.has_changed().unwrap(), "a write to another project rings only its own bell");
}
