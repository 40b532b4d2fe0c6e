//! The real-world corpus (`tests/mermaid-corpus/`, see its README) through the running service:
//! every diagram Mermaid itself accepts (`valid.json`, kept true by `diagram/tests/corpus.rs`) is
//! posted to `POST .../diagrams`. Never a 5xx; at least [`MIN_CREATED_PERCENT`] created (200 with the
//! diagram's record id, what a diagram create answers: docs/diagrams/records.md); every
//! other answer a 400 problem naming `source` with a line and column inside the diagram.

use std::collections::BTreeMap;
use std::path::PathBuf;

use canvas_tests::{backend_tests, Backend, TestApp};
use futures::stream::{self, StreamExt};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{owner_with_project, send, Reply};

backend_tests!(every_valid_corpus_diagram_is_created_or_refused_at_a_line_and_column);

/// Share of the Mermaid-valid diagrams that must be created, in percent.
const MIN_CREATED_PERCENT: f64 = 98.0;
/// Diagrams posted at once.
const IN_FLIGHT: usize = 4;
/// Room per diagram on the map: each goes at its own place, so none needs the free-space search.
const SPACING: f64 = 50_000.0;

/// (name, source) of every corpus diagram Mermaid accepts, sorted by name.
fn valid_diagrams() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mermaid-corpus");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("valid.json")).expect("valid.json")).expect("JSON");
    let files = report["files"].as_object().expect("valid.json has files");
    let mut out: Vec<(String, String)> = files
        .iter()
        .filter(|(_, verdict)| verdict["valid"] == true)
        .map(|(name, _)| {
            let source = std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name.clone(), source)
        })
        .collect();
    out.sort();
    assert!(out.len() >= 300, "{} valid diagrams in the corpus", out.len());
    out
}

/// The first "line L, column C" of `text`.
fn line_and_column(text: &str) -> Option<(usize, usize)> {
    text.match_indices("line ").find_map(|(at, _)| {
        let rest = &text[at + 5..];
        let line_digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let rest = rest[line_digits.len()..].strip_prefix(", column ")?;
        let column_digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        Some((line_digits.parse().ok()?, column_digits.parse().ok()?))
    })
}

/// Whether a 1-based line and column lie within `source` (the column may be one past the end).
fn inside(source: &str, (line, column): (usize, usize)) -> bool {
    let Some(text) = source.split('\n').nth(line.wrapping_sub(1)) else { return false };
    column >= 1 && column <= text.strip_suffix('\r').unwrap_or(text).chars().count() + 1
}

/// What is wrong with a refusal, if anything: a 400 problem naming `source`, whose text gives a
/// line and column inside the diagram.
fn refusal_problem(reply: &Reply, source: &str) -> Option<String> {
    if reply.status != StatusCode::BAD_REQUEST || reply.content_type != "application/problem+json" {
        return Some(format!("answered {} {}", reply.status, reply.content_type));
    }
    if !reply.fields().iter().any(|f| f == "source") {
        return Some(format!("the problem does not name `source`: {}", reply.body));
    }
    match line_and_column(&reply.body.to_string()) {
        None => Some(format!("no line and column in {}", reply.body)),
        Some(at) if !inside(source, at) => Some(format!("line {}, column {} is outside the diagram", at.0, at.1)),
        Some(_) => None,
    }
}

async fn every_valid_corpus_diagram_is_created_or_refused_at_a_line_and_column(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let diagrams = valid_diagrams();
    let url = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url);
    let replies: Vec<(usize, Reply)> = stream::iter(diagrams.iter().enumerate())
        .map(|(i, (_, source))| {
            let position = json!({"x": (i % 20) as f64 * SPACING, "y": (i / 20) as f64 * SPACING});
            let body = json!({"format": "mermaid", "source": source, "position": position});
            let (app, url, auth) = (&app, &url, owner.bearer());
            async move { (i, send(app, Method::POST, url, Some(&auth), Some(body)).await) }
        })
        .buffer_unordered(IN_FLIGHT)
        .collect()
        .await;

    let mut statuses: BTreeMap<u16, usize> = BTreeMap::new();
    let mut server_errors = Vec::new();
    let mut bad_refusals = Vec::new();
    let mut refusals = Vec::new();
    let mut created = 0usize;
    for (i, reply) in &replies {
        let (name, source) = &diagrams[*i];
        *statuses.entry(reply.status.as_u16()).or_default() += 1;
        if reply.status == StatusCode::OK && reply.body["diagramId"].as_str().is_some_and(|id| !id.is_empty()) {
            created += 1;
            continue;
        }
        if reply.status.is_server_error() {
            server_errors.push(format!("{name}: {} {}", reply.status, reply.body));
        } else if reply.status.is_client_error() {
            match refusal_problem(reply, source) {
                Some(problem) => bad_refusals.push(format!("{name}: {problem}")),
                None => refusals.push(format!("{name}: {}", reply.body["detail"].as_str().unwrap_or_default())),
            }
        }
    }
    refusals.sort();
    let percent = 100.0 * created as f64 / diagrams.len() as f64;
    println!("{backend:?}: {created} of {} created ({percent:.1} %); answers by status: {statuses:?}", diagrams.len());
    for (title, list) in [("5xx", &server_errors), ("malformed refusals", &bad_refusals), ("refusals", &refusals)] {
        println!("{title} ({}):", list.len());
        for entry in list {
            println!("  {entry}");
        }
    }
    assert!(server_errors.is_empty(), "{} diagrams answered 5xx", server_errors.len());
    assert!(
        bad_refusals.is_empty(),
        "{} refusals are not a 400 naming source at a line and column",
        bad_refusals.len()
    );
    assert!(
        percent >= MIN_CREATED_PERCENT,
        "{created} of {} created ({percent:.1} %), fewer than {MIN_CREATED_PERCENT} %; by status: {statuses:?}",
        diagrams.len()
    );
}
