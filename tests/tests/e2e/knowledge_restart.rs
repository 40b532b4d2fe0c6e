//! A project's search index survives a restart: a replica writes a snapshot of it, items change,
//! are deleted and added afterwards, and a fresh core over the same database and a copy of that
//! snapshot answers its first queries exactly as a replica that never stopped; a damaged or
//! outdated snapshot is ignored and the index loads from the database, with the same answers.

use std::path::Path;
use std::time::{Duration, Instant};

use canvas_tests::{backend_tests, keyword_only, with_local_model, Backend, TestApp, TestUser};
use core_service::knowledge::KnowledgeConfig;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::knowledge::wait_indexed;
use crate::knowledge_search::CORPUS;
use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    the_first_query_after_a_restart_answers_as_a_warm_replica_from_the_snapshot,
    a_damaged_or_outdated_snapshot_is_ignored_with_the_same_answers
);

/// The first dozen sentences of the ranking tests' corpus.
const TEXTS: &[&str] = CORPUS.split_at(12).0;

const QUERIES: &[&str] = &[
    "flutter of wings",
    "turbulent boundary layer",
    "heat transfer at hypersonic speeds",
    "zeppelin mooring mast",
    "pressure over a delta wing",
];

/// Knowledge settings that snapshot every project (of one chunk and more) into `dir`.
fn snapshotting(base: KnowledgeConfig, dir: &Path) -> KnowledgeConfig {
    KnowledgeConfig {
        search_snapshot_dir: Some(dir.to_path_buf()),
        search_snapshot_min_chunks: 1,
        // The first query of a restarted core loads the index, not a load begun at its start.
        search_warm_projects: 0,
        ..base
    }
}

async fn retrieve(app: &TestApp, base_url: &str, user: &TestUser, body: Value) -> Value {
    let url = format!("{base_url}/api/v1/memory/retrieve?jsonCasing=camel");
    let reply = send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

/// Every query's whole answer (citations with their chunks and relevance, the answer text), in
/// `mode`.
async fn answers(app: &TestApp, base_url: &str, user: &TestUser, project: &str, mode: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for query in QUERIES {
        let body = json!({"projectId": project, "query": query, "mode": mode, "maxResults": 8});
        out.push(retrieve(app, base_url, user, body).await);
    }
    out
}

/// Waits (bounded) until `app`'s core wrote the project's snapshot; returns a copy of it, taken
/// before anything else changes.
async fn snapshot_copy(app: &TestApp, project: &str, dir: &Path) -> Vec<u8> {
    let id = uuid::Uuid::parse_str(project).unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while app.core.retrieval().search_indexes().snapshot_written(id).is_none() {
        assert!(Instant::now() < deadline, "no snapshot was written");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    std::fs::read(dir.join(format!("{project}.search"))).expect("the snapshot file")
}

/// A fresh core on `app`'s database reading snapshots from a new directory holding `snapshot`
/// as the project's; returns its gateway's URL and the directory.
async fn restarted(
    app: &TestApp,
    knowledge: KnowledgeConfig,
    project: &str,
    snapshot: &[u8],
    stop: &CancellationToken,
) -> (String, tempfile::TempDir, std::sync::Arc<core_service::Core>) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(format!("{project}.search")), snapshot).unwrap();
    let config = app.another_core_config(snapshotting(knowledge, dir.path()));
    let core = core_service::build(&config).await.expect("a restarted core starts");
    let (_, base_url) = app.serve_replica(core.clone(), stop).await;
    (base_url, dir, core)
}

fn restored(core: &core_service::Core, project: &str) -> Option<bool> {
    core.retrieval().search_indexes().restored_from_snapshot(uuid::Uuid::parse_str(project).unwrap())
}

