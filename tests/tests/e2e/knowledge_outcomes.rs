//! The indexer's batch of outcomes as the database keeps it, on both backends with the same
//! inputs: PostgreSQL applies a batch as one statement per kind of change, SQLite item by item,
//! and both must leave the same index and queue. Every kind of outcome is in one batch, with the
//! cases that must change nothing: an older version than the one stored, an unchanged text whose
//! stored fingerprint moved on, a completion for a queue row that was queued again since.
//! The core is stopped first, so no indexer touches the rows the test reads.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::{ItemId, ProjectId};
use core_service::storage::{IndexAction, IndexOutcome, IndexedChunk, IndexedItem, RetrievalStore};
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::knowledge_batch::wait_all_indexed;
use crate::support::{create_label, owner_with_project};

backend_tests!(
    a_batch_of_every_outcome_leaves_what_each_outcome_alone_would,
    a_batch_naming_an_item_twice_applies_its_outcomes_in_order
);

/// A written index entry of `item` at `version` with these chunk texts.
fn entry(item: ItemId, project: ProjectId, version: i64, model: &str, texts: &[&str]) -> IndexedItem {
    IndexedItem {
        item_id: item,
        project_id: project,
        item_version: version,
        status: "indexed",
        error: None,
        truncated: false,
        model_id: model.to_owned(),
        source_hash: Some(Sha256::digest(texts.join("\n")).to_vec()),
        chunks: texts
            .iter()
            .map(|t| IndexedChunk { text: (*t).to_owned(), text_hash: Sha256::digest(t).to_vec(), embedding: None })
            .collect(),
    }
}

/// The chunk texts of `item` in chunk order.
async fn texts(storage: &RetrievalStore, project: ProjectId, model: &str, item: ItemId) -> Vec<String> {
    storage.chunks_of_items(project, model, &[item]).await.unwrap().into_iter().map(|c| c.text).collect()
}

/// Labels indexed by a running core, which is then stopped; their ids.
async fn indexed_labels(app: &TestApp, count: usize) -> (ProjectId, Vec<ItemId>) {
    let (owner, project) = owner_with_project(app).await;
    let mut items = Vec::new();
    for n in 0..count {
        let id = create_label(app, &owner, &project, json!({"text": format!("Label {n} about wind tunnels")})).await;
        items.push(ItemId::parse(&id).unwrap());
    }
    wait_all_indexed(app, &owner, &project, count as u64).await;
    app.stop_core().await;
    (ProjectId::parse(&project).unwrap(), items)
}

