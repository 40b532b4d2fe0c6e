//! Arranging existing items (`POST .../items/arrange`): grid, layered along connectors, tree; all
//! items move in one update with their events; concurrent writers of the same items take turns.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::{all_items, bulk};
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    layered_and_tree_follow_the_connectors_and_nothing_overlaps,
    a_grid_keeps_the_corner_or_goes_where_asked_and_bad_requests_change_nothing,
    concurrent_writers_of_arranged_items_all_land
);

async fn arrange(app: &TestApp, user: &TestUser, project: &str, body: Value) -> Reply {
    let url = format!("{}/api/v2/projects/{project}/items/arrange?jsonCasing=camel", app.base_url);
    send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await
}

/// Six notes piled on one spot, joined a→b, a→c, b→d, c→e, e→f; the ids of notes and connectors.
async fn pile(app: &TestApp, user: &TestUser, project: &str) -> (Vec<String>, Vec<String>) {
    let mut items: Vec<Value> = ["a", "b", "c", "d", "e", "f"]
        .iter()
        .map(|r| json!({"ref": r, "type": "sticky-note", "properties": {"text": r, "position": {"x": 10, "y": 10}}}))
        .collect();
    for (from, to) in [("a", "b"), ("a", "c"), ("b", "d"), ("c", "e"), ("e", "f")] {
        items.push(json!({"type": "connector", "properties": {
            "startPoint": {"itemId": format!("ref:{from}")}, "endPoint": {"itemId": format!("ref:{to}")}}}));
    }
    let reply = bulk(app, user, project, Value::Array(items)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let ids: Vec<String> =
        reply.body["items"].as_array().unwrap().iter().map(|c| c["itemId"].as_str().unwrap().to_owned()).collect();
    (ids[..6].to_vec(), ids[6..].to_vec())
}

/// (left, top, right, bottom) of each item, by id.
fn boxes(items: &[Value], ids: &[String]) -> Vec<(f64, f64, f64, f64)> {
    ids.iter()
        .map(|id| {
            let item = items.iter().find(|i| i["itemId"] == id.as_str()).unwrap();
            let (x, y) = (item["position"]["x"].as_f64().unwrap(), item["position"]["y"].as_f64().unwrap());
            let (w, h) = (item["size"]["width"].as_f64().unwrap(), item["size"]["height"].as_f64().unwrap());
            (x - w / 2.0, y - h / 2.0, x + w / 2.0, y + h / 2.0)
        })
        .collect()
}

fn assert_apart(boxes: &[(f64, f64, f64, f64)]) {
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let overlap = a.0 < b.2 - 0.01 && b.0 < a.2 - 0.01 && a.1 < b.3 - 0.01 && b.1 < a.3 - 0.01;
            assert!(!overlap, "{a:?} overlaps {b:?}");
        }
    }
}

