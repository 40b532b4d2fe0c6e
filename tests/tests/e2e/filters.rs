//! The listing's filters (beyond the spec): a region of the map, text contained, changed since a
//! time, with the cursor still paging through the matches.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::bulk;
use crate::support::{assert_invalid, owner_with_project, send};

backend_tests!(listing_filters_by_region_text_and_time, filter_values_that_are_not_values_are_refused);

/// Ids of the items a listing with `query` returns, following every cursor (`limit` per page).
async fn listed(app: &TestApp, user: &TestUser, project: &str, query: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut cursor = String::new();
    for _ in 0..100 {
        let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel&{query}&cursor={cursor}", app.base_url);
        let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.body);
        ids.extend(reply.body["items"].as_array().unwrap().iter().map(|i| i["itemId"].as_str().unwrap().to_owned()));
        match reply.body["nextCursor"].as_str() {
            Some(next) => cursor = next.to_owned(),
            None => return ids,
        }
    }
    panic!("the cursor never ended");
}

async fn listing_filters_by_region_text_and_time(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    // A row of 20 notes 300 apart (each 212 x 106, centred on its position), a label with HTML, a
    // web item and a connector between the first two notes.
    let mut items: Vec<Value> = (0..20)
        .map(|i| {
            json!({"ref": format!("n{i}"), "type": "sticky-note",
            "properties": {"text": format!("Note {i}"), "position": {"x": i * 300, "y": 0}}})
        })
        .collect();
    items.push(json!({"type": "label", "properties": {"text": "<p>Quarterly <b>Roadmap</b></p>", "position": {"x": 0, "y": 1000}}}));
    items.push(json!({"type": "web", "properties": {"url": "https://roadmap.example.org/", "position": {"x": 5000, "y": 5000}}}));
    items.push(json!({"type": "connector", "properties": {"startPoint": {"itemId": "ref:n0"}, "endPoint": {"itemId": "ref:n1"}}}));
    let reply = bulk(&app, &owner, &project, Value::Array(items)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let ids: Vec<String> =
        reply.body["items"].as_array().unwrap().iter().map(|c| c["itemId"].as_str().unwrap().to_owned()).collect();

    // Region: the box from x 0 to 1000 meets notes 0 to 3 (note 3 spans 794..1006) and the
    // connector between notes 0 and 1 (106..194); two per page.
    let region = listed(&app, &owner, &project, "region=0,-10,1000,20&limit=2").await;
    assert_eq!(region, [ids[0].clone(), ids[1].clone(), ids[2].clone(), ids[3].clone(), ids[22].clone()]);
    // Edges count; one unit further does not.
    assert_eq!(listed(&app, &owner, &project, "region=1006,0,10,10").await, [ids[3].clone()]);
    assert!(listed(&app, &owner, &project, "region=1007,0,10,10").await.is_empty());
    // With a type filter too.
    assert_eq!(listed(&app, &owner, &project, "region=0,-10,1000,20&type=connector").await, [ids[22].clone()]);

    // Text: the label's text without markup, any case; the web item's url.
    assert_eq!(listed(&app, &owner, &project, "text=quarterly%20ROADMAP").await, [ids[20].clone()]);
    assert_eq!(listed(&app, &owner, &project, "text=roadmap").await, [ids[20].clone(), ids[21].clone()]);
    assert!(listed(&app, &owner, &project, "text=%3Cb%3E").await.is_empty(), "markup is not text");
    assert_eq!(listed(&app, &owner, &project, "text=note%201&limit=1").await.len(), 11, "Note 1 and Note 10 to 19");

    // Changed since: only what was written after the mark, a change included.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mark = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    tokio::time::sleep(Duration::from_millis(50)).await;
    let url = app.item_url(&project, &format!("/sticky-note/{}", ids[5]));
    let patched = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"text": "Note five"}))).await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    let later = bulk(&app, &owner, &project, json!([{"type": "label", "properties": {"text": "late"}}])).await;
    let late = later.body["items"][0]["itemId"].as_str().unwrap().to_owned();
    let since = listed(&app, &owner, &project, &format!("changedSince={}", urlencode(&mark))).await;
    assert_eq!(since, [ids[5].clone(), late]);
    // Unfiltered, everything, as before.
    assert_eq!(listed(&app, &owner, &project, "limit=7").await.len(), 24);
}

async fn filter_values_that_are_not_values_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let base = format!("{}/api/v2/projects/{project}/items", app.base_url);
    for (query, field) in [
        ("region=1,2,3", "region"),
        ("region=a,b,c,d", "region"),
        ("region=0,0,-5,5", "region"),
        ("region=0,0,inf,5", "region"),
        ("region=", "region"),
        ("changedSince=yesterday", "changedSince"),
        ("changedSince=2026-13-01T00:00:00Z", "changedSince"),
    ] {
        let reply = send(&app, Method::GET, &format!("{base}?{query}"), Some(&owner.bearer()), None).await;
        assert_invalid(&reply, field);
    }
}

fn urlencode(text: &str) -> String {
    text.replace(':', "%3A").replace('+', "%2B")
}
