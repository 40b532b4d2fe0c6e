//! Connectors: their table, the PATCH envelope, ends that follow items, and
//! what deleting an attached item does.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, create_label, get_item, owner_with_project, send};

backend_tests!(connector_rules, connector_follows_items, deleting_an_attached_item_detaches_the_connector);

async fn create_connector(app: &TestApp, user: &TestUser, project: &str, body: Value) -> String {
    let reply =
        send(app, Method::POST, &app.item_url(project, "/panel/connector"), Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["ItemId"].as_str().unwrap().to_owned()
}

async fn create_shape(app: &TestApp, user: &TestUser, project: &str, x: f64, y: f64) -> String {
    let body = json!({"size": {"width": 100, "height": 100}, "position": {"x": x, "y": y}});
    let reply = send(app, Method::POST, &app.item_url(project, "/panel/shape"), Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["ItemId"].as_str().unwrap().to_owned()
}

fn point(x: f64, y: f64) -> Value {
    json!({"position": {"x": x, "y": y}})
}

async fn connector_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (other_owner, other_project) = owner_with_project(&app).await;
    let foreign = create_label(&app, &other_owner, &other_project, json!({"text": "elsewhere"})).await;
    let ends = |extra: Value| {
        let mut body = json!({"startPoint": point(0.0, 0.0), "endPoint": point(100.0, 0.0)});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("startPoint required", json!({"endPoint": point(1.0, 1.0)}), Some("startPoint")),
        ("endPoint required", json!({"startPoint": point(1.0, 1.0)}), Some("endPoint")),
        (
            "point position required without itemId",
            json!({"startPoint": {"edge": false}, "endPoint": point(1.0, 1.0)}),
            Some("startPoint.position"),
        ),
        ("point not an object", ends(json!({"startPoint": 5})), Some("startPoint")),
        (
            "decorators",
            ends(
                json!({"startPoint": {"position": {"x": 0, "y": 0}, "decorator": "circle"}, "endPoint": {"position": {"x": 1, "y": 1}, "decorator": "None"}}),
            ),
            None,
        ),
        (
            "decorator unknown",
            ends(json!({"endPoint": {"position": {"x": 1, "y": 1}, "decorator": "Diamond"}})),
            Some("endPoint.decorator"),
        ),
        (
            "edge not a boolean",
            ends(json!({"endPoint": {"position": {"x": 1, "y": 1}, "edge": "yes"}})),
            Some("endPoint.edge"),
        ),
        ("itemId not a GUID", ends(json!({"endPoint": {"itemId": "abc"}})), Some("endPoint.itemId")),
        (
            "itemId unknown",
            ends(json!({"endPoint": {"itemId": uuid::Uuid::new_v4().to_string()}})),
            Some("endPoint.itemId"),
        ),
        ("itemId of another project", ends(json!({"endPoint": {"itemId": foreign}})), Some("endPoint.itemId")),
        (
            "point member unknown",
            ends(json!({"endPoint": {"position": {"x": 1, "y": 1}, "color": "red"}})),
            Some("endPoint.color"),
        ),
        ("type Curved", ends(json!({"type": "curved"})), None),
        (
            "type Angled with corners",
            ends(json!({"type": "Angled", "cornerPoints": [{"x": 50, "y": 0}, {"x": 50, "y": 50}], "radius": 4})),
            None,
        ),
        ("type unknown", ends(json!({"type": "Zigzag"})), Some("type")),
        ("cornerPoints malformed", ends(json!({"cornerPoints": [{"x": 1}]})), Some("cornerPoints[0].y")),
        ("radius negative", ends(json!({"radius": -0.5})), Some("radius")),
        ("strokeThickness negative", ends(json!({"strokeThickness": -1})), Some("strokeThickness")),
        ("strokeColor CSS", ends(json!({"strokeColor": "teal"})), None),
        ("strokeColor invalid", ends(json!({"strokeColor": "#1234567"})), Some("strokeColor")),
        (
            "position, size, scale, angle are ignored",
            ends(
                json!({"position": {"x": 999, "y": 999}, "size": {"width": 1, "height": 1}, "scale": -3, "angle": 720}),
            ),
            None,
        ),
    ];
    for (case, body, field) in cases {
        let reply =
            send(&app, Method::POST, &app.item_url(&project, "/panel/connector"), Some(&owner.bearer()), Some(body))
                .await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => assert_invalid(&reply, field),
        }
    }

    let id = create_connector(&app, &owner, &project, ends(json!({"position": {"x": 999, "y": 999}}))).await;
    let connector = get_item(&app, &owner, &project, &id).await;
    assert_eq!(connector["type"], "Straight");
    assert_eq!(connector["strokeThickness"], json!(3));
    assert_eq!(connector["radius"], json!(0.5));
    assert_eq!(connector["cornerPoints"], json!([]));
    assert_eq!(connector["startPoint"]["decorator"], "ArrowLine");
    assert_eq!(connector["startPoint"]["edge"], true);
    assert_eq!(connector["position"], json!({"x": 50, "y": 0}), "derived from the end points");
    assert_eq!(connector["size"], json!({"width": 100, "height": 0}));

    // PATCH wraps the changes in "properties".
    let url = app.item_url(&project, &format!("/connector/{id}"));
    let bare = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"type": "Curved"}))).await;
    assert_invalid(&bare, "properties");
    assert!(bare.body["Detail"].as_str().unwrap().contains("properties"));
    let wrapped = send(
        &app,
        Method::PATCH,
        &url,
        Some(&owner.bearer()),
        Some(json!({"properties": {"type": "Curved", "endPoint": point(0.0, 200.0)}})),
    )
    .await;
    assert_eq!(wrapped.status, StatusCode::OK, "{}", wrapped.body);
    let connector = get_item(&app, &owner, &project, &id).await;
    assert_eq!(connector["type"], "Curved");
    assert_eq!(connector["endPoint"]["absolutePosition"], json!({"x": 0, "y": 200}));
    let invalid =
        send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"properties": {"radius": -1}}))).await;
    assert_invalid(&invalid, "radius");
    let itself = send(
        &app,
        Method::PATCH,
        &url,
        Some(&owner.bearer()),
        Some(json!({"properties": {"startPoint": {"itemId": id}}})),
    )
    .await;
    assert_invalid(&itself, "startPoint.itemId");
}

