//! `jsonCasing` on success and error bodies.

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{create_label, owner_with_project, send};

backend_tests!(every_casing_on_success_and_error_bodies);

async fn every_casing_on_success_and_error_bodies(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "cased"})).await;
    let auth = owner.bearer();

    // (query value, itemId key, isAutoSizeWidth key, size.width key, problem keys)
    let cases = [
        (
            None,
            "ItemId",
            "IsAutoSizeWidth",
            "Width",
            ["Type", "Title", "Status", "Detail", "Errors", "Field", "Message"],
        ),
        (
            Some("default"),
            "ItemId",
            "IsAutoSizeWidth",
            "Width",
            ["Type", "Title", "Status", "Detail", "Errors", "Field", "Message"],
        ),
        (
            Some("PASCAL"),
            "ItemId",
            "IsAutoSizeWidth",
            "Width",
            ["Type", "Title", "Status", "Detail", "Errors", "Field", "Message"],
        ),
        (
            Some("camel"),
            "itemId",
            "isAutoSizeWidth",
            "width",
            ["type", "title", "status", "detail", "errors", "field", "message"],
        ),
        (
            Some("Snake"),
            "item_id",
            "is_auto_size_width",
            "width",
            ["type", "title", "status", "detail", "errors", "field", "message"],
        ),
        (
            Some("kebab"),
            "item-id",
            "is-auto-size-width",
            "width",
            ["type", "title", "status", "detail", "errors", "field", "message"],
        ),
    ];
    for (casing, item_id_key, auto_key, width_key, problem) in cases {
        let query = casing.map(|c| format!("?jsonCasing={c}")).unwrap_or_default();
        let got = send(&app, Method::GET, &app.item_url(&project, &format!("/{id}{query}")), Some(&auth), None).await;
        assert_eq!(got.status, StatusCode::OK);
        assert_eq!(got.body[item_id_key], json!(id), "{casing:?}: {}", got.body);
        assert_eq!(got.body[auto_key], true, "{casing:?}");
        let size_key =
            if casing.is_some_and(|c| !c.eq_ignore_ascii_case("default") && !c.eq_ignore_ascii_case("pascal")) {
                "size"
            } else {
                "Size"
            };
        assert!(got.body[size_key][width_key].is_number(), "{casing:?}: {}", got.body);

        let created = send(
            &app,
            Method::POST,
            &app.item_url(&project, &format!("/panel/label{query}")),
            Some(&auth),
            Some(json!({"text": "c"})),
        )
        .await;
        assert!(created.body[item_id_key].is_string(), "{casing:?}: {}", created.body);

        let failed = send(
            &app,
            Method::POST,
            &app.item_url(&project, &format!("/panel/label{query}")),
            Some(&auth),
            Some(json!({"fontSize": -1})),
        )
        .await;
        assert_eq!(failed.status, StatusCode::BAD_REQUEST);
        let [type_key, title, status, detail, errors, field, message] = problem;
        for key in [type_key, title, status, detail, errors] {
            assert!(failed.body.get(key).is_some(), "{casing:?}: no {key} in {}", failed.body);
        }
        let first = &failed.body[errors][0];
        assert!(first.get(field).is_some() && first.get(message).is_some(), "{casing:?}: {}", failed.body);
    }

    let unknown =
        send(&app, Method::GET, &app.item_url(&project, &format!("/{id}?jsonCasing=screaming")), Some(&auth), None)
            .await;
    assert_eq!(unknown.status, StatusCode::BAD_REQUEST);
    assert_eq!(unknown.content_type, "application/problem+json");
    assert_eq!(unknown.body["Errors"][0]["Field"], "jsonCasing");
}
