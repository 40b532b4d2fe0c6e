//! Frames over REST (docs/ITEMS.md "Frames"): made with their defaults and refused by rule; items
//! moved into and out of them by a `parent` in the update, each move one write with its event;
//! a frame that moves takes everything it holds along in the same transaction (a resize moves
//! nothing); and writers racing a moving frame lose nothing. The listing, drawing, Mermaid,
//! diagrams and MCP are `frames_views.rs`.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::containers::{events_after, last_seq};
use crate::support::{assert_invalid, get_item, owner_with_project, send, Reply};

backend_tests!(
    frames_are_made_with_defaults_and_refused_by_rule,
    moving_an_item_in_and_out_of_a_frame_is_one_write_with_its_event,
    moving_a_frame_moves_what_it_holds_in_one_write_and_a_resize_moves_nothing,
    writers_racing_a_moving_frame_lose_nothing,
);

/// Creates an item of `item_type` in `parent` (answering the reply).
pub(crate) async fn create(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    parent: &str,
    kind: &str,
    body: Value,
) -> Reply {
    let url = app.item_url(project, &format!("/{parent}/{kind}?jsonCasing=camel"));
    send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await
}

/// Creates an item and answers its id (asserting the 200).
pub(crate) async fn made(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    parent: &str,
    kind: &str,
    body: Value,
) -> String {
    let reply = create(app, user, project, parent, kind, body).await;
    assert_eq!(reply.status, StatusCode::OK, "{kind} in {parent}: {}", reply.body);
    reply.body["itemId"].as_str().expect("itemId").to_owned()
}

/// A frame whose centre is `(x, y)`, `width × height` large.
pub(crate) async fn frame_at(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    at: (f64, f64),
    size: (f64, f64),
) -> String {
    let body = json!({"title": "Sprint", "position": {"x": at.0, "y": at.1},
                      "size": {"width": size.0, "height": size.1}});
    made(app, user, project, "panel", "frame", body).await
}

pub(crate) async fn patch(app: &TestApp, user: &TestUser, project: &str, kind: &str, id: &str, body: Value) -> Reply {
    let url = app.item_url(project, &format!("/{kind}/{id}?jsonCasing=camel"));
    send(app, Method::PATCH, &url, Some(&user.bearer()), Some(body)).await
}

fn position(item: &Value) -> (f64, f64) {
    (item["position"]["x"].as_f64().unwrap(), item["position"]["y"].as_f64().unwrap())
}

async fn frames_are_made_with_defaults_and_refused_by_rule(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;

    let plain = made(&app, &owner, &project, "panel", "frame", json!({})).await;
    let read = get_item(&app, &owner, &project, &plain).await;
    assert_eq!(read["itemType"], "frame");
    assert_eq!(read["parent"], "panel");
    assert_eq!(
        (&read["title"], &read["size"], &read["fillColor"], &read["tags"]),
        (&json!("Frame"), &json!({"width": 800, "height": 600}), &json!("#1E293B"), &json!([]))
    );
    let trimmed = made(&app, &owner, &project, "inbox", "frame", json!({"title": "  Sprint 3 "})).await;
    let read = get_item(&app, &owner, &project, &trimmed).await;
    assert_eq!((&read["title"], &read["parent"]), (&json!("Sprint 3"), &json!("inbox")));
    // 200 characters is the most, counted as characters (not bytes).
    let longest = "🙂".repeat(200);
    let id = made(&app, &owner, &project, "panel", "frame", json!({"title": longest})).await;
    assert_eq!(get_item(&app, &owner, &project, &id).await["title"], json!(longest));

    let refused = [
        (json!({"title": ""}), "title"),
        (json!({"title": "   "}), "title"),
        (json!({"title": "x".repeat(201)}), "title"),
        (json!({"title": 7}), "title"),
        (json!({"size": {"width": 4, "height": 100}}), "size.width"),
        (json!({"size": {"width": 100, "height": -1}}), "size.height"),
        (json!({"fillColor": "red"}), "fillColor"),
        (json!({"fillColor": "rgb(1,2,3)"}), "fillColor"),
        (json!({"position": {"x": "a", "y": 0}}), "position.x"),
        (json!({"scale": 2}), "scale"),
        (json!({"angle": 45}), "angle"),
        (json!({"tags": ["not-a-guid"]}), "tags[0]"),
    ];
    for (body, field) in refused {
        let reply = create(&app, &owner, &project, "panel", "frame", body.clone()).await;
        assert_invalid(&reply, field);
    }
    // U+0000 is refused (PostgreSQL's jsonb cannot hold it), never a 500.
    let reply = create(&app, &owner, &project, "panel", "frame", json!({"title": "a\u{0}b"})).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);

    // Frames hold anything but frames; nothing holds a frame.
    let shape = made(&app, &owner, &project, "panel", "shape", json!({"size": {"width": 100, "height": 100}})).await;
    for parent in [&plain, &shape] {
        let reply = create(&app, &owner, &project, parent, "frame", json!({})).await;
        assert_invalid(&reply, "parent");
        assert!(reply.body.to_string().contains("a frame's parent is panel or inbox"), "{}", reply.body);
    }
    for (kind, body) in [
        ("label", json!({"text": "in a frame"})),
        ("sticky-note", json!({"text": "note"})),
        ("shape", json!({"size": {"width": 50, "height": 50}})),
        ("web", json!({"url": "https://example.org/"})),
        (
            "connector",
            json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 9, "y": 9}}}),
        ),
    ] {
        let id = made(&app, &owner, &project, &plain, kind, body).await;
        assert_eq!(get_item(&app, &owner, &project, &id).await["parent"], json!(plain), "{kind}");
    }
    // A Viewer reads frames and makes none.
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    assert_eq!(get_item(&app, &viewer, &project, &plain).await["title"], "Frame");
    let reply = create(&app, &viewer, &project, "panel", "frame", json!({})).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
}

