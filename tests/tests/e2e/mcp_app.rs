//! The map as an MCP App: `tests/mcp/app_host.mjs` runs the MCP Apps extension's official host
//! implementation (`AppBridge` of `@modelcontextprotocol/ext-apps`, pinned in
//! `tests/mcp/package.json`) against the real MCP server, with the view
//! (`mcp-gateway/assets/map-app.html`) in headless Chromium: the SDK finds the view through the
//! tools' `_meta.ui.resourceUri`, reads it, and the view draws a real `create_item` result with
//! `render_map` called through the host and opens the item's link through the host.
//!
//! `tests/run.sh` installs the packages (`~/.cache/canvas-mcp-sdk`, `CANVAS_MCP_SDK_DIR`) and
//! playwright-core (`~/.cache/canvas-browser`); a missing install fails with the command that
//! fixes it. The screenshot goes under `test-artifacts/`.

use std::path::Path;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use tokio::process::Command;

use crate::browser::{artifacts_dir, browser_dir, require_browser};
use crate::mcp_schemas::sdk_dir;
use crate::support::owner_with_project;

backend_tests!(the_map_view_shows_a_tool_result_under_the_official_host);

async fn the_map_view_shows_a_tool_result_under_the_official_host(backend: Backend) {
    require_browser();
    let sdk = sdk_dir();
    assert!(
        sdk.join("node_modules/@modelcontextprotocol/ext-apps/package.json").exists(),
        "@modelcontextprotocol/ext-apps is not installed in {}: run tests/run.sh",
        sdk.display()
    );
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let screenshot = artifacts.join(format!("mcp-app-{}.png", format!("{backend:?}").to_lowercase()));
    let _ = std::fs::remove_file(&screenshot);

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/app_host.mjs");
    let mut command = Command::new("node");
    command.arg(&script).env("CANVAS_MCP_SDK_DIR", &sdk).env("CANVAS_BROWSER_DIR", browser_dir());
    command.args(["--url", &app.mcp_url(), "--token", &owner.token, "--project", &project]);
    command.arg("--screenshot").arg(&screenshot);
    let output = tokio::time::timeout(Duration::from_secs(120), command.kill_on_drop(true).output())
        .await
        .expect("the host test finishes within 120 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- app host\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the MCP App checks failed; see above");
    assert!(stdout.contains("5 passed, 0 failed") || stdout.contains("6 passed, 0 failed"), "{stdout}");
    assert!(screenshot.exists(), "the screenshot of the view was kept");
}
