//! Nothing is lost when a process dies: 1,000 item writes while the
//! dispatcher is killed with SIGKILL and restarted, and again while
//! core-service is; every acknowledged write's event arrives (each deliveryId
//! at least once). The number of duplicates is printed.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_proto::v1::CreateItemRequest;
use canvas_tests::processes::free_port;
use canvas_tests::webhooks::{Received, WebhookEnv, TEST_SIGNING_SECRET};
use canvas_tests::{backend_tests, Backend, TestUser};
use serde_json::json;
use tokio::process::{Child, Command};

use crate::support::owner_with_project;
use crate::webhooks_delivery::create_hook;

backend_tests!(dispatcher_killed_mid_stream_loses_nothing, core_killed_mid_stream_loses_nothing);

const WRITES: usize = 1000;
/// The child-process binary (dispatcher or core-service), built with the tests.
const CHILD: &str = env!("CARGO_BIN_EXE_canvas-fault-child");
const WRITERS: usize = 8;

pub fn dispatcher_process(env: &WebhookEnv, core_url: &str) -> Child {
    Command::new(CHILD)
        .arg("dispatcher")
        .env("CANVAS_CORE_URL", core_url)
        .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
        .env("CANVAS_WEBHOOK_CA_CERTS", env.ca_file())
        .env("CANVAS_WEBHOOK_TIMEOUT_SECS", "2")
        .env("CANVAS_DISPATCHER_LEASE_SECS", "5")
        .env("CANVAS_DISPATCHER_POLL_INTERVAL_MS", "50")
        .env("RUST_LOG", "error")
        .kill_on_drop(true)
        .spawn()
        .expect("webhook-dispatcher starts")
}

fn core_process(env: &WebhookEnv, port: u16) -> Child {
    let mut command = Command::new(CHILD);
    command
        .args(["core", "--grpc-addr", &format!("127.0.0.1:{port}")])
        .env("CANVAS_DATA_DIR", env.app.db.data_dir())
        .env("CANVAS_ENVIRONMENT", "development")
        .env("CANVAS_SIGNING_KEY_SECRET", TEST_SIGNING_SECRET)
        .env("CANVAS_EMBEDDING_PROVIDER", "off")
        // The same destination rules as the first replica, else it would mark
        // the loopback webhook `invalidDefinition` at start-up.
        .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
        .env("CANVAS_WEBHOOK_RETRY_SCHEDULE", "1s,1s,1s,1s,1s")
        .env("RUST_LOG", "error")
        .kill_on_drop(true);
    if let Some(url) = &env.app.db.database_url {
        command.env("CANVAS_DATABASE_URL", url);
    }
    command.spawn().expect("core-service starts")
}

