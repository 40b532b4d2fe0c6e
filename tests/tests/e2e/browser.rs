//! What the browser tests share: where playwright-core is installed
//! (`~/.cache/canvas-browser`, or `CANVAS_BROWSER_DIR`; `tests/run.sh` installs it with Debian's
//! Chromium), where screenshots are kept, and failing with the command that installs what is
//! missing rather than skipping.

use std::path::{Path, PathBuf};

pub fn browser_dir() -> PathBuf {
    std::env::var_os("CANVAS_BROWSER_DIR").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into())).join(".cache/canvas-browser")
    })
}

/// Where test artefacts go: `CANVAS_TEST_ARTIFACTS`, else `test-artifacts` beside the build
/// output (`CARGO_TARGET_DIR`, else the workspace `target`).
pub fn artifacts_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CANVAS_TEST_ARTIFACTS") {
        return PathBuf::from(dir);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
    target.join("test-artifacts")
}

/// Fails with the command that installs what is missing.
pub fn require_browser() {
    let dir = browser_dir();
    assert!(
        dir.join("node_modules/playwright-core/package.json").exists(),
        "playwright-core is not installed in {}: run tests/run.sh",
        dir.display()
    );
    assert!(
        Path::new("/usr/bin/chromium").exists(),
        "Chromium is missing: run tests/run.sh (apt-get install chromium)"
    );
}

/// Runs `tests/browser/{script}` with node (playwright-core from [`browser_dir`]) and `args`,
/// within `limit`; prints its output and answers whether it succeeded, with its stdout.
pub async fn run_script(script: &str, args: &[&str], limit: std::time::Duration) -> (bool, String) {
    let mut command = tokio::process::Command::new("node");
    command.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("browser").join(script)).args(args);
    command.env("CANVAS_BROWSER_DIR", browser_dir());
    let output = tokio::time::timeout(limit, command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("the browser test finishes within {limit:?}"))
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    println!("--- browser test\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    (output.status.success(), stdout)
}
