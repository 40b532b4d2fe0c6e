//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, pinned in
//! `tests/mcp/conformance/package.json`, on the Node.js 22 installed beside it by `tests/run.sh`)
//! runs every server scenario (`--suite all`) against a fresh `canvasctl up`. The scenarios that
//! test the suite's own fixture tools, resources and prompts, or capabilities this server does not
//! declare, are listed with their reasons in `tests/mcp/conformance/baseline.yml`; the suite fails
//! the run on any other failure and on a listed scenario that passes. The runner sends no
//! credentials, so `tests/mcp/conformance/token_proxy.py` adds the demo API token on loopback.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{start, wait_ready};

fn conformance_dir() -> PathBuf {
    std::env::var_os("CANVAS_CONFORMANCE_DIR").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/root"))
            .join(".cache/canvas-conformance")
    })
}

/// A child process killed when the test ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_official_conformance_suite_passes_but_for_its_fixtures() {
    let dir = conformance_dir();
    let node = dir.join("node_modules/.bin/node");
    let suite = dir.join("node_modules/@modelcontextprotocol/conformance/dist/index.js");
    assert!(
        node.exists() && suite.exists(),
        "the conformance suite is not installed in {}: run tests/run.sh",
        dir.display()
    );

    let data = tempfile::tempdir().unwrap();
    let data_dir = data.path().join("canvas-data");
    let _running = start(&data_dir);
    let creds = wait_ready(&data_dir, None);
    let (base, token) = (creds["baseUrl"].as_str().unwrap(), creds["token"].as_str().unwrap());

    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/conformance");
    let mut proxy = Command::new("python3")
        .arg(here.join("token_proxy.py"))
        .args(["--upstream", base])
        .env("CANVAS_TOKEN", token)
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 starts");
    let mut line = String::new();
    BufReader::new(proxy.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _proxy = Killed(proxy);
    let proxied =
        line.trim().strip_prefix("listening on ").unwrap_or_else(|| panic!("the proxy said {line:?}")).to_owned();

    let results = data.path().join("results");
    let started = Instant::now();
    let output = Command::new(&node)
        .arg(&suite)
        .args(["server", "--url", &format!("{proxied}/mcp"), "--suite", "all", "--expected-failures"])
        .arg(here.join("baseline.yml"))
        .arg("-o")
        .arg(&results)
        .output()
        .expect("the suite starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let summary = stdout.split("=== SUMMARY ===").nth(1).unwrap_or(&stdout);
    println!("{summary}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(started.elapsed() < Duration::from_secs(300), "the suite took {:?}", started.elapsed());
    assert!(
        output.status.success(),
        "the conformance suite found a failure the baseline does not list, or a listed one that now passes; see above"
    );
    assert!(
        summary.contains("server-initialize: 1 passed, 0 failed") && summary.contains("tools-list: 1 passed, 0 failed"),
        "{summary}"
    );
}