/// Writes `WRITES` labels through `core_url` with `WRITERS` concurrent
/// writers, retrying failed writes; calls `at_count` when the number of
/// acknowledged writes passes each of `milestones`. Returns the ids of the
/// acknowledged items.
async fn write_items(core_url: String, user: &TestUser, project: &str, progress: Arc<AtomicUsize>) -> Vec<String> {
    let mut writers = tokio::task::JoinSet::new();
    for w in 0..WRITERS {
        let (url, token, project, progress) = (core_url.clone(), user.bearer(), project.to_owned(), progress.clone());
        writers.spawn(async move {
            let mut acknowledged = Vec::new();
            let mut client: Option<ItemServiceClient<tonic::transport::Channel>> = None;
            for n in 0..WRITES / WRITERS {
                let mut tries = 0;
                loop {
                    tries += 1;
                    assert!(tries < 400, "a write kept failing for 40 s");
                    if client.is_none() {
                        client = ItemServiceClient::connect(url.clone()).await.ok();
                    }
                    let Some(connected) = client.as_mut() else {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    };
                    let properties = json!({"text": format!("w{w}-{n}")}).as_object().unwrap().clone();
                    let mut request = tonic::Request::new(CreateItemRequest {
                        project_id: project.clone(),
                        parent: "panel".into(),
                        item_type: "label".into(),
                        properties: Some(to_proto_struct(properties)),
                        file: None,
                    });
                    request.metadata_mut().insert("authorization", token.parse().unwrap());
                    match connected.create_item(request).await {
                        Ok(reply) => {
                            acknowledged.push(reply.into_inner().item_id);
                            progress.fetch_add(1, Ordering::SeqCst);
                            break;
                        }
                        Err(_) => {
                            client = None;
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                    }
                }
            }
            acknowledged
        });
    }
    let mut all = Vec::new();
    while let Some(done) = writers.join_next().await {
        all.extend(done.unwrap());
    }
    all
}

/// Waits (bounded) until every acknowledged item's event arrived; returns
/// the calls and prints the duplicate count.
async fn assert_all_arrived(env: &WebhookEnv, acknowledged: &[String], label: &str) -> Vec<Received> {
    let expected: HashSet<&str> = acknowledged.iter().map(String::as_str).collect();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
    loop {
        let calls = env.receiver.calls();
        let arrived: HashSet<String> =
            calls.iter().map(|c| c.json()["changes"][0]["subject"]["id"].as_str().unwrap().to_owned()).collect();
        let missing = expected.iter().filter(|id| !arrived.contains(**id)).count();
        if missing == 0 {
            let mut per_delivery: HashMap<String, usize> = HashMap::new();
            for call in &calls {
                *per_delivery.entry(call.header("webhook-id").to_owned()).or_default() += 1;
            }
            let duplicates: usize = per_delivery.values().map(|n| n - 1).sum();
            println!(
                "{label}: {} acknowledged writes, {} distinct deliveries, {} calls, {duplicates} duplicates",
                acknowledged.len(),
                per_delivery.len(),
                calls.len()
            );
            return calls;
        }
        assert!(tokio::time::Instant::now() < deadline, "{label}: {missing} acknowledged writes never arrived");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

pub(crate) async fn kill(child: &mut Child) {
    child.start_kill().expect("SIGKILL");
    child.wait().await.unwrap();
}

async fn wait_until(progress: &AtomicUsize, count: usize) {
    while progress.load(Ordering::SeqCst) < count {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn dispatcher_killed_mid_stream_loses_nothing(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let mut dispatcher = dispatcher_process(&env, &env.app.grpc_url);
    let progress = Arc::new(AtomicUsize::new(0));
    let writes = tokio::spawn({
        let (url, owner, project, progress) =
            (env.app.grpc_url.clone(), owner.clone(), project.clone(), progress.clone());
        async move { write_items(url, &owner, &project, progress).await }
    });
    for milestone in [300, 700] {
        wait_until(&progress, milestone).await;
        kill(&mut dispatcher).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        dispatcher = dispatcher_process(&env, &env.app.grpc_url);
    }
    let acknowledged = writes.await.unwrap();
    assert_eq!(acknowledged.len(), WRITES);
    assert_all_arrived(&env, &acknowledged, "dispatcher SIGKILL").await;
    kill(&mut dispatcher).await;
}

async fn core_killed_mid_stream_loses_nothing(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // A second core-service over the same database, as its own process; the
    // writes and the dispatcher both go through it.
    let port = free_port();
    let core_url = format!("http://127.0.0.1:{port}");
    let mut core = core_process(&env, port);
    let dispatcher_stop = tokio_util::sync::CancellationToken::new();
    let mut settings = webhook_dispatcher::DispatcherConfig::new(
        core_url.clone(),
        canvas_tests::webhooks::client_settings(&env.ca_file()),
    );
    settings.poll_interval_ms = 50;
    settings.lease_secs = 5;
    tokio::spawn(webhook_dispatcher::run(settings, dispatcher_stop.clone()));
    let progress = Arc::new(AtomicUsize::new(0));
    let writes = tokio::spawn({
        let (url, owner, project, progress) = (core_url.clone(), owner.clone(), project.clone(), progress.clone());
        async move { write_items(url, &owner, &project, progress).await }
    });
    for milestone in [300, 700] {
        wait_until(&progress, milestone).await;
        kill(&mut core).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        core = core_process(&env, port);
    }
    let acknowledged = writes.await.unwrap();
    assert_eq!(acknowledged.len(), WRITES);
    assert_all_arrived(&env, &acknowledged, "core-service SIGKILL").await;
    dispatcher_stop.cancel();
    kill(&mut core).await;
}
