//! Bulk create (`POST .../items/bulk`): a whole mixed batch with in-batch references commits at
//! once with its events and index work; one bad item commits nothing and every offence is named
//! `items[i].…`; a connector of a batch never stays attached to an item deleted meanwhile.

use std::collections::HashSet;

use canvas_tests::{backend_tests, keyword_only, Backend, TestApp, TestUser};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, create_label, get_item, owner_with_project, send, Reply};

backend_tests!(
    a_mixed_batch_of_a_thousand_with_references_commits_whole,
    one_bad_item_fails_the_batch_and_every_offence_is_named,
    the_shape_of_the_body_is_checked_before_anything_runs,
    a_batch_connector_never_stays_attached_to_an_item_deleted_meanwhile
);

pub(crate) async fn bulk(app: &TestApp, user: &TestUser, project: &str, items: Value) -> Reply {
    let url = format!("{}/api/v2/projects/{project}/items/bulk?jsonCasing=camel", app.base_url);
    send(app, Method::POST, &url, Some(&user.bearer()), Some(json!({"items": items}))).await
}

/// Every item of the project, in listing order.
pub(crate) async fn all_items(app: &TestApp, user: &TestUser, project: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cursor = String::new();
    loop {
        let url =
            format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&limit=1000&cursor={cursor}", app.base_url);
        let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        items.extend(reply.body["items"].as_array().unwrap().iter().cloned());
        match reply.body["nextCursor"].as_str() {
            Some(next) => cursor = next.to_owned(),
            None => return items,
        }
    }
}

