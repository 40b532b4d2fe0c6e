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

/// Connections PostgreSQL ended under the service (`pg_terminate_backend`, as a restart or a
/// failover does) are replaced; a request that meets one before it is found dead is answered 503
/// with `Retry-After` (the database is the problem, not the request), never 500, and the service
/// serves every request again at once. A pooled connection idle for `--db-check-idle-after-ms`
/// (1 s) is checked before use; one used more recently is not (sqlx's default checks every one,
/// a round trip more per query), so each such connection can fail one request, and sqlx then
/// discards it. PostgreSQL only: no server can end a SQLite connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_the_server_ended_are_replaced_and_never_answered_with_a_500() {
    let app = TestApp::spawn(Backend::Postgres).await;
    let (owner, project) = crate::support::owner_with_project(&app).await;
    let id = crate::support::create_label(&app, &owner, &project, serde_json::json!({"text": "kept"})).await;
    let url = app.item_url(&project, &format!("/{id}"));
    let get = || {
        let (http, url, auth) = (app.http.clone(), url.clone(), owner.bearer());
        async move {
            let response = http.get(url).header("Authorization", auth).send().await.unwrap();
            let status = response.status();
            let retry_after = response.headers().get("retry-after").is_some();
            let body = response.text().await.unwrap_or_default();
            (status, retry_after, body)
        }
    };
    // Warm the pool: several connections opened and returned.
    let warm: Vec<_> = (0..8).map(|_| tokio::spawn(get())).collect();
    for task in warm {
        assert_eq!(task.await.unwrap().0, StatusCode::OK);
    }
    let admin = sqlx::PgPool::connect(app.db.database_url.as_deref().unwrap()).await.unwrap();
    let service_connections = || async {
        sqlx::query_scalar::<_, i64>(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .fetch_one(&admin)
        .await
        .unwrap()
    };
    assert!(service_connections().await > 0, "the service holds pooled connections");

    // Idle long enough to be checked, then every session of the service ended by the server.
    let idle_after = Duration::from_millis(core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS);
    tokio::time::sleep(idle_after + Duration::from_millis(300)).await;
    let ended: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .fetch_all(&admin)
    .await
    .unwrap();
    assert!(!ended.is_empty() && ended.iter().all(|&e| e), "every service connection was ended: {ended:?}");

    let mut answers = Vec::new();
    for _ in 0..24 {
        answers.push(get().await);
    }
    let unavailable = answers.iter().filter(|(status, _, _)| *status == StatusCode::SERVICE_UNAVAILABLE).count();
    for (status, retry_after, body) in &answers {
        assert!(
            *status == StatusCode::OK || (*status == StatusCode::SERVICE_UNAVAILABLE && *retry_after),
            "after the server ended the sessions: {status} {body}"
        );
    }
    // Each dead connection fails at most one request (the test app's pool holds at most 8).
    assert!(unavailable <= 8, "{unavailable} answers were 503: {answers:?}");
    assert!(answers[answers.len() - 8..].iter().all(|(status, _, _)| *status == StatusCode::OK), "{answers:?}");
    let item = serde_json::from_str::<serde_json::Value>(&answers.last().unwrap().2).unwrap();
    assert_eq!(item["Text"], "kept", "{item}");
    assert!(service_connections().await > 0, "new connections were opened");
    println!("503 answers after the server ended every session: {unavailable} of {}", answers.len());
}

