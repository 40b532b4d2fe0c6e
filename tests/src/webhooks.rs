//! Webhook test harness: a real HTTPS receiver on loopback behind a local CA,
//! a dispatcher in this process, and core-service configured to trust the CA
//! and to allow `127.0.0.1` as a destination, with a fast retry schedule.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use core_service::webhooks::WebhookConfig;
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;
use webhook_client::receiver::{serve_tls, LocalCa};
use webhook_client::ClientSettings;

use crate::{keyword_only, Backend, TestApp};

/// The fixed signing-key secret of tests (any environment starts with it).
pub const TEST_SIGNING_SECRET: &str = "test-signing-secret-0123456789abcdef";

/// Webhook settings of ordinary tests: a fixed secret, defaults otherwise.
pub fn test_webhooks() -> WebhookConfig {
    WebhookConfig { signing_key_secret: Some(TEST_SIGNING_SECRET.into()), ..WebhookConfig::default() }
}

/// How the receiver answers one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// This status, at once.
    Status(u16),
    /// This status with `Retry-After: secs`.
    RetryAfter(u16, u64),
    /// 200 after this long (longer than the client's time-out = a time-out).
    Slow(Duration),
}

/// One call as the receiver saw it.
#[derive(Debug, Clone)]
pub struct Received {
    /// Header names lower-cased.
    pub headers: HashMap<String, String>,
    /// The raw body bytes.
    pub body: Vec<u8>,
    /// When it arrived.
    pub at: Instant,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(&name.to_ascii_lowercase()).map(String::as_str).unwrap_or("")
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("webhook body is JSON")
    }
}

/// State shared between the receiver's handler and the test.
#[derive(Default)]
struct Shared {
    /// Every call, in arrival order.
    calls: Mutex<Vec<Received>>,
    /// Answers to give, in order; 200 when empty.
    script: Mutex<VecDeque<Answer>>,
    /// Woken on every call.
    arrived: Notify,
    /// While set, every call is answered 503 (a receiver that is down), whatever the script says.
    down: std::sync::atomic::AtomicBool,
}

/// An HTTPS receiver on `127.0.0.1:0` with a certificate from the CA.
pub struct Receiver {
    /// `https://127.0.0.1:PORT/hook`
    pub url: String,
    shared: Arc<Shared>,
    shutdown: CancellationToken,
}

