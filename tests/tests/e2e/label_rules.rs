//! Every rule of the spec's label and sticky-note tables, through REST: a
//! passing and a failing case each, the failing ones answered with a
//! problem+json 400 that names the field.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{assert_invalid, create_label, get_item, owner_with_project, send, Reply};

backend_tests!(
    label_create_rules,
    label_update_rules,
    sticky_note_defaults_and_rules,
    framing_errors,
    encoded_javascript_urls_are_refused,
    plain_text_with_lt_round_trips,
);

/// `(case, body, Some(field) for a failing case or None for a passing one)`.
fn create_cases() -> Vec<(&'static str, Value, Option<&'static str>)> {
    vec![
        ("text required", json!({}), Some("text")),
        ("text empty", json!({"text": "  "}), Some("text")),
        ("text not a string", json!({"text": 5}), Some("text")),
        ("text plain", json!({"text": "a < b & c"}), None),
        ("text valid HTML", json!({"text": "<p>one <b>two</b></p>"}), None),
        ("text malformed HTML", json!({"text": "<b>open"}), Some("text")),
        ("text active content", json!({"text": "<img src=x onerror=alert(1)>"}), Some("text")),
        ("text script", json!({"text": "<script>alert(1)</script>"}), Some("text")),
        ("fontSize >= 1", json!({"text": "x", "fontSize": 1}), None),
        ("fontSize below 1", json!({"text": "x", "fontSize": 0.5}), Some("fontSize")),
        ("fontSize not a number", json!({"text": "x", "fontSize": "12"}), Some("fontSize")),
        ("fontFamily name", json!({"text": "x", "fontFamily": "Georgia"}), None),
        ("fontFamily empty", json!({"text": "x", "fontFamily": ""}), Some("fontFamily")),
        (
            "textColor CSS forms",
            json!({"text": "x", "textColor": "rgb(10, 20, 30)", "backgroundColor": "rebeccapurple"}),
            None,
        ),
        ("textColor hsl", json!({"text": "x", "textColor": "hsl(120, 50%, 50%)"}), None),
        ("textColor invalid", json!({"text": "x", "textColor": "notacolor"}), Some("textColor")),
        ("backgroundColor invalid", json!({"text": "x", "backgroundColor": "#12"}), Some("backgroundColor")),
        ("horizontal alignment any case", json!({"text": "x", "horizontalTextAlignment": "right"}), None),
        (
            "horizontal alignment invalid",
            json!({"text": "x", "horizontalTextAlignment": "Middle"}),
            Some("horizontalTextAlignment"),
        ),
        ("vertical alignment", json!({"text": "x", "verticalTextAlignment": "Bottom"}), None),
        (
            "vertical alignment invalid",
            json!({"text": "x", "verticalTextAlignment": "Left"}),
            Some("verticalTextAlignment"),
        ),
        ("isAutoSizeWidth not a boolean", json!({"text": "x", "isAutoSizeWidth": "yes"}), Some("isAutoSizeWidth")),
        ("rule 1: auto width with width 0", json!({"text": "x", "size": {"width": 0, "height": 0}}), None),
        (
            "rule 1: auto width with a width",
            json!({"text": "x", "size": {"width": 50, "height": 0}}),
            Some("size.width"),
        ),
        (
            "rule 2: auto height with a height",
            json!({"text": "x", "size": {"width": 0, "height": 30}}),
            Some("size.height"),
        ),
        (
            "rule 3: fixed width >= 5",
            json!({"text": "x", "isAutoSizeWidth": false, "size": {"width": 5, "height": 0}}),
            None,
        ),
        (
            "rule 3: fixed width below 5",
            json!({"text": "x", "isAutoSizeWidth": false, "size": {"width": 4.9, "height": 0}}),
            Some("size.width"),
        ),
        ("rule 3: fixed width omitted", json!({"text": "x", "isAutoSizeWidth": false}), Some("size.width")),
        (
            "rule 3: fixed height below 5",
            json!({"text": "x", "isAutoSizeHeight": false, "size": {"width": 0, "height": 2}}),
            Some("size.height"),
        ),
        ("size negative", json!({"text": "x", "size": {"width": -1, "height": 0}}), Some("size.width")),
        ("size not an object", json!({"text": "x", "size": 5}), Some("size")),
        ("scale > 0", json!({"text": "x", "scale": 0.25}), None),
        ("scale 0", json!({"text": "x", "scale": 0}), Some("scale")),
        ("scale negative", json!({"text": "x", "scale": -2}), Some("scale")),
        ("angle 0 to 360", json!({"text": "x", "angle": 360}), None),
        ("angle over 360", json!({"text": "x", "angle": 360.5}), Some("angle")),
        ("angle negative", json!({"text": "x", "angle": -1}), Some("angle")),
        ("position numbers", json!({"text": "x", "position": {"x": -100.5, "y": 1e6}}), None),
        ("position member not a number", json!({"text": "x", "position": {"x": "a", "y": 0}}), Some("position.x")),
        ("position member missing", json!({"text": "x", "position": {"x": 1}}), Some("position.y")),
        ("position not an object", json!({"text": "x", "position": [1, 2]}), Some("position")),
        (
            "names are case-insensitive",
            json!({"TEXT": "x", "font_size": 20, "Horizontal-Text-Alignment": "Center"}),
            None,
        ),
        ("unknown property", json!({"text": "x", "colour": "red"}), Some("colour")),
        ("property given twice", json!({"text": "x", "Text": "y"}), Some("text")),
    ]
}