/// The index counts once nothing of the project is queued or indexing (bounded).
async fn wait_all_indexed(app: &TestApp, user: &TestUser, project: &str) -> Value {
    let url = format!("{}/api/v1/memory/index?projectId={project}&jsonCasing=camel", app.base_url);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        let counts = reply.body["counts"].clone();
        if counts["queued"] == json!(0) && counts["indexing"] == json!(0) {
            return counts;
        }
        assert!(std::time::Instant::now() < deadline, "index did not catch up: {counts}");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// A frame, 400 notes (half inside the frame), 200 labels, a web item and 398 connectors joining
/// consecutive notes: 1,000 items, every reference in the batch.
fn thousand() -> Vec<Value> {
    let mut items = vec![json!({"ref": "frame", "type": "shape",
        "properties": {"size": {"width": 4000, "height": 4000}, "type": "Rectangle"}})];
    for i in 0..400 {
        let parent = if i % 2 == 0 { "ref:frame" } else { "panel" };
        items.push(json!({"ref": format!("n{i}"), "type": "sticky-note", "parent": parent,
            "properties": {"text": format!("Bulk note {i}"), "position": {"x": i * 10, "y": 0}}}));
    }
    for i in 0..200 {
        items.push(json!({"type": "label", "properties": {"text": format!("<b>Label</b> {i}")}}));
    }
    items.push(json!({"ref": "site", "type": "web", "properties": {"url": "https://example.org/"}}));
    for i in 0..398 {
        items.push(json!({"ref": format!("c{i}"), "type": "connector", "properties": {
            "startPoint": {"itemId": format!("ref:n{i}")},
            "end_point": {"ItemId": format!("ref:n{}", i + 1), "decorator": "Arrow"}}}));
    }
    items
}

async fn a_mixed_batch_of_a_thousand_with_references_commits_whole(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    let sent = thousand();
    assert_eq!(sent.len(), 1000);
    let reply = bulk(&app, &owner, &project, Value::Array(sent.clone())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let created = reply.body["items"].as_array().expect("items").clone();
    assert_eq!(created.len(), 1000);
    for (asked, made) in sent.iter().zip(&created) {
        assert_eq!(made["ref"], asked.get("ref").cloned().unwrap_or(Value::Null), "refs answer in request order");
    }
    let ids: Vec<String> = created.iter().map(|c| c["itemId"].as_str().unwrap().to_owned()).collect();
    assert_eq!(ids.iter().collect::<HashSet<_>>().len(), 1000, "distinct ids");
    let id_of = |reference: &str| created.iter().find(|c| c["ref"] == reference).unwrap()["itemId"].as_str().unwrap();

    // State after: every item, in request order, with references resolved.
    let listed = all_items(&app, &owner, &project).await;
    let listed_ids: Vec<&str> = listed.iter().map(|i| i["itemId"].as_str().unwrap()).collect();
    assert_eq!(listed_ids, ids.iter().map(String::as_str).collect::<Vec<_>>(), "the listing is the batch, in order");
    let connector = get_item(&app, &owner, &project, id_of("c7")).await;
    assert_eq!(connector["startPoint"]["itemId"], id_of("n7"));
    assert_eq!(connector["endPoint"]["itemId"], id_of("n8"));
    assert_eq!(connector["endPoint"]["decorator"], "Arrow");
    assert_eq!(get_item(&app, &owner, &project, id_of("n4")).await["parent"], id_of("frame"));
    assert_eq!(get_item(&app, &owner, &project, id_of("n5")).await["parent"], "panel");
    let label = get_item(&app, &owner, &project, &ids[401]).await;
    assert_eq!((label["text"].as_str(), label["textColor"].as_str()), (Some("<b>Label</b> 0"), Some("#FFFFFF")));

    // One item.created event per item, in request order.
    let project_id = uuid::Uuid::parse_str(&project).unwrap();
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(project_id), 0, 2000)
        .await
        .unwrap();
    let subjects: Vec<String> = events.iter().map(|e| e.subject_id.to_string()).collect();
    assert!(events.iter().all(|e| e.kind.as_str() == "item.created"));
    assert_eq!(subjects, ids);

    // Index work for every item, done to the end.
    let counts = wait_all_indexed(&app, &owner, &project).await;
    assert_eq!(counts["total"], json!(1000), "{counts}");
    assert_eq!(counts["indexed"], json!(1000), "{counts}");
}

async fn one_bad_item_fails_the_batch_and_every_offence_is_named(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    let existing = create_label(&app, &owner, &project, json!({"text": "already here"})).await;
    let items = json!([
        {"ref": "a", "type": "sticky-note", "properties": {"text": "fine"}},
        {"type": "label", "properties": {"text": "too small", "fontSize": 0}},
        {"ref": "c", "type": "connector", "properties": {"startPoint": {"itemId": "ref:a"}, "endPoint": {"itemId": "ref:missing"}}},
        {"ref": "a", "type": "label", "properties": {"text": "same ref"}},
        {"type": "rhombus", "properties": {}},
        {"type": "connector", "properties": {"startPoint": {"itemId": "ref:c"}, "endPoint": {"itemId": existing}}},
        {"ref": "loop1", "type": "shape", "parent": "ref:loop2", "properties": {"size": {"width": 10, "height": 10}}},
        {"ref": "loop2", "type": "shape", "parent": "ref:loop1", "properties": {"size": {"width": 10, "height": 10}}},
        {"type": "document", "properties": {}},
        {"type": "label", "parent": uuid::Uuid::new_v4().to_string(), "properties": {"text": "orphan"}},
        {"ref": "has space", "type": "label", "properties": {"text": "x"}},
        {"type": "connector", "properties": {"startPoint": {"itemId": "not-a-guid"}, "endPoint": {"position": {"x": 1, "y": 1}}}}
    ]);
    let reply = bulk(&app, &owner, &project, items).await;
    let expected = [
        "items[1].properties.fontSize",
        "items[2].properties.endPoint.itemId",
        "items[3].ref",
        "items[4].type",
        "items[5].properties.startPoint.itemId",
        "items[6].parent",
        "items[7].parent",
        "items[8].type",
        "items[9].parent",
        "items[10].ref",
        "items[11].properties.startPoint.itemId",
    ];
    for field in expected {
        assert_invalid(&reply, field);
    }
    assert_eq!(reply.fields().len(), expected.len(), "one offence each: {}", reply.body);
    assert!(
        reply.body["detail"].as_str().unwrap_or_default().contains("items[1].properties.fontSize"),
        "{}",
        reply.body
    );
    // Nothing was written: the project holds only the label made before, and no new events.
    let listed = all_items(&app, &owner, &project).await;
    assert_eq!(listed.len(), 1);
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()), 0, 100)
        .await
        .unwrap();
    assert_eq!(events.len(), 1);

    // Limits: empty and over 1,000.
    assert_invalid(&bulk(&app, &owner, &project, json!([])).await, "items");
    let too_many: Vec<Value> =
        (0..1001).map(|i| json!({"type": "label", "properties": {"text": i.to_string()}})).collect();
    let reply = bulk(&app, &owner, &project, Value::Array(too_many)).await;
    assert_invalid(&reply, "items");
    assert!(reply.body["detail"].as_str().unwrap().contains("1000"), "{}", reply.body);
    // A viewer may not write, whatever the batch holds.
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let denied = bulk(&app, &viewer, &project, json!([{"type": "label", "properties": {"text": "x"}}])).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1);
}