impl Receiver {
    pub async fn start(ca: &LocalCa) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind receiver");
        let url = format!("https://{}/hook", listener.local_addr().unwrap());
        let shared = Arc::new(Shared::default());
        let handler_state = shared.clone();
        let router = axum::Router::new().route(
            "/hook",
            axum::routing::post(move |headers: HeaderMap, body: Bytes| receive(handler_state.clone(), headers, body)),
        );
        let config = ca.server_config(&["127.0.0.1", "localhost"]).expect("server certificate");
        let shutdown = CancellationToken::new();
        tokio::spawn(serve_tls(listener, config, router, shutdown.clone()));
        Receiver { url, shared, shutdown }
    }

    /// Answers the next calls with `answers`, then 200 again.
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.shared.script.lock().unwrap().extend(answers);
    }

    /// Answers every call with 503 while `down` (the calls are still recorded).
    pub fn set_down(&self, down: bool) {
        self.shared.down.store(down, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn calls(&self) -> Vec<Received> {
        self.shared.calls.lock().unwrap().clone()
    }

    /// Waits until at least `n` calls arrived (bounded by `limit`) and returns all.
    pub async fn wait_for(&self, n: usize, limit: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.shared.arrived.notified();
            let calls = self.calls();
            if calls.len() >= n {
                return calls;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                let calls = self.calls();
                assert!(calls.len() >= n, "expected {n} calls within {limit:?}, got {}", calls.len());
                return calls;
            }
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

async fn receive(shared: Arc<Shared>, headers: HeaderMap, body: Bytes) -> Response {
    let headers: HashMap<String, String> =
        headers.iter().map(|(k, v)| (k.as_str().to_ascii_lowercase(), v.to_str().unwrap_or("").to_owned())).collect();
    let answer = if shared.down.load(std::sync::atomic::Ordering::SeqCst) {
        Answer::Status(503)
    } else {
        shared.script.lock().unwrap().pop_front().unwrap_or(Answer::Status(200))
    };
    // Recorded on arrival: a sender that times out drops the connection, and
    // with it this handler.
    shared.calls.lock().unwrap().push(Received { headers, body: body.to_vec(), at: Instant::now() });
    shared.arrived.notify_waiters();
    if let Answer::Slow(delay) = answer {
        tokio::time::sleep(delay).await;
    }
    match answer {
        Answer::Status(code) => StatusCode::from_u16(code).unwrap().into_response(),
        Answer::RetryAfter(code, secs) => {
            (StatusCode::from_u16(code).unwrap(), [("retry-after", secs.to_string())], "busy").into_response()
        }
        Answer::Slow(_) => StatusCode::OK.into_response(),
    }
}

/// The client settings of tests: 2 s time-out, 127.0.0.1 allowed, the CA trusted.
pub fn client_settings(ca_file: &std::path::Path) -> ClientSettings {
    ClientSettings {
        timeout_secs: 2,
        allow_destinations: "127.0.0.1/32".into(),
        extra_ca_certs: vec![ca_file.to_path_buf()],
    }
}

/// core-service, the gateways, an in-process dispatcher and a receiver.
pub struct WebhookEnv {
    pub app: TestApp,
    pub receiver: Receiver,
    pub ca: LocalCa,
    /// Holds the CA file.
    pub dir: tempfile::TempDir,
    /// Stops the in-process dispatcher.
    pub dispatcher: CancellationToken,
}

impl WebhookEnv {
    /// Fast retries (1 s, 1 s, 1 s: four attempts), automatic disable after
    /// three failures spanning at least a second, 1 s rotation delay.
    pub async fn spawn(backend: Backend) -> WebhookEnv {
        Self::spawn_with(backend, |_| {}).await
    }

    /// As [`WebhookEnv::spawn`], with the configuration adjusted by `tweak`.
    pub async fn spawn_with(backend: Backend, tweak: impl FnOnce(&mut WebhookConfig)) -> WebhookEnv {
        Self::spawn_parts(backend, tweak, true).await
    }

    /// As [`WebhookEnv::spawn_with`]; without the in-process dispatcher when
    /// `dispatcher` is false (fault tests run it as a separate process).
    pub async fn spawn_parts(backend: Backend, tweak: impl FnOnce(&mut WebhookConfig), dispatcher: bool) -> WebhookEnv {
        let ca = LocalCa::generate().expect("local CA");
        let dir = tempfile::tempdir().unwrap();
        let ca_file = dir.path().join("ca.pem");
        std::fs::write(&ca_file, ca.ca_pem()).unwrap();
        let mut config = WebhookConfig {
            key_rotation_delay_secs: 1,
            retry_schedule: "1s,1s,1s".into(),
            disable_failures: 3,
            disable_after_secs: 1,
            client: client_settings(&ca_file),
            ..test_webhooks()
        };
        tweak(&mut config);
        let app = TestApp::spawn_configured(backend, "development", keyword_only(), config.clone()).await;
        let run_dispatcher = dispatcher;
        let dispatcher = CancellationToken::new();
        if run_dispatcher {
            let mut settings = webhook_dispatcher::DispatcherConfig::new(app.grpc_url.clone(), config.client.clone());
            settings.poll_interval_ms = 50;
            tokio::spawn(webhook_dispatcher::run(settings, dispatcher.clone()));
        }
        let receiver = Receiver::start(&ca).await;
        WebhookEnv { app, receiver, ca, dir, dispatcher }
    }

    /// `{base_url}/api/v2/projects/{project}/webhooks{rest}`
    pub fn url(&self, project: &str, rest: &str) -> String {
        format!("{}/api/v2/projects/{project}/webhooks{rest}", self.app.base_url)
    }

    /// Starts another dispatcher replica in this process (the environment's settings, 50 ms
    /// polls); it runs until the token is cancelled.
    pub fn another_dispatcher(&self) -> CancellationToken {
        let mut settings =
            webhook_dispatcher::DispatcherConfig::new(self.app.grpc_url.clone(), client_settings(&self.ca_file()));
        settings.poll_interval_ms = 50;
        let stop = CancellationToken::new();
        tokio::spawn(webhook_dispatcher::run(settings, stop.clone()));
        stop
    }

    /// The CA file the senders trust.
    pub fn ca_file(&self) -> std::path::PathBuf {
        self.dir.path().join("ca.pem")
    }
}

impl Drop for WebhookEnv {
    fn drop(&mut self) {
        self.dispatcher.cancel();
    }
}