async fn label_create_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    for (case, body, field) in create_cases() {
        let reply =
            send(&app, Method::POST, &app.item_url(&project, "/panel/label"), Some(&owner.bearer()), Some(body)).await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => {
                assert_invalid(&reply, field);
                let detail = reply.body["Detail"].as_str().unwrap_or_default();
                assert!(detail.contains(field), "{case}: detail names the field: {detail}");
            }
        }
    }
}

async fn label_update_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "start"})).await;
    let url = app.item_url(&project, &format!("/label/{id}"));
    let cases: Vec<(&str, Value, Option<&str>)> = vec![
        ("text cannot be removed", json!({"text": null}), Some("text")),
        ("rule 1 on update", json!({"size": {"width": 10, "height": 0}}), Some("size.width")),
        ("rule 3: turning auto-size off needs a size", json!({"isAutoSizeWidth": false}), Some("size.width")),
        (
            "rule 3: turning auto-size off with a size",
            json!({"isAutoSizeWidth": false, "size": {"width": 80, "height": 0}}),
            None,
        ),
        ("rule 1: turning auto-size on resets the width", json!({"isAutoSizeWidth": true}), None),
        ("bad colour on update", json!({"backgroundColor": "blurple"}), Some("backgroundColor")),
        ("null resets to the default", json!({"fontSize": null}), None),
        ("unknown property", json!({"shapeType": "Ellipse"}), Some("shapeType")),
    ];
    for (case, body, field) in cases {
        let reply = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(body)).await;
        match field {
            None => assert_eq!(reply.status, StatusCode::OK, "{case}: {}", reply.body),
            Some(field) => assert_invalid(&reply, field),
        }
    }
    let got = get_item(&app, &owner, &project, &id).await;
    assert_eq!(got["size"], json!({"width": 0, "height": 0}), "auto-size back on stores width 0");
    assert_eq!(got["text"], "start", "failed updates changed nothing");
    assert!(got["backgroundColor"].as_str().is_some(), "{got}");

    let wrong_type = send(
        &app,
        Method::PATCH,
        &app.item_url(&project, &format!("/sticky-note/{id}")),
        Some(&owner.bearer()),
        Some(json!({"text": "x"})),
    )
    .await;
    assert_invalid(&wrong_type, "itemType");
}