async fn a_batch_of_every_outcome_leaves_what_each_outcome_alone_would(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (project, items) = indexed_labels(&app, 8).await;
    let storage = &app.core.stores().retrieval;
    let model = app.core.retrieval().knowledge().model_id().to_owned();
    let states = storage.index_states(&items).await.unwrap();
    let stored_hash = |item: ItemId| states.iter().find(|s| s.item_id == item).unwrap().source_hash.clone().unwrap();
    let before_seq = storage.chunk_change_seq(items[1]).await.unwrap();

    // Every item queued again and leased, as an indexer round would hold them.
    storage.requeue_items(&items.iter().map(|i| (*i, project)).collect::<Vec<_>>()).await.unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    let leased = storage.lease_index_work(now, now + 60_000, 100).await.unwrap();
    assert_eq!(leased.len(), items.len());
    let generation = |item: ItemId| leased.iter().find(|q| q.item_id == item).unwrap().generation;
    // Item 6 changes again after the lease: its completion must leave the newer queue row.
    storage.requeue_items(&[(items[6], project)]).await.unwrap();

    let retry_at = now + 3_600_000;
    let at =
        |n: usize, action: IndexAction| IndexOutcome { item_id: items[n], generation: generation(items[n]), action };
    let outcomes = vec![
        // 0: a new version with two chunks replaces the one chunk.
        at(
            0,
            IndexAction::Write(entry(items[0], project, 2, &model, &["Two tunnels", "with a \u{1F300} and 'quotes'"])),
        ),
        // 1: an older version than the stored one: nothing is written, the row is completed.
        at(1, IndexAction::Write(entry(items[1], project, 0, &model, &["stale text"]))),
        // 2: unchanged text with the stored fingerprint: the version moves on.
        at(2, IndexAction::Unchanged { item_version: 5, source_hash: stored_hash(items[2]), model_id: model.clone() }),
        // 3: unchanged, but the fingerprint is not the stored one: due again at once.
        at(3, IndexAction::Unchanged { item_version: 5, source_hash: vec![7; 32], model_id: model.clone() }),
        // 4: the item is gone.
        at(4, IndexAction::Remove),
        // 5: the model failed: kept with its attempts until `retry_at`.
        at(5, IndexAction::Retry { attempts: 3, retry_at_ms: retry_at }),
        // 6: written, but its queue row was queued again since the lease.
        at(6, IndexAction::Write(entry(items[6], project, 3, &model, &["Six"]))),
        // 7: a failure with no chunks.
        at(
            7,
            IndexAction::Write(IndexedItem {
                status: "failed",
                error: Some("the model refused it".into()),
                source_hash: None,
                chunks: Vec::new(),
                ..entry(items[7], project, 4, &model, &[])
            }),
        ),
    ];
    storage.apply_index_outcomes(&outcomes).await.unwrap();

    let status = storage.index_status(project, Some(&items), None, 100).await.unwrap();
    let row = |n: usize| status.iter().find(|r| r.item_id == items[n]).unwrap();
    // Written: version, chunk count, texts in order; completed.
    assert_eq!((row(0).indexed_version, row(0).chunk_count, row(0).attempts), (Some(2), Some(2), None));
    assert_eq!(texts(storage, project, &model, items[0]).await, ["Two tunnels", "with a \u{1F300} and 'quotes'"]);
    // Older: the stored version and chunk kept, untouched (no chunk change recorded); completed.
    assert_eq!((row(1).indexed_version, row(1).attempts), (Some(1), None));
    assert_eq!(texts(storage, project, &model, items[1]).await, ["Label 1 about wind tunnels"]);
    assert_eq!(storage.chunk_change_seq(items[1]).await.unwrap(), before_seq);
    // Unchanged and still stored as read: version 5, chunk kept, completed.
    assert_eq!((row(2).indexed_version, row(2).attempts), (Some(5), None));
    assert_eq!(texts(storage, project, &model, items[2]).await, ["Label 2 about wind tunnels"]);
    // Unchanged but moved on: version kept, due again at once with no attempt counted.
    assert_eq!((row(3).indexed_version, row(3).attempts, row(3).leased_until), (Some(1), Some(0), Some(0)));
    // Removed: no entry, no chunk, completed.
    assert_eq!((row(4).indexed_version, row(4).status.as_deref(), row(4).attempts), (None, None, None));
    assert!(texts(storage, project, &model, items[4]).await.is_empty());
    // Retried: the entry kept, the row waits with its attempts.
    assert_eq!((row(5).indexed_version, row(5).attempts, row(5).leased_until), (Some(1), Some(3), Some(retry_at)));
    // Written, but the newer queue row stays for the next round.
    assert_eq!((row(6).indexed_version, row(6).attempts), (Some(3), Some(0)));
    assert_eq!(texts(storage, project, &model, items[6]).await, ["Six"]);
    // Failed: no chunk, the error kept.
    assert_eq!(
        (row(7).indexed_version, row(7).status.as_deref(), row(7).error.as_deref(), row(7).chunk_count),
        (Some(4), Some("failed"), Some("the model refused it"), Some(0))
    );
    assert!(texts(storage, project, &model, items[7]).await.is_empty());
    // Nothing else is queued.
    let counts = storage.index_counts(project, None, now).await.unwrap();
    assert_eq!(counts.queued, 3, "{counts:?}");
}

async fn a_batch_naming_an_item_twice_applies_its_outcomes_in_order(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (project, items) = indexed_labels(&app, 1).await;
    let storage = &app.core.stores().retrieval;
    let model = app.core.retrieval().knowledge().model_id().to_owned();
    storage.requeue_items(&[(items[0], project)]).await.unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    let generation = storage.lease_index_work(now, now + 60_000, 10).await.unwrap()[0].generation;
    let outcome = |action| IndexOutcome { item_id: items[0], generation, action };
    let write = |version, text| outcome(IndexAction::Write(entry(items[0], project, version, &model, &[text])));
    storage.apply_index_outcomes(&[write(2, "first"), write(3, "second")]).await.unwrap();
    assert_eq!(texts(storage, project, &model, items[0]).await, ["second"]);
    storage.apply_index_outcomes(&[write(4, "third"), outcome(IndexAction::Remove)]).await.unwrap();
    assert!(texts(storage, project, &model, items[0]).await.is_empty());
    let status = storage.index_status(project, None, None, 10).await.unwrap();
    assert_eq!((status[0].indexed_version, status[0].attempts), (None, None), "{status:?}");
}
