//! The webhook event catalog (`GET /api/v2/webhooks/event-types`, the OpenAPI document's
//! `webhooks`): every body a receiver gets, of every kind and every item type, validates against
//! the schema the service publishes for it, checked by Python's `jsonschema` (draft 2020-12, formats
//! checked), not by our code. The model-based replay (`model_sequences/replay.rs`) runs the same
//! check over the deliveries of random sequences of every item operation.

use std::collections::BTreeSet;
use std::time::Duration;

use canvas_tests::webhook_checks::{assert_calls_match_catalog, catalog_violations};
use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::{ProjectId, ProjectRole, UserId};
use image::ImageFormat;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::bulk;
use crate::files;
use crate::support::{owner_with_project, send};
use crate::uploads::upload;
use crate::webhooks_delivery::create_hook;

backend_tests!(every_body_of_every_kind_and_item_type_validates_against_the_published_catalog);

const ITEM_TYPES: [&str; 9] =
    ["label", "sticky-note", "shape", "connector", "web", "image", "document", "svg", "frame"];
const SVG: &str =
    r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>"#;

async fn every_body_of_every_kind_and_item_type_validates_against_the_published_catalog(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let all = ["item.created", "item.updated", "item.deleted", "user.added", "user.roleChanged", "user.removed"];
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": all, "customData": {"n": 1}})).await;

    // Every item type, a container with a child, a connector with a caption.
    let batch = json!([
        {"ref": "box", "type": "shape", "properties": {"type": "Rectangle", "size": {"width": 400, "height": 300}}},
        {"ref": "note", "type": "sticky-note", "parent": "ref:box", "properties": {"text": "inside"}},
        {"ref": "label", "type": "label", "properties": {"text": "<b>hello</b>"}},
        {"ref": "site", "type": "web", "properties": {"url": "https://example.org/"}},
        {"ref": "line", "type": "connector", "properties": {"startPoint": {"itemId": "ref:box"},
            "endPoint": {"itemId": "ref:label", "decorator": "Arrow"}}},
        {"ref": "caption", "type": "label", "parent": "ref:line", "properties": {"text": "calls"}},
        {"ref": "area", "type": "frame", "properties": {"title": "Area"}},
        {"ref": "held", "type": "sticky-note", "parent": "ref:area", "properties": {"text": "moves with its frame"}}
    ]);
    let reply = bulk(app, &owner, &project, batch).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    // The answer lists the batch in request order.
    // Moving the frame moves the note it holds: an `item.updated` with its `reason`.
    let kinds = ["shape", "sticky-note", "label", "web", "connector", "label", "frame", "sticky-note"];
    let created = reply.body["items"].as_array().unwrap();
    let mut ids: Vec<(String, String)> =
        kinds.iter().zip(created).map(|(k, i)| ((*k).to_owned(), i["itemId"].as_str().unwrap().to_owned())).collect();
    for (item_type, name, bytes) in [
        ("image", "a.png", files::image(ImageFormat::Png, 8, 8)),
        ("document", "a.pdf", files::pdf("the catalog")),
        ("svg", "a.svg", SVG.as_bytes().to_vec()),
    ] {
        let reply = upload(app, &owner, &project, item_type, name, bytes, None).await;
        assert_eq!(reply.status, StatusCode::OK, "{item_type}: {}", reply.body);
        ids.push((item_type.to_owned(), reply.body["itemId"].as_str().unwrap().to_owned()));
    }
    // An update of each (a move) and a property reset to its default (null in `new`).
    for (item_type, id) in &ids {
        let url = app.item_url(&project, &format!("/{item_type}/{id}"));
        // A connector's PATCH wraps its changes (docs/ITEMS.md); its position is derived, so its
        // change is its line.
        let change = match item_type.as_str() {
            "connector" => json!({"properties": {"strokeThickness": 5}}),
            _ => json!({"position": {"x": 7, "y": 9}}),
        };
        let moved = send(app, Method::PATCH, &url, Some(&owner.bearer()), Some(change)).await;
        assert_eq!(moved.status, StatusCode::OK, "{item_type}: {}", moved.body);
    }
    let label = &ids[2].1;
    let url = app.item_url(&project, &format!("/label/{label}"));
    let reset = send(app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"textColor": null}))).await;
    assert_eq!(reset.status, StatusCode::OK, "{}", reset.body);
    // Deletes: the container first (its child goes with it, the connector is detached), then the
    // rest; the frame takes the note it holds.
    for (_, id) in [&ids[0], &ids[4], &ids[2], &ids[3], &ids[6], &ids[8], &ids[9], &ids[10]] {
        let reply =
            send(app, Method::DELETE, &app.item_url(&project, &format!("/{id}")), Some(&owner.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    let member = app.user("member").await;
    let (project_id, member_id) = (ProjectId::parse(&project).unwrap(), UserId::parse(&member.id).unwrap());
    app.core.accounts().add_member(&app.admin, project_id, member_id, ProjectRole::Viewer).await.unwrap();
    app.core.accounts().set_member_role(&app.admin, project_id, member_id, ProjectRole::Manager).await.unwrap();
    app.core.accounts().remove_member(&app.admin, project_id, member_id).await.unwrap();
    let definition = json!({"url": env.receiver.url, "events": ["item.created"]});
    let ping = send(app, Method::POST, &env.url(&project, "/test"), Some(&owner.bearer()), Some(definition)).await;
    assert_eq!(ping.status, StatusCode::OK, "{}", ping.body);

    // Every event the project recorded, plus the ping.
    let events = app.core.stores().items.project_events(project_id, 0, 100_000).await.unwrap();
    let calls = env.receiver.wait_for(events.len() + 1, Duration::from_secs(30)).await;
    assert_calls_match_catalog(&app.http, &app.base_url, &calls).await;
    let bodies: Vec<Value> = calls.iter().map(|c| c.json()).collect();
    let seen: BTreeSet<(String, String)> = bodies
        .iter()
        .map(|b| {
            let change = &b["changes"][0];
            (change["kind"].as_str().unwrap().to_owned(), change["subject"]["type"].as_str().unwrap_or("").to_owned())
        })
        .collect();
    for kind in ["item.created", "item.updated", "item.deleted"] {
        for item_type in ITEM_TYPES {
            assert!(seen.contains(&(kind.to_owned(), item_type.to_owned())), "no {kind} of a {item_type} in {seen:?}");
        }
    }
    for kind in ["user.added", "user.roleChanged", "user.removed", "ping"] {
        assert!(seen.iter().any(|(k, _)| k == kind), "no {kind}");
    }

    // The check can fail: a body that breaks the catalog's schema in any one way is reported.
    let catalog: Value = app
        .http
        .get(format!("{}/api/v2/webhooks/event-types", app.base_url))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let updated = calls.iter().find(|c| c.json()["changes"][0]["kind"] == "item.updated").unwrap();
    type Breakage = (&'static str, fn(&mut Value));
    let breakages: [Breakage; 6] = [
        ("an unknown member of the change", |b| b["changes"][0]["extra"] = json!(1)),
        ("seq as text", |b| b["changes"][0]["seq"] = json!("1")),
        ("an item type that does not exist", |b| b["changes"][0]["subject"]["type"] = json!("banana")),
        ("a property of no item type", |b| b["changes"][0]["new"]["colour"] = json!("red")),
        ("a date that is not RFC 3339", |b| b["changes"][0]["occurredAt"] = json!("yesterday")),
        ("no deliveryId", |b| drop(b.as_object_mut().unwrap().remove("deliveryId"))),
    ];
    for (what, breaks) in breakages {
        let mut broken = updated.clone();
        let mut body = broken.json();
        breaks(&mut body);
        broken.body = serde_json::to_vec(&body).unwrap();
        assert!(catalog_violations(&catalog, &[broken])[0].is_some(), "{what} passed the catalog");
    }
}

/// `schema` with each `{"$ref": "#/components/schemas/N", …}` replaced by N's schema, the keywords
/// beside the reference kept.
fn resolved(doc: &Value, schema: &Value) -> Value {
    match schema {
        Value::Object(members) => {
            if let Some(Value::String(reference)) = members.get("$ref") {
                let name = reference.trim_start_matches("#/components/schemas/");
                let mut target = resolved(doc, &doc["components"]["schemas"][name]);
                for (key, value) in members.iter().filter(|(key, _)| *key != "$ref") {
                    target[key] = resolved(doc, value);
                }
                return target;
            }
            Value::Object(members.iter().map(|(key, value)| (key.clone(), resolved(doc, value))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| resolved(doc, item)).collect()),
        other => other.clone(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_catalog_is_public_cacheable_not_re_cased_and_the_openapi_webhooks_section() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let url = format!("{}/api/v2/webhooks/event-types", app.base_url);
    let reply = app.http.get(&url).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    assert_eq!(reply.headers()["cache-control"], "public, max-age=3600");
    assert_eq!(reply.headers()["content-type"], "application/json");
    let catalog: Value = reply.json().await.unwrap();
    let names: Vec<&str> =
        catalog["elements"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "item.created",
            "item.updated",
            "item.deleted",
            "user.added",
            "user.roleChanged",
            "user.removed",
            "webhook.disabled",
            "webhook.deliveryExhausted",
            "comment.created",
            "comment.updated",
            "comment.resolved",
            "comment.deleted",
            "ping"
        ]
    );
    // jsonCasing cannot re-case a schema; an unknown casing is still refused as everywhere.
    let snake: Value = app.http.get(format!("{url}?jsonCasing=snake")).send().await.unwrap().json().await.unwrap();
    assert_eq!(snake, catalog, "the catalog's names are fixed");
    let bogus = app.http.get(format!("{url}?jsonCasing=shouting")).send().await.unwrap();
    assert_eq!(bogus.status(), StatusCode::BAD_REQUEST);
    assert_eq!(bogus.headers()["content-type"], "application/problem+json");
    let problem: Value = bogus.json().await.unwrap();
    assert_eq!(problem["Errors"][0]["Field"], "jsonCasing", "{problem}");
    // Served from one copy: a second answer is the same bytes.
    let again = app.http.get(&url).send().await.unwrap().bytes().await.unwrap();
    assert_eq!(serde_json::from_slice::<Value>(&again).unwrap(), catalog);

    // The OpenAPI document's `webhooks`: one POST per kind whose body is the catalog's schema.
    let doc: Value =
        app.http.get(format!("{}/api/openapi.json", app.base_url)).send().await.unwrap().json().await.unwrap();
    let webhooks = doc["webhooks"].as_object().expect("a webhooks section");
    assert_eq!(webhooks.len(), names.len());
    for entry in catalog["elements"].as_array().unwrap() {
        let operation = &webhooks[entry["name"].as_str().unwrap()]["post"];
        let reference = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
        // The document names its word lists once (`Decorator`, `ProjectRole`, …): read through them.
        let schema =
            &resolved(&doc, &doc["components"]["schemas"][reference.trim_start_matches("#/components/schemas/")]);
        let mut published = entry["schema"].clone();
        assert_eq!(
            published.as_object_mut().unwrap().remove("$schema"),
            Some(json!("https://json-schema.org/draft/2020-12/schema"))
        );
        assert_eq!(schema, &published, "{}: the document and the catalog differ", entry["name"]);
        let headers: Vec<&str> =
            operation["parameters"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
        assert_eq!(headers, ["Webhook-Id", "Webhook-Timestamp", "Webhook-Signature"]);
        assert_eq!(operation["security"], json!([]));
    }
}