async fn layered_and_tree_follow_the_connectors_and_nothing_overlaps(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (notes, connectors) = pile(&app, &owner, &project).await;
    let mut all: Vec<String> = notes.clone();
    all.extend(connectors.iter().cloned());
    let reply = arrange(&app, &owner, &project, json!({"itemIds": all, "style": "layered"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let moved = reply.body["items"].as_array().unwrap();
    assert_eq!(moved.len(), 6, "connectors are not moved: {}", reply.body);
    assert!(moved.iter().all(|m| m["version"] == 2), "{}", reply.body);
    let items = all_items(&app, &owner, &project).await;
    let placed = boxes(&items, &notes);
    assert_apart(&placed);
    let centre_y = |i: usize| (placed[i].1 + placed[i].3) / 2.0;
    for (from, to) in [(0, 1), (0, 2), (1, 3), (2, 4), (4, 5)] {
        assert!(centre_y(to) > centre_y(from), "edge {from}->{to} goes down: {placed:?}");
    }
    // The connectors follow: each end sits on its note's box.
    let connector = get_item(&app, &owner, &project, &connectors[0]).await;
    let start = &connector["startPoint"]["absolutePosition"];
    let (l, t, r, b) = placed[0];
    let (x, y) = (start["x"].as_f64().unwrap(), start["y"].as_f64().unwrap());
    assert!(x >= l - 0.5 && x <= r + 0.5 && y >= t - 0.5 && y <= b + 0.5, "{start} on {:?}", placed[0]);
    // One event per moved note, all in the same transaction's order.
    let project_id = uuid::Uuid::parse_str(&project).unwrap();
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(project_id), 0, 100)
        .await
        .unwrap();
    let updates: Vec<String> =
        events.iter().filter(|e| e.kind.as_str() == "item.updated").map(|e| e.subject_id.to_string()).collect();
    assert_eq!(updates, notes);

    let reply = arrange(&app, &owner, &project, json!({"itemIds": notes, "style": "TREE"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let placed = boxes(&all_items(&app, &owner, &project).await, &notes);
    assert_apart(&placed);
    let depth = |i: usize| ((placed[i].0 - placed[0].0), (placed[i].1 - placed[0].1));
    for child in 1..6 {
        let (dx, dy) = depth(child);
        assert!(dx > 0.0 || dy > 0.0, "node {child} lies beyond the root a: {placed:?}");
    }
}

async fn a_grid_keeps_the_corner_or_goes_where_asked_and_bad_requests_change_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (notes, connectors) = pile(&app, &owner, &project).await;
    // The pile's top-left corner: one note centred at (10, 10), 212 x 106.
    let reply = arrange(&app, &owner, &project, json!({"itemIds": notes, "style": "grid"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let placed = boxes(&all_items(&app, &owner, &project).await, &notes);
    assert_apart(&placed);
    let left = placed.iter().map(|b| b.0).fold(f64::MAX, f64::min);
    let top = placed.iter().map(|b| b.1).fold(f64::MAX, f64::min);
    assert!((left - (10.0 - 106.0)).abs() < 0.6 && (top - (10.0 - 53.0)).abs() < 0.6, "{left} {top}");
    // In the order given: a grid of 3 columns, a left of b, d below a.
    assert!(placed[1].0 > placed[0].0 && placed[3].1 > placed[0].1, "{placed:?}");

    let body = json!({"itemIds": notes, "style": "grid", "position": {"x": 5000, "y": -300}});
    assert_eq!(arrange(&app, &owner, &project, body).await.status, StatusCode::OK);
    let placed = boxes(&all_items(&app, &owner, &project).await, &notes);
    let left = placed.iter().map(|b| b.0).fold(f64::MAX, f64::min);
    let top = placed.iter().map(|b| b.1).fold(f64::MAX, f64::min);
    assert!((left - 5000.0).abs() < 0.6 && (top + 300.0).abs() < 0.6, "{left} {top}");

    let before = all_items(&app, &owner, &project).await;
    let unknown = uuid::Uuid::new_v4().to_string();
    for (body, field) in [
        (json!({"itemIds": notes, "style": "spiral"}), "style"),
        (json!({"itemIds": [], "style": "grid"}), "itemIds"),
        (json!({"itemIds": [notes[0], unknown], "style": "grid"}), "itemIds[1]"),
        (json!({"itemIds": [notes[0], "nope"], "style": "grid"}), "itemIds[1]"),
        (json!({"itemIds": connectors, "style": "grid"}), "itemIds"),
        (json!({"itemIds": notes, "style": "grid", "position": {"x": 1}}), "position.y"),
        (json!({"itemIds": notes, "style": "grid", "position": {"x": -2e12, "y": 0}}), "position"),
        (json!({"itemIds": "all", "style": "grid"}), "itemIds"),
        (json!({"style": "grid"}), "itemIds"),
    ] {
        assert_invalid(&arrange(&app, &owner, &project, body).await, field);
    }
    // A thousand bad ids: the first ones are listed, and the detail counts every one.
    for bad in [
        (0..1000).map(|i| format!("nope-{i}")).collect::<Vec<_>>(),
        (0..1000).map(|_| uuid::Uuid::new_v4().to_string()).collect::<Vec<_>>(),
    ] {
        let reply = arrange(&app, &owner, &project, json!({"itemIds": bad, "style": "grid"})).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
        let fields = reply.fields();
        assert!(fields.len() > 10 && fields.len() < 1000, "the first ones are listed: {}", fields.len());
        assert_eq!(fields[0], "itemIds[0]");
        let detail = ["detail", "Detail"].iter().find_map(|k| reply.body[*k].as_str()).unwrap_or_default();
        assert!(detail.contains("(and 999 more)"), "the detail counts the rest: {detail}");
    }
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let denied = arrange(&app, &viewer, &project, json!({"itemIds": notes, "style": "grid"})).await;
    assert_eq!(denied.status, StatusCode::FORBIDDEN, "{}", denied.body);
    assert_eq!(all_items(&app, &owner, &project).await, before, "refused arrangements change nothing");
}

async fn concurrent_writers_of_arranged_items_all_land(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (notes, _) = pile(&app, &owner, &project).await;
    let url = app.item_url(&project, &format!("/sticky-note/{}", notes[2]));
    let bearer = owner.bearer();
    let patches = (0..12).map(|i| {
        let (url, bearer, app) = (url.clone(), bearer.clone(), &app);
        async move { send(app, Method::PATCH, &url, Some(&bearer), Some(json!({"text": format!("edit {i}")}))).await }
    });
    let styles = ["grid", "layered", "tree", "grid"];
    let arrangements =
        styles.iter().map(|style| arrange(&app, &owner, &project, json!({"itemIds": notes, "style": style})));
    let (patched, arranged) = tokio::join!(futures::future::join_all(patches), futures::future::join_all(arrangements));
    for reply in patched.iter().chain(arranged.iter()) {
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    // Every write landed exactly once: twelve text edits and at least the first move, each its own
    // event, none lost to the others.
    let note = get_item(&app, &owner, &project, &notes[2]).await;
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()), 0, 500)
        .await
        .unwrap();
    let mine: Vec<&Value> = events
        .iter()
        .filter(|e| e.kind.as_str() == "item.updated" && e.subject_id.to_string() == notes[2])
        .map(|e| &e.payload["new"])
        .collect();
    assert_eq!(mine.iter().filter(|new| new.get("text").is_some()).count(), 12);
    assert!(mine.iter().any(|new| new.get("position").is_some()), "moved at least once");
    assert!(note["text"].as_str().unwrap().starts_with("edit "));
    assert_apart(&boxes(&all_items(&app, &owner, &project).await, &notes));
}
