//! A replica's `LISTEN` connections lost, as in a failover or a server restart (PostgreSQL only:
//! SQLite has no channel). Notifications sent meanwhile never arrive, so each follower catches up
//! once listening resumes (`core-service/src/service/notifications.rs`): the access memory
//! forgets, webhook dispatchers look for due deliveries at once, and presence asks every replica
//! to announce its clients again (`service/items/presence_resync.rs`).
//!
//! Two replicas on one database; the second reaches it through a proxy that can cut it off
//! ([`CutProxy`]), and has a presence follower, a webhook dispatcher that polls only every 10 s,
//! and Bo's token and role remembered. Its listeners are cut twice:
//! 1. with the second replica cut off from the database while a cursor moves, Bo's token is
//!    revoked and a label is written through the first replica, then let through again: each
//!    change takes effect on the second replica within seconds of its listeners coming back;
//! 2. by `pg_terminate_backend` alone, which sqlx's listener repairs by itself at once: the
//!    second replica still catches up (its follower hears the present clients again, though
//!    nobody announced).

use std::time::{Duration, Instant};

use canvas_tests::webhooks::{client_settings, WebhookEnv};
use canvas_tests::{keyword_only, Backend, CutProxy, TestApp, TestUser};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use webhook_dispatcher::DispatcherConfig;

use crate::presence::{announce, Follower};
use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::create_hook;

/// The dispatcher's poll: far longer than a caught-up wake-up may take.
const POLL_MS: u64 = 10_000;
/// How soon after the listeners may connect again each change takes effect: the relisten pause
/// after refused connections (up to 3 s) and presence's resync grace.
const AFTER_RESUME: Duration = Duration::from_secs(6);

/// Ends every `LISTEN` session of the database (both replicas'), and answers how many.
async fn cut_listeners(admin: &sqlx::PgPool) -> usize {
    let ended: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'",
    )
    .fetch_all(admin)
    .await
    .unwrap();
    ended.into_iter().filter(|&e| e).count()
}

async fn announce_cursor(app: &TestApp, base_url: &str, user: &TestUser, project: &str, x: f64) {
    let body = json!({"clientId": "ada-1", "cursor": {"x": x, "y": 1}});
    let reply = announce(app, base_url, user, project, body).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
}

/// Waits (bounded by `within`) for a presence event of `ada-1` whose cursor is at `x`.
async fn hears_cursor(follower: &mut Follower, x: f64, within: Duration) -> Option<Duration> {
    let started = Instant::now();
    while let Some(left) = within.checked_sub(started.elapsed()) {
        let Some((kind, data)) = follower.next(left).await else { break };
        if kind == "presence" && data["clientId"] == "ada-1" && data["cursor"]["x"] == json!(x) {
            return Some(started.elapsed());
        }
    }
    None
}