async fn sticky_note_defaults_and_rules(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let created = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/inbox/sticky-note"),
        Some(&owner.bearer()),
        Some(json!({"text": "note"})),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body["ItemId"].as_str().unwrap();
    let note = get_item(&app, &owner, &project, id).await;
    assert_eq!(note["parent"], "inbox");
    assert_eq!(note["size"], json!({"width": 212, "height": 106}));
    assert_eq!(note["fontSize"], json!(15));
    assert_eq!(note["textColor"], "#000000");
    assert_eq!(note["isAutoSizeWidth"], false);
    assert_eq!(note["isAutoSizeHeight"], false);
    assert_eq!(note["horizontalTextAlignment"], "Center");
    assert_eq!(note["verticalTextAlignment"], "Center");
    let small = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/sticky-note"),
        Some(&owner.bearer()),
        Some(json!({"text": "n", "size": {"width": 4, "height": 50}})),
    )
    .await;
    assert_invalid(&small, "size.width");
    let missing = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/sticky-note"),
        Some(&owner.bearer()),
        Some(json!({"fontSize": 12})),
    )
    .await;
    assert_invalid(&missing, "text");
}

async fn framing_errors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    let bad_type =
        send(&app, Method::POST, &app.item_url(&project, "/panel/circle"), Some(&auth), Some(json!({"text": "x"})))
            .await;
    assert_invalid(&bad_type, "itemType");
    let bad_parent =
        send(&app, Method::POST, &app.item_url(&project, "/desk/label"), Some(&auth), Some(json!({"text": "x"}))).await;
    assert_invalid(&bad_parent, "parent");
    let missing_parent = send(
        &app,
        Method::POST,
        &app.item_url(&project, &format!("/{}/label", uuid::Uuid::new_v4())),
        Some(&auth),
        Some(json!({"text": "x"})),
    )
    .await;
    assert_invalid(&missing_parent, "parent");
    // A label holds nothing (docs/ITEMS.md, "Parents and containers"); a shape holds anything.
    let label = create_label(&app, &owner, &project, json!({"text": "not a group"})).await;
    let inside_label = send(
        &app,
        Method::POST,
        &app.item_url(&project, &format!("/{label}/label")),
        Some(&auth),
        Some(json!({"text": "in"})),
    )
    .await;
    assert_invalid(&inside_label, "parent");
    let shape = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/shape"),
        Some(&auth),
        Some(json!({"size": {"width": 100, "height": 100}})),
    )
    .await;
    let container = shape.body["ItemId"].as_str().expect("a shape").to_owned();
    let child = send(
        &app,
        Method::POST,
        &app.item_url(&project, &format!("/{container}/label")),
        Some(&auth),
        Some(json!({"text": "in"})),
    )
    .await;
    assert_eq!(child.status, StatusCode::OK);
    let child_id = child.body["ItemId"].as_str().unwrap();
    let got = send(&app, Method::GET, &app.item_url(&project, &format!("/{child_id}")), Some(&auth), None).await;
    assert_eq!(got.body["Parent"], json!(container));

    let not_json = app
        .http
        .post(app.item_url(&project, "/panel/label"))
        .header("Authorization", &auth)
        .header("Content-Type", "application/json")
        .body("{\"text\": ")
        .send()
        .await
        .unwrap();
    assert_eq!(not_json.status(), StatusCode::BAD_REQUEST);
    let body: Value = not_json.json().await.unwrap();
    assert_eq!(body["Errors"][0]["Field"], "body");
    let array =
        send(&app, Method::POST, &app.item_url(&project, "/panel/label"), Some(&auth), Some(json!(["text"]))).await;
    assert_invalid(&array, "body");

    let bad_ids = send(&app, Method::GET, &app.item_url("not-a-guid", "/also-not"), Some(&auth), None).await;
    assert_invalid(&bad_ids, "projectId");
}

