//! The web map as a multi-user editor in a real browser: headless Chromium (Debian's `chromium`)
//! driven by `playwright-core` runs `tests/browser/editor_test.mjs` against the real services,
//! with two Editors (A owns the project, B is a member) in separate browser contexts and a
//! Viewer; axe-core checks the editor's accessibility. `tests/run.sh` installs all three. The
//! screenshots of both screens are kept under `target/test-artifacts/` (of `CARGO_TARGET_DIR`), or
//! `CANVAS_TEST_ARTIFACTS`.
//!
//! Run twice per backend: people signed in with API tokens (`?auth=token`), and people signed in
//! to the account site through one-time sign-in links (`--mode cookie`), whose writes go with the
//! session cookie and its CSRF value (`X-Canvas-CSRF`), the way a person opening an item link uses
//! the editor.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::Method;
use serde_json::{json, Value};

use crate::browser::{artifacts_dir, require_browser, run_script};
use crate::support::send;

backend_tests!(two_people_edit_one_map, two_people_signed_in_to_the_account_site_edit_one_map);

const PASSWORD: &str = "correct horse battery";

/// How the people sign in.
#[derive(Clone, Copy, PartialEq)]
enum SignIn {
    /// API tokens typed into the page.
    Token,
    /// One-time sign-in links of the account site: the session cookie writes.
    Session,
}

/// Creates an item on the canvas with the `Authorization` value `token`; answers its id.
pub(crate) async fn create(app: &TestApp, token: &str, project: &str, kind: &str, body: Value) -> String {
    let reply = send(
        app,
        Method::POST,
        &app.item_url(project, &format!("/panel/{kind}?jsonCasing=camel")),
        Some(token),
        Some(body),
    )
    .await;
    assert!(reply.status.is_success(), "{}", reply.body);
    reply.body["itemId"].as_str().unwrap().to_owned()
}

async fn two_people_edit_one_map(backend: Backend) {
    edit_one_map(backend, SignIn::Token).await;
}

async fn two_people_signed_in_to_the_account_site_edit_one_map(backend: Backend) {
    edit_one_map(backend, SignIn::Session).await;
}

async fn edit_one_map(backend: Backend, sign_in: SignIn) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let (a, b) = match sign_in {
        SignIn::Token => (app.user("ann").await, app.user("bea").await),
        SignIn::Session => {
            (app.account_user("ann", "ann", PASSWORD).await, app.account_user("bea", "bea", PASSWORD).await)
        }
    };
    let project = app.project(&a).await;
    app.add_member(&project, &b, ProjectRole::Editor).await;
    let viewer = app.user("vic").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;

    let bearer = a.bearer();
    let sticky =
        create(&app, &bearer, &project, "sticky-note", json!({"text": "Plan", "position": {"x": 0, "y": 0}})).await;
    let shape = |x: i32| json!({"type": "Rectangle", "size": {"width": 160, "height": 90}, "position": {"x": x, "y": 260}, "fillColor": "#1D4ED8"});
    let shape1 = create(&app, &bearer, &project, "shape", shape(-260)).await;
    let shape2 = create(&app, &bearer, &project, "shape", shape(260)).await;

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let mode = if sign_in == SignIn::Token { "token" } else { "cookie" };
    let label = format!("{backend:?}-{mode}").to_lowercase();
    let shots = artifacts.to_string_lossy();
    let (link_a, link_b) = match sign_in {
        SignIn::Token => (String::new(), String::new()),
        SignIn::Session => (app.sign_in_link(&a).await, app.sign_in_link(&b).await),
    };
    let mut args = vec![
        "--base",
        &app.base_url,
        "--project",
        &project,
        "--mode",
        mode,
        "--sticky",
        &sticky,
        "--shape1",
        &shape1,
        "--shape2",
        &shape2,
        "--token-a",
        &a.token,
        "--token-b",
        &b.token,
        "--viewer-token",
        &viewer.token,
        "--shots",
        &shots,
        "--label",
        &label,
    ];
    if sign_in == SignIn::Session {
        args.extend(["--link-a", &link_a, "--link-b", &link_b, "--login-a", "ann", "--login-b", "bea"]);
    }
    let (success, stdout) = run_script("editor_test.mjs", &args, Duration::from_secs(300)).await;
    let passed = stdout
        .lines()
        .find_map(|line| line.strip_suffix(" passed, 0 failed"))
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    // 16 checks, and in cookie mode one more: another site's page cannot write with the session.
    let wanted = if sign_in == SignIn::Session { 17 } else { 16 };
    assert!(success && passed >= wanted, "the browser test failed; see above");
    for person in ["a", "b"] {
        let shot = artifacts.join(format!("editor-{label}-{person}.png"));
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(size > 10_000, "the screenshot {} is missing or empty", shot.display());
        println!("screenshot saved to {}", shot.display());
    }
}
