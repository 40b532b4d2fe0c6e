//! The webhook side of `canvasctl`, through the real binary: `up` runs a
//! dispatcher (a webhook registered over REST gets its call on a local HTTPS
//! receiver), `keys rotate` publishes a second key, `project copy` carries
//! items and webhooks over.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use webhook_client::receiver::{serve_tls, LocalCa};

mod common;
use common::{Running, BIN};

async fn wait_ready(data_dir: &Path, http: &reqwest::Client) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "canvasctl up did not become ready");
        tokio::time::sleep(Duration::from_millis(100)).await;
        let Ok(text) = std::fs::read_to_string(data_dir.join("dev-credentials.json")) else { continue };
        let Ok(creds) = serde_json::from_str::<Value>(&text) else { continue };
        let ready = http.get(format!("{}/readyz", creds["baseUrl"].as_str().unwrap())).send().await;
        if ready.is_ok_and(|r| r.status() == 200) {
            return creds;
        }
    }
}

fn canvasctl(creds: &Value, args: &[&str]) -> Value {
    let output = Command::new(BIN)
        .args(args)
        .args(["--json", "--core", creds["coreUrl"].as_str().unwrap()])
        .env("CANVAS_ADMIN_TOKEN", creds["adminToken"].as_str().unwrap())
        .output()
        .unwrap();
    assert!(output.status.success(), "canvasctl {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn up_delivers_webhooks_and_keys_rotate_and_projects_copy() {
    let dir = tempfile::tempdir().unwrap();
    let ca = LocalCa::generate().unwrap();
    let ca_file = dir.path().join("ca.pem");
    std::fs::write(&ca_file, ca.ca_pem()).unwrap();
    let calls: Arc<Mutex<Vec<Value>>> = Arc::default();
    let noted = calls.clone();
    let router = axum::Router::new().fallback(move |body: axum::body::Bytes| {
        let noted = noted.clone();
        async move {
            noted.lock().unwrap().push(serde_json::from_slice(&body).unwrap_or(Value::Null));
            "ok"
        }
    });
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let hook_url = format!("https://{}/hook", tcp.local_addr().unwrap());
    let stop = tokio_util::sync::CancellationToken::new();
    tokio::spawn(serve_tls(tcp, ca.server_config(&["127.0.0.1"]).unwrap(), router, stop.clone()));

    let data_dir = dir.path().join("data");
    let _up = Running(
        Command::new(BIN)
            .args(["up", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--data-dir"])
            .arg(&data_dir)
            .env_remove("CANVAS_DATABASE_URL")
            .env("CANVAS_EMBEDDING_PROVIDER", "off")
            .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
            .env("CANVAS_WEBHOOK_CA_CERTS", &ca_file)
            .env("CANVAS_WEBHOOK_KEY_ROTATION_DELAY_SECS", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("canvasctl starts"),
    );
    let http = reqwest::Client::new();
    let creds = wait_ready(&data_dir, &http).await;
    assert!(data_dir.join("webhook-signing-secret").exists(), "development generates the signing secret");
    let (base, project, token) =
        (creds["baseUrl"].as_str().unwrap(), creds["projectId"].as_str().unwrap(), creds["token"].as_str().unwrap());
    let auth = format!("Bearer {token}");
    let hooks = format!("{base}/api/v2/projects/{project}/webhooks");
    let created = http
        .post(&hooks)
        .header("Authorization", &auth)
        .json(&json!({"url": hook_url, "events": ["item.created"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(created.status(), 200);
    let label = http
        .post(format!("{base}/api/v2/projects/{project}/item/panel/label?jsonCasing=camel"))
        .header("Authorization", &auth)
        .json(&json!({"text": "from up"}))
        .send()
        .await
        .unwrap();
    assert_eq!(label.status(), 200);
    let deadline = Instant::now() + Duration::from_secs(20);
    while calls.lock().unwrap().is_empty() {
        assert!(Instant::now() < deadline, "the dispatcher of `up` never called");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(calls.lock().unwrap()[0]["changes"][0]["new"]["text"], "from up");

    let keys = format!("{base}/api/v2/webhooks/keys");
    let before: Value = http.get(&keys).send().await.unwrap().json().await.unwrap();
    let rotated = canvasctl(&creds, &["keys", "rotate", "--delay-secs", "1"]);
    let after: Value = http.get(&keys).send().await.unwrap().json().await.unwrap();
    assert_eq!(before["keys"].as_array().unwrap().len(), 1);
    let kids: Vec<&str> = after["keys"].as_array().unwrap().iter().map(|k| k["kid"].as_str().unwrap()).collect();
    assert_eq!(kids.len(), 2);
    assert!(kids.contains(&rotated["kid"].as_str().unwrap()));

    let copy = canvasctl(
        &creds,
        &["project", "copy", "--from", project, "--name", "Copy", "--owner", creds["userId"].as_str().unwrap()],
    );
    assert_eq!((copy["itemsCopied"].as_u64(), copy["webhooksCopied"].as_u64()), (Some(1), Some(1)));
    let copied: Value = http
        .get(format!("{base}/api/v2/projects/{}/webhooks?jsonCasing=camel", copy["projectId"].as_str().unwrap()))
        .header("Authorization", &auth)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(copied["elements"][0]["inactive"], "copiedFromOtherProject");
    stop.cancel();
}
