//! Shapes: every row of the shape table and the seven corner-radius rules.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, get_item, owner_with_project, send};

backend_tests!(shape_rules, corner_radius_rules, shape_type_is_immutable);

async fn create(app: &TestApp, user: &TestUser, project: &str, body: Value) -> String {
    let reply = send(app, Method::POST, &app.item_url(project, "/panel/shape"), Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["ItemId"].as_str().unwrap().to_owned()
}

async fn radius(app: &TestApp, user: &TestUser, project: &str, id: &str) -> Value {
    let reply =
        send(app, Method::GET, &app.item_url(project, &format!("/{id}/cornerRadius")), Some(&user.bearer()), None)
            .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

async fn patch(app: &TestApp, user: &TestUser, project: &str, id: &str, body: Value) -> crate::support::Reply {
    send(app, Method::PATCH, &app.item_url(project, &format!("/shape/{id}")), Some(&user.bearer()), Some(body)).await
}

async fn shape_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let size = json!({"width": 100, "height": 50});
    let cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("size required", json!({}), Some("size")),
        ("size minimum 5", json!({"size": {"width": 4, "height": 50}}), Some("size.width")),
        ("size height minimum 5", json!({"size": {"width": 5, "height": 4.99}}), Some("size.height")),
        ("size at the minimum", json!({"size": {"width": 5, "height": 5}}), None),
        ("type any case", json!({"size": size, "type": "lightningbolt"}), None),
        ("type unknown", json!({"size": size, "type": "Circle"}), Some("type")),
        ("fillColor #RGB", json!({"size": size, "fillColor": "#F0A"}), None),
        ("fillColor #RRGGBB", json!({"size": size, "fillColor": "#FF00AA"}), None),
        ("fillColor #AARRGGBB", json!({"size": size, "fillColor": "#80FF00AA"}), None),
        ("fillColor named", json!({"size": size, "fillColor": "red"}), Some("fillColor")),
        ("fillColor rgb()", json!({"size": size, "fillColor": "rgb(1, 2, 3)"}), Some("fillColor")),
        ("fillColor 5 digits", json!({"size": size, "fillColor": "#12345"}), Some("fillColor")),
        ("fillColor not hex", json!({"size": size, "fillColor": "#GGG"}), Some("fillColor")),
        ("strokeColor hex", json!({"size": size, "strokeColor": "#000"}), None),
        ("strokeColor CSS form", json!({"size": size, "strokeColor": "hsl(0, 100%, 50%)"}), Some("strokeColor")),
        ("strokeThickness 0", json!({"size": size, "strokeThickness": 0}), None),
        ("strokeThickness negative", json!({"size": size, "strokeThickness": -1}), Some("strokeThickness")),
        ("adjustmentValues", json!({"size": size, "adjustmentValues": [0.2, 3]}), None),
        (
            "adjustmentValues negative",
            json!({"size": size, "adjustmentValues": [0.2, -3]}),
            Some("adjustmentValues[1]"),
        ),
        ("adjustmentValues not a list", json!({"size": size, "adjustmentValues": 3}), Some("adjustmentValues")),
        ("scale 0", json!({"size": size, "scale": 0}), Some("scale")),
        ("angle 361", json!({"size": size, "angle": 361}), Some("angle")),
        (
            "cornerRadius negative",
            json!({"size": size, "type": "RoundedRectangle", "cornerRadius": -1}),
            Some("cornerRadius"),
        ),
    ];
    for (case, body, field) in cases {
        let reply =
            send(&app, Method::POST, &app.item_url(&project, "/panel/shape"), Some(&owner.bearer()), Some(body)).await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => assert_invalid(&reply, field),
        }
    }
    let id = create(&app, &owner, &project, json!({"size": size})).await;
    let shape = get_item(&app, &owner, &project, &id).await;
    assert_eq!(shape["type"], "Rectangle");
    assert_eq!(shape["fillColor"], "#00000000", "transparent by default");
    assert_eq!(shape["strokeColor"], "#FFFFFF");
    assert_eq!(shape["strokeThickness"], json!(2));
    assert_eq!(shape["adjustmentValues"], json!([]));
    assert_eq!(shape["cornerRadius"], Value::Null);
    for (name, expected) in
        [("shapeType", json!("Rectangle")), ("strokeWidth", json!(2)), ("fillColor", json!("#00000000"))]
    {
        let reply =
            send(&app, Method::GET, &app.item_url(&project, &format!("/{id}/{name}")), Some(&owner.bearer()), None)
                .await;
        assert_eq!(reply.body, expected, "{name}");
    }
}

async fn shape_type_is_immutable(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create(&app, &owner, &project, json!({"size": {"width": 10, "height": 10}, "type": "Ellipse"})).await;
    for body in
        [json!({"type": "Triangle"}), json!({"type": "Ellipse"}), json!({"Type": "ellipse", "fillColor": "#000"})]
    {
        assert_invalid(&patch(&app, &owner, &project, &id, body).await, "type");
    }
    assert_eq!(
        get_item(&app, &owner, &project, &id).await["fillColor"],
        "#00000000",
        "a rejected PATCH changes nothing"
    );
    assert_eq!(patch(&app, &owner, &project, &id, json!({"fillColor": "#000"})).await.status, StatusCode::OK);
}

