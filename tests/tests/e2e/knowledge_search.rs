//! Retrieval's in-memory indexes, end to end: a second core replica on the same database answers
//! with every item indexed before its retrieval began; the HNSW graph returns what exact search
//! returns; BM25 uses each project's own statistics; SQLite and PostgreSQL return the same top 10.

use std::time::{Duration, Instant};

use canvas_tests::{backend_tests, keyword_only, with_local_model, Backend, TestApp, TestUser};
use core_service::knowledge::KnowledgeConfig;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use sqlx::Connection;
use tokio_util::sync::CancellationToken;

use crate::knowledge::{cited, wait_indexed};
use crate::support::{create_label, owner_with_project, send, Reply};

backend_tests!(
    an_item_indexed_before_a_retrieval_is_found_by_another_replica,
    change_records_are_read_until_their_transactions_end_and_then_no_more,
    the_graph_returns_what_exact_search_returns,
    keyword_statistics_are_the_projects_own
);

/// Aeronautics sentences (Cranfield-like) for the ranking tests: distinct, overlapping vocabulary.
pub(crate) const CORPUS: &[&str] = &[
    "The boundary layer on a flat plate becomes turbulent at high Reynolds numbers.",
    "Heat transfer in hypersonic flow depends on the wall temperature of the body.",
    "Flutter of swept wings was measured in the transonic wind tunnel.",
    "Laminar boundary layer separation ahead of a forward facing step.",
    "The pressure distribution over a delta wing at supersonic speeds.",
    "Shock wave interaction with a turbulent boundary layer causes separation.",
    "Buckling of thin cylindrical shells under axial compression and pressure.",
    "Aeroelastic models of heated high speed aircraft need similarity laws.",
    "Skin friction measurements in a compressible turbulent boundary layer.",
    "Slender body theory predicts the lift of bodies of revolution at small incidence.",
    "The stagnation point heat transfer of a blunt body in dissociated air.",
    "Panel flutter of a flat plate exposed to supersonic flow on one side.",
    "Vibration of a cantilever plate with the aerodynamic forces of a wing.",
    "Transition of the boundary layer is delayed by a favourable pressure gradient.",
    "The wake behind a circular cylinder at low Reynolds numbers.",
    "Ablation of a heat shield during the entry of a ballistic missile.",
    "The drag of a cone cylinder in hypersonic flow with viscous interaction.",
    "Thermal stresses in a wing structure heated by aerodynamic heating.",
    "Jet flap lift increments on a wing of finite aspect ratio.",
    "Unsteady lift of an oscillating airfoil in incompressible flow.",
    "Creep buckling of columns at elevated temperature.",
    "Free molecule flow over a flat plate and a sphere.",
    "Inviscid hypersonic flow past blunt nosed slender bodies.",
    "Heat conduction in composite slabs with a time dependent surface temperature.",
    "Similarity solutions of the laminar boundary layer equations with suction.",
    "The effect of sweep on the flutter speed of a cantilever wing.",
    "Measurements of turbulent skin friction on a cone at supersonic speed.",
    "A theory of the stability of laminar flow in a boundary layer.",
    "Supersonic flow about a circular cone at an angle of attack.",
    "Compressible flow through a nozzle with a normal shock.",
];

const QUERIES: &[&str] = &[
    "flutter of wings",
    "turbulent boundary layer skin friction",
    "heat transfer at hypersonic speeds",
    "buckling of shells and columns",
    "lift of slender bodies",
    "laminar boundary layer stability and transition",
    "supersonic cone flow",
    "aerodynamic heating of structures",
];

/// A second core replica on `app`'s database with its own gateway; returns the gateway's URL.
async fn second_replica(app: &TestApp, knowledge: KnowledgeConfig, stop: &CancellationToken) -> String {
    let core = core_service::build(&app.another_core_config(knowledge)).await.expect("a second replica starts");
    app.serve_replica(core, stop).await.1
}

async fn retrieve_at(app: &TestApp, base_url: &str, user: &TestUser, body: Value) -> Reply {
    let url = format!("{base_url}/api/v1/memory/retrieve?jsonCasing=camel");
    let reply = send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply
}

