//! The README's first session, run as written: every `sh` block of "A first session" (but the
//! start itself, which the harness does on free ports) goes through bash against a real
//! `canvasctl up`, and what a newcomer would look at is checked: the items exist, the knowledge
//! answer cites the note, the MCP Inspector reads the map, the printed map link opens.
//!
//! The harness changes only what a test must: the base URL (a free port instead of 8080), the
//! `canvasctl` function (the built binary instead of `cargo run`), where `npx` finds the pinned
//! Inspector (`tests/run.sh` installs it), and a wait for the indexer before the question,
//! since the first start may still be fetching the embedding model.

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::{start, wait_ready, BIN};

/// The `sh` blocks of the README's "A first session" section.
fn tour_blocks() -> Vec<String> {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md")).expect("README.md");
    let start = readme.find("\n## A first session\n").expect("the README has a first session");
    let section = &readme[start + 1..];
    let section = &section[..section[1..].find("\n## ").map_or(section.len(), |end| end + 1)];
    let mut blocks = Vec::new();
    let mut rest = section;
    while let Some(open) = rest.find("```sh\n") {
        let body = &rest[open + 6..];
        let close = body.find("\n```").expect("a closed block");
        blocks.push(body[..close].to_owned());
        rest = &body[close + 4..];
    }
    blocks
}

/// The npm prefix holding the pinned MCP Inspector (`CANVAS_MCP_NPM_DIR` overrides).
fn inspector_dir() -> PathBuf {
    std::env::var_os("CANVAS_MCP_NPM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/canvas-npm"))
}

/// The tour as one bash script for the service at `base`.
fn script(blocks: &[String], base: &str) -> String {
    let inspector = inspector_dir();
    let mut script = String::from("set -euo pipefail\n");
    // `npx` runs the Inspector tests/run.sh installed, never a download.
    script.push_str(&format!("npx() {{ (cd '{}' && command npx --no-install \"$@\"); }}\n", inspector.display()));
    for block in blocks {
        if block.trim() == "cargo run -p canvasctl -- up" {
            continue;
        }
        if block.contains("/api/v1/memory/retrieve") {
            // Until the indexer has caught up, the question could come before the answer exists.
            script.push_str(
                "for _ in $(seq 960); do\n  counts=$(curl -s -H \"Authorization: Bearer $TOKEN\" \
                 \"http://127.0.0.1:8080/api/v1/memory/index?projectId=$PROJECT&limit=1\" | jq -c .Counts)\n  \
                 [ \"$(jq .Indexed <<<\"$counts\")\" -ge 4 ] && [ \"$(jq .Queued <<<\"$counts\")\" = 0 ] && break\n  \
                 sleep 0.25\ndone\necho \"index: $counts\"\n",
            );
        }
        script.push_str(block);
        script.push('\n');
    }
    script.replace("http://127.0.0.1:8080", base).replace("cargo run -q -p canvasctl --", BIN)
}

#[test]
fn the_first_session_of_the_readme_works_as_written() {
    let blocks = tour_blocks();
    assert!(blocks.len() >= 7, "the tour's commands: {blocks:?}");
    assert!(
        inspector_dir().join("node_modules/@modelcontextprotocol/inspector").exists(),
        "the MCP Inspector is not installed in {}: run tests/run.sh",
        inspector_dir().display()
    );
    let dir = tempfile::tempdir().unwrap();
    let _running = start(&dir.path().join("canvas-data"));
    let creds = wait_ready(&dir.path().join("canvas-data"), None);
    let base = creds["baseUrl"].as_str().unwrap().trim_end_matches('/').to_owned();

    let output = Command::new("bash")
        .arg("-c")
        .arg(script(&blocks, &base))
        .current_dir(dir.path())
        .env("CANVAS_CORE_URL", creds["coreUrl"].as_str().unwrap())
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "the tour failed:\n{stdout}\n{stderr}");
    // What a newcomer would see, for the log.
    println!("{stdout}");

    // The first label's answer, then the listing: three items with their texts, and a connector.
    assert!(stdout.contains("{\"ItemId\":\""), "{stdout}");
    for text in ["Hello, canvas", "Beta launch", "The beta ships on Friday to the first 50 customers"] {
        assert!(stdout.contains(&format!("\"text\": \"{text}\"")), "{text} in the listing:\n{stdout}");
    }
    assert!(stdout.contains("\"itemType\": \"connector\""), "{stdout}");

    // The knowledge answer starts with the sticky note, its best citation.
    assert!(stdout.contains("\"Answer\": \"The beta ships on Friday to the first 50 customers"), "{stdout}");

    // The Inspector read the map through MCP: the outline holds the items and the edge.
    let edges_at = stdout.find("\"edges\"").unwrap_or_else(|| panic!("read_map's outline:\n{stdout}"));
    assert!(stdout[edges_at..].trim_start_matches(|c| c != '[').starts_with("[\n"), "one edge at least:\n{stdout}");

    // The map link the tour prints is the new project's, and opens (the sign-in page first, as
    // the README says, since curl has no session).
    let link = stdout.lines().find(|line| line.contains("/map/")).expect("the map link").trim().to_owned();
    let project = link.strip_prefix(&format!("{base}/map/")).expect("a map link on this service");
    assert_ne!(Some(project), creds["projectId"].as_str(), "the tour made its own project");
    let page =
        Command::new("curl").args(["-s", "-L", "-o", "/dev/null", "-w", "%{http_code}", &link]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&page.stdout), "200", "{link}");
}
