//! Comment threads on the live map in a real browser: headless Chromium (Debian's `chromium`)
//! driven by `playwright-core` runs `tests/browser/comments_test.mjs` against the real services
//! (docs/COMMENTS.md "On the live map"). Three people in separate browser contexts: A owns the
//! project and opens a thread on an item, B (a Viewer: any member may comment) replies, C (an
//! Editor) sees both within a second through the change stream and resolves the thread; the
//! keyboard reaches and opens a pin, and axe-core checks the page with the comments panel open.
//! `tests/run.sh` installs the browser. The screenshots are kept under `target/test-artifacts/`
//! (of `CARGO_TARGET_DIR`), or `CANVAS_TEST_ARTIFACTS`.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use serde_json::json;

use crate::browser::{artifacts_dir, require_browser, run_script};
use crate::map_editor::create;

backend_tests!(three_people_comment_on_one_map);

async fn three_people_comment_on_one_map(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let a = app.user("ann").await;
    let b = app.user("bea").await;
    let c = app.user("cal").await;
    let project = app.project(&a).await;
    app.add_member(&project, &b, ProjectRole::Viewer).await;
    app.add_member(&project, &c, ProjectRole::Editor).await;

    let bearer = a.bearer();
    let item =
        create(&app, &bearer, &project, "sticky-note", json!({"text": "Plan", "position": {"x": 0, "y": 0}})).await;
    let shape = json!({"type": "Rectangle", "size": {"width": 160, "height": 90}, "position": {"x": 320, "y": 220},
                       "fillColor": "#1D4ED8"});
    create(&app, &bearer, &project, "shape", shape).await;

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let label = format!("{backend:?}").to_lowercase();
    let shots = artifacts.to_string_lossy();
    let args = [
        "--base",
        &app.base_url,
        "--project",
        &project,
        "--item",
        &item,
        "--token-a",
        &a.token,
        "--token-b",
        &b.token,
        "--token-c",
        &c.token,
        "--shots",
        &shots,
        "--label",
        &label,
    ];
    let (success, stdout) = run_script("comments_test.mjs", &args, Duration::from_secs(240)).await;
    let passed = stdout
        .lines()
        .find_map(|line| line.strip_suffix(" passed, 0 failed"))
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    assert!(success && passed >= 7, "the browser test failed; see above");
    for person in ["a", "c"] {
        let shot = artifacts.join(format!("comments-{label}-{person}.png"));
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(size > 10_000, "the screenshot {} is missing or empty", shot.display());
        println!("screenshot saved to {}", shot.display());
    }
}