async fn an_item_indexed_before_a_retrieval_is_found_by_another_replica(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    let stop = CancellationToken::new();
    let other = second_replica(&app, keyword_only(), &stop).await;
    // The other replica loads the project's (empty) index before anything is written, so every
    // later item reaches it through the change records, not through a first load.
    assert!(
        cited(&retrieve_at(&app, &other, &owner, json!({"projectId": project, "query": "x"})).await, "id").is_empty()
    );
    for round in 0..12 {
        let word = format!("zeppelin{round}");
        let id = create_label(&app, &owner, &project, json!({"text": format!("Airship {word} notes")})).await;
        wait_indexed(&app, &owner, &project).await;
        // Indexed (committed) before this retrieval began: found at once, no retry.
        let reply = retrieve_at(&app, &other, &owner, json!({"projectId": project, "query": word})).await;
        assert_eq!(cited(&reply, "id"), vec![id.clone()], "round {round}: {}", reply.body);
        if round % 3 == 0 {
            let url = app.item_url(&project, &format!("/label/{id}"));
            let patched =
                send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"text": "Revised"}))).await;
            assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
            wait_indexed(&app, &owner, &project).await;
            let reply = retrieve_at(&app, &other, &owner, json!({"projectId": project, "query": word})).await;
            assert!(cited(&reply, "id").is_empty(), "the old text is gone at once: {}", reply.body);
        }
    }
    stop.cancel();
}

/// A retrieval reads the change records from its replica's floor, and the storage says where the
/// next read starts. SQLite commits records in `seq` order (one writer): the next read starts just
/// past the last record. PostgreSQL takes `seq` at insert: a transaction still in flight may
/// commit a smaller `seq` after a larger one was read, and that record must still be read (the
/// floor stops at the oldest running transaction), yet once nothing is in flight the records are
/// not read again (0006 re-read the last ten seconds on every retrieval).
async fn change_records_are_read_until_their_transactions_end_and_then_no_more(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut labels = Vec::new();
    for n in 0..3 {
        labels.push(create_label(&app, &owner, &project, json!({"text": format!("Airship notes {n}")})).await);
    }
    wait_indexed(&app, &owner, &project).await;
    let project_id = core_service::domain::ProjectId::parse(&project).unwrap();
    let storage = &app.core.stores().retrieval;
    let first = storage.chunk_changes(project_id, 0).await.unwrap();
    assert_eq!(first.records.len(), 3, "one record per indexed item");
    assert!(first.records.windows(2).all(|pair| pair[0].seq < pair[1].seq), "records come in seq order");
    let floor = quiet_floor(&app, project_id, first.next_floor).await;
    if backend == Backend::Sqlite {
        assert_eq!(floor, first.next_floor, "SQLite's records are final at once");
        return;
    }

    // A transaction rewrites the first label's chunks (a record with a smaller seq) and stays open
    // while a new label is indexed and read.
    let url = app.db.database_url.clone().unwrap();
    let mut held = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::Executor::execute(&mut held, "BEGIN").await.unwrap();
    let first_label = core_service::domain::ItemId::parse(&labels[0]).unwrap();
    let touched = sqlx::query("UPDATE knowledge_chunks SET text = text WHERE item_id = $1")
        .bind(first_label)
        .execute(&mut held)
        .await
        .unwrap();
    assert!(touched.rows_affected() > 0, "the label has chunks");
    let late = create_label(&app, &owner, &project, json!({"text": "Airship notes, later"})).await;
    wait_indexed(&app, &owner, &project).await;
    let during = storage.chunk_changes(project_id, floor).await.unwrap();
    let items = |changes: &core_service::storage::ChunkChanges| {
        changes.records.iter().map(|r| r.item_id.to_string()).collect::<Vec<_>>()
    };
    assert_eq!(items(&during), std::slice::from_ref(&late), "the open transaction's record is not visible yet");
    let late_seq = during.records[0].seq;
    sqlx::Executor::execute(&mut held, "COMMIT").await.unwrap();
    let after = storage.chunk_changes(project_id, during.next_floor).await.unwrap();
    let record = after.records.iter().find(|r| r.item_id == first_label);
    let record = record.unwrap_or_else(|| panic!("the late commit is read: {after:?}"));
    assert!(record.seq < late_seq, "it committed after a record with a larger seq was read");
    quiet_floor(&app, project_id, after.next_floor).await;
}

/// Reads from `floor` until a read returns nothing (bounded: other tests' transactions on the
/// same server may hold the horizon for a moment); the floor reached.
async fn quiet_floor(app: &TestApp, project: core_service::domain::ProjectId, mut floor: i64) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let changes = app.core.stores().retrieval.chunk_changes(project, floor).await.unwrap();
        assert!(changes.next_floor >= floor, "a floor never moves back");
        if changes.records.is_empty() {
            return floor;
        }
        assert!(Instant::now() < deadline, "records are still read again after 30 s: {changes:?}");
        floor = changes.next_floor;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (bounded) until the replica's graph for the project is built.
