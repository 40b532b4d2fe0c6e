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