/// The issue's two encodings of a `javascript:` link: a named reference for the colon and a tab
/// inside the scheme, both of which a browser decodes into a live link.
const ENCODED_JAVASCRIPT: [&str; 2] =
    [r#"<a href="javascript&colon;alert(1)">x</a>"#, r#"<a href="java&Tab;script:alert(1)">x</a>"#];

/// Asserts a 400 whose problem body names `text` and the active-content rule for a javascript: URL.
fn assert_refused_as_active(reply: &Reply, case: &str) {
    assert_invalid(reply, "text");
    let error = &reply.body["Errors"][0];
    assert_eq!(error["Field"], "text", "{case}: {}", reply.body);
    let message = error["Message"].as_str().unwrap_or_default();
    assert!(message.contains("must not contain active content"), "{case}: {message}");
    assert!(message.contains("javascript:"), "{case}: names the scheme: {message}");
    assert_eq!(error["Reason"], "ACTIVE_CONTENT", "{case}: the violation's typed reason");
    assert_eq!(reply.body["Reason"], "VALIDATION_FAILED", "{case}");
    let detail = reply.body["Detail"].as_str().unwrap_or_default();
    assert!(detail.contains("text") && detail.contains("active content"), "{case}: {detail}");
}

/// POSTs a label or sticky note with `text` to the panel.
async fn post_text(app: &TestApp, auth: &str, project: &str, item_type: &str, text: &str) -> Reply {
    let url = app.item_url(project, &format!("/panel/{item_type}"));
    send(app, Method::POST, &url, Some(auth), Some(json!({"text": text}))).await
}

async fn encoded_javascript_urls_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    for item_type in ["label", "sticky-note"] {
        let created = post_text(&app, &auth, &project, item_type, "<b>safe</b> start").await;
        assert_eq!(created.status, StatusCode::OK, "{}", created.body);
        let id = created.body["ItemId"].as_str().expect("ItemId").to_owned();
        let item_url = app.item_url(&project, &format!("/{id}"));
        let read = || send(&app, Method::GET, &item_url, Some(&auth), None);
        let before = read().await;
        assert_eq!(before.body["Text"], "<b>safe</b> start");
        for text in ENCODED_JAVASCRIPT {
            let case = format!("{item_type} create {text}");
            assert_refused_as_active(&post_text(&app, &auth, &project, item_type, text).await, &case);

            let case = format!("{item_type} PATCH {text}");
            let patch = send(
                &app,
                Method::PATCH,
                &app.item_url(&project, &format!("/{item_type}/{id}")),
                Some(&auth),
                Some(json!({"text": text, "fontSize": 31})),
            )
            .await;
            assert_refused_as_active(&patch, &case);
            let after = read().await;
            assert_eq!(after.status, StatusCode::OK);
            assert_eq!(after.body, before.body, "{case}: a refused PATCH changes nothing");
        }
    }
    let listing = format!("{}/api/v2/projects/{project}/items?limit=100&jsonCasing=camel", app.base_url);
    let items = send(&app, Method::GET, &listing, Some(&auth), None).await;
    assert_eq!(items.status, StatusCode::OK, "{}", items.body);
    let texts: Vec<&str> =
        items.body["items"].as_array().expect("items").iter().filter_map(|i| i["text"].as_str()).collect();
    assert_eq!(texts, ["<b>safe</b> start", "<b>safe</b> start"], "no refused text was stored");
}

async fn plain_text_with_lt_round_trips(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let auth = owner.bearer();
    for (item_type, text) in
        [("label", "if x<y then swap"), ("sticky-note", "if x<y then swap"), ("label", "use <name> & AT&amp;T")]
    {
        let created = post_text(&app, &auth, &project, item_type, text).await;
        assert_eq!(created.status, StatusCode::OK, "{text}: {}", created.body);
        let id = created.body["ItemId"].as_str().expect("ItemId");
        let got = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}")), Some(&auth), None).await;
        assert_eq!(got.status, StatusCode::OK);
        let stored = got.body["Text"].as_str().expect("Text");
        assert_eq!(stored.as_bytes(), text.as_bytes(), "read back byte for byte");
    }
}
