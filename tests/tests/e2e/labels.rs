//! The label slice end to end: create, read, single-property read, patch,
//! delete, listing, MessagePack.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    label_create_get_patch_delete,
    single_property_read,
    message_pack_is_unaffected_by_casing,
    listing_pages_with_a_cursor
);

async fn label_create_get_patch_delete(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();

    let id = create_label(&app, &owner, &project, json!({"text": "Hello", "position": {"x": 10, "y": -4.5}})).await;

    let got =
        send(&app, Method::GET, &app.item_url(&project, &format!("/{id}?jsonCasing=camel")), Some(&auth), None).await;
    assert_eq!(got.status, StatusCode::OK);
    assert_eq!(got.content_type, "application/json");
    let item = &got.body;
    assert_eq!(item["itemId"], json!(id));
    assert_eq!(item["itemType"], "label");
    assert_eq!(item["parent"], "panel");
    assert_eq!(item["text"], "Hello");
    assert_eq!(item["position"], json!({"x": 10, "y": -4.5}));
    // Defaults of the spec's label table.
    assert_eq!(item["scale"], json!(1));
    assert_eq!(item["angle"], json!(0));
    assert_eq!(item["textColor"], "#FFFFFF");
    assert_eq!(item["isAutoSizeWidth"], true);
    assert_eq!(item["isAutoSizeHeight"], true);
    assert_eq!(item["horizontalTextAlignment"], "Left");
    assert_eq!(item["verticalTextAlignment"], "Top");
    assert_eq!(item["size"], json!({"width": 0, "height": 0}));
    assert!(item["fontSize"].as_f64().unwrap() >= 1.0);

    let patched = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}?jsonCasing=camel")),
        Some(&auth),
        Some(json!({"Text": "<b>Bold</b> move", "horizontalTextAlignment": "center", "isAutoSizeWidth": false, "size": {"width": 120, "height": 0}})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    assert_eq!(patched.body, json!({"itemId": id}));

    let got =
        send(&app, Method::GET, &app.item_url(&project, &format!("/{id}?jsonCasing=camel")), Some(&auth), None).await;
    assert_eq!(got.body["text"], "<b>Bold</b> move");
    assert_eq!(got.body["horizontalTextAlignment"], "Center");
    assert_eq!(got.body["size"], json!({"width": 120, "height": 0}));
    assert_eq!(got.body["position"], json!({"x": 10, "y": -4.5}), "unsent properties are kept");

    let deleted = send(&app, Method::DELETE, &app.item_url(&project, &format!("/{id}")), Some(&auth), None).await;
    assert_eq!(deleted.status, StatusCode::OK);
    assert_eq!(deleted.body, json!({"ItemId": id}));

    let gone = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&auth), None).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND);
    assert_eq!(gone.content_type, "application/problem+json");
    let again = send(&app, Method::DELETE, &app.item_url(&project, &format!("/{id}")), Some(&auth), None).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND);
}

async fn single_property_read(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    let id =
        create_label(&app, &owner, &project, json!({"text": "Read me", "fontSize": 22, "position": {"x": 3, "y": 4}}))
            .await;

    for (name, expected) in [
        ("text", json!("Read me")),
        ("TEXT", json!("Read me")),
        ("fontSize", json!(22)),
        ("fontsize", json!(22)),
        ("textColor", json!("#FFFFFF")),
        ("horizontalTextAlignment", json!("Left")),
        ("verticalTextAlignment", json!("Top")),
        ("scale", json!(1)),
        ("angle", json!(0)),
        ("position", json!({"X": 3, "Y": 4})),
    ] {
        let reply = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}/{name}")), Some(&auth), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{name}: {}", reply.body);
        assert_eq!(reply.body, expected, "{name}");
    }
    let camel = send(
        &app,
        Method::GET,
        &app.item_url(&project, &format!("/{id}/position?jsonCasing=camel")),
        Some(&auth),
        None,
    )
    .await;
    assert_eq!(camel.body, json!({"x": 3, "y": 4}));
    let raw_text = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}/text")), Some(&auth), None).await;
    assert_eq!(raw_text.bytes, b"\"Read me\"");

    for bad in ["nonsense", "isAutoSizeWidth", "fileName", "cornerRadius"] {
        let reply = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}/{bad}")), Some(&auth), None).await;
        crate::support::assert_invalid(&reply, "property");
    }
}

async fn message_pack_is_unaffected_by_casing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "packed"})).await;
    for accept in ["application/msgpack", "application/x-msgpack"] {
        for casing in ["", "?jsonCasing=snake"] {
            let response = app
                .http
                .get(app.item_url(&project, &format!("/{id}{casing}")))
                .header("Authorization", owner.bearer())
                .header("Accept", accept)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            assert_eq!(response.headers()["content-type"], accept);
            let bytes = response.bytes().await.unwrap();
            let value: serde_json::Value = rmp_serde::from_slice(&bytes).expect("valid MessagePack");
            assert_eq!(value["itemId"], json!(id), "MessagePack keeps the canonical names");
            assert_eq!(value["text"], "packed");
            assert_eq!(value["isAutoSizeWidth"], true);
        }
    }
}

async fn listing_pages_with_a_cursor(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut created = Vec::new();
    for i in 0..5 {
        created.push(create_label(&app, &owner, &project, json!({"text": format!("n{i}")})).await);
    }
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut url = format!("{}/api/v2/projects/{project}/items?limit=2&jsonCasing=camel", app.base_url);
        if let Some(c) = &cursor {
            url.push_str(&format!("&cursor={c}"));
        }
        let page = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
        assert_eq!(page.status, StatusCode::OK, "{}", page.body);
        let items = page.body["items"].as_array().unwrap();
        assert!(items.len() <= 2);
        seen.extend(items.iter().map(|i| i["itemId"].as_str().unwrap().to_owned()));
        // A write between pages must not shift the pages already read.
        if cursor.is_none() {
            created.push(create_label(&app, &owner, &project, json!({"text": "late"})).await);
        }
        match page.body["nextCursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(seen, created, "every item exactly once, in creation order");

    let bad = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items?limit=0", app.base_url),
        Some(&owner.bearer()),
        None,
    )
    .await;
    crate::support::assert_invalid(&bad, "limit");
    let bad = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items?type=circle", app.base_url),
        Some(&owner.bearer()),
        None,
    )
    .await;
    crate::support::assert_invalid(&bad, "type");
}
