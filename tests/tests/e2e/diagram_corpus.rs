//! The real-world corpus (`tests/mermaid-corpus/`, see its README) through the running service:
//! every diagram Mermaid itself accepts (`valid.json`, kept true by `diagram/tests/corpus.rs`) is
//! posted to `POST .../diagrams`. Never a 5xx; at least [`MIN_CREATED_PERCENT`] created (200 with the
//! diagram's record id, what a diagram create answers: docs/diagrams/records.md); every
//! other answer a 400 problem naming `source` with a line and column inside the diagram. Then
//! the documented loop on every created one: read it back (`?format=mermaid`) and send that text
//! back unchanged (`PUT`): nothing is created, updated or deleted, no event is written, and the
//! record keeps its kind, for all six kinds.

use std::collections::BTreeMap;
use std::path::PathBuf;

use canvas_tests::{backend_tests, Backend, TestApp};
use futures::stream::{self, StreamExt};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{owner_with_project, send, Reply};

backend_tests!(
    every_valid_corpus_diagram_is_created_or_refused_at_a_line_and_column,
    every_corpus_diagram_read_back_and_sent_back_changes_nothing
);

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

/// The kinds a diagram record can be.
const KINDS: [&str; 6] = ["flowchart", "sequence", "mindmap", "class", "er", "state"];
/// The fewest corpus diagrams of each kind the loop must have gone through.
const MIN_PER_KIND: usize = 5;

async fn every_corpus_diagram_read_back_and_sent_back_changes_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let diagrams = valid_diagrams();
    let base = format!("{}/api/v2/projects/{project}/diagrams", app.base_url);
    let auth = owner.bearer();
    let created: Vec<(String, String)> = stream::iter(diagrams.iter().enumerate())
        .map(|(i, (name, source))| {
            let position = json!({"x": (i % 20) as f64 * SPACING, "y": (i / 20) as f64 * SPACING});
            let body = json!({"format": "mermaid", "source": source, "position": position});
            let (app, url, auth) = (&app, format!("{base}?jsonCasing=camel"), auth.clone());
            async move {
                let reply = send(app, Method::POST, &url, Some(&auth), Some(body)).await;
                reply.body["diagramId"].as_str().map(|id| (name.clone(), id.to_owned()))
            }
        })
        .buffer_unordered(IN_FLIGHT)
        .filter_map(|created| async move { created })
        .collect()
        .await;
    let project_id = core_service::domain::ProjectId::parse(&project).unwrap();
    let events = || async { app.core.stores().items.project_events(project_id, 0, 1_000_000).await.unwrap().len() };
    let before = events().await;

    let mut per_kind: BTreeMap<String, usize> = BTreeMap::new();
    let mut changed = Vec::new();
    for (name, diagram) in &created {
        let target = format!("{base}/{diagram}?jsonCasing=camel");
        let read = send(&app, Method::GET, &format!("{target}&format=mermaid"), Some(&auth), None).await;
        assert_eq!(read.status, StatusCode::OK, "{name}: {}", read.body);
        let kind = read.body["kind"].as_str().expect("kind").to_owned();
        let mermaid = read.body["mermaid"].as_str().expect("mermaid").to_owned();
        let back = send(&app, Method::PUT, &target, Some(&auth), Some(json!({"source": mermaid}))).await;
        assert_eq!(back.status, StatusCode::OK, "{name} ({kind}): {}", back.body);
        let touched: usize =
            ["created", "updated", "deleted"].iter().map(|list| back.body[*list].as_array().map_or(0, Vec::len)).sum();
        if touched > 0 {
            changed.push(format!("{name} ({kind}): {}", back.body));
        }
        let after = send(&app, Method::GET, &target, Some(&auth), None).await;
        assert_eq!(after.body["kind"], kind.as_str(), "{name}: the kind is kept");
        *per_kind.entry(kind).or_default() += 1;
    }
    println!("{backend:?}: {} diagrams read back and sent back, by kind {per_kind:?}", created.len());
    assert!(changed.is_empty(), "{} sent back unchanged changed items:\n{}", changed.len(), changed.join("\n"));
    assert_eq!(events().await, before, "sending the read-back text wrote no event");
    for kind in KINDS {
        let seen = per_kind.get(kind).copied().unwrap_or(0);
        assert!(seen >= MIN_PER_KIND, "only {seen} {kind} diagrams went round: {per_kind:?}");
    }
}
