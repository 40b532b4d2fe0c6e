//! The account site over real HTTPS, as a deployment serves it: rest-gateway with
//! `--account-url https://…`, served over TLS with a certificate of a local CA
//! (`webhook_client::receiver::LocalCa`). The cookies must become `__Host-` cookies with
//! `Secure`, and sign-in, the signed-in map and the token page must work with them in a real
//! browser (`tests/browser/account_https_test.mjs`, headless Chromium). A mistake here would
//! break every sign-in in production while every plain-HTTP test stayed green.

use std::path::Path;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::process::Command;
use webhook_client::receiver::{serve_tls, LocalCa};

use crate::browser::{artifacts_dir, browser_dir, require_browser};
use crate::support::send;

backend_tests!(the_account_site_over_https_uses_host_cookies_in_a_browser);

const PASSWORD: &str = "correct horse battery";

async fn the_account_site_over_https_uses_host_cookies_in_a_browser(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let ada = app.account_user("Ada", "ada", PASSWORD).await;
    let project = app.project(&ada).await;
    let body = json!({"text": "Over HTTPS", "position": {"x": 0, "y": 0}});
    let reply =
        send(&app, Method::POST, &app.item_url(&project, "/panel/label"), Some(&ada.bearer()), Some(body)).await;
    let node = reply.body["ItemId"].as_str().expect("an item id").to_owned();

    // A second gateway on the same core-service, over TLS, that knows its public URL is https.
    let ca = LocalCa::generate().unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("https://127.0.0.1:{}", listener.local_addr().unwrap().port());
    let state = rest_gateway::AppState::connect(&app.grpc_url, &canvas_runtime::GatewayArgs::default())
        .unwrap()
        .with_account_url(&base);
    let stop = tokio_util::sync::CancellationToken::new();
    let _stop = stop.clone().drop_guard();
    let config = ca.server_config(&["127.0.0.1"]).unwrap();
    tokio::spawn(serve_tls(listener, config, rest_gateway::router(state), stop));

    // What a client that trusts the CA sees: the cookies' exact attributes.
    let trusted = reqwest::Client::builder()
        .add_root_certificate(reqwest::Certificate::from_pem(ca.ca_pem().as_bytes()).unwrap())
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let form = trusted.get(format!("{base}/account/sign-in")).send().await.unwrap();
    let csrf_cookie = form.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(csrf_cookie.starts_with("__Host-canvas_csrf="), "{csrf_cookie}");
    let csrf = csrf_cookie.split(';').next().unwrap().split_once('=').unwrap().1.to_owned();
    let signed_in = trusted
        .post(format!("{base}/account/sign-in"))
        .header("cookie", format!("__Host-canvas_csrf={csrf}"))
        .header("origin", &base)
        .form(&[("login", "ada"), ("password", PASSWORD), ("csrf", csrf.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(signed_in.status(), StatusCode::SEE_OTHER);
    let session = signed_in
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.contains("canvas_session"))
        .expect("a session cookie");
    assert!(session.starts_with("__Host-canvas_session=svc_ss_"), "{session}");
    for attribute in ["; Secure", "; HttpOnly", "; SameSite=Lax", "; Path=/"] {
        assert!(session.contains(attribute), "{session} lacks {attribute}");
    }
    assert!(!session.to_ascii_lowercase().contains("domain="), "{session}");

    // And in a browser.
    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let screenshot = artifacts.join(format!("account-https-{}.png", format!("{backend:?}").to_lowercase()));
    let _ = std::fs::remove_file(&screenshot);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("browser/account_https_test.mjs");
    let mut command = Command::new("node");
    command.arg(&script).env("CANVAS_BROWSER_DIR", browser_dir());
    command.args(["--base", &base, "--project", &project, "--node", &node, "--login", "ada", "--password", PASSWORD]);
    command.arg("--screenshot").arg(&screenshot);
    let output = tokio::time::timeout(Duration::from_secs(180), command.kill_on_drop(true).output())
        .await
        .expect("the browser test finishes within 180 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- browser test\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.contains("5 passed, 0 failed"), "the browser test failed; see above");
    assert!(std::fs::metadata(&screenshot).map(|m| m.len()).unwrap_or(0) > 10_000, "no screenshot");
}
