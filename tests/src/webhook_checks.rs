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
    serde_json::from_slice(&run_python(VERIFY_SCRIPT, &request, "verifier")).expect("a JSON list of booleans")
}

/// Runs `script` with `request` as JSON on stdin; its stdout. Panics when it fails.
fn run_python(script: &str, request: &Value, what: &str) -> Vec<u8> {
    let mut child = Command::new(python())
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python starts");
    child.stdin.take().unwrap().write_all(request.to_string().as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{what} failed: {}", String::from_utf8_lossy(&output.stderr));
    output.stdout
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

const CATALOG_SCRIPT: &str = include_str!("webhook_catalog_check.py");

/// Validates every call's body against `catalog` (`GET /api/v2/webhooks/event-types`) with Python's
/// `jsonschema`: one entry per call, None when valid, else the reasons.
pub fn catalog_violations(catalog: &Value, calls: &[Received]) -> Vec<Option<String>> {
    let bodies: Vec<String> = calls.iter().map(|c| String::from_utf8_lossy(&c.body).into_owned()).collect();
    let request = json!({"catalog": catalog, "bodies": bodies});
    serde_json::from_slice(&run_python(CATALOG_SCRIPT, &request, "catalog check")).expect("a JSON list")
}

/// Fetches the catalog from `base_url` and asserts every call's body validates against it.
pub async fn assert_calls_match_catalog(http: &reqwest::Client, base_url: &str, calls: &[Received]) {
    let catalog: Value =
        http.get(format!("{base_url}/api/v2/webhooks/event-types")).send().await.unwrap().json().await.unwrap();
    let violations = catalog_violations(&catalog, calls);
    let bad: Vec<String> = violations
        .iter()
        .zip(calls)
        .filter_map(|(v, c)| v.as_ref().map(|v| format!("{v}\n  body: {}", String::from_utf8_lossy(&c.body))))
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} webhook bodies do not match the catalog:\n{}",
        bad.len(),
        calls.len(),
        bad.join("\n")
    );
}
