//! Liveness and readiness that mean what they say: `/healthz` is the gateway process, `/readyz`
//! (and core-service's overall gRPC health) follows the database.

use std::time::{Duration, Instant};

use canvas_tests::{Backend, TestApp};
use reqwest::StatusCode;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_database_and_liveness_does_not() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let get = |path: &'static str| {
        let url = format!("{}{path}", app.base_url);
        let http = app.http.clone();
        async move { http.get(url).send().await.unwrap().status() }
    };
    assert_eq!(get("/healthz").await, StatusCode::OK);
    assert_eq!(get("/readyz").await, StatusCode::OK);

    // The database goes away (its pools are closed under the running service).
    app.core.storage().close().await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while get("/readyz").await != StatusCode::SERVICE_UNAVAILABLE {
        assert!(Instant::now() < deadline, "/readyz still says ready without a database");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(get("/healthz").await, StatusCode::OK, "the gateway itself is alive; restarting it would not help");
    let channel = tonic::transport::Endpoint::from_shared(app.grpc_url.clone()).unwrap().connect().await.unwrap();
    let mut health = HealthClient::new(channel);
    let status = health.check(HealthCheckRequest { service: String::new() }).await.unwrap().into_inner().status;
    assert_eq!(status, ServingStatus::NotServing as i32);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dispatcher_health_port_reports_core_and_metrics() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let core = tonic::transport::Endpoint::from_shared(app.grpc_url.clone()).unwrap().connect_lazy();
    let stop = tokio_util::sync::CancellationToken::new();
    tokio::spawn(webhook_dispatcher::health::serve(listener, core.into(), stop.clone(), Default::default()));
    // `serve` installs the process's recorder when its task first runs, which may be after the
    // next lines: attempts recorded before it would go nowhere (a race CI once lost).
    canvas_runtime::metrics::install();
    webhook_dispatcher::health::record_attempt(Some(204), 1, Duration::from_millis(3));
    webhook_dispatcher::health::record_attempt(None, 2, Duration::from_millis(3));

    for (path, status) in [("/healthz", StatusCode::OK), ("/readyz", StatusCode::OK), ("/metrics", StatusCode::OK)] {
        assert_eq!(app.http.get(format!("{base}{path}")).send().await.unwrap().status(), status, "{path}");
    }
    let text = app.http.get(format!("{base}/metrics")).send().await.unwrap().text().await.unwrap();
    assert!(text.contains(r#"webhook_deliveries_total{outcome="success",attempt="1"} 1"#), "{text}");
    assert!(text.contains(r#"webhook_deliveries_total{outcome="network_error",attempt="2"} 1"#), "{text}");

    // core-service gone: not ready, still alive.
    app.core.storage().close().await;
    let deadline = Instant::now() + Duration::from_secs(20);
    while app.http.get(format!("{base}/readyz")).send().await.unwrap().status() != StatusCode::SERVICE_UNAVAILABLE {
        assert!(Instant::now() < deadline, "dispatcher /readyz ignores core-service's health");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(app.http.get(format!("{base}/healthz")).send().await.unwrap().status(), StatusCode::OK);
    stop.cancel();
}