async fn corner_radius_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let size = json!({"width": 100, "height": 50});

    // Rule 1: only the round-corner types take cornerRadius.
    for shape_type in ["Rectangle", "Ellipse", "OneSnipCornerRectangle"] {
        let reply = send(
            &app,
            Method::POST,
            &app.item_url(&project, "/panel/shape"),
            Some(&owner.bearer()),
            Some(json!({"size": size, "type": shape_type, "cornerRadius": 4})),
        )
        .await;
        assert_invalid(&reply, "cornerRadius");
    }
    for shape_type in [
        "RoundedRectangle",
        "OneRoundCornerRectangle",
        "TwoSameSideRoundCornerRectangle",
        "TwoDiagonalRoundCornerRectangle",
        "OneSnipOneRoundCornerRectangle",
    ] {
        let id = create(&app, &owner, &project, json!({"size": size, "type": shape_type, "cornerRadius": 4})).await;
        assert_eq!(radius(&app, &owner, &project, &id).await, json!(4), "{shape_type}");
    }
    // Rule 7: null for the others; the default radius is a tenth of the shorter side.
    let plain = create(&app, &owner, &project, json!({"size": size})).await;
    assert_eq!(radius(&app, &owner, &project, &plain).await, Value::Null);
    let rounded = create(&app, &owner, &project, json!({"size": size, "type": "RoundedRectangle"})).await;
    assert_eq!(radius(&app, &owner, &project, &rounded).await, json!(5));

    // Rule 2: stored as a fraction of the shorter drawn side.
    let id =
        create(&app, &owner, &project, json!({"size": size, "type": "RoundedRectangle", "cornerRadius": 10})).await;
    assert_eq!(get_item(&app, &owner, &project, &id).await["adjustmentValues"], json!([0.2]));
    assert_eq!(get_item(&app, &owner, &project, &id).await["cornerRadius"], json!(10));

    // Rule 3: cornerRadius beats the first adjustment value; the rest are kept.
    let id = create(
        &app,
        &owner,
        &project,
        json!({"size": size, "type": "RoundedRectangle", "cornerRadius": 10, "adjustmentValues": [0.3, 0.7]}),
    )
    .await;
    assert_eq!(get_item(&app, &owner, &project, &id).await["adjustmentValues"], json!([0.2, 0.7]));

    // Rule 4: capped at half the shorter side (a pill).
    let id =
        create(&app, &owner, &project, json!({"size": size, "type": "RoundedRectangle", "cornerRadius": 100})).await;
    assert_eq!(radius(&app, &owner, &project, &id).await, json!(25));
    assert_eq!(get_item(&app, &owner, &project, &id).await["adjustmentValues"], json!([0.5]));

    // Rule 5: conversion with the size and scale of the same request, else the stored ones.
    let id = create(&app, &owner, &project, json!({"size": size, "type": "RoundedRectangle"})).await;
    assert_eq!(
        patch(&app, &owner, &project, &id, json!({"cornerRadius": 10, "scale": 2})).await.status,
        StatusCode::OK
    );
    assert_eq!(
        get_item(&app, &owner, &project, &id).await["adjustmentValues"],
        json!([0.1]),
        "10 of a 100 drawn shorter side"
    );
    assert_eq!(radius(&app, &owner, &project, &id).await, json!(10));
    assert_eq!(patch(&app, &owner, &project, &id, json!({"cornerRadius": 5})).await.status, StatusCode::OK);
    assert_eq!(get_item(&app, &owner, &project, &id).await["adjustmentValues"], json!([0.05]), "stored scale 2 used");

    // Rule 6: a resize scales the corners, unless size and cornerRadius come together.
    let id =
        create(&app, &owner, &project, json!({"size": size, "type": "RoundedRectangle", "cornerRadius": 10})).await;
    assert_eq!(
        patch(&app, &owner, &project, &id, json!({"size": {"width": 200, "height": 100}})).await.status,
        StatusCode::OK
    );
    assert_eq!(radius(&app, &owner, &project, &id).await, json!(20));
    assert_eq!(
        patch(&app, &owner, &project, &id, json!({"size": {"width": 400, "height": 200}, "cornerRadius": 10}))
            .await
            .status,
        StatusCode::OK
    );
    assert_eq!(radius(&app, &owner, &project, &id).await, json!(10));

    // cornerRadius is not a label property at all.
    let label = crate::support::create_label(&app, &owner, &project, json!({"text": "x"})).await;
    let reply = send(
        &app,
        Method::GET,
        &app.item_url(&project, &format!("/{label}/cornerRadius")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_invalid(&reply, "property");
}
