//! Containers (docs/DECISIONS.md, "Containers"): a shape holds any item, a connector holds labels
//! (its captions), nothing else holds anything; deleting a container deletes what it holds at any
//! depth, in one transaction, deepest first, on every path (REST, MCP `delete_item`, a diagram's
//! `PUT` and `DELETE`); a create racing a delete of its container never leaves an item inside
//! nothing; data written before the rule is repaired once when the service starts on it.

use std::collections::BTreeSet;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectId;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::{all_items, bulk};
use crate::diagram_records::{create as create_diagram, put as put_diagram, url as diagram_url};
use crate::mcp::call_tool;
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    only_shapes_and_connectors_hold_items,
    deleting_a_container_deletes_what_it_holds_deepest_first,
    mcp_delete_item_deletes_what_the_container_holds,
    a_diagram_takes_what_people_put_into_its_shapes_when_it_deletes_them,
    creates_racing_the_delete_of_their_container_leave_nothing_inside_nothing,
    a_database_written_before_the_rule_is_repaired_once_at_start,
);

/// JSON bodies of the types created without a file.
fn body_of(item_type: &str) -> Value {
    match item_type {
        "label" | "sticky-note" => json!({"text": format!("a {item_type}")}),
        "shape" => json!({"size": {"width": 200, "height": 100}}),
        "connector" => {
            json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 50, "y": 0}}})
        }
        "web" => json!({"url": "https://example.org/"}),
        other => panic!("{other} is created from a file"),
    }
}

async fn create_in(app: &TestApp, user: &TestUser, project: &str, parent: &str, item_type: &str) -> Reply {
    let url = app.item_url(project, &format!("/{parent}/{item_type}?jsonCasing=camel"));
    send(app, Method::POST, &url, Some(&user.bearer()), Some(body_of(item_type))).await
}

async fn created_in(app: &TestApp, user: &TestUser, project: &str, parent: &str, item_type: &str) -> String {
    let reply = create_in(app, user, project, parent, item_type).await;
    assert_eq!(reply.status, StatusCode::OK, "{item_type} in {parent}: {}", reply.body);
    reply.body["itemId"].as_str().expect("itemId").to_owned()
}

async fn status_of(app: &TestApp, user: &TestUser, project: &str, id: &str) -> StatusCode {
    send(app, Method::GET, &app.item_url(project, &format!("/{id}")), Some(&user.bearer()), None).await.status
}

/// The project's events after `after` (seq), oldest first: (kind, subject id, payload).
pub(crate) async fn events_after(app: &TestApp, project: &str, after: i64) -> Vec<(String, String, Value)> {
    let project = ProjectId::from_uuid(uuid::Uuid::parse_str(project).unwrap());
    let rows = app.core.stores().items.project_events(project, after, 10_000).await.unwrap();
    rows.into_iter().map(|e| (e.kind.as_str().to_owned(), e.subject_id.to_string(), e.payload)).collect()
}

pub(crate) async fn last_seq(app: &TestApp, project: &str) -> i64 {
    let project = ProjectId::from_uuid(uuid::Uuid::parse_str(project).unwrap());
    app.core.stores().items.project_last_seq(project).await.unwrap()
}

/// Every item's parent is `panel`, `inbox` or a listed item that may hold it.
pub(crate) fn assert_every_parent_resolves(items: &[Value]) {
    for item in items {
        let parent = item["parent"].as_str().unwrap();
        if parent == "panel" || parent == "inbox" {
            continue;
        }
        let holder = items.iter().find(|i| i["itemId"] == parent);
        let holder =
            holder.unwrap_or_else(|| panic!("{} is inside {parent}, which is not in the listing", item["itemId"]));
        let (holder_type, child_type) = (holder["itemType"].as_str().unwrap(), item["itemType"].as_str().unwrap());
        assert!(
            (matches!(holder_type, "shape" | "frame") && child_type != "frame")
                || (holder_type == "connector" && child_type == "label"),
            "a {holder_type} holds a {child_type}"
        );
    }
}

