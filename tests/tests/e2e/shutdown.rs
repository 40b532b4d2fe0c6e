//! Graceful shutdown on SIGTERM, with real processes: a REST request (rest-gateway) and a gRPC
//! call (core-service) in flight finish within the grace period while new connections are
//! refused; a request that outlasts it is cut off and the process still exits in time; a webhook
//! delivery cut off at a dispatcher's shutdown is handed back and sent again at once, not after
//! its lease.

use std::process::Stdio;
use std::time::{Duration, Instant};

use canvas_tests::deploy::{binary, spawn, wait_ready, Proc};
use canvas_tests::processes::free_port;
use canvas_tests::webhooks::{Answer, WebhookEnv};
use canvas_tests::{backend_tests, Backend};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::process::Command;

use reqwest::Method;

use crate::support::{owner_with_project, send};
use crate::webhooks_delivery::create_hook;

backend_tests!(cut_off_delivery_is_handed_back_to_another_dispatcher);

/// The child-process binary (webhook-dispatcher), built with the tests.
const CHILD: &str = env!("CARGO_BIN_EXE_canvas-fault-child");

/// Waits (bounded) for `proc` to exit; returns how long it took after `since` and whether it
/// exited with status 0.
async fn exit_within(proc: &mut Proc, limit: Duration, since: Instant) -> (Duration, bool) {
    match tokio::time::timeout(limit, proc.child.wait()).await {
        Ok(status) => (since.elapsed(), status.expect("wait").success()),
        Err(_) => panic!("{} still running {limit:?} after SIGTERM:\n{}", proc.name, proc.tail()),
    }
}

/// A standalone rest-gateway process in front of `env`'s core-service, with `grace_secs`.
async fn gateway(env: &WebhookEnv, grace_secs: u64) -> (Proc, String) {
    let port = free_port();
    let mut command = Command::new(binary("rest-gateway").expect("built"));
    command
        .args(["--http-addr", &format!("127.0.0.1:{port}"), "--core", &env.app.grpc_url])
        .env("CANVAS_SHUTDOWN_GRACE_SECS", grace_secs.to_string())
        .env("RUST_LOG", "info");
    let mut proc = spawn(env.dir.path(), "rest-gateway", &mut command, Some(port)).expect("rest-gateway starts");
    let base = format!("http://127.0.0.1:{port}");
    wait_ready(&env.app.http, &mut proc, &format!("{base}/readyz")).await.expect("ready");
    (proc, base)
}

