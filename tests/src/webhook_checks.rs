//! Checks of received webhook calls that do not trust our own code: the
//! signature is verified by Python's `cryptography` from the published JWK
//! set alone (`webhook_verify.py`), and again by the `p256` verify path
//! through the receiver rules of `webhook_client::verify`.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use serde_json::{json, Value};
use webhook_client::verify::{parse_signature, KeySet};

use crate::webhooks::Received;

const VERIFY_SCRIPT: &str = include_str!("webhook_verify.py");

/// A Python with `cryptography`: CANVAS_TEST_PYTHON, the test venv of
/// tests/run.sh, or the system python3. Panics (never skips) without one.
fn python() -> String {
    let venv = std::env::var("CANVAS_MCP_VENV")
        .unwrap_or_else(|_| format!("{}/.cache/canvas-venv", std::env::var("HOME").unwrap_or_default()));
    let candidates =
        [std::env::var("CANVAS_TEST_PYTHON").ok(), Some(format!("{venv}/bin/python")), Some("python3".into())];
    for candidate in candidates.into_iter().flatten() {
        let ok = Command::new(&candidate)
            .args(["-c", "import cryptography"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return candidate;
        }
    }
    panic!("no Python with the `cryptography` package: run tests/run.sh (it installs it) or set CANVAS_TEST_PYTHON");
}

/// Verifies every call with Python's `cryptography` and the JWK set `jwks`;
/// one boolean per call.
pub fn python_verifies(jwks: &Value, calls: &[Received]) -> Vec<bool> {
    let request = json!({
        "jwks": jwks,
        "calls": calls.iter().map(|c| json!({
            "id": c.header("webhook-id"),
            "timestamp": c.header("webhook-timestamp"),
            "signature": c.header("webhook-signature"),
            "body_b64": STANDARD.encode(&c.body),
        })).collect::<Vec<_>>(),
    });
    let mut child = Command::new(python())
        .args(["-c", VERIFY_SCRIPT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    child.stdin.take().unwrap().write_all(request.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "verifier failed: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("a JSON list of booleans")
}

/// The same check through the p256 verify path, fed only the JWK set.
pub fn rust_verifies(jwks: &Value, call: &Received) -> bool {
    let keys = KeySet::from_jwks(jwks);
    let Ok(signature) = parse_signature(call.header("webhook-signature")) else { return false };
    keys.verify(&signature, call.header("webhook-id"), call.header("webhook-timestamp"), &call.body).is_ok()
}

/// The `kid` named by a call's signature header.
pub fn kid_of(call: &Received) -> String {
    parse_signature(call.header("webhook-signature")).map(|s| s.kid).unwrap_or_default()
}
