//! Many writers of one item are all served: 64 concurrent PATCHes of one label, and of one
//! connector whose ends move, each answer 200 with its own version, leave exactly 64
//! `item.updated` events in version order, and the item ends as the last acknowledged write
//! left it. Clients that want to detect lost updates use `If-Match`: a stale ETag is a 412 that
//! changes nothing.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, get_item, owner_with_project, send};

backend_tests!(
    concurrent_patches_of_one_label_all_succeed,
    concurrent_moves_of_one_connector_all_succeed,
    if_match,
    no_connector_is_left_attached_to_a_deleted_item
);

/// Writers at once, as many as the reproduction and then some.
const WRITERS: usize = 64;

/// One PATCH; answers the status, the ETag's version and the body.
async fn patch(
    app: &TestApp,
    user: &TestUser,
    url: &str,
    body: Value,
    if_match: Option<&str>,
) -> (StatusCode, Option<i64>, Value) {
    send_patch(&app.http, &user.bearer(), url, body, if_match).await
}

async fn send_patch(
    http: &reqwest::Client,
    bearer: &str,
    url: &str,
    body: Value,
    if_match: Option<&str>,
) -> (StatusCode, Option<i64>, Value) {
    let mut request = http.patch(url).header("Authorization", bearer).json(&body);
    if let Some(tag) = if_match {
        request = request.header("If-Match", tag);
    }
    let response = request.send().await.expect("the gateway answers");
    let status = response.status();
    let version = response
        .headers()
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim_matches('"').parse::<i64>().ok());
    let body = response.json::<Value>().await.unwrap_or(Value::Null);
    (status, version, body)
}

/// Runs `WRITERS` PATCHes at once; returns (body sent, version acknowledged) per writer.
async fn race(app: &TestApp, user: &TestUser, url: &str, bodies: Vec<Value>) -> Vec<(Value, i64)> {
    let writers: Vec<_> = bodies
        .into_iter()
        .map(|body| {
            let (http, bearer, url) = (app.http.clone(), user.bearer(), url.to_owned());
            tokio::spawn(async move {
                let (status, version, answer) = send_patch(&http, &bearer, &url, body.clone(), None).await;
                assert_eq!(status, StatusCode::OK, "a concurrent PATCH was refused: {answer}");
                (body, version.expect("a PATCH answers the new version as its ETag"))
            })
        })
        .collect();
    let mut acknowledged = Vec::new();
    for writer in writers {
        acknowledged.push(writer.await.expect("writer task"));
    }
    acknowledged.sort_by_key(|(_, version)| *version);
    acknowledged
}

/// The `item.updated` payloads of `item`, in commit order.
async fn updates_of(app: &TestApp, project: &str, item: &str) -> Vec<Value> {
    let project = uuid::Uuid::parse_str(project).unwrap();
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(project), 0, 10_000)
        .await
        .unwrap();
    events
        .into_iter()
        .filter(|e| e.kind.as_str() == "item.updated" && e.subject_id.to_string() == item)
        .map(|e| e.payload)
        .collect()
}

async fn concurrent_patches_of_one_label_all_succeed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "start"})).await;
    let url = app.item_url(&project, &format!("/label/{id}"));
    let bodies = (0..WRITERS).map(|i| json!({"text": format!("writer {i}"), "fontSize": 10 + i})).collect();
    let acknowledged = race(&app, &owner, &url, bodies).await;

    let versions: Vec<i64> = acknowledged.iter().map(|(_, v)| *v).collect();
    assert_eq!(versions, (2..2 + WRITERS as i64).collect::<Vec<_>>(), "each write has its own version");
    let events = updates_of(&app, &project, &id).await;
    assert_eq!(events.len(), WRITERS, "one item.updated per acknowledged write");
    for ((body, _), event) in acknowledged.iter().zip(&events) {
        assert_eq!(event["new"]["text"], body["text"], "events are in the order of the versions");
    }
    let item = get_item(&app, &owner, &project, &id).await;
    let (last, _) = acknowledged.last().unwrap();
    assert_eq!(item["text"], last["text"], "the item is as the last acknowledged write left it");
    assert_eq!(item["fontSize"], last["fontSize"]);
}

async fn concurrent_moves_of_one_connector_all_succeed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let a = create_label(&app, &owner, &project, json!({"text": "a"})).await;
    let b = create_label(&app, &owner, &project, json!({"text": "b", "position": {"x": 400, "y": 0}})).await;
    let created = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/connector?jsonCasing=camel"),
        Some(&owner.bearer()),
        Some(json!({"startPoint": {"itemId": a}, "endPoint": {"itemId": b}})),
    )
    .await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body["itemId"].as_str().unwrap().to_owned();
    let url = app.item_url(&project, &format!("/connector/{id}"));
    // Every writer moves both ends: the start stays attached to a (a new offset), the end is
    // detached and pinned somewhere else.
    let bodies = (0..WRITERS)
        .map(|i| {
            json!({"properties": {
                "startPoint": {"itemId": a, "edge": false, "position": {"x": i, "y": 1}},
                "endPoint": {"position": {"x": 1000 + i, "y": -(i as i64)}},
            }})
        })
        .collect();
    let acknowledged = race(&app, &owner, &url, bodies).await;
    assert_eq!(acknowledged.iter().map(|(_, v)| *v).collect::<Vec<_>>(), (2..2 + WRITERS as i64).collect::<Vec<_>>());
    assert_eq!(updates_of(&app, &project, &id).await.len(), WRITERS);
    let item = get_item(&app, &owner, &project, &id).await;
    let (last, _) = acknowledged.last().unwrap();
    assert_eq!(item["startPoint"]["position"], last["properties"]["startPoint"]["position"]);
    assert_eq!(item["startPoint"]["itemId"], json!(a));
    assert_eq!(item["endPoint"]["position"], last["properties"]["endPoint"]["position"]);
    assert_eq!(item["endPoint"]["itemId"], Value::Null);
}

