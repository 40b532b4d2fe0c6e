//! The real-world corpus (`tests/mermaid-corpus/`, see its README): diagrams nobody on the team
//! wrote, taken from public projects' design documents and from Mermaid's own documentation and
//! tests, with Mermaid's own verdict on each. Of the ones Mermaid accepts, at least
//! [`MIN_ACCEPTED_PERCENT`] must be parsed, laid out and planned as items that pass the item
//! rules; nothing may panic or plan an item the rules refuse (core-service's 500), and every
//! refusal names a line and column inside the source. The report lists the refusals grouped by
//! the construct at that line and column, for docs/DIAGRAMS.md.
//!
//! Mermaid's verdict: `validate.mjs` runs the pinned `mermaid` under jsdom (tests/run.sh installs
//! it into `~/.cache/canvas-mermaid`, `CANVAS_MERMAID_DIR` overrides) and must give exactly the
//! committed `valid.json`, which the other corpus tests read. Without node or the package this
//! check fails under `CI=true` and is skipped, saying so, otherwise.

mod corpus_support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use corpus_support::{construct, files, inside, run, valid_files, verdicts_of, Outcome};
use serde_json::{json, Value};

/// At least this many diagrams in all…
const MIN_FILES: usize = 330;
/// …and of each kind.
const MIN_PER_KIND: &[(&str, usize)] =
    &[("flowchart", 130), ("sequence", 80), ("mindmap", 30), ("class", 30), ("er", 30), ("state", 30)];
/// Public repositories besides Mermaid's own.
const MIN_REPOSITORIES: usize = 10;
/// Share of the Mermaid-valid diagrams that must be accepted, in percent.
const MIN_ACCEPTED_PERCENT: f64 = 98.0;

fn sources() -> serde_json::Map<String, Value> {
    let text = std::fs::read_to_string(corpus_support::corpus_dir().join("SOURCES.json")).expect("SOURCES.json");
    let json: Value = serde_json::from_str(&text).expect("SOURCES.json is JSON");
    json["files"].as_object().expect("SOURCES.json has `files`").clone()
}

#[test]
fn the_corpus_is_large_varied_and_every_file_has_its_source_and_verdict() {
    let files = files();
    assert!(files.len() >= MIN_FILES, "{} diagrams, fewer than {MIN_FILES}", files.len());
    for (kind, min) in MIN_PER_KIND {
        let count = files.iter().filter(|f| f.kind == *kind).count();
        assert!(count >= *min, "{count} {kind} diagrams, fewer than {min}");
    }
    let names: BTreeSet<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let sources = sources();
    let recorded: BTreeSet<&str> = sources.keys().map(String::as_str).collect();
    assert_eq!(names, recorded, "SOURCES.json must record exactly the corpus files");
    for (name, source) in &sources {
        for field in ["repo", "path", "commit", "url", "license"] {
            assert!(source[field].as_str().is_some_and(|v| !v.is_empty()), "{name}: no {field} in SOURCES.json");
        }
        let commit = source["commit"].as_str().unwrap();
        assert!(commit.len() == 40 && commit.chars().all(|c| c.is_ascii_hexdigit()), "{name}: commit {commit}");
    }
    let repositories: BTreeSet<&str> =
        sources.values().filter_map(|s| s["repo"].as_str()).filter(|r| *r != "mermaid-js/mermaid").collect();
    assert!(repositories.len() >= MIN_REPOSITORIES, "{} repositories: {repositories:?}", repositories.len());
    let verdicts = verdicts_of(&corpus_support::committed_report());
    let judged: BTreeSet<&str> = verdicts.keys().map(String::as_str).collect();
    assert_eq!(names, judged, "valid.json must judge exactly the corpus files: run validate.mjs --write");
}

