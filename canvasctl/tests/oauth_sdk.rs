//! An MCP client connects to a fresh `canvasctl up` with OAuth, as a newcomer's would: the real
//! binary on an empty data directory, its `dev-credentials.json` read for the base URL, the demo
//! project and the one-time sign-in link, then `tests/mcp/oauth_e2e.py`, where the official MCP
//! Python SDK's OAuth client discovers the server, registers, and sends the demo person through
//! sign-in and consent in headless Chromium (`tests/browser/oauth_consent.mjs`); then it connects
//! again named by a Client ID Metadata Document served over HTTPS (MCP 2026-07-28) and checks the
//! answer's `iss`; and the RFC answers of the authorization server are checked with plain HTTP.
//!
//! Needs what `tests/run.sh` installs: the pinned MCP SDK in `~/.cache/canvas-venv`
//! (`CANVAS_MCP_VENV`), `playwright-core` in `~/.cache/canvas-browser` (`CANVAS_BROWSER_DIR`) and
//! Debian's `chromium`; a missing install fails with that command. The consent page's screenshot
//! is kept as `account-consent-canvasctl.png` under `target/test-artifacts/` (of
//! `CARGO_TARGET_DIR`), or `CANVAS_TEST_ARTIFACTS`.
//!
//! The start and wait helpers are a small copy of `up.rs`'s: canvasctl's tests share no code.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{start_with_env, wait_ready};

fn home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"))
}

fn venv_python() -> PathBuf {
    std::env::var_os("CANVAS_MCP_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache/canvas-venv"))
        .join("bin/python")
}

fn browser_dir() -> PathBuf {
    std::env::var_os("CANVAS_BROWSER_DIR").map(PathBuf::from).unwrap_or_else(|| home().join(".cache/canvas-browser"))
}

fn artifacts_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CANVAS_TEST_ARTIFACTS") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("test-artifacts")
}

/// Runs `command` to completion within `limit`, killing it when it hangs; returns its exit
/// status and what it printed on both streams.
fn run_bounded(command: &mut Command, limit: Duration) -> (std::process::ExitStatus, String, String) {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the client starts");
    let drain = |mut stream: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut text = String::new();
            let _ = stream.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().unwrap()));
    let stderr = drain(Box::new(child.stderr.take().unwrap()));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the OAuth client did not finish within {limit:?}\n--- stdout\n{}\n--- stderr\n{}",
                stdout.join().unwrap_or_default(),
                stderr.join().unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    (status, stdout.join().unwrap_or_default(), stderr.join().unwrap_or_default())
}

#[test]
fn the_mcp_sdk_connects_with_oauth_after_consent_in_the_browser() {
    let python = venv_python();
    assert!(python.exists(), "{} is missing: run tests/run.sh, which installs the pinned MCP SDK", python.display());
    let browser = browser_dir();
    assert!(
        browser.join("node_modules/playwright-core/package.json").exists(),
        "playwright-core is not installed in {}: run tests/run.sh",
        browser.display()
    );
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "Chromium is missing: run tests/run.sh (apt-get install chromium)"
    );

    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("canvas-data");
    // The client's metadata document is served over HTTPS by the script, with a certificate from
    // a local CA that the service trusts and on 127.0.0.1, which it is allowed to fetch from (the
    // webhook destination rules and settings, as a developer's local setup would have them).
    let ca = webhook_client::receiver::LocalCa::generate().unwrap();
    let (cert, key) = ca.server_pem(&["127.0.0.1"]).unwrap();
    let (ca_file, cert_file, key_file) =
        (dir.path().join("ca.pem"), dir.path().join("document-cert.pem"), dir.path().join("document-key.pem"));
    for (path, pem) in [(&ca_file, ca.ca_pem()), (&cert_file, cert.as_str()), (&key_file, key.as_str())] {
        std::fs::write(path, pem).unwrap();
    }
    let ca_path = ca_file.to_str().unwrap();
    let _running = start_with_env(
        &data_dir,
        &[("CANVAS_WEBHOOK_CA_CERTS", ca_path), ("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")],
    );
    let creds = wait_ready(&data_dir, None);
    let field = |key: &str| {
        creds[key]
            .as_str()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| panic!("{key} in dev-credentials.json: {creds}"))
    };
    let (base, project, link, login) = (field("baseUrl"), field("projectId"), field("signInUrl"), field("login"));
    assert!(link.starts_with(&format!("{base}/account/link?code=")), "signInUrl is a sign-in link on {base}: {link}");

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let screenshot = artifacts.join("account-consent-canvasctl.png");
    let _ = std::fs::remove_file(&screenshot);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/oauth_e2e.py");
    let mut command = Command::new(&python);
    command.arg(&script).env("CANVAS_BROWSER_DIR", &browser);
    command.args(["--url", &format!("{base}/mcp"), "--project", project, "--sign-in-url", link, "--login", login]);
    command.arg("--screenshot").arg(&screenshot);
    command.arg("--document-cert").arg(&cert_file).arg("--document-key").arg(&key_file);
    let (status, stdout, stderr) = run_bounded(&mut command, Duration::from_secs(300));
    println!("--- oauth_e2e.py stdout\n{stdout}\n--- stderr\n{stderr}");
    assert!(status.success(), "oauth_e2e.py failed with {status}; its output is above");
    assert!(stdout.contains(" 0 failed"), "oauth_e2e.py reported failures; its output is above");
    let size = std::fs::metadata(&screenshot).map(|m| m.len()).unwrap_or(0);
    assert!(size > 2_000, "the consent page's screenshot {} is missing or empty", screenshot.display());
    println!("screenshot saved to {}", screenshot.display());
}