async fn moving_an_item_in_and_out_of_a_frame_is_one_write_with_its_event(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let frame = frame_at(&app, &owner, &project, (0.0, 0.0), (800.0, 600.0)).await;
    let note = made(&app, &owner, &project, "panel", "sticky-note", json!({"text": "n"})).await;

    let seq = last_seq(&app, &project).await;
    let reply = patch(&app, &owner, &project, "sticky-note", &note, json!({"parent": frame})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let read = get_item(&app, &owner, &project, &note).await;
    assert_eq!(read["parent"], json!(frame));
    let events = events_after(&app, &project, seq).await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!((events[0].0.as_str(), events[0].1.as_str()), ("item.updated", note.as_str()));
    assert_eq!((&events[0].2["parent"], &events[0].2["oldParent"]), (&json!(frame), &json!("panel")));

    // Out again, with a property in the same write and the name in another casing.
    let reply = patch(&app, &owner, &project, "sticky-note", &note, json!({"Parent": "panel", "text": "out"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let read = get_item(&app, &owner, &project, &note).await;
    assert_eq!((&read["parent"], &read["text"]), (&json!("panel"), &json!("out")));
    // Naming where it is already is no move (and no oldParent).
    let seq = last_seq(&app, &project).await;
    let reply = patch(&app, &owner, &project, "sticky-note", &note, json!({"parent": "PANEL", "text": "x"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let events = events_after(&app, &project, seq).await;
    assert!(events[0].2.get("oldParent").is_none(), "{events:?}");

    // A connector's parent goes beside its wrapped properties.
    let line = json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 9, "y": 9}}});
    let connector = made(&app, &owner, &project, "panel", "connector", line).await;
    let reply =
        patch(&app, &owner, &project, "connector", &connector, json!({"properties": {}, "parent": frame})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(get_item(&app, &owner, &project, &connector).await["parent"], json!(frame));

    // Refusals name `parent` and change nothing.
    let outer = made(&app, &owner, &project, &frame, "shape", json!({"size": {"width": 90, "height": 90}})).await;
    let inner = made(&app, &owner, &project, &outer, "shape", json!({"size": {"width": 40, "height": 40}})).await;
    let label = made(&app, &owner, &project, &inner, "label", json!({"text": "deep"})).await;
    let other_owner = app.user("other").await;
    let elsewhere = app.project(&other_owner).await;
    let foreign =
        made(&app, &other_owner, &elsewhere, "panel", "shape", json!({"size": {"width": 9, "height": 9}})).await;
    let refusals = [
        ("shape", outer.as_str(), json!({"parent": inner}), "inside the item moved"),
        ("shape", outer.as_str(), json!({"parent": outer}), "its own parent"),
        ("sticky-note", note.as_str(), json!({"parent": label}), "a label cannot hold a sticky-note"),
        ("frame", frame.as_str(), json!({"parent": outer}), "a shape cannot hold a frame"),
        ("sticky-note", note.as_str(), json!({"parent": foreign}), "no item"),
        ("sticky-note", note.as_str(), json!({"parent": uuid::Uuid::now_v7().to_string()}), "no item"),
        ("sticky-note", note.as_str(), json!({"parent": "somewhere"}), "must be"),
        ("sticky-note", note.as_str(), json!({"parent": 5}), "must be"),
    ];
    for (kind, id, body, words) in refusals {
        let before = get_item(&app, &owner, &project, id).await;
        let reply = patch(&app, &owner, &project, kind, id, body.clone()).await;
        assert_invalid(&reply, "parent");
        assert!(reply.body.to_string().contains(words), "{body}: {}", reply.body);
        assert_eq!(get_item(&app, &owner, &project, id).await, before, "{body}: nothing changed");
    }
    // A Viewer moves nothing.
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let reply = patch(&app, &viewer, &project, "sticky-note", &note, json!({"parent": frame})).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    assert_eq!(get_item(&app, &owner, &project, &note).await["parent"], json!("panel"));
}

async fn moving_a_frame_moves_what_it_holds_in_one_write_and_a_resize_moves_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let frame = frame_at(&app, &owner, &project, (0.0, 0.0), (800.0, 600.0)).await;
    let note =
        made(&app, &owner, &project, &frame, "sticky-note", json!({"text": "n", "position": {"x": 100, "y": 100}}))
            .await;
    let shape = made(
        &app,
        &owner,
        &project,
        &frame,
        "shape",
        json!({"size": {"width": 100, "height": 60}, "position": {"x": -200, "y": 50}}),
    )
    .await;
    let caption =
        made(&app, &owner, &project, &shape, "label", json!({"text": "box", "position": {"x": -200, "y": 50}})).await;
    let free = made(
        &app,
        &owner,
        &project,
        &frame,
        "connector",
        json!({
        "type": "Angled",
        "startPoint": {"position": {"x": -100, "y": -100}},
        "endPoint": {"position": {"x": 100, "y": -100}},
        "cornerPoints": [{"x": 0, "y": -150}]}),
    )
    .await;
    let tied = made(
        &app,
        &owner,
        &project,
        &frame,
        "connector",
        json!({
        "startPoint": {"itemId": note}, "endPoint": {"position": {"x": 300, "y": 200}}}),
    )
    .await;
    let outside =
        made(&app, &owner, &project, "panel", "sticky-note", json!({"text": "o", "position": {"x": 2000, "y": 0}}))
            .await;
    let before: Vec<Value> = {
        let mut all = Vec::new();
        for id in [&note, &shape, &caption, &free, &tied, &outside] {
            all.push(get_item(&app, &owner, &project, id).await);
        }
        all
    };

    let seq = last_seq(&app, &project).await;
    let reply = patch(&app, &owner, &project, "frame", &frame, json!({"position": {"x": 300, "y": -50}})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let shifted = |p: (f64, f64)| (p.0 + 300.0, p.1 - 50.0);
    for (i, id) in [&note, &shape, &caption].into_iter().enumerate() {
        let read = get_item(&app, &owner, &project, id).await;
        assert_eq!(position(&read), shifted(position(&before[i])), "{id} moved with its frame");
        assert_ne!(read["updatedAt"], before[i]["updatedAt"], "{id} is at its next version");
    }
    let read = get_item(&app, &owner, &project, &free).await;
    assert_eq!(position(&read["startPoint"]), (200.0, -150.0));
    assert_eq!(position(&read["endPoint"]), (400.0, -150.0));
    assert_eq!(read["cornerPoints"].as_array().map(Vec::len), Some(1));
    assert_eq!(position(&json!({"position": read["cornerPoints"][0]})), (300.0, -200.0));
    let read = get_item(&app, &owner, &project, &tied).await;
    assert_eq!(read["startPoint"]["itemId"], json!(note), "the attached end still follows its item");
    let drawn = |item: &Value| position(&json!({"position": item["startPoint"]["absolutePosition"]}));
    assert_eq!(drawn(&read), shifted(drawn(&before[4])), "drawn at the moved note: {read}");
    assert_eq!(position(&read["endPoint"]), (600.0, 150.0));
    assert_eq!(get_item(&app, &owner, &project, &outside).await, before[5], "the item outside did not move");

    // One transaction: the frame's event, then one per held item that moved, each naming why.
    let events = events_after(&app, &project, seq).await;
    assert_eq!(events[0].1, frame, "{events:?}");
    let moved: Vec<&str> = events[1..].iter().map(|e| e.1.as_str()).collect();
    assert_eq!(moved.len(), 5, "{events:?}");
    for id in [&note, &shape, &caption, &free, &tied] {
        assert!(moved.contains(&id.as_str()), "{id} has its event: {events:?}");
    }
    assert!(events[1..].iter().all(|e| e.0 == "item.updated" && e.2["reason"] == "frame moved"), "{events:?}");
    assert!(events[1..].iter().all(|e| e.2["new"].get("position").is_some() || e.2["new"].get("endPoint").is_some()));

    // A resize (size and centre change together) and a new title move nothing held.
    let held_before = get_item(&app, &owner, &project, &note).await;
    let reply = patch(
        &app,
        &owner,
        &project,
        "frame",
        &frame,
        json!({"position": {"x": 400, "y": 0}, "size": {"width": 1000, "height": 700}}),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let reply = patch(&app, &owner, &project, "frame", &frame, json!({"title": "Renamed"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(get_item(&app, &owner, &project, &note).await, held_before);

    // Deleting the frame deletes what it holds.
    let url = app.item_url(&project, &format!("/{frame}"));
    let reply = send(&app, Method::DELETE, &url, Some(&owner.bearer()), None).await;
    assert!(reply.status.is_success(), "{}", reply.body);
    for id in [&frame, &note, &shape, &caption, &free, &tied] {
        let reply =
            send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&owner.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::NOT_FOUND, "{id}");
    }
    assert_eq!(get_item(&app, &owner, &project, &outside).await["text"], "o");
}

/// One writer moves the frame 20 times while 8 others rewrite the texts of the notes it holds:
/// every note ends where its frame took it, with its last text, and every write was served.
async fn writers_racing_a_moving_frame_lose_nothing(backend: Backend) {
    let app = std::sync::Arc::new(TestApp::spawn(backend).await);
    let (owner, project) = owner_with_project(&app).await;
    let frame = frame_at(&app, &owner, &project, (0.0, 0.0), (2000.0, 2000.0)).await;
    let mut notes = Vec::new();
    for i in 0..8 {
        let body = json!({"text": "0", "position": {"x": f64::from(i) * 100.0, "y": 0}});
        notes.push(made(&app, &owner, &project, &frame, "sticky-note", body).await);
    }
    let mover = {
        let (app, owner, project, frame) = (app.clone(), owner.clone(), project.clone(), frame.clone());
        tokio::spawn(async move {
            for step in 1..=20 {
                let body = json!({"position": {"x": f64::from(step) * 10.0, "y": 0}});
                let reply = patch(&app, &owner, &project, "frame", &frame, body).await;
                assert_eq!(reply.status, StatusCode::OK, "frame step {step}: {}", reply.body);
            }
        })
    };
    let mut writers = Vec::new();
    for note in notes.clone() {
        let (app, owner, project) = (app.clone(), owner.clone(), project.clone());
        writers.push(tokio::spawn(async move {
            for n in 1..=20 {
                let reply = patch(&app, &owner, &project, "sticky-note", &note, json!({"text": n.to_string()})).await;
                assert_eq!(reply.status, StatusCode::OK, "{note} text {n}: {}", reply.body);
            }
        }));
    }
    mover.await.unwrap();
    for writer in writers {
        writer.await.unwrap();
    }
    for (i, note) in notes.iter().enumerate() {
        let read = get_item(&app, &owner, &project, note).await;
        assert_eq!(position(&read), (i as f64 * 100.0 + 200.0, 0.0), "{note}: {read}");
        assert_eq!(read["text"], json!("20"), "{note}");
    }
    // Each note: its 20 text writes and the frame's 20 moves, each an event of its own.
    let events = events_after(&app, &project, 0).await;
    for note in &notes {
        let updates = events.iter().filter(|e| e.0 == "item.updated" && e.1 == *note).count();
        assert_eq!(updates, 40, "{note}");
    }
}
