//! Deliveries in milliseconds: a dispatcher polling only every 10 s still delivers a new event at
//! once (core-service's `WatchDue` stream wakes it, across replicas on PostgreSQL); a receiver
//! answering in 2 s does not hold back calls to a fast one; outcomes reported in batches show in
//! the deliveries list; and a dispatcher killed with calls in flight and reports unsent leads to
//! those deliveries being sent again.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use canvas_tests::webhooks::{client_settings, Answer, Receiver, WebhookEnv};
use canvas_tests::{backend_tests, keyword_only, Backend, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use webhook_dispatcher::DispatcherConfig;

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, record};
use crate::webhooks_fault::dispatcher_process;

backend_tests!(
    a_delivery_arrives_without_waiting_for_the_poll,
    a_slow_receiver_does_not_delay_a_fast_one,
    batched_reports_show_in_the_deliveries_list,
    a_dispatcher_killed_mid_batch_leads_to_redelivery
);

/// Far longer than any arrival below may take: only a wake-up delivers in time.
const POLL_MS: u64 = 10_000;
/// How soon after its write a call must arrive.
const WITHIN: Duration = Duration::from_secs(1);

/// A dispatcher in this process that polls only every 10 s.
fn dispatcher(env: &WebhookEnv, core_url: &str, tweak: impl FnOnce(&mut DispatcherConfig)) -> CancellationToken {
    let mut config = DispatcherConfig::new(core_url.to_owned(), client_settings(&env.ca_file()));
    config.poll_interval_ms = POLL_MS;
    tweak(&mut config);
    let stop = CancellationToken::new();
    tokio::spawn(webhook_dispatcher::run(config, stop.clone()));
    stop
}

/// Writes a label and returns how long its call took to arrive at `receiver` (the `n`-th call).
async fn write_and_time(env: &WebhookEnv, receiver: &Receiver, owner: &TestUser, project: &str, n: usize) -> Duration {
    let written = Instant::now();
    let label = create_label(&env.app, owner, project, json!({"text": format!("wake {n}")})).await;
    let calls = receiver.wait_for(n + 1, Duration::from_secs(15)).await;
    let call = &calls[n];
    assert_eq!(call.json()["changes"][0]["subject"]["id"], label.as_str());
    call.at.saturating_duration_since(written)
}