async fn wait_for_graph(app: &TestApp, project: &str) {
    let project = uuid::Uuid::parse_str(project).unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while app.core.retrieval().search_indexes().graph_ready(project) != Some(true) {
        assert!(Instant::now() < deadline, "the vector graph was not built");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn the_graph_returns_what_exact_search_returns(backend: Backend) {
    // This server builds a graph for any project; the second replica always searches exactly.
    let graph = KnowledgeConfig { search_exact_below: 1, ..with_local_model() };
    let app = TestApp::spawn_with(backend, "development", graph).await;
    let (owner, project) = owner_with_project(&app).await;
    for text in CORPUS {
        create_label(&app, &owner, &project, json!({"text": text})).await;
    }
    wait_indexed(&app, &owner, &project).await;
    let stop = CancellationToken::new();
    let exact =
        second_replica(&app, KnowledgeConfig { search_exact_below: usize::MAX, ..with_local_model() }, &stop).await;
    retrieve_at(&app, &app.base_url, &owner, json!({"projectId": project, "query": "load the index"})).await;
    wait_for_graph(&app, &project).await;
    for query in QUERIES {
        let body = json!({"projectId": project, "query": query, "mode": "semantic", "maxResults": 10});
        let approximate = retrieve_at(&app, &app.base_url, &owner, body.clone()).await;
        let exact = retrieve_at(&app, &exact, &owner, body).await;
        assert_eq!(cited(&approximate, "chunk"), cited(&exact, "chunk"), "{query}");
        assert_eq!(approximate.body["citations"].as_array().unwrap().len(), 10);
    }
    // A label written after the graph was built is found through it.
    let late = create_label(&app, &owner, &project, json!({"text": "Rotor blade icing on helicopters"})).await;
    wait_indexed(&app, &owner, &project).await;
    let body = json!({"projectId": project, "query": "ice on rotor blades", "mode": "semantic", "maxResults": 1});
    assert_eq!(cited(&retrieve_at(&app, &app.base_url, &owner, body).await, "id"), vec![late]);
    stop.cancel();
}

async fn keyword_statistics_are_the_projects_own(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    // "wing" twice against "flutter" once: with this project's statistics (each word in one text)
    // the wing text ranks first. Had another project's fifty wing texts counted, "wing" would be
    // common and the flutter text would win.
    let wing = create_label(&app, &owner, &project, json!({"text": "wing wing panel"})).await;
    let flutter = create_label(&app, &owner, &project, json!({"text": "flutter panel"})).await;
    for i in 0..3 {
        create_label(&app, &owner, &project, json!({"text": format!("unrelated note {i}")})).await;
    }
    wait_indexed(&app, &owner, &project).await;
    let body = json!({"projectId": project, "query": "wing flutter", "mode": "keyword"});
    let before = retrieve_at(&app, &app.base_url, &owner, body.clone()).await;
    assert_eq!(cited(&before, "id"), vec![wing.clone(), flutter.clone()]);
    let other = app.project(&owner).await;
    for i in 0..50 {
        create_label(&app, &owner, &other, json!({"text": format!("wing number {i}")})).await;
    }
    wait_indexed(&app, &owner, &other).await;
    let after = retrieve_at(&app, &app.base_url, &owner, body).await;
    assert_eq!(after.body, before.body, "another project's texts change nothing here");
}

/// The ranking of every query and mode, as chunk texts (ids differ between databases).
async fn rankings(backend: Backend) -> Vec<(String, Vec<String>)> {
    let app = TestApp::spawn_with(backend, "development", with_local_model()).await;
    let (owner, project) = owner_with_project(&app).await;
    for text in CORPUS {
        create_label(&app, &owner, &project, json!({"text": text})).await;
    }
    wait_indexed(&app, &owner, &project).await;
    let mut out = Vec::new();
    for mode in ["keyword", "semantic", "hybrid"] {
        for query in QUERIES {
            let body = json!({"projectId": project, "query": query, "mode": mode, "maxResults": 10});
            let reply = retrieve_at(&app, &app.base_url, &owner, body).await;
            out.push((format!("{mode}: {query}"), cited(&reply, "chunk")));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_and_postgres_return_the_same_top_10() {
    let Some(postgres) = Backend::postgres_or_skip() else { return };
    let sqlite = rankings(Backend::Sqlite).await;
    let postgres = rankings(postgres).await;
    assert!(sqlite.iter().all(|(_, top)| !top.is_empty()));
    for ((query, on_sqlite), (_, on_postgres)) in sqlite.iter().zip(&postgres) {
        assert_eq!(on_sqlite, on_postgres, "{query}");
    }
}
