//! `/metrics`: Prometheus text with the REST requests by route and status and the gRPC calls by
//! method and code that a request caused.

use canvas_tests::{Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{create_label, owner_with_project, send};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_by_route_and_grpc_method() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "counted"})).await;
    let missing = send(
        &app,
        Method::GET,
        &app.item_url(&project, &format!("/{}", uuid::Uuid::now_v7())),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);

    let response = app.http.get(format!("{}/metrics", app.base_url)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let text = response.text().await.unwrap();
    let has = |needle: &str| text.lines().any(|l| !l.starts_with('#') && l.contains(needle));
    for needle in [
        r#"http_requests_total{component="rest-gateway",method="POST",route="/api/v2/projects/{project_id}/item/{a}/{b}",status="200"}"#,
        r#"http_requests_total{component="rest-gateway",method="GET",route="/api/v2/projects/{project_id}/item/{a}",status="404"}"#,
        r#"grpc_server_handled_total{method="/canvas.v1.ItemService/CreateItem",code="OK"}"#,
        r#"grpc_server_handled_total{method="/canvas.v1.ItemService/GetItem",code="NOT_FOUND"}"#,
        r#"http_request_duration_seconds_bucket{component="rest-gateway",method="POST""#,
        "db_pool_connections",
        "knowledge_index_queue_items",
    ] {
        assert!(has(needle), "/metrics lacks {needle}:\n{text}");
    }
    assert!(!text.contains(&project), "ids never become label values");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_ids_are_echoed_or_made() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    let url = app.item_url(&project, "/panel/label");
    let sent = app
        .http
        .post(&url)
        .header("Authorization", owner.bearer())
        .header("X-Request-Id", "trace-me-42")
        .json(&json!({"text": "traced"}))
        .send()
        .await
        .unwrap();
    assert_eq!(sent.status(), StatusCode::OK);
    assert_eq!(sent.headers()["x-request-id"], "trace-me-42");
    let made = app
        .http
        .get(format!("{}/api/v2/projects/{project}/items", app.base_url))
        .header("Authorization", owner.bearer())
        .send()
        .await
        .unwrap();
    let id = made.headers()["x-request-id"].to_str().unwrap().to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok(), "a request without an id gets a UUID: {id}");
    let bad = app
        .http
        .get(format!("{}/healthz", app.base_url))
        .header("X-Request-Id", "has spaces in it")
        .send()
        .await
        .unwrap();
    assert_ne!(bad.headers()["x-request-id"], "has spaces in it", "unsafe ids are replaced");
}