async fn only_shapes_and_connectors_hold_items(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let holders = [
        ("shape", created_in(&app, &owner, &project, "panel", "shape").await),
        ("connector", created_in(&app, &owner, &project, "panel", "connector").await),
        ("label", created_in(&app, &owner, &project, "panel", "label").await),
        ("sticky-note", created_in(&app, &owner, &project, "panel", "sticky-note").await),
        ("web", created_in(&app, &owner, &project, "panel", "web").await),
    ];
    for (holder_type, holder) in &holders {
        for child in ["label", "sticky-note", "shape", "connector", "web"] {
            let reply = create_in(&app, &owner, &project, holder, child).await;
            let allowed = *holder_type == "shape" || (*holder_type == "connector" && child == "label");
            if allowed {
                assert_eq!(reply.status, StatusCode::OK, "a {holder_type} holds a {child}: {}", reply.body);
                let id = reply.body["itemId"].as_str().unwrap();
                let read = get_item(&app, &owner, &project, id).await;
                assert_eq!(read["parent"], json!(holder), "the parent reads back");
            } else {
                assert_invalid(&reply, "parent");
                let text = reply.body.to_string();
                assert!(text.contains(&format!("a {holder_type} cannot hold a {child}")), "{text}");
            }
        }
    }
    // The same rule in a bulk create, for containers in the batch and outside it; nothing written.
    let before = all_items(&app, &owner, &project).await.len();
    let label = &holders[2].1;
    let batch = json!([
        {"ref": "box", "type": "shape", "properties": body_of("shape")},
        {"ref": "note", "type": "sticky-note", "parent": "ref:box", "properties": body_of("sticky-note")},
        {"type": "label", "parent": "ref:note", "properties": body_of("label")},
        {"type": "label", "parent": label, "properties": body_of("label")},
    ]);
    let reply = bulk(&app, &owner, &project, batch).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.fields(), ["items[2].parent", "items[3].parent"], "{}", reply.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), before, "nothing written");
    assert_every_parent_resolves(&all_items(&app, &owner, &project).await);
}

async fn deleting_a_container_deletes_what_it_holds_deepest_first(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let outer = created_in(&app, &owner, &project, "panel", "shape").await;
    let inner = created_in(&app, &owner, &project, &outer, "shape").await;
    let deep = created_in(&app, &owner, &project, &inner, "label").await;
    let line = created_in(&app, &owner, &project, &outer, "connector").await;
    let caption = created_in(&app, &owner, &project, &line, "label").await;
    let elsewhere = created_in(&app, &owner, &project, "panel", "shape").await;
    // A connector on the canvas from the deep label to a shape elsewhere: detached, not deleted.
    let ends = json!({"startPoint": {"itemId": deep}, "endPoint": {"itemId": elsewhere}});
    let url = app.item_url(&project, "/panel/connector?jsonCasing=camel");
    let across = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(ends)).await;
    assert_eq!(across.status, StatusCode::OK, "{}", across.body);
    let across = across.body["itemId"].as_str().unwrap().to_owned();
    let seq = last_seq(&app, &project).await;

    let deleted =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{outer}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);

    for gone in [&outer, &inner, &deep, &line, &caption] {
        assert_eq!(status_of(&app, &owner, &project, gone).await, StatusCode::NOT_FOUND, "{gone} is gone");
    }
    let listed = all_items(&app, &owner, &project).await;
    let left: BTreeSet<&str> = listed.iter().map(|i| i["itemId"].as_str().unwrap()).collect();
    assert_eq!(left, BTreeSet::from([elsewhere.as_str(), across.as_str()]));
    assert_every_parent_resolves(&listed);
    let held = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&parent={outer}", app.base_url),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(held.body["items"], json!([]), "nothing is listed inside the deleted shape");
    let connector = listed.iter().find(|i| i["itemId"] == across.as_str()).unwrap();
    assert_eq!(connector["startPoint"]["itemId"], Value::Null, "detached where it was drawn: {connector}");
    assert_eq!(connector["endPoint"]["itemId"], elsewhere.as_str());

    // One event per deleted item, what each held before it, and the detached connector's update.
    let events = events_after(&app, &project, seq).await;
    let deletes: Vec<&str> = events.iter().filter(|e| e.0 == "item.deleted").map(|e| e.1.as_str()).collect();
    assert_eq!(deletes.len(), 5, "{events:?}");
    let at = |id: &str| deletes.iter().position(|d| *d == id).unwrap_or_else(|| panic!("no delete of {id}"));
    assert!(at(&deep) < at(&inner) && at(&inner) < at(&outer), "deepest first: {deletes:?}");
    assert!(at(&caption) < at(&line) && at(&line) < at(&outer), "deepest first: {deletes:?}");
    assert_eq!(*deletes.last().unwrap(), outer, "the container asked for comes last");
    let update: Vec<_> = events.iter().filter(|e| e.0 == "item.updated").collect();
    assert_eq!(update.len(), 1, "{events:?}");
    assert_eq!((update[0].1.as_str(), &update[0].2["reason"]), (across.as_str(), &json!("attached item deleted")));
    let deep_event = events.iter().find(|e| e.1 == deep).unwrap();
    assert_eq!(
        (deep_event.2["parent"].as_str(), deep_event.2["old"]["text"].as_str()),
        (Some(inner.as_str()), Some("a label"))
    );
}