/// `POST .../webhooks/test` against the receiver: a request that lasts as long as the receiver
/// takes to answer (core-service's webhook time-out is 20 s in these tests).
fn slow_request(
    env: &WebhookEnv,
    base: &str,
    project: &str,
    bearer: &str,
) -> tokio::task::JoinHandle<reqwest::Result<(StatusCode, Value)>> {
    let request = env
        .app
        .http
        .post(format!("{base}/api/v2/projects/{project}/webhooks/test?jsonCasing=camel"))
        .header("Authorization", bearer)
        .json(&json!({"url": env.receiver.url, "events": ["item.created"]}));
    tokio::spawn(async move {
        let reply = request.send().await?;
        let status = reply.status();
        Ok((status, reply.json().await.unwrap_or(Value::Null)))
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_in_flight_finishes_after_sigterm() {
    let env = WebhookEnv::spawn_parts(Backend::Sqlite, |c| c.client.timeout_secs = 20, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let (mut proc, base) = gateway(&env, 10).await;
    env.receiver.script([Answer::Slow(Duration::from_secs(2))]);
    let in_flight = slow_request(&env, &base, &project, &owner.bearer());
    env.receiver.wait_for(1, Duration::from_secs(10)).await;

    let sigterm = Instant::now();
    proc.terminate();
    // New connections are refused while the request in flight carries on.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let refused = env.app.http.get(format!("{base}/healthz")).timeout(Duration::from_secs(2)).send().await;
    assert!(refused.is_err(), "a new request was accepted after SIGTERM: {refused:?}");

    let (status, body) = in_flight.await.unwrap().expect("the request in flight is answered");
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["statusCode"], 200, "{body}");
    assert!(body["durationMs"].as_u64().unwrap() >= 1_500, "{body}");
    let (took, clean) = exit_within(&mut proc, Duration::from_secs(10), sigterm).await;
    assert!(clean, "rest-gateway exited with an error:\n{}", proc.tail());
    assert!(took < Duration::from_secs(8), "took {took:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_outlasting_the_grace_period_is_cut_off() {
    let env = WebhookEnv::spawn_parts(Backend::Sqlite, |c| c.client.timeout_secs = 20, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let (mut proc, base) = gateway(&env, 1).await;
    // Longer than the grace period, shorter than the 20 s webhook time-out.
    env.receiver.script([Answer::Slow(Duration::from_secs(10))]);
    let in_flight = slow_request(&env, &base, &project, &owner.bearer());
    env.receiver.wait_for(1, Duration::from_secs(10)).await;

    let sigterm = Instant::now();
    proc.terminate();
    let (took, clean) = exit_within(&mut proc, Duration::from_secs(8), sigterm).await;
    assert!(clean, "rest-gateway exited with an error:\n{}", proc.tail());
    assert!(took < Duration::from_secs(5), "exit took {took:?} with a 1 s grace period");
    assert!(in_flight.await.unwrap().is_err(), "the cut-off request got an answer");
    let log = std::fs::read_to_string(&proc.log).unwrap();
    assert!(log.contains("grace period ended"), "{log}");
    // A log written to a file is plain text: no terminal colour codes around its fields.
    assert!(!log.contains('\u{1b}'), "escape codes in a log file: {log:?}");
}

async fn cut_off_delivery_is_handed_back_to_another_dispatcher(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    // The first call hangs past the dispatcher's grace period; later ones answer 200.
    env.receiver.script([Answer::Slow(Duration::from_secs(60))]);
    let mut command = Command::new(CHILD);
    command
        .arg("dispatcher")
        .env("CANVAS_CORE_URL", &env.app.grpc_url)
        .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
        .env("CANVAS_WEBHOOK_CA_CERTS", env.ca_file())
        .env("CANVAS_WEBHOOK_TIMEOUT_SECS", "30")
        // Without the hand-back the delivery would wait out this lease.
        .env("CANVAS_DISPATCHER_LEASE_SECS", "120")
        .env("CANVAS_DISPATCHER_POLL_INTERVAL_MS", "50")
        .env("CANVAS_SHUTDOWN_GRACE_SECS", "1")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null());
    let mut dispatcher = spawn(env.dir.path(), "dispatcher", &mut command, None).expect("dispatcher starts");

    let reply = env
        .app
        .http
        .post(env.app.item_url(&project, "/panel/label"))
        .header("Authorization", owner.bearer())
        .json(&json!({"text": "handed back"}))
        .send()
        .await
        .unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
    let first = env.receiver.wait_for(1, Duration::from_secs(20)).await;
    let delivery_id = first[0].header("webhook-id").to_owned();

    let sigterm = Instant::now();
    dispatcher.terminate();
    let (took, clean) = exit_within(&mut dispatcher, Duration::from_secs(10), sigterm).await;
    assert!(clean, "dispatcher exited with an error:\n{}", dispatcher.tail());
    assert!(took < Duration::from_secs(6), "exit took {took:?} with a 1 s grace period");
    let log = std::fs::read_to_string(&dispatcher.log).unwrap();
    assert!(log.contains("released cut-off deliveries"), "{log}");

    // Another dispatcher sends the same delivery at once, as attempt 1 again.
    let second = env.another_dispatcher();
    let calls = env.receiver.wait_for(2, Duration::from_secs(15)).await;
    second.cancel();
    assert_eq!(calls[1].header("webhook-id"), delivery_id);
    let resent_after = calls[1].at.duration_since(calls[0].at);
    assert!(resent_after < Duration::from_secs(30), "sent again only after {resent_after:?}");

    // The attempt log shows one attempt, numbered 1: the cut-off one was not counted.
    let path = format!("/{hook}/deliveries?jsonCasing=camel");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let listed = send(&env.app, Method::GET, &env.url(&project, &path), Some(&owner.bearer()), None).await;
        assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
        let summary: Vec<(u64, Value)> = listed.body["elements"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| (a["attempt"].as_u64().unwrap(), a["statusCode"].clone()))
            .collect();
        if !summary.is_empty() {
            assert_eq!(summary, [(1, json!(200))], "{}", listed.body);
            break;
        }
        assert!(Instant::now() < deadline, "the attempt was never recorded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// core-service as its own process over the test's database: SIGTERM while a gRPC call is in
/// flight (a webhook test call waiting on a slow receiver). The call is answered, new
/// connections are refused, and the process exits on its own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn core_finishes_a_call_in_flight_after_sigterm() {
    use canvas_proto::v1::webhook_service_client::WebhookServiceClient;
    use canvas_proto::v1::TestWebhookRequest;

    let env = WebhookEnv::spawn_parts(Backend::Sqlite, |c| c.client.timeout_secs = 20, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let port = free_port();
    let core_url = format!("http://127.0.0.1:{port}");
    let mut command = Command::new(CHILD);
    command
        .args(["core", "--grpc-addr", &format!("127.0.0.1:{port}")])
        .env("CANVAS_DATA_DIR", env.app.db.data_dir())
        .env("CANVAS_ENVIRONMENT", "development")
        .env("CANVAS_SIGNING_KEY_SECRET", canvas_tests::webhooks::TEST_SIGNING_SECRET)
        .env("CANVAS_EMBEDDING_PROVIDER", "off")
        .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
        .env("CANVAS_WEBHOOK_CA_CERTS", env.ca_file())
        .env("CANVAS_WEBHOOK_TIMEOUT_SECS", "20")
        .env("CANVAS_SHUTDOWN_GRACE_SECS", "10")
        .env("RUST_LOG", "info")
        .stdin(Stdio::null());
    let mut core = spawn(env.dir.path(), "core-service", &mut command, Some(port)).expect("core-service starts");
    canvas_tests::deploy::wait_core(&mut core, &core_url).await.expect("core-service serves");

    env.receiver.script([Answer::Slow(Duration::from_secs(2))]);
    let mut client = WebhookServiceClient::connect(core_url.clone()).await.unwrap();
    let mut request = tonic::Request::new(TestWebhookRequest {
        project_id: project.clone(),
        definition_json: json!({"url": env.receiver.url, "events": ["item.created"]}).to_string(),
    });
    request.metadata_mut().insert("authorization", owner.bearer().parse().unwrap());
    let in_flight = tokio::spawn(async move { client.test_webhook(request).await });
    env.receiver.wait_for(1, Duration::from_secs(10)).await;

    let sigterm = Instant::now();
    core.terminate();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let refused = tonic::transport::Endpoint::from_shared(core_url.clone()).unwrap().connect().await;
    assert!(refused.is_err(), "a new connection was accepted after SIGTERM");

    let answer = in_flight.await.unwrap().expect("the call in flight is answered").into_inner();
    assert_eq!(answer.status_code, Some(200), "{answer:?}");
    let (took, clean) = exit_within(&mut core, Duration::from_secs(12), sigterm).await;
    assert!(clean, "core-service exited with an error:\n{}", core.tail());
    assert!(took < Duration::from_secs(8), "took {took:?}");
}
