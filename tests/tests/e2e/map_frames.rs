//! Frames on the live map in a real browser: headless Chromium (Debian's `chromium`) driven by
//! `playwright-core` runs `tests/browser/frames_test.mjs` against the real services (docs/MAP.md
//! "Frames"). An Editor makes a frame with the toolbar, drags two sticky notes into it with the
//! mouse (each note's `parent` becomes the frame), drags the frame (the notes ride along on screen;
//! only the frame is written and the service moves all three by the same displacement), drags a
//! note out (its parent is the panel again, undo and redo included), resizes the frame (what it
//! holds is drawn again with its new clip), and a second page checks the frame's layer, name and
//! focus and runs axe-core. `tests/run.sh` installs the browser. The screenshots are kept under
//! `target/test-artifacts/` (of `CARGO_TARGET_DIR`), or `CANVAS_TEST_ARTIFACTS`.

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use serde_json::json;

use crate::browser::{artifacts_dir, require_browser, run_script};
use crate::map_editor::create;

backend_tests!(notes_go_into_a_frame_and_move_with_it);

async fn notes_go_into_a_frame_and_move_with_it(backend: Backend) {
    require_browser();
    let app = TestApp::spawn(backend).await;
    let owner = app.user("fay").await;
    let project = app.project(&owner).await;

    // Two notes far apart on the panel: the map fits them, so the frame made at the view's centre
    // lies between them, holding neither.
    let bearer = owner.bearer();
    let note_a =
        create(&app, &bearer, &project, "sticky-note", json!({"text": "Note A", "position": {"x": -700, "y": 0}}))
            .await;
    let note_b =
        create(&app, &bearer, &project, "sticky-note", json!({"text": "Note B", "position": {"x": 700, "y": 0}})).await;

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let label = format!("{backend:?}").to_lowercase();
    let shots = artifacts.to_string_lossy();
    let args = [
        "--base",
        &app.base_url,
        "--project",
        &project,
        "--note-a",
        &note_a,
        "--note-b",
        &note_b,
        "--token",
        &owner.token,
        "--shots",
        &shots,
        "--label",
        &label,
    ];
    let (success, stdout) = run_script("frames_test.mjs", &args, Duration::from_secs(240)).await;
    let passed = stdout
        .lines()
        .find_map(|line| line.strip_suffix(" passed, 0 failed"))
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or(0);
    assert!(success && passed >= 8, "the browser test failed; see above");
    for page in ["a", "k"] {
        let shot = artifacts.join(format!("frames-{label}-{page}.png"));
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(size > 10_000, "the screenshot {} is missing or empty", shot.display());
        println!("screenshot saved to {}", shot.display());
    }
}