async fn connector_follows_items(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let a = create_shape(&app, &owner, &project, 0.0, 0.0).await;
    let b = create_shape(&app, &owner, &project, 300.0, 0.0).await;
    let id = create_connector(
        &app,
        &owner,
        &project,
        json!({"startPoint": {"itemId": a}, "endPoint": {"itemId": b, "edge": true}}),
    )
    .await;

    // Attached with edge true: on the outlines that face each other.
    let connector = get_item(&app, &owner, &project, &id).await;
    assert_eq!(connector["startPoint"]["absolutePosition"], json!({"x": 50, "y": 0}));
    assert_eq!(connector["endPoint"]["absolutePosition"], json!({"x": 250, "y": 0}));
    assert_eq!(connector["startPoint"]["itemId"], json!(a));

    // Move B: the end follows it, still on the nearest edge.
    let moved = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/shape/{b}")),
        Some(&owner.bearer()),
        Some(json!({"position": {"x": 0, "y": 300}})),
    )
    .await;
    assert_eq!(moved.status, StatusCode::OK);
    let connector = get_item(&app, &owner, &project, &id).await;
    assert_eq!(connector["startPoint"]["absolutePosition"], json!({"x": 0, "y": 50}));
    assert_eq!(connector["endPoint"]["absolutePosition"], json!({"x": 0, "y": 250}));
    let end = send(
        &app,
        Method::GET,
        &app.item_url(&project, &format!("/{id}/endPoint?jsonCasing=camel")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(end.body["absolutePosition"], json!({"x": 0, "y": 250}));

    // Attached with edge false: relative to the item's position.
    let pinned = create_connector(&app, &owner, &project, json!({"startPoint": {"itemId": a, "edge": false, "position": {"x": 10, "y": 5}}, "endPoint": point(500.0, 500.0)})).await;
    let move_a = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/shape/{a}")),
        Some(&owner.bearer()),
        Some(json!({"position": {"x": -100, "y": -100}})),
    )
    .await;
    assert_eq!(move_a.status, StatusCode::OK);
    let connector = get_item(&app, &owner, &project, &pinned).await;
    assert_eq!(connector["startPoint"]["absolutePosition"], json!({"x": -90, "y": -95}));
    assert_eq!(connector["startPoint"]["position"], json!({"x": 10, "y": 5}), "stored relative offset unchanged");

    // The listing shows the same resolved geometry.
    let list = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items?type=connector&jsonCasing=camel", app.base_url),
        Some(&owner.bearer()),
        None,
    )
    .await;
    let listed = list.body["items"].as_array().unwrap().iter().find(|i| i["itemId"] == json!(pinned)).unwrap().clone();
    assert_eq!(listed["startPoint"]["absolutePosition"], json!({"x": -90, "y": -95}));
}

async fn deleting_an_attached_item_detaches_the_connector(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let a = create_shape(&app, &owner, &project, 0.0, 0.0).await;
    let b = create_shape(&app, &owner, &project, 300.0, 0.0).await;
    let id =
        create_connector(&app, &owner, &project, json!({"startPoint": {"itemId": a}, "endPoint": {"itemId": b}})).await;

    let deleted =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{b}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK);
    let connector = get_item(&app, &owner, &project, &id).await;
    assert_eq!(connector["itemType"], "connector", "the connector survives");
    assert_eq!(connector["endPoint"]["itemId"], Value::Null);
    assert_eq!(connector["endPoint"]["position"], json!({"x": 250, "y": 0}), "pinned where it was drawn");
    assert_eq!(connector["startPoint"]["itemId"], json!(a), "the other end still follows its item");
    assert_eq!(connector["startPoint"]["absolutePosition"], json!({"x": 50, "y": 0}));

    // The detach is recorded as an update of the connector.
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(uuid::Uuid::parse_str(&project).unwrap()), 0, 100)
        .await
        .unwrap();
    let detach = events
        .iter()
        .find(|e| e.kind.as_str() == "item.updated" && e.subject_id.to_string() == id)
        .expect("connector update event");
    assert_eq!(detach.payload["new"]["endPoint"]["itemId"], Value::Null);
    assert_eq!(detach.payload["old"]["endPoint"]["itemId"], json!(b));
}