/// Every attempt of a webhook, newest first, through the REST API.
async fn attempts(env: &WebhookEnv, owner: &TestUser, project: &str, hook: &str) -> Vec<Value> {
    let url = env.url(project, &format!("/{hook}/deliveries?jsonCasing=camel&limit=100"));
    let listed = send(&env.app, Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    listed.body["elements"].as_array().unwrap().clone()
}

/// Waits (bounded) until the webhook lists `n` attempts, and returns them.
async fn wait_for_attempts(env: &WebhookEnv, owner: &TestUser, project: &str, hook: &str, n: usize) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let listed = attempts(env, owner, project, hook).await;
        if listed.len() >= n {
            return listed;
        }
        assert!(Instant::now() < deadline, "only {} of {n} attempts were recorded", listed.len());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn a_delivery_arrives_without_waiting_for_the_poll(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let _stop = dispatcher(&env, &env.app.grpc_url, |_| {}).drop_guard();
    // Past the dispatcher's first lease and into its 10 s wait.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for n in 0..3 {
        let took = write_and_time(&env, &env.receiver, &owner, &project, n).await;
        assert!(took < WITHIN, "call {n} arrived {took:?} after its write; the poll is {POLL_MS} ms");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The dispatcher follows one replica; the writes go through another. Only PostgreSQL's
/// notifications can wake it before its poll.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_on_another_replica_wakes_the_dispatcher_on_postgres() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let mut config = env.app.another_core_config(keyword_only());
    // The same destination rules, else the second replica marks the loopback webhook invalid.
    config.webhooks.client = client_settings(&env.ca_file());
    let second = core_service::build(&config).await.expect("a second replica starts");
    let stop_second = CancellationToken::new();
    let _second = stop_second.clone().drop_guard();
    let (second_grpc, _) = env.app.serve_replica(second, &stop_second).await;
    let _stop = dispatcher(&env, &second_grpc, |_| {}).drop_guard();
    tokio::time::sleep(Duration::from_millis(500)).await;
    for n in 0..3 {
        let took = write_and_time(&env, &env.receiver, &owner, &project, n).await;
        assert!(took < WITHIN, "call {n} arrived {took:?} after its write on the other replica");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn a_slow_receiver_does_not_delay_a_fast_one(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |config| config.client.timeout_secs = 5, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let slow = Receiver::start(&env.ca).await;
    slow.script([Answer::Slow(Duration::from_secs(2)); 100]);
    let fast_hook =
        create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let slow_hook = create_hook(&env, &owner, &project, json!({"url": slow.url, "events": ["item.created"]})).await;
    // Four calls at once, two per destination: without the per-destination cap the slow
    // receiver would hold all four slots and every fast call would wait 2 s for one.
    let _stop = dispatcher(&env, &env.app.grpc_url, |c| {
        (c.poll_interval_ms, c.concurrency, c.per_destination, c.client.timeout_secs) = (50, 4, 2, 5);
    })
    .drop_guard();
    const WRITES: usize = 12;
    for n in 0..WRITES {
        let took = write_and_time(&env, &env.receiver, &owner, &project, n).await;
        assert!(took < WITHIN, "fast call {n} arrived {took:?} after its write, behind the slow receiver");
    }
    // The slow receiver gets every call too, two at a time, each a first attempt: deliveries
    // handed back while it was busy do not count as attempts.
    slow.wait_for(WRITES, Duration::from_secs(40)).await;
    let slow_attempts = wait_for_attempts(&env, &owner, &project, &slow_hook, WRITES).await;
    assert!(slow_attempts.iter().all(|a| a["attempt"] == 1 && a["statusCode"] == 200), "{slow_attempts:?}");
    let fast_attempts = wait_for_attempts(&env, &owner, &project, &fast_hook, WRITES).await;
    assert!(fast_attempts.iter().all(|a| a["attempt"] == 1 && a["statusCode"] == 200), "{fast_attempts:?}");
}

async fn batched_reports_show_in_the_deliveries_list(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // The first five calls fail and are retried (1 s later) under the same delivery id.
    env.receiver.script([Answer::Status(500); 5]);
    const WRITES: usize = 40;
    let writes = (0..WRITES).map(|n| create_label(&env.app, &owner, &project, json!({"text": format!("b{n}")})));
    let labels: HashSet<String> = futures::future::join_all(writes).await.into_iter().collect();
    env.receiver.wait_for(WRITES + 5, Duration::from_secs(20)).await;

    let listed = wait_for_attempts(&env, &owner, &project, &hook, WRITES + 5).await;
    assert_eq!(listed.len(), WRITES + 5, "{listed:?}");
    let mut by_delivery: HashMap<&str, Vec<(u64, Value)>> = HashMap::new();
    for a in &listed {
        by_delivery
            .entry(a["deliveryId"].as_str().unwrap())
            .or_default()
            .push((a["attempt"].as_u64().unwrap(), a["statusCode"].clone()));
    }
    assert_eq!(by_delivery.len(), WRITES);
    let retried: Vec<_> = by_delivery.values().filter(|a| a.len() == 2).collect();
    assert_eq!(retried.len(), 5, "{by_delivery:?}");
    assert!(retried.iter().all(|a| a[..] == [(2, json!(200)), (1, json!(500))]), "newest first: {retried:?}");
    assert!(by_delivery.values().filter(|a| a.len() == 1).all(|a| a[..] == [(1, json!(200))]));
    let status = record(&env, &owner, &project, &hook).await["status"].clone();
    assert_eq!((status["lastStatusCode"].clone(), status["consecutiveFailures"].clone()), (json!(200), json!(0)));
    // Each label's call arrived (those that failed first, twice).
    let arrived: HashSet<String> = env
        .receiver
        .calls()
        .iter()
        .map(|c| c.json()["changes"][0]["subject"]["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(arrived, labels);
}

async fn a_dispatcher_killed_mid_batch_leads_to_redelivery(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // Calls are answered after 1.5 s (inside the 2 s time-out): the dispatcher is killed while
    // some are in flight, so their outcomes are never reported.
    const WRITES: usize = 10;
    const ANSWER: Duration = Duration::from_millis(1500);
    env.receiver.script([Answer::Slow(ANSWER); WRITES]);
    let mut first = dispatcher_process(&env, &env.app.grpc_url);
    let writes = (0..WRITES).map(|n| create_label(&env.app, &owner, &project, json!({"text": format!("k{n}")})));
    let kill = async {
        env.receiver.wait_for(3, Duration::from_secs(15)).await;
        first.start_kill().expect("SIGKILL");
        let killed = Instant::now();
        first.wait().await.unwrap();
        killed
    };
    let (labels, killed) = tokio::join!(futures::future::join_all(writes), kill);
    let labels: HashSet<String> = labels.into_iter().collect();
    // Calls whose answer was still a good while off at the kill: surely never reported.
    let cut_off: HashSet<String> = env
        .receiver
        .calls()
        .iter()
        .filter(|c| c.at + ANSWER > killed + Duration::from_millis(200))
        .map(|c| c.header("webhook-id").to_owned())
        .collect();
    assert!(!cut_off.is_empty(), "no call was in flight at the kill");
    let mut second = dispatcher_process(&env, &env.app.grpc_url);

    // The cut-off deliveries come again after their 5 s lease, under the same ids.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let calls = env.receiver.calls();
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for call in &calls {
            *seen.entry(call.header("webhook-id")).or_default() += 1;
        }
        let arrived: HashSet<String> =
            calls.iter().map(|c| c.json()["changes"][0]["subject"]["id"].as_str().unwrap().to_owned()).collect();
        if arrived == labels && cut_off.iter().all(|id| seen.get(id.as_str()).copied().unwrap_or(0) >= 2) {
            break;
        }
        assert!(Instant::now() < deadline, "cut-off deliveries were not sent again: {seen:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Through the API every delivery ends delivered; a cut-off one shows its second attempt only
    // (the first was never reported).
    let listed = wait_for_attempts(&env, &owner, &project, &hook, WRITES).await;
    let mut last: HashMap<&str, (u64, Value)> = HashMap::new();
    for a in listed.iter().rev() {
        last.insert(a["deliveryId"].as_str().unwrap(), (a["attempt"].as_u64().unwrap(), a["statusCode"].clone()));
    }
    assert_eq!(last.len(), WRITES);
    for (id, (attempt, status)) in &last {
        assert_eq!(status, &json!(200), "{id}");
        if cut_off.contains(*id) {
            assert_eq!(*attempt, 2, "{id}: {listed:?}");
        }
    }
    second.start_kill().expect("SIGKILL");
    second.wait().await.unwrap();
}
