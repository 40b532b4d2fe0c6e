//! Heavy reads from a PostgreSQL standby (`--read-database-url`, core-service
//! `storage/standby.rs`) never miss an acknowledged write: a client reads its own writes at once,
//! on one replica of the service or another, while the standby replays 1.5 s behind; once the
//! standby has caught up, it serves them; when it is down or not a standby, the primary does.

use std::time::{Duration, Instant};

use canvas_tests::standby_pair::StandbyPair;
use canvas_tests::{Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;
use sqlx::{Connection, PgConnection};

use crate::project_archive_kit::{entries, export, listing};
use crate::support::{create_label, owner_with_project, send};

/// How far behind the primary the test's standby replays.
const STANDBY_DELAY: Duration = Duration::from_millis(1500);

/// `database_lagging_reads_total{outcome}` as this test process's `/metrics` shows it.
async fn lagging_reads(app: &TestApp, outcome: &str) -> u64 {
    let text = app.http.get(format!("{}/metrics", app.base_url)).send().await.unwrap().text().await.unwrap();
    let series = format!("database_lagging_reads_total{{outcome=\"{outcome}\"}} ");
    text.lines().find_map(|line| line.strip_prefix(&series)).map_or(0, |n| n.trim().parse().unwrap())
}

/// Whether the standby itself holds the item (what a read sent there without care would see).
async fn standby_holds(pair: &StandbyPair, item: &str) -> bool {
    let mut standby = PgConnection::connect(&pair.standby_url()).await.expect("standby");
    let id = uuid::Uuid::parse_str(item).unwrap();
    sqlx::query_scalar::<_, bool>("SELECT EXISTS (SELECT 1 FROM items WHERE id = $1)")
        .bind(id)
        .fetch_one(&mut standby)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_reads_its_own_writes_on_any_replica_while_the_standby_lags() {
    let Some(pair) = StandbyPair::start_or_skip(STANDBY_DELAY).await else { return };
    canvas_runtime::metrics::install();
    let app = TestApp::spawn_on_postgres(pair.primary_url(), pair.standby_url()).await;
    let (owner, project) = owner_with_project(&app).await;
    // A second replica of the service on the same primary and standby.
    let mut config = app.another_core_config(canvas_tests::keyword_only());
    config.read_database_url = Some(pair.standby_url());
    let second = core_service::build(&config).await.expect("a second replica starts");
    let stop = tokio_util::sync::CancellationToken::new();
    let _stop = stop.clone().drop_guard();
    let (_, second_gateway) = app.serve_replica(second, &stop).await;
    pair.wait_caught_up().await;
    let served_before = lagging_reads(&app, "standby").await;
    let behind_before = lagging_reads(&app, "primary_standby_behind").await;

    let mut created = Vec::new();
    for n in 0..8 {
        let id = create_label(&app, &owner, &project, json!({"text": format!("own write {n}")})).await;
        // At once, through this replica and the other, a listing holds it.
        for base in [&app.base_url, &second_gateway] {
            let url = format!("{base}/api/v2/projects/{project}/items?jsonCasing=camel&limit=100");
            let page = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
            assert_eq!(page.status, StatusCode::OK, "{}", page.body);
            let ids: Vec<&str> =
                page.body["items"].as_array().unwrap().iter().map(|i| i["itemId"].as_str().unwrap()).collect();
            assert!(ids.contains(&id.as_str()), "a listing through {base} misses the write just acknowledged: {ids:?}");
        }
        created.push(id);
    }
    // The export, and a render, are heavy reads too: the export holds every item.
    let (status, archive) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    let items = String::from_utf8(entries(&archive)["items.jsonl"].clone()).unwrap();
    assert!(created.iter().all(|id| items.contains(id.as_str())), "the export misses an acknowledged item");
    // Without the care taken, these reads would have missed writes: the standby did not hold the
    // last item yet, so every read above was answered by the primary.
    assert!(!standby_holds(&pair, created.last().unwrap()).await, "the standby did not lag; the test proves nothing");
    assert_eq!(lagging_reads(&app, "standby").await, served_before, "the lagging standby served a read");
    let behind = lagging_reads(&app, "primary_standby_behind").await - behind_before;
    assert!(behind >= 17, "16 listings and an export found the standby behind, counted {behind}");

    // Caught up, the standby answers them, with the same items.
    pair.wait_caught_up().await;
    tokio::time::sleep(Duration::from_millis(1100)).await; // past the second in which reads do not wait
    let all = listing(&app, &owner, &project).await;
    assert_eq!(all.len(), created.len());
    let (status, _) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    let render = app.http.get(format!("{}/api/v2/projects/{project}/render.svg", app.base_url));
    let render = render.header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(render.status(), StatusCode::OK);
    assert!(render.text().await.unwrap().contains("own write 7"));
    let served = lagging_reads(&app, "standby").await - served_before;
    assert!(served >= 3, "the caught-up standby served the listing, export and render: {served}");

    // The standby dies: reads go on, answered by the primary, without a wait of a connection
    // time-out each.
    pair.stop_standby();
    let started = Instant::now();
    for _ in 0..5 {
        assert_eq!(listing(&app, &owner, &project).await.len(), created.len());
    }
    assert!(started.elapsed() < Duration::from_secs(5), "five listings took {:?}", started.elapsed());
    assert!(lagging_reads(&app, "primary_standby_down").await >= 5);
}

/// A standby cancels a read that conflicts with what it replays (here at once:
/// `max_standby_streaming_delay = 0`, while the primary takes the items table's strongest lock
/// again and again, which the standby must replay): every export is still answered, in full, the
/// cancelled ones read again on the primary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_the_standby_cancels_is_read_again_on_the_primary() {
    let settings = "max_standby_streaming_delay = 0\nhot_standby_feedback = off\n";
    let Some(pair) = StandbyPair::start_with(Duration::ZERO, settings).await else { return };
    canvas_runtime::metrics::install();
    let app = TestApp::spawn_on_postgres(pair.primary_url(), pair.standby_url()).await;
    let (owner, project) = owner_with_project(&app).await;
    for batch in 0..5 {
        let items: Vec<_> =
            (0..200).map(|n| json!({"type": "label", "properties": {"text": format!("label {batch}-{n}")}})).collect();
        let url = format!("{}/api/v2/projects/{project}/items/bulk?jsonCasing=camel", app.base_url);
        let made = send(&app, Method::POST, &url, Some(&owner.bearer()), Some(json!({"items": items}))).await;
        assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    }
    pair.wait_caught_up().await;

    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (locking, primary) = (stop.clone(), pair.primary_url());
    let locker = tokio::spawn(async move {
        let mut conn = PgConnection::connect(&primary).await.expect("primary");
        let mut locks = 0;
        while !locking.load(std::sync::atomic::Ordering::Relaxed) {
            sqlx::Executor::execute(&mut conn, "BEGIN; LOCK TABLE items IN ACCESS EXCLUSIVE MODE; COMMIT")
                .await
                .expect("lock");
            locks += 1;
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        locks
    });
    let before = lagging_reads(&app, "primary_after_standby_failed").await;
    for n in 0..30 {
        let (status, archive) = export(&app, &owner, &project).await;
        assert_eq!(status, StatusCode::OK, "export {n}");
        let items = String::from_utf8(entries(&archive)["items.jsonl"].clone()).unwrap();
        assert_eq!(items.lines().count(), 1000, "export {n} holds every item");
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(locker.await.unwrap() > 0);
    let again = lagging_reads(&app, "primary_after_standby_failed").await - before;
    assert!(again > 0, "the standby cancelled no read: the test proves nothing");
}

/// A read URL whose server does not answer, or is not a standby (here: the primary itself),
/// leaves every read to the primary and every answer right.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_url_that_is_down_or_not_a_standby_only_sends_reads_to_the_primary() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    canvas_runtime::metrics::install();
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "on the primary"})).await;
    let nobody = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let database = app.db.database_url.clone().unwrap();
    for (read_url, outcome) in [
        (format!("postgres://postgres@{nobody}/canvas"), "primary_standby_down"),
        (database.clone(), "primary_not_a_standby"),
    ] {
        let mut config = app.another_core_config(canvas_tests::keyword_only());
        config.read_database_url = Some(read_url.clone());
        let replica = core_service::build(&config).await.expect("a replica starts whatever its read URL");
        let stop = tokio_util::sync::CancellationToken::new();
        let _stop = stop.clone().drop_guard();
        let (_, gateway) = app.serve_replica(replica, &stop).await;
        let before = lagging_reads(&app, outcome).await;
        let url = format!("{gateway}/api/v2/projects/{project}/items?jsonCasing=camel");
        // A first connection slower than the standby pool's 1 s (a loaded CI machine) counts as
        // `primary_standby_down` and rests the read URL for 2 s: the reads go on past the rest
        // until one reaches the server and is counted for what the server is. Every one of them
        // must be answered right by the primary, and none may count as served by a standby.
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let page = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
            assert_eq!(page.status, StatusCode::OK, "{read_url}: {}", page.body);
            assert_eq!(page.body["items"][0]["itemId"], id.as_str(), "{read_url}");
            for served_there in ["standby", "standby_after_wait"] {
                assert_eq!(lagging_reads(&app, served_there).await, 0, "{read_url}: a read counted as {served_there}");
            }
            if lagging_reads(&app, outcome).await > before {
                break;
            }
            assert!(Instant::now() < deadline, "{read_url}: no read counted as {outcome} within 15 s");
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    }
}

/// The flag is refused at start-up where it cannot mean anything, naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_url_beside_sqlite_or_naming_several_servers_is_refused_at_start() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let mut config = app.another_core_config(canvas_tests::keyword_only());
    config.read_database_url = Some("postgres://postgres@127.0.0.1:5432/canvas".into());
    let Err(refused) = core_service::build(&config).await else { panic!("SQLite started with a read URL") };
    let refused = format!("{refused:#}");
    assert!(refused.contains("--read-database-url") && refused.contains("PostgreSQL"), "{refused}");

    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let mut config = app.another_core_config(canvas_tests::keyword_only());
    config.read_database_url = Some("postgres://postgres@127.0.0.1:1,127.0.0.1:2/canvas".into());
    let Err(refused) = core_service::build(&config).await else { panic!("it started with a host list to read from") };
    let refused = format!("{refused:#}");
    assert!(refused.contains("--read-database-url") && refused.contains("several servers"), "{refused}");
}