async fn mcp_delete_item_deletes_what_the_container_holds(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let shape = created_in(&app, &owner, &project, "panel", "shape").await;
    let label = created_in(&app, &owner, &project, &shape, "label").await;
    let answer = call_tool(&app, &owner, "delete_item", json!({"projectId": project, "itemId": shape})).await;
    assert_eq!(answer["result"]["isError"], json!(false), "{answer}");
    assert_eq!(status_of(&app, &owner, &project, &label).await, StatusCode::NOT_FOUND);
    assert_eq!(all_items(&app, &owner, &project).await, Vec::<Value>::new());
}

async fn a_diagram_takes_what_people_put_into_its_shapes_when_it_deletes_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (diagram, nodes) = create_diagram(&app, &owner, &project, "flowchart TD\n    A[Keep] --> B[Drop]\n").await;
    let mine_in_b = created_in(&app, &owner, &project, &nodes["B"], "sticky-note").await;
    let mine_in_a = created_in(&app, &owner, &project, &nodes["A"], "sticky-note").await;

    // The edited source no longer has B: B goes, and the note a person put into it.
    let reply = put_diagram(&app, &owner, &project, &diagram, "flowchart TD\n    A[Keep]\n").await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let deleted: BTreeSet<&str> =
        reply.body["deleted"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    assert!(deleted.contains(nodes["B"].as_str()) && deleted.contains(mine_in_b.as_str()), "{}", reply.body);
    assert_eq!(status_of(&app, &owner, &project, &mine_in_b).await, StatusCode::NOT_FOUND);
    assert_eq!(status_of(&app, &owner, &project, &mine_in_a).await, StatusCode::OK, "A is kept, so is what it holds");
    assert_every_parent_resolves(&all_items(&app, &owner, &project).await);

    // Deleting the diagram with its items takes the rest.
    let target = diagram_url(&app, &project, &format!("/{diagram}"));
    let reply = send(&app, Method::DELETE, &target, Some(&owner.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(all_items(&app, &owner, &project).await, Vec::<Value>::new(), "nothing left inside nothing");
}

async fn creates_racing_the_delete_of_their_container_leave_nothing_inside_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for round in 0..10 {
        let shape = created_in(&app, &owner, &project, "panel", "shape").await;
        // Writers create labels in the shape without pause until one is refused, so creates are
        // in flight on every side of the delete: read before it, committed after it.
        let created = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
        let mut tasks = tokio::task::JoinSet::new();
        for writer in 0..6 {
            let (http, url, bearer) =
                (app.http.clone(), app.item_url(&project, &format!("/{shape}/label")), owner.bearer());
            let created = created.clone();
            tasks.spawn(async move {
                for n in 0.. {
                    let body = json!({"text": format!("r{round} w{writer} n{n}")});
                    let reply = http.post(&url).header("Authorization", &bearer).json(&body).send().await;
                    let status = reply.expect("reaches the gateway").status();
                    if status != StatusCode::OK {
                        return status;
                    }
                    created.add_permits(1);
                }
                unreachable!()
            });
        }
        let _ = created.acquire_many(6).await.unwrap();
        let delete_url = app.item_url(&project, &format!("/{shape}"));
        let delete = send(&app, Method::DELETE, &delete_url, Some(&owner.bearer()), None).await;
        assert_eq!(delete.status, StatusCode::OK, "{}", delete.body);
        while let Some(status) = tasks.join_next().await {
            assert_eq!(status.unwrap(), StatusCode::BAD_REQUEST, "a create into the deleted shape");
        }
        let listed = all_items(&app, &owner, &project).await;
        assert_every_parent_resolves(&listed);
        assert!(listed.is_empty(), "round {round}: {} items left", listed.len());
    }
}

/// Writes an item row as a release before the rule could have: straight through the store, with
/// whatever parent, and its `item.created` event.
async fn write_old_row(app: &TestApp, project: &str, owner: &TestUser, item_type: &str, parent: &str) -> String {
    use core_service::domain::{EventId, EventKind, ItemId, UserId};
    use core_service::storage::{ItemRow, NewEvent};
    let (id, now) = (ItemId::new(), chrono::Utc::now());
    let project = ProjectId::from_uuid(uuid::Uuid::parse_str(project).unwrap());
    let user = UserId::from_uuid(uuid::Uuid::parse_str(&owner.id).unwrap());
    let mut properties = body_of(item_type);
    properties["position"] = json!({"x": 10, "y": 20});
    let row = ItemRow {
        id,
        project_id: project,
        item_type: canvas_items::ItemType::parse(item_type).unwrap(),
        parent: canvas_items::Parent::parse(parent).unwrap(),
        properties: properties.clone(),
        version: 1,
        created_by: user,
        updated_by: user,
        created_at: now,
        updated_at: now,
        content_key: None,
    };
    let event = NewEvent {
        id: EventId::new(),
        project_id: project,
        kind: EventKind::ItemCreated,
        subject_id: id.uuid(),
        subject_type: item_type.to_owned(),
        actor_user_id: user,
        occurred_at: now,
        payload: json!({"parent": parent, "new": properties}),
    };
    app.core.stores().items.insert_item(&row, &event, &[]).await.expect("an old row is written");
    id.to_string()
}

/// Forgets that the repair ran, as a database migrated from before the rule has never run it.
async fn forget_the_repair(app: &TestApp) {
    app.db.execute("DELETE FROM data_repairs").await;
}

async fn a_database_written_before_the_rule_is_repaired_once_at_start(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let gone = uuid::Uuid::now_v7().to_string();
    // Inside an item deleted long ago, holding another: both go, as the container's delete would.
    let orphan = write_old_row(&app, &project, &owner, "shape", &gone).await;
    let orphan_child = write_old_row(&app, &project, &owner, "label", &orphan).await;
    // A sticky note inside a label inside a shape: the note moves out to the shape.
    let shape = created_in(&app, &owner, &project, "panel", "shape").await;
    let label = created_in(&app, &owner, &project, &shape, "label").await;
    let note = write_old_row(&app, &project, &owner, "sticky-note", &label).await;
    // A web item inside a web item on the canvas: it moves out to the canvas.
    let web = created_in(&app, &owner, &project, "panel", "web").await;
    let inner_web = write_old_row(&app, &project, &owner, "web", &web).await;
    let fine = created_in(&app, &owner, &project, &shape, "sticky-note").await;
    forget_the_repair(&app).await;
    let seq = last_seq(&app, &project).await;

    let restarted = core_service::build(&app.another_core_config(canvas_tests::keyword_only())).await.expect("starts");
    for id in [&orphan, &orphan_child] {
        assert_eq!(status_of(&app, &owner, &project, id).await, StatusCode::NOT_FOUND, "{id} deleted");
    }
    let listed = all_items(&app, &owner, &project).await;
    assert_every_parent_resolves(&listed);
    let parent_of = |id: &str| listed.iter().find(|i| i["itemId"] == id).map(|i| i["parent"].clone());
    assert_eq!(parent_of(&note), Some(json!(shape)), "moved out to the label's own parent");
    assert_eq!(parent_of(&inner_web), Some(json!("panel")));
    assert_eq!(parent_of(&fine), Some(json!(shape)), "what was allowed is untouched");
    assert_eq!(parent_of(&label), Some(json!(shape)));
    let note_item = listed.iter().find(|i| i["itemId"] == note.as_str()).unwrap();
    assert_eq!(note_item["position"], json!({"x": 10, "y": 20}), "where it was drawn");

    let events = events_after(&app, &project, seq).await;
    let summary: BTreeSet<(String, String)> = events.iter().map(|e| (e.0.clone(), e.1.clone())).collect();
    let expected = BTreeSet::from([
        ("item.deleted".to_owned(), orphan.clone()),
        ("item.deleted".to_owned(), orphan_child.clone()),
        ("item.updated".to_owned(), note.clone()),
        ("item.updated".to_owned(), inner_web.clone()),
    ]);
    assert_eq!(summary, expected, "{events:?}");
    assert!(events.iter().all(|e| e.2["reason"].as_str().is_some_and(|r| r.starts_with("repair: "))), "{events:?}");
    let moved = events.iter().find(|e| e.1 == note).unwrap();
    assert_eq!(
        (moved.2["parent"].as_str(), moved.2["oldParent"].as_str()),
        (Some(shape.as_str()), Some(label.as_str()))
    );

    // Once: a later start finds the repair recorded and changes nothing, even with new bad rows.
    let again = write_old_row(&app, &project, &owner, "label", &gone).await;
    drop(restarted);
    let seq = last_seq(&app, &project).await;
    core_service::build(&app.another_core_config(canvas_tests::keyword_only())).await.expect("starts again");
    assert_eq!(events_after(&app, &project, seq).await.len(), 0);
    assert_eq!(status_of(&app, &owner, &project, &again).await, StatusCode::OK);
}