/// What a request meets in a failover, each answered 503 with `Retry-After` (never 500) and served
/// again once the database is: a database that takes no connections ("is not currently accepting
/// connections", SQLSTATE 55000), and a server that takes connections but cannot write (a standby
/// the routing still points at: 25006, read-only transaction; made here with
/// `default_transaction_read_only`). PostgreSQL only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_refuses_connections_or_writes_is_a_503_never_a_500() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let (owner, project) = crate::support::owner_with_project(&app).await;
    let database_url = app.db.database_url.clone().unwrap();
    let (server, database) = database_url.rsplit_once('/').unwrap();
    let maintenance = sqlx::PgPool::connect(&format!("{server}/postgres")).await.unwrap();
    let alter = |setting: &'static str| {
        let (maintenance, database) = (maintenance.clone(), database.to_owned());
        async move {
            sqlx::query(&format!("ALTER DATABASE \"{database}\" {setting}")).execute(&maintenance).await.unwrap();
            // Every session of the service ends, so the next ones meet the setting.
            sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
                .bind(&database)
                .execute(&maintenance)
                .await
                .unwrap();
        }
    };
    let create = |n: usize| {
        let (http, url, auth) = (app.http.clone(), app.item_url(&project, "/panel/label"), owner.bearer());
        async move {
            let body = serde_json::json!({"text": format!("label {n}")});
            let response = http.post(url).header("Authorization", auth).json(&body).send().await.unwrap();
            let status = response.status();
            let retry_after = response.headers().contains_key("retry-after");
            (status, retry_after, response.text().await.unwrap_or_default())
        }
    };
    for (case, refuse, allow) in [
        ("no connections", "WITH ALLOW_CONNECTIONS false", "WITH ALLOW_CONNECTIONS true"),
        ("read-only", "SET default_transaction_read_only = on", "RESET default_transaction_read_only"),
    ] {
        alter(refuse).await;
        let mut answers = Vec::new();
        for n in 0..6 {
            answers.push(create(n).await);
        }
        for (status, retry_after, body) in &answers {
            assert!(
                *status == StatusCode::SERVICE_UNAVAILABLE && *retry_after,
                "{case}: a create answered {status} {body}"
            );
            assert!(body.contains("DEPENDENCY_UNAVAILABLE"), "{case}: {body}");
        }
        alter(allow).await;
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (status, _, body) = create(99).await;
            if status == StatusCode::OK {
                break;
            }
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{case}, after: {body}");
            assert!(Instant::now() < deadline, "{case}: still refused after the database came back");
        }
    }
}

/// A database URL naming several servers (`host1:port1,host2:port2`, as libpq takes it): the
/// service uses the one that accepts writes, here the second, the first being a port nobody
/// listens on; a list where no server answers is a start-up error naming every server.
/// (Following a primary that moves is run with Patroni by `bench/failover.sh --host-list`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_url_naming_several_servers_uses_the_one_that_accepts_writes() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let (owner, project) = crate::support::owner_with_project(&app).await;
    let database_url = app.db.database_url.clone().unwrap();
    let (user, rest) = database_url.split_once("://").unwrap().1.split_once('@').unwrap();
    let (server, database) = rest.split_once('/').unwrap();
    let nobody = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();

    let mut config = app.another_core_config(canvas_tests::keyword_only());
    config.database_url =
        Some(format!("postgres://{user}@{nobody},{server}/{database}?target_session_attrs=read-write"));
    let second = core_service::build(&config).await.expect("a replica starts on the server that accepts writes");
    let stop = tokio_util::sync::CancellationToken::new();
    let _stop = stop.clone().drop_guard();
    let (_, gateway) = app.serve_replica(second, &stop).await;
    let url = format!("{gateway}/api/v2/projects/{project}/item/panel/label?jsonCasing=camel");
    let body = serde_json::json!({"text": "through a host list"});
    let created = crate::support::send(&app, reqwest::Method::POST, &url, Some(&owner.bearer()), Some(body)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let id = created.body["itemId"].as_str().unwrap();
    let read_url = app.item_url(&project, &format!("/{id}?jsonCasing=camel"));
    let read = crate::support::send(&app, reqwest::Method::GET, &read_url, Some(&owner.bearer()), None).await;
    assert_eq!(read.body["text"], "through a host list", "the same database");

    let other = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    config.database_url = Some(format!("postgres://{user}@{nobody},{other}/{database}"));
    let Err(refused) = core_service::build(&config).await else { panic!("it started with no server answering") };
    let refused = format!("{refused:#}");
    assert!(refused.contains(&nobody.to_string()) && refused.contains(&other.to_string()), "{refused}");
}
