//! The MCP endpoint driven by real clients: the official Python MCP SDK (in
//! both protocol eras, `tests/mcp/client_e2e.py`) and the MCP Inspector CLI.
//! `tests/run.sh` installs both into caches under `~/.cache`; a missing
//! install fails these tests with the command that fixes it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use serde_json::Value;
use tokio::process::Command;

use crate::support::owner_with_project;

backend_tests!(python_sdk_end_to_end);

/// The virtualenv with the pinned `mcp` package (`CANVAS_MCP_VENV` overrides).
pub(crate) fn venv_python() -> PathBuf {
    let venv =
        std::env::var_os("CANVAS_MCP_VENV").map(PathBuf::from).unwrap_or_else(|| home().join(".cache/canvas-venv"));
    venv.join("bin/python")
}

/// The npm prefix holding the Inspector (`CANVAS_MCP_NPM_DIR` overrides).
fn inspector_dir() -> PathBuf {
    std::env::var_os("CANVAS_MCP_NPM_DIR").map(PathBuf::from).unwrap_or_else(|| home().join(".cache/canvas-npm"))
}

fn home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"))
}

/// Runs a client to completion, prints what it said, and returns its
/// stdout; fails the test when it exits non-zero or hangs.
async fn run(command: &mut Command, what: &str) -> String {
    let output = tokio::time::timeout(Duration::from_secs(240), command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within 240 s"))
        .unwrap_or_else(|err| panic!("{what} could not start: {err}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    println!("--- {what} stdout\n{stdout}");
    println!("--- {what} stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{what} failed with {}; its output is above", output.status);
    stdout
}

async fn python_sdk_end_to_end(backend: Backend) {
    let python = venv_python();
    assert!(python.exists(), "{} is missing: run tests/run.sh, which installs the pinned MCP SDK", python.display());
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (_, foreign_project) = owner_with_project(&app).await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/client_e2e.py");
    let mut command = Command::new(&python);
    command.arg(&script).args(["--url", &app.mcp_url(), "--token", &owner.token, "--project", &project]);
    command.args(["--foreign-project", &foreign_project]);
    let stdout = run(&mut command, "the Python MCP SDK client").await;
    assert!(stdout.contains(" 0 failed"), "{stdout}");
}

/// One run of the MCP Inspector CLI: `tools/list` over Streamable HTTP with
/// the caller's token. (The Inspector names no protocol era; one backend is
/// enough for what it shows.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inspector_cli_lists_tools() {
    let dir = inspector_dir();
    assert!(
        dir.join("node_modules/@modelcontextprotocol/inspector").exists(),
        "the MCP Inspector is not installed in {}: run tests/run.sh",
        dir.display()
    );
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, _) = owner_with_project(&app).await;
    let mut command = Command::new("npx");
    command.current_dir(&dir).args(["--no-install", "@modelcontextprotocol/inspector", "--cli", &app.mcp_url()]);
    // --strict: a tool schema with an error-severity portability problem fails the run (exit 6).
    command.args(["--transport", "http", "--method", "tools/list", "--strict"]);
    command.args(["--header", &format!("Authorization: Bearer {}", owner.token)]);
    let stdout = run(&mut command, "the MCP Inspector CLI").await;
    let json_start = stdout.find('{').expect("the Inspector prints JSON");
    let listing: Value = serde_json::from_str(stdout[json_start..].trim()).expect("one JSON document");
    let names: Vec<&str> = listing["tools"]
        .as_array()
        .map(|tools| tools.iter().filter_map(|t| t["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(names.len(), 30, "{listing}");
    for name in [
        "list_projects",
        "find_item",
        "connect_items",
        "upload_image",
        "retrieve_knowledge",
        "list_tags",
        "create_tag",
        "update_tag",
        "delete_tag",
        "create_item",
        "create_items",
        "create_diagram",
        "arrange_items",
        "read_map",
        "render_map",
        "read_diagram",
        "update_diagram",
        "delete_diagram",
        "export_mermaid",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}