async fn the_shape_of_the_body_is_checked_before_anything_runs(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let url = format!("{}/api/v2/projects/{project}/items/bulk", app.base_url);
    let cases = [
        (json!({"items": {"type": "label"}}), "items"),
        (json!({"items": [{"type": "label", "properties": "text"}]}), "items[0].properties"),
        (json!({"items": [{"type": "label", "properties": {"text": "x"}, "colour": "red"}]}), "items[0].colour"),
        (json!({"items": [{"properties": {"text": "x"}}]}), "items[0].type"),
        (json!({"items": [{"type": "label", "ref": 7, "properties": {"text": "x"}}]}), "items[0].ref"),
        (json!({"items": [5]}), "items[0]"),
        (json!({"things": []}), "things"),
        (json!({}), "items"),
        (json!([1, 2]), "body"),
    ];
    for (body, field) in cases {
        let reply = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(body.clone())).await;
        assert_invalid(&reply, field);
    }
    // Request names in any casing, as for a single create.
    let reply = send(
        &app,
        Method::POST,
        &url,
        Some(&owner.bearer()),
        Some(json!({"Items": [{"Ref": "x", "TYPE": "label", "Properties": {"Text": "cased"}}]})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["Items"][0]["Ref"], "x", "PascalCase by default: {}", reply.body);
    assert!(all_items(&app, &owner, &project).await.len() == 1);
}

async fn a_batch_connector_never_stays_attached_to_an_item_deleted_meanwhile(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for round in 0..12 {
        let target = create_label(&app, &owner, &project, json!({"text": format!("target {round}")})).await;
        let delete_url = app.item_url(&project, &format!("/{target}"));
        let connector = json!([{"type": "sticky-note", "ref": "note", "properties": {"text": "from"}},
            {"type": "connector", "properties": {"startPoint": {"itemId": "ref:note"}, "endPoint": {"itemId": target}}}]);
        let bearer = owner.bearer();
        let (made, deleted) = tokio::join!(
            bulk(&app, &owner, &project, connector),
            send(&app, Method::DELETE, &delete_url, Some(&bearer), None)
        );
        assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
        match made.status {
            StatusCode::OK => {
                let id = made.body["items"][1]["itemId"].as_str().unwrap().to_owned();
                let end = &get_item(&app, &owner, &project, &id).await["endPoint"];
                assert!(end["itemId"].is_null(), "round {round}: still attached to the deleted item: {end}");
            }
            StatusCode::BAD_REQUEST => assert_invalid(&made, "items[1].properties.endPoint.itemId"),
            other => panic!("round {round}: {other}: {}", made.body),
        }
    }
}