async fn the_first_query_after_a_restart_answers_as_a_warm_replica_from_the_snapshot(backend: Backend) {
    // The real model and a graph for any project: the snapshot holds BM25, vectors and the graph.
    let dir = tempfile::tempdir().unwrap();
    let knowledge = KnowledgeConfig { search_exact_below: 1, ..with_local_model() };
    let app = TestApp::spawn_with(backend, "development", snapshotting(knowledge.clone(), dir.path())).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut labels = Vec::new();
    for text in TEXTS {
        labels.push(create_label(&app, &owner, &project, json!({"text": text})).await);
    }
    wait_indexed(&app, &owner, &project).await;
    retrieve(&app, &app.base_url, &owner, json!({"projectId": project, "query": "load the index"})).await;
    let snapshot = snapshot_copy(&app, &project, dir.path()).await;

    // After the snapshot: one item rewritten, one deleted, one added (through the warm replica,
    // which keeps its index current through the change records).
    let url = |id: &str| app.item_url(&project, &format!("/label/{id}"));
    let patch = json!({"text": "Zeppelin mooring mast loads in gusty wind."});
    let patched = send(&app, Method::PATCH, &url(labels[2].as_str()), Some(&owner.bearer()), Some(patch)).await;
    assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
    let item = app.item_url(&project, &format!("/{}", labels[0]));
    let deleted = send(&app, Method::DELETE, &item, Some(&owner.bearer()), None).await;
    assert!(deleted.status.is_success(), "{}", deleted.body);
    let added_text = "Flutter of a zeppelin tail fin in turbulent boundary layer flow.";
    let added = create_label(&app, &owner, &project, json!({"text": added_text})).await;
    wait_indexed(&app, &owner, &project).await;

    let stop = CancellationToken::new();
    let (restarted_url, _dir, core) = restarted(&app, knowledge, &project, &snapshot, &stop).await;
    for mode in ["hybrid", "keyword", "semantic"] {
        let first = answers(&app, &restarted_url, &owner, &project, mode).await;
        assert_eq!(restored(&core, &project), Some(true), "the restarted core read the snapshot");
        let warm = answers(&app, &app.base_url, &owner, &project, mode).await;
        assert_eq!(first, warm, "{mode}: the restarted core answers as the warm replica");
        let cited_ids: Vec<String> = first.iter().flat_map(ids).collect();
        assert!(!cited_ids.contains(&labels[0]), "{mode}: the deleted item is gone");
        if mode != "semantic" {
            assert!(cited_ids.contains(&added), "{mode}: the item added after the snapshot is found");
        }
    }
    // The rewritten item is found by its new words only.
    let body = json!({"projectId": project, "query": "swept transonic tunnel", "mode": "keyword"});
    assert!(!ids(&retrieve(&app, &restarted_url, &owner, body).await).contains(&labels[2]));
    let body = json!({"projectId": project, "query": "mooring mast", "mode": "keyword"});
    assert_eq!(ids(&retrieve(&app, &restarted_url, &owner, body).await), vec![labels[2].clone()]);
    stop.cancel();
}

/// A damaged snapshot (cut short, a byte flipped in the index, a byte flipped in the vectors, a
/// format from another version) is ignored: the restarted core loads from the database and
/// answers as the warm replica, never with an error.
async fn a_damaged_or_outdated_snapshot_is_ignored_with_the_same_answers(backend: Backend) {
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::spawn_with(backend, "development", snapshotting(keyword_only(), dir.path())).await;
    let (owner, project) = owner_with_project(&app).await;
    for text in TEXTS {
        create_label(&app, &owner, &project, json!({"text": text})).await;
    }
    wait_indexed(&app, &owner, &project).await;
    let warm = answers(&app, &app.base_url, &owner, &project, "keyword").await;
    let snapshot = snapshot_copy(&app, &project, dir.path()).await;

    let (middle, late) = (snapshot.len() / 2, snapshot.len() - 40);
    let mut damaged: Vec<(&str, Vec<u8>)> = vec![
        ("cut short", snapshot[..middle].to_vec()),
        ("empty", Vec::new()),
        ("a byte flipped in the middle", flipped(&snapshot, middle)),
        ("a byte flipped near the end", flipped(&snapshot, late)),
    ];
    let mut other_version = snapshot.clone();
    other_version[8] = other_version[8].wrapping_add(1); // The frame's version follows the magic.
    damaged.push(("another format version", other_version));
    let stop = CancellationToken::new();
    let (intact_url, _intact, intact) = restarted(&app, keyword_only(), &project, &snapshot, &stop).await;
    assert_eq!(answers(&app, &intact_url, &owner, &project, "keyword").await, warm, "the intact snapshot");
    assert_eq!(restored(&intact, &project), Some(true));
    for (damage, bytes) in damaged {
        let (base_url, dir, core) = restarted(&app, keyword_only(), &project, &bytes, &stop).await;
        assert_eq!(answers(&app, &base_url, &owner, &project, "keyword").await, warm, "{damage}");
        assert_eq!(restored(&core, &project), Some(false), "{damage}: loaded from the database");
        // The next snapshot replaces the damaged file.
        wait_replaced(&core, &project, &dir.path().join(format!("{project}.search")), &bytes).await;
    }
    stop.cancel();
}

fn flipped(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at] ^= 0x5a;
    out
}

/// Waits (bounded) until `core` wrote a new snapshot over `old` at `path`.
async fn wait_replaced(core: &core_service::Core, project: &str, path: &Path, old: &[u8]) {
    let id = uuid::Uuid::parse_str(project).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while core.retrieval().search_indexes().snapshot_written(id).is_none() {
        assert!(Instant::now() < deadline, "no new snapshot was written");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_ne!(std::fs::read(path).unwrap(), old, "the damaged file was replaced");
}

/// The item ids an answer cites, in order.
fn ids(answer: &Value) -> Vec<String> {
    answer["citations"].as_array().expect("citations").iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect()
}
