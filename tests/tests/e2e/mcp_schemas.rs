//! The MCP tool schemas as the official TypeScript MCP SDK's validator sees them, strict:
//! `tests/mcp/schema_check.mjs` connects with the SDK client, compiles every input and output
//! schema with the SDK's Ajv provider in strict mode (JSON Schema 2020-12), calls tools so the
//! client validates their results, and fails on anything printed as a warning or an error.
//!
//! `tests/run.sh` installs the pinned SDK (`tests/mcp/package.json`) into `~/.cache/canvas-mcp-sdk`
//! (`CANVAS_MCP_SDK_DIR` overrides). Without it the test fails under `CI=true` and is skipped,
//! saying so, otherwise.

use std::path::{Path, PathBuf};
use std::time::Duration;

use canvas_tests::{Backend, TestApp};
use tokio::process::Command;

use crate::support::owner_with_project;

/// The npm prefix holding the pinned SDK.
pub(crate) fn sdk_dir() -> PathBuf {
    std::env::var_os("CANVAS_MCP_SDK_DIR").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into())).join(".cache/canvas-mcp-sdk")
    })
}

/// The SDK version tests/mcp/package.json pins.
fn pinned_version() -> String {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/package.json");
    let text = std::fs::read_to_string(&manifest).expect("tests/mcp/package.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    json["dependencies"]["@modelcontextprotocol/sdk"].as_str().expect("the SDK is pinned").to_owned()
}

/// The installed SDK's version, when there is one.
fn installed_version(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("node_modules/@modelcontextprotocol/sdk/package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["version"].as_str().map(str::to_owned)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sdk_validator_accepts_every_tool_schema_in_strict_mode() {
    let dir = sdk_dir();
    let wanted = pinned_version();
    if installed_version(&dir).as_deref() != Some(wanted.as_str()) {
        let why = format!(
            "@modelcontextprotocol/sdk {wanted} is not installed in {}: run tests/run.sh (it installs \
             tests/mcp/package.json there)",
            dir.display()
        );
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        println!("SKIPPED: {why}");
        return;
    }
    let app = TestApp::spawn(Backend::Sqlite).await;
    let (owner, project) = owner_with_project(&app).await;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/schema_check.mjs");
    let mut command = Command::new("node");
    command.arg(&script).env("CANVAS_MCP_SDK_DIR", &dir);
    command.args(["--url", &app.mcp_url(), "--token", &owner.token, "--project", &project]);
    let output = tokio::time::timeout(Duration::from_secs(120), command.kill_on_drop(true).output())
        .await
        .expect("the schema check finishes within 120 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- schema check\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "the SDK's strict validator refused something; see above");
    let tools = stdout.lines().filter(|l| l.contains("inputSchema compiles in strict mode")).count();
    assert_eq!(tools, 30, "every tool's schemas were checked");
    assert!(stdout.contains(" 0 failed"), "{stdout}");
}