#[test]
fn mermaid_itself_gives_the_committed_verdicts() {
    let dir = corpus_support::mermaid_dir();
    if let Some(why) = corpus_support::missing_tools(&dir) {
        let why = format!("{why}: tests/run.sh installs tests/mermaid-corpus/package-lock.json there");
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        println!("SKIPPED: {why}; the committed valid.json stands for Mermaid's verdict");
        return;
    }
    let output = Command::new("node")
        .arg(corpus_support::corpus_dir().join("validate.mjs"))
        .env("CANVAS_MERMAID_DIR", &dir)
        .output()
        .expect("node runs");
    assert!(output.status.success(), "validate.mjs failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_slice(&output.stdout).expect("validate.mjs prints JSON");
    let committed = corpus_support::committed_report();
    println!("mermaid {}: {}", report["mermaid"], report["counts"]);
    assert_eq!(report["mermaid"], committed["mermaid"], "valid.json was written by another mermaid");
    let (now, then) = (verdicts_of(&report), verdicts_of(&committed));
    let changed: Vec<&String> = now.keys().chain(then.keys()).filter(|k| now.get(*k) != then.get(*k)).collect();
    assert!(changed.is_empty(), "Mermaid's verdict differs from valid.json for {changed:?}: run validate.mjs --write");
}

/// Where the report goes: `$CANVAS_TEST_ARTIFACTS`, else `$CARGO_TARGET_DIR/test-artifacts`, else
/// `target/test-artifacts`, plus `mermaid-corpus/`.
fn report_dir() -> PathBuf {
    let base = std::env::var_os("CANVAS_TEST_ARTIFACTS").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
            .join("test-artifacts")
    });
    let dir = base.join("mermaid-corpus");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn the_valid_corpus_is_accepted_and_planned_as_valid_items() {
    let valid = valid_files();
    let mut per_kind: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    // (kind, construct) → refusals as "file line:col message".
    let mut refusals: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    let mut defects = Vec::new();
    let mut records = Vec::new();
    for file in &valid {
        let counts = per_kind.entry(file.kind.clone()).or_default();
        counts.0 += 1;
        let record = match run(&file.source) {
            Outcome::Accepted(items) => {
                counts.1 += 1;
                json!({"file": file.name, "outcome": "accepted", "items": items})
            }
            Outcome::Refused(error) => {
                let construct = construct(&file.source, &error);
                if !inside(&file.source, error.line, error.column) {
                    defects.push(format!("{}: refusal outside the source: {error}", file.name));
                }
                let entry = format!("{} {}:{} {}", file.name, error.line, error.column, error.message);
                refusals.entry((file.kind.clone(), construct.clone())).or_default().push(entry);
                json!({"file": file.name, "outcome": "refused", "line": error.line, "column": error.column,
                       "construct": construct, "message": error.message})
            }
            Outcome::InvalidItems(problems) => {
                defects.push(format!("{}: planned items the rules refuse: {}", file.name, problems.join(" | ")));
                json!({"file": file.name, "outcome": "invalid-items", "problems": problems})
            }
            Outcome::Panicked(message) => {
                defects.push(format!("{}: panicked: {message}", file.name));
                json!({"file": file.name, "outcome": "panicked", "message": message})
            }
        };
        records.push(record);
    }
    let accepted: usize = per_kind.values().map(|c| c.1).sum();
    let percent = 100.0 * accepted as f64 / valid.len().max(1) as f64;
    println!("accepted {accepted} of {} Mermaid-valid diagrams ({percent:.1} %)", valid.len());
    for (kind, (total, ok)) in &per_kind {
        println!("  {kind}: {ok} of {total}");
    }
    println!("refusals by construct:");
    for ((kind, construct), list) in &refusals {
        println!("  {kind} `{construct}` ({}):", list.len());
        for entry in list {
            println!("    {entry}");
        }
    }
    println!("panics and invalid items ({}):", defects.len());
    for defect in &defects {
        println!("  {defect}");
    }
    let report = json!({"valid": valid.len(), "accepted": accepted, "percent": percent,
                        "per_kind": per_kind, "files": records});
    let path = report_dir().join("report.json");
    std::fs::write(&path, serde_json::to_string_pretty(&report).unwrap()).unwrap();
    println!("report: {}", path.display());
    assert!(defects.is_empty(), "{} panics, invalid items or refusals outside the source", defects.len());
    assert!(
        percent >= MIN_ACCEPTED_PERCENT,
        "{accepted} of {} accepted ({percent:.1} %), fewer than {MIN_ACCEPTED_PERCENT} %",
        valid.len()
    );
}
