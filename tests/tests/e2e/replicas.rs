//! Several core-service replicas behind one gateway (`--core a,b`): calls are balanced over them,
//! and reads keep working when one replica goes away.

use std::time::Duration;

use canvas_tests::{keyword_only, Backend, TestApp};
use reqwest::StatusCode;
use serde_json::json;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::support::{create_label, owner_with_project};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_over_two_cores_survives_losing_one() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "replicated"})).await;

    // A second core replica on the same database.
    let second = core_service::build(&app.another_core_config(keyword_only())).await.expect("a second replica starts");
    let second_listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let second_url = format!("http://{}", second_listener.local_addr().unwrap());
    let stop_second = CancellationToken::new();
    let second_task = tokio::spawn(core_service::run(second_listener, second, stop_second.clone()));

    // A gateway balancing over both.
    let state = rest_gateway::AppState::connect(
        &format!("{},{second_url}", app.grpc_url),
        &canvas_runtime::GatewayArgs::default(),
    )
    .unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gateway = format!("http://{}", listener.local_addr().unwrap());
    let limits = canvas_runtime::GatewayArgs::default();
    tokio::spawn(async move {
        rest_gateway::serve(listener, rest_gateway::router(state), &limits, CancellationToken::new()).await
    });
    let get = || {
        let url = format!("{gateway}/api/v2/projects/{project}/item/{label}?jsonCasing=camel");
        let request = app.http.get(url).header("Authorization", owner.bearer());
        async move { request.send().await.unwrap() }
    };
    for _ in 0..10 {
        assert_eq!(get().await.status(), StatusCode::OK);
    }

    // One replica goes away; every read still answers, through the other.
    stop_second.cancel();
    let _ = tokio::time::timeout(Duration::from_secs(10), second_task).await;
    for i in 0..20 {
        let response = get().await;
        assert_eq!(response.status(), StatusCode::OK, "read {i} after losing a replica");
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["text"], "replicated");
    }
}