async fn status_of(app: &TestApp, base_url: &str, user: &TestUser, path: &str) -> StatusCode {
    send(app, Method::GET, &format!("{base_url}/api/v2/projects/{path}"), Some(&user.bearer()), None).await.status
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_a_replica_missed_while_its_listeners_were_cut_takes_effect_after_they_resume() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let bo = app.user("Bo").await;
    app.add_member(&project, &bo, ProjectRole::Viewer).await;
    let label = create_label(app, &owner, &project, json!({"text": "read by Bo"})).await;
    let read = format!("{project}/item/{label}?jsonCasing=camel");

    let database_url = app.db.database_url.clone().unwrap();
    let upstream = database_url.split_once('@').unwrap().1.split_once('/').unwrap().0.to_owned();
    let proxy = CutProxy::start(upstream).await;
    let mut config = app.another_core_config(keyword_only());
    config.database_url = Some(proxy.url_for(&database_url));
    config.webhooks.client = client_settings(&env.ca_file());
    let second = core_service::build(&config).await.expect("a second replica starts");
    let stop_second = CancellationToken::new();
    let _second = stop_second.clone().drop_guard();
    let (second_grpc, second_gateway) = app.serve_replica(second, &stop_second).await;
    let mut dispatcher = DispatcherConfig::new(second_grpc, client_settings(&env.ca_file()));
    dispatcher.poll_interval_ms = POLL_MS;
    let stop_dispatcher = CancellationToken::new();
    let _dispatcher = stop_dispatcher.clone().drop_guard();
    tokio::spawn(webhook_dispatcher::run(dispatcher, stop_dispatcher));

    // The second replica follows presence (announce until it hears the first) and answers Bo.
    let mut follower = Follower::open(app, &second_gateway, &owner, &project).await;
    let warm = Instant::now();
    loop {
        announce_cursor(app, &app.base_url, &owner, &project, 1.0).await;
        if hears_cursor(&mut follower, 1.0, Duration::from_millis(250)).await.is_some() {
            break;
        }
        assert!(warm.elapsed() < Duration::from_secs(15), "the second replica never heard the first");
    }
    for _ in 0..5 {
        assert_eq!(status_of(app, &second_gateway, &bo, &read).await, StatusCode::OK);
    }
    // The label created before the dispatcher started has been delivered; start counting after it.
    let before = env.receiver.wait_for(1, Duration::from_secs(15)).await.len();
    tokio::time::sleep(Duration::from_millis(500)).await;

    // 1. The second replica cut off while three changes are made through the first.
    let admin = sqlx::PgPool::connect(&database_url).await.unwrap();
    proxy.cut();
    announce_cursor(app, &app.base_url, &owner, &project, 77.0).await;
    app.revoke(&bo).await;
    let written = create_label(app, &owner, &project, json!({"text": "written while cut"})).await;
    // Nothing reaches the second replica while its listeners are out.
    let heard = hears_cursor(&mut follower, 77.0, Duration::from_millis(1500)).await;
    assert!(heard.is_none(), "the second replica heard the cursor while its listeners were cut: {heard:?}");
    assert_eq!(env.receiver.calls().len(), before, "no wake-up reached the dispatcher while its replica was cut off");
    proxy.restore();
    let resumed = Instant::now();

    let heard = hears_cursor(&mut follower, 77.0, AFTER_RESUME).await;
    assert!(heard.is_some(), "the cursor moved while the listeners were cut never reached the second replica");
    let delivered = env.receiver.wait_for(before + 1, AFTER_RESUME).await;
    let call: Value = delivered[before].json();
    assert_eq!(call["changes"][0]["subject"]["id"], written.as_str());
    let arrived = resumed.elapsed();
    assert!(arrived < AFTER_RESUME, "the delivery waited {arrived:?}: for the poll, not a wake-up");
    // Its pool's connections were cut too: each may fail one request (503) before it is replaced.
    let mut bo_answer = status_of(app, &second_gateway, &bo, &read).await;
    while bo_answer == StatusCode::SERVICE_UNAVAILABLE && resumed.elapsed() < AFTER_RESUME {
        bo_answer = status_of(app, &second_gateway, &bo, &read).await;
    }
    assert_eq!(bo_answer, StatusCode::UNAUTHORIZED, "Bo's token, revoked while the second replica was cut off");
    println!("after the listeners resumed: cursor in {heard:?}, delivery in {arrived:?}");

    // 2. Listeners ended and made again by sqlx at once: the second replica still catches up.
    while follower.next(Duration::from_millis(300)).await.is_some() {}
    let cut = cut_listeners(&admin).await;
    assert!(cut >= 6, "each replica listens on three channels: {cut} cut");
    let heard = hears_cursor(&mut follower, 77.0, AFTER_RESUME).await;
    assert!(heard.is_some(), "after its listener was made again the second replica did not ask for presence again");
    println!("after sqlx made the listeners again: the present clients were announced again in {heard:?}");
}