async fn if_match(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
    let url = app.item_url(&project, &format!("/label/{id}?jsonCasing=camel"));
    let item_url = app.item_url(&project, &format!("/{id}?jsonCasing=camel"));

    let get = app.http.get(&item_url).header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(get.headers().get("etag").and_then(|v| v.to_str().ok()), Some("\"1\""));

    let (status, version, _) = patch(&app, &owner, &url, json!({"text": "v2"}), Some("\"1\"")).await;
    assert_eq!((status, version), (StatusCode::OK, Some(2)), "a current ETag lets the write through");

    // Someone else's change went in: the stale ETag is a 412 and nothing changes.
    let (status, version, body) = patch(&app, &owner, &url, json!({"text": "lost update"}), Some("\"1\"")).await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{body}");
    assert_eq!(version, None);
    assert_eq!(body["reason"], "PRECONDITION_FAILED");
    assert_eq!(body["currentVersion"], 2);
    assert!(body["detail"].as_str().unwrap().contains("version 2"), "{body}");
    let after = send(&app, Method::GET, &item_url, Some(&owner.bearer()), None).await;
    assert_eq!(after.body["text"], "v2");
    assert_eq!(updates_of(&app, &project, &id).await.len(), 1, "the refused write recorded nothing");

    // `*` matches any current version; a weak tag never matches (If-Match compares strongly); a
    // malformed If-Match is a 400 naming the header. Lists: `e2e::conditional`.
    let (status, version, _) = patch(&app, &owner, &url, json!({"text": "v3"}), Some("*")).await;
    assert_eq!((status, version), (StatusCode::OK, Some(3)));
    let (status, _, body) = patch(&app, &owner, &url, json!({"text": "x"}), Some("W/\"3\"")).await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED, "{body}");
    let (status, _, body) = patch(&app, &owner, &url, json!({"text": "x"}), Some("3")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["errors"][0]["field"], "If-Match");

    // DELETE honours it too.
    let stale = app
        .http
        .delete(&item_url)
        .header("Authorization", owner.bearer())
        .header("If-Match", "\"2\"")
        .send()
        .await
        .unwrap();
    assert_eq!(stale.status(), StatusCode::PRECONDITION_FAILED);
    let still = send(&app, Method::GET, &item_url, Some(&owner.bearer()), None).await;
    assert_eq!(still.status, StatusCode::OK);
    let current = app
        .http
        .delete(&item_url)
        .header("Authorization", owner.bearer())
        .header("If-Match", "\"3\"")
        .send()
        .await
        .unwrap();
    assert_eq!(current.status(), StatusCode::OK);
}

/// Connectors being attached to an item while it is deleted: whatever wins each race, no connector
/// ends up attached to the deleted item (a write that lost is refused with a 400 naming the end,
/// or the delete detaches it).
async fn no_connector_is_left_attached_to_a_deleted_item(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let anchor = create_label(&app, &owner, &project, json!({"text": "anchor"})).await;
    let mut connectors = Vec::new();
    for _ in 0..16 {
        let created = send(
            &app,
            Method::POST,
            &app.item_url(&project, "/panel/connector?jsonCasing=camel"),
            Some(&owner.bearer()),
            Some(json!({"startPoint": {"itemId": anchor}, "endPoint": {"position": {"x": 5, "y": 5}}})),
        )
        .await;
        connectors.push(created.body["itemId"].as_str().unwrap().to_owned());
    }
    for round in 0..4 {
        let doomed = create_label(&app, &owner, &project, json!({"text": format!("doomed {round}")})).await;
        let mut writers = Vec::new();
        for id in &connectors {
            let (http, bearer) = (app.http.clone(), owner.bearer());
            let url = app.item_url(&project, &format!("/connector/{id}"));
            let body = json!({"properties": {"endPoint": {"itemId": doomed}}});
            writers.push(tokio::spawn(async move { send_patch(&http, &bearer, &url, body, None).await.0 }));
        }
        let delete =
            app.http.delete(app.item_url(&project, &format!("/{doomed}"))).header("Authorization", owner.bearer());
        assert_eq!(delete.send().await.unwrap().status(), StatusCode::OK);
        for writer in writers {
            let status = writer.await.unwrap();
            assert!(status == StatusCode::OK || status == StatusCode::BAD_REQUEST, "{status}");
        }
        for id in &connectors {
            let connector = get_item(&app, &owner, &project, id).await;
            assert_ne!(connector["endPoint"]["itemId"], json!(doomed), "round {round}: {connector}");
        }
    }
}
