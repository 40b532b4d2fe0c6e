//! The indexer at batch speed, seen from outside: progress counts and the queue metric during a
//! bulk import, one failing item among its batch-mates, unchanged text that costs no model call,
//! and a switch of embedding model that re-indexes in the background while retrieval answers.
//! The real all-MiniLM-L6-v2 runs behind [`ObservedModel`], which counts (or holds) its calls.

use std::sync::Arc;
use std::time::{Duration, Instant};

use canvas_tests::model::ObservedModel;
use canvas_tests::{backend_tests, with_local_model, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use crate::knowledge::{cited, retrieve};
use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    queue_metrics_and_counts_follow_a_bulk_import,
    a_failing_item_does_not_fail_its_batch_mates,
    unchanged_text_costs_no_model_call,
    a_model_switch_reindexes_while_retrieval_answers,
    a_stopping_indexer_hands_its_leases_back
);

/// `GET /api/v1/memory/index` on `base` (one item per page: the counts are what matters).
async fn index_page(app: &TestApp, base: &str, user: &TestUser, project: &str) -> Value {
    let url = format!("{base}/api/v1/memory/index?projectId={project}&limit=1&jsonCasing=camel");
    let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body
}

/// Waits (bounded) until the counts on `base` satisfy `done`; returns them.
async fn wait_counts(
    app: &TestApp,
    base: &str,
    user: &TestUser,
    project: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let counts = index_page(app, base, user, project).await["counts"].clone();
        if done(&counts) {
            return counts;
        }
        assert!(Instant::now() < deadline, "the index did not get there: {counts}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits (bounded) until all `total` items of the project are indexed and none is queued.
pub async fn wait_all_indexed(app: &TestApp, user: &TestUser, project: &str, total: u64) {
    wait_counts(app, &app.base_url, user, project, all_indexed(total)).await;
}

fn all_indexed(total: u64) -> impl Fn(&Value) -> bool {
    move |c| c["indexed"] == total && c["queued"] == 0
}

/// The value of an unlabelled gauge in Prometheus text.
fn gauge(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("/metrics lacks {name}:\n{text}"))
        .trim()
        .parse()
        .expect("a number")
}

async fn queue_gauge(app: &TestApp) -> f64 {
    let text = app.http.get(format!("{}/metrics", app.base_url)).send().await.unwrap().text().await.unwrap();
    gauge(&text, "knowledge_index_queue_items")
}

async fn create_note(app: &TestApp, user: &TestUser, project: &str, text: &str) -> String {
    let reply = send(
        app,
        Method::POST,
        &app.item_url(project, "/panel/sticky-note?jsonCasing=camel"),
        Some(&user.bearer()),
        Some(json!({"text": text})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["itemId"].as_str().unwrap().to_owned()
}

async fn queue_metrics_and_counts_follow_a_bulk_import(backend: Backend) {
    let gate = Arc::new(Semaphore::new(0));
    let held = gate.clone();
    let app = TestApp::spawn_with_model(backend, move |m| Arc::new(ObservedModel::new(m).gated(held))).await;
    let (owner, project) = owner_with_project(&app).await;
    let before = index_page(&app, &app.base_url, &owner, &project).await;
    assert_eq!(before["counts"], json!({"total": 0, "queued": 0, "indexing": 0, "indexed": 0, "failed": 0}));

    // The model is held: every note stays queued, and the metric says so.
    for n in 0..40 {
        create_note(&app, &owner, &project, &format!("Bulk note {n} about boundary layer transition")).await;
    }
    let counts = index_page(&app, &app.base_url, &owner, &project).await["counts"].clone();
    assert_eq!(
        (counts["total"].clone(), counts["queued"].clone(), counts["indexed"].clone()),
        (json!(40), json!(40), json!(0)),
        "{counts}"
    );
    assert!(counts["indexing"].as_u64().unwrap() <= 40, "{counts}");
    assert_eq!(queue_gauge(&app).await, 40.0, "the metric counts the queue at scrape time");

    gate.add_permits(Semaphore::MAX_PERMITS / 2);
    let counts = wait_counts(&app, &app.base_url, &owner, &project, all_indexed(40)).await;
    assert_eq!(counts, json!({"total": 40, "queued": 0, "indexing": 0, "indexed": 40, "failed": 0}));
    assert_eq!(queue_gauge(&app).await, 0.0);
    // The item filter applies to the counts too.
    let some = send(
        &app,
        Method::GET,
        &format!(
            "{}/api/v1/memory/index?projectId={project}&itemIds={}&jsonCasing=camel",
            app.base_url,
            uuid::Uuid::now_v7()
        ),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(some.body["counts"]["total"], 0, "{}", some.body);
}

async fn a_failing_item_does_not_fail_its_batch_mates(backend: Backend) {
    let gate = Arc::new(Semaphore::new(0));
    let held = gate.clone();
    let observed = Arc::new(std::sync::OnceLock::<Arc<ObservedModel>>::new());
    let seen = observed.clone();
    let app = TestApp::spawn_with_model(backend, move |m| {
        let model = Arc::new(ObservedModel::new(m).refusing("POISON").gated(held));
        seen.set(model.clone()).ok();
        model
    })
    .await;
    let model = observed.get().unwrap().clone();
    let (owner, project) = owner_with_project(&app).await;
    let mut good = Vec::new();
    for n in 0..6 {
        good.push(create_note(&app, &owner, &project, &format!("Healthy note {n} on supersonic inlets")).await);
    }
    let bad = create_note(&app, &owner, &project, "A POISON pill the model refuses").await;
    good.push(create_note(&app, &owner, &project, "Healthy note after the poison").await);
    gate.add_permits(Semaphore::MAX_PERMITS / 2);

    let counts = wait_counts(&app, &app.base_url, &owner, &project, |c| {
        c["queued"] == 0 && c["indexed"].as_u64().unwrap() + c["failed"].as_u64().unwrap() == 8
    })
    .await;
    assert_eq!((counts["indexed"].clone(), counts["failed"].clone()), (json!(7), json!(1)), "{counts}");
    let url = format!("{}/api/v1/memory/index?projectId={project}&itemIds={bad}&jsonCasing=camel", app.base_url);
    let status = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(status.body["items"][0]["state"], "failed", "{}", status.body);
    assert!(status.body["items"][0]["error"].as_str().unwrap().contains("refused"), "{}", status.body);
    assert!(model.calls() >= 2, "the batch holding the poison was retried item by item");

    let reply =
        retrieve(&app, &owner, json!({"projectId": project, "query": "supersonic inlets", "maxResults": 100})).await;
    let ids = cited(&reply, "id");
    assert!(good.iter().all(|id| ids.contains(id)), "every batch-mate is retrievable: {}", reply.body);
    assert!(!ids.contains(&bad));
}

async fn unchanged_text_costs_no_model_call(backend: Backend) {
    let observed = Arc::new(std::sync::OnceLock::<Arc<ObservedModel>>::new());
    let seen = observed.clone();
    let app = TestApp::spawn_with_model(backend, move |m| {
        let model = Arc::new(ObservedModel::new(m));
        seen.set(model.clone()).ok();
        model
    })
    .await;
    let model = observed.get().unwrap().clone();
    let (owner, project) = owner_with_project(&app).await;
    let text = "Flutter of a swept wing at transonic speed";
    let id = create_label(&app, &owner, &project, json!({"text": text})).await;
    wait_counts(&app, &app.base_url, &owner, &project, all_indexed(1)).await;
    assert_eq!((model.calls(), model.texts()), (1, 1));

    // Moved, then restyled: new versions, same text.
    for (n, change) in [json!({"position": {"x": 400, "y": 80}}), json!({"textColor": "#123456", "fontSize": 30})]
        .into_iter()
        .enumerate()
    {
        let url = app.item_url(&project, &format!("/label/{id}"));
        let patched = send(&app, Method::PATCH, &url, Some(&owner.bearer()), Some(change)).await;
        assert_eq!(patched.status, StatusCode::OK, "{}", patched.body);
        let version = n as u64 + 2;
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let page = index_page(&app, &app.base_url, &owner, &project).await;
            if page["items"][0]["indexedVersion"] == version && page["counts"]["queued"] == 0 {
                assert_eq!(page["items"][0]["state"], "indexed");
                assert_eq!(page["items"][0]["chunks"], 1);
                break;
            }
            assert!(Instant::now() < deadline, "version {version} was not recorded: {page}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    assert_eq!((model.calls(), model.texts()), (1, 1), "moving and restyling never call the model");

    // The same text in another project (a copy) reuses the stored vector.
    let other = app.project(&owner).await;
    let copy = create_label(&app, &owner, &other, json!({"text": text})).await;
    wait_counts(&app, &app.base_url, &owner, &other, all_indexed(1)).await;
    assert_eq!((model.calls(), model.texts()), (1, 1), "a copy's text is embedded already");
    // …and that vector serves the semantic leg of the copy's project (one call: the query).
    let reply =
        retrieve(&app, &owner, json!({"projectId": other, "query": "aeroelastic wing vibration", "mode": "semantic"}))
            .await;
    assert_eq!(cited(&reply, "id"), vec![copy], "{}", reply.body);
    assert_eq!(model.calls(), 2);

    // New text is embedded.
    let url = app.item_url(&project, &format!("/label/{id}"));
    let patched = send(
        &app,
        Method::PATCH,
        &url,
        Some(&owner.bearer()),
        Some(json!({"text": "Heat transfer in hypersonic flow"})),
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK);
    wait_counts(&app, &app.base_url, &owner, &project, |c| c["queued"] == 0).await;
    let deadline = Instant::now() + Duration::from_secs(60);
    while model.texts() < 3 {
        assert!(Instant::now() < deadline, "the changed text was not embedded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!((model.calls(), model.texts()), (3, 3));
}

/// Starts a core with `model` on `app`'s database, and a REST gateway in front of it.
async fn second_core(app: &TestApp, model: Arc<ObservedModel>) -> (String, CancellationToken) {
    let config = app.another_core_config(with_local_model());
    let core = core_service::build(&config).await.expect("a core with the new model starts");
    let knowledge = core.retrieval().knowledge().clone().with_embedding_model(model);
    let core = Arc::new((*core).clone().with_knowledge(knowledge));
    let stop = CancellationToken::new();
    let (_, base) = app.serve_replica(core, &stop).await;
    (base, stop)
}

async fn a_model_switch_reindexes_while_retrieval_answers(backend: Backend) {
    let app = TestApp::spawn_with_model(backend, |m| Arc::new(ObservedModel::new(m).with_id("model-a"))).await;
    let (owner, project) = owner_with_project(&app).await;
    let wing =
        create_label(&app, &owner, &project, json!({"text": "The wing produces lift in the propeller slipstream"}))
            .await;
    create_label(&app, &owner, &project, json!({"text": "Quarterly budget review with the finance team"})).await;
    create_label(&app, &owner, &project, json!({"text": "The coffee machine on the third floor is broken"})).await;
    wait_counts(&app, &app.base_url, &owner, &project, all_indexed(3)).await;
    app.stop_core().await;

    // The same weights under another id stand for a new model; it is held at first.
    let gate = Arc::new(Semaphore::new(0));
    let inner = app.core.retrieval().knowledge().embedding_model().unwrap();
    let model_b = Arc::new(ObservedModel::new(inner).with_id("model-b").gated_batches(gate.clone()));
    let (base, stop) = second_core(&app, model_b.clone()).await;
    let counts = wait_counts(&app, &base, &owner, &project, |c| c["queued"] == 3).await;
    assert_eq!(counts["indexed"], 0, "{counts}");

    // Meanwhile retrieval answers: the keyword leg finds every item…
    let at = |body: Value| {
        let http = app.http.clone();
        let (url, token) = (format!("{base}/api/v1/memory/retrieve?jsonCasing=camel"), owner.bearer());
        async move {
            let response = http.post(url).header("Authorization", token).json(&body).send().await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            response.json::<Value>().await.unwrap()
        }
    };
    let ids = |body: &Value| {
        body["citations"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()).collect::<Vec<_>>()
    };
    let keyword = at(json!({"projectId": project, "query": "propeller lift", "mode": "keyword"})).await;
    assert_eq!(ids(&keyword), vec![wing.clone()], "{keyword}");
    // …and the semantic leg (the query embedded by model-b) ignores model-a's vectors.
    let semantic = at(json!({"projectId": project, "query": "aerodynamics of aircraft", "mode": "semantic"})).await;
    assert!(ids(&semantic).is_empty(), "vectors of another model are never compared: {semantic}");

    gate.add_permits(Semaphore::MAX_PERMITS / 2);
    wait_counts(&app, &base, &owner, &project, all_indexed(3)).await;
    assert_eq!(model_b.texts(), 1 + 3, "the query, then each item once: model-a's vectors are not reused");
    let semantic = at(json!({"projectId": project, "query": "aerodynamics of aircraft", "mode": "semantic"})).await;
    assert_eq!(ids(&semantic)[0], wing, "{semantic}");
    stop.cancel();
}

async fn a_stopping_indexer_hands_its_leases_back(backend: Backend) {
    let gate = Arc::new(Semaphore::new(0));
    let held = gate.clone();
    let app = TestApp::spawn_with_model(backend, move |m| Arc::new(ObservedModel::new(m).gated(held))).await;
    let (owner, project) = owner_with_project(&app).await;
    for n in 0..12 {
        create_note(&app, &owner, &project, &format!("Note {n} on shock tube flows")).await;
    }
    // The model holds the first round's call. The next round is leased when that call starts,
    // so it holds the notes queued by then (none, or some: the timing decides, and both must
    // end with no lease left).
    let counts = wait_counts(&app, &app.base_url, &owner, &project, |c| c["indexing"].as_u64().unwrap() >= 1).await;
    assert_eq!(counts["queued"], 12, "{counts}");
    let stopping = {
        let app = &app;
        async move { app.stop_core().await }
    };
    // The call in progress finishes (the gate opens a moment after the stop) and is stored.
    let release = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        gate.add_permits(Semaphore::MAX_PERMITS / 2);
    };
    tokio::join!(stopping, release);

    // No lease survives the stop (read from the database: no core runs now)…
    let project_id = core_service::domain::ProjectId::parse(&project).unwrap();
    let now_ms = chrono::Utc::now().timestamp_millis();
    let after_stop = app.core.stores().retrieval.index_counts(project_id, None, now_ms).await.unwrap();
    assert_eq!(after_stop.indexing, 0, "{after_stop:?}");
    assert!(after_stop.indexed >= 1 && after_stop.queued >= 1, "the call in progress was stored: {after_stop:?}");
    // …so another core indexes the rest at once (a lease left behind would hold its item for 300 s).
    let model = app.core.retrieval().knowledge().embedding_model().unwrap();
    let (base, stop) = second_core(&app, Arc::new(ObservedModel::new(model))).await;
    wait_counts(&app, &base, &owner, &project, all_indexed(12)).await;
    stop.cancel();
}
