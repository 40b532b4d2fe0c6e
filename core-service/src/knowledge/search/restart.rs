//! Big projects warm in a second: a replica saves a big project's index in a snapshot
//! (`snapshot.rs`) and, on the project's first use after a restart, reads it back and catches up
//! through the change records instead of reading and tokenising every chunk and building the
//! graph again (6.3 s on SQLite, 12.8 s on PostgreSQL, then 99 s of exact searches, at 200,000
//! chunks: docs/PERFORMANCE.md).
//!
//! # Why a restored index misses nothing
//! A snapshot holds the index exactly as it was together with the project's `Freshness` at that
//! moment (floor, records above it already applied, newest record): it is taken under the
//! freshness lock, which every catch-up holds while it changes the index, so the two agree. On
//! restore, the ordinary catch-up reads the records from that floor: every item changed, added or
//! deleted since (on PostgreSQL including transactions that were in flight when it was saved,
//! whose records sit at or above the floor) is reloaded or removed, as on a replica that never
//! stopped. A database that went back in time (a restored backup) no longer holds the newest
//! record the snapshot saw at its `seq`, and the snapshot is ignored.
//!
//! # When a snapshot is written
//! On the builder thread, never on a query's path: after a load from the database when no graph
//! is wanted, once a graph is installed, and after catch-ups that together changed a tenth of the
//! project's items since the last one (a restart then replays at most that much). The file is
//! encoded under the index's read lock (a catch-up waits for it; queries do not, unless one is
//! waiting), then flushed to disk and renamed outside it. A project that shrank below
//! `--search-snapshot-min-chunks` loses its file at its next snapshot point.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use super::snapshot::{Identity, SnapshotError, SnapshotStore, Watermark};
use super::{Freshness, ProjectSlot, SearchIndexes};
use crate::error::CoreError;
use crate::storage::RetrievalStore;

/// A tenth of a project's items changed since its snapshot: write a new one.
const RESAVE_FRACTION: usize = 10;

/// What a snapshot is written and read with, owned, for the builder and blocking threads.
#[derive(Debug, Clone)]
pub(super) struct Snapshots {
    pub(super) store: Arc<SnapshotStore>,
    model_id: String,
    dimension: Option<usize>,
    threads: usize,
}

impl SearchIndexes {
    /// The snapshot settings of this registry (`None`: snapshots off).
    pub(super) fn snapshots(&self) -> Option<Snapshots> {
        Some(Snapshots {
            store: self.snapshot_store.clone()?,
            model_id: self.model_id.clone(),
            dimension: self.dimension,
            threads: self.graph_threads,
        })
    }

    /// Reads the project's snapshot into `slot` and catches up from its watermark. `false`: no
    /// usable snapshot (none, off, damaged, of another model, ahead of the database), and the
    /// caller loads from the database; a damaged file is never the query's error.
    pub(super) async fn restore(
        &self,
        store: &RetrievalStore,
        slot: &Arc<ProjectSlot>,
        freshness: &mut Freshness,
    ) -> Result<bool, CoreError> {
        let Some(snapshots) = self.snapshots() else { return Ok(false) };
        let (started, project) = (Instant::now(), slot.project);
        let read = tokio::task::spawn_blocking(move || {
            let id = Identity { project, model_id: &snapshots.model_id, dimension: snapshots.dimension };
            snapshots.store.read(&id, snapshots.threads)
        })
        .await;
        let restored = match read {
            Ok(Ok(Some(restored))) => restored,
            Ok(Ok(None)) => return Ok(false),
            Ok(Err(error)) => return Ok(ignored(slot, &error)),
            Err(error) => {
                tracing::error!(%project, %error, "reading a search index snapshot failed; loading from the database");
                return Ok(false);
            }
        };
        if let Some((item, seq)) = restored.watermark.newest {
            if store.chunk_change_seq(crate::domain::ItemId::from_uuid(item)).await?.is_none_or(|now| now < seq) {
                return Ok(ignored(slot, &SnapshotError::AheadOfDatabase));
            }
        }
        let (chunks, bytes) = (restored.index.len(), restored.bytes);
        let (decoding, assembling) = (restored.decoding, restored.assembling);
        let read = started.elapsed();
        slot.write(|index| *index = restored.index);
        *freshness = Freshness::restored(restored.watermark);
        slot.restored.store(true, Ordering::Relaxed);
        self.catch_up(store, slot, freshness).await?;
        self.build_graph_if_wanted(slot);
        tracing::info!(%project, chunks, bytes, ?decoding, ?assembling, ?read, elapsed = ?started.elapsed(),
            "search index read from its snapshot");
        Ok(true)
    }

    /// Queues a snapshot of the project on the builder thread, unless one is queued already or a
    /// graph build will write it when it is installed. A project too small for one loses its
    /// file, if it has one (one `unlink`: no thread needed).
    pub(super) fn save_later(&self, slot: &Arc<ProjectSlot>) {
        let Some(snapshots) = self.snapshots() else { return };
        let (chunks, building) = slot.read(|index| (index.len(), index.graph_building()));
        if chunks < snapshots.store.min_chunks {
            if let Err(error) = snapshots.store.remove(slot.project) {
                tracing::warn!(project = %slot.project, %error, "could not remove a small project's search snapshot");
            }
            return;
        }
        if building || slot.snapshot_queued.swap(true, Ordering::AcqRel) {
            return;
        }
        let slot = slot.clone();
        self.builder.spawn(move || {
            slot.snapshot_queued.store(false, Ordering::Release);
            snapshots.save(&slot);
        });
    }

    /// After a catch-up: a new snapshot once a tenth of the items changed since the last.
    pub(super) fn save_if_changed_much(&self, slot: &Arc<ProjectSlot>, freshness: &Freshness) {
        let Some(store) = &self.snapshot_store else { return };
        let (chunks, items) = slot.read(|index| (index.len(), index.item_count()));
        if chunks >= store.min_chunks && freshness.changed_since_snapshot * RESAVE_FRACTION >= items.max(1) {
            self.save_later(slot);
        }
    }

    /// Bytes of the last snapshot this replica wrote of the project (`None`: none yet).
    pub fn snapshot_written(&self, project: uuid::Uuid) -> Option<u64> {
        let bytes = self.existing_slot(project)?.snapshot_bytes.load(Ordering::Relaxed);
        (bytes > 0).then_some(bytes)
    }

    /// Whether the project's index was read from a snapshot (`None`: not loaded here).
    pub fn restored_from_snapshot(&self, project: uuid::Uuid) -> Option<bool> {
        Some(self.existing_slot(project)?.restored.load(Ordering::Relaxed))
    }
}

impl Snapshots {
    /// Writes the project's snapshot now (a blocking call: the builder thread's). Failures are
    /// logged: a missing snapshot only costs the next restart a load from the database.
    pub(super) fn save(&self, slot: &ProjectSlot) {
        let started = Instant::now();
        let mut freshness = slot.freshness.blocking_lock();
        if !freshness.loaded {
            return;
        }
        let index = slot.index.read().unwrap_or_else(|e| e.into_inner());
        if index.len() < self.store.min_chunks {
            drop(index);
            drop(freshness);
            if let Err(error) = self.store.remove(slot.project) {
                tracing::warn!(project = %slot.project, %error, "could not remove a small project's search snapshot");
            }
            return;
        }
        // The index cannot change while its read lock is held, nor the freshness before it is
        // released: the watermark is the index's.
        let watermark = freshness.watermark();
        freshness.changed_since_snapshot = 0;
        drop(freshness);
        let id = Identity { project: slot.project, model_id: &self.model_id, dimension: self.dimension };
        let pending = self.store.write(&id, &index, &watermark);
        let encoded = started.elapsed();
        drop(index);
        match pending.and_then(|pending| pending.commit()) {
            Ok(bytes) => {
                slot.snapshot_bytes.store(bytes, Ordering::Relaxed);
                tracing::info!(project = %slot.project, bytes, ?encoded, elapsed = ?started.elapsed(), "search index snapshot written");
            }
            Err(error) => tracing::warn!(project = %slot.project, %error, "search index snapshot not written"),
        }
    }
}

impl Freshness {
    /// The state a snapshot was saved in, loaded.
    fn restored(watermark: Watermark) -> Self {
        Self {
            loaded: true,
            floor: watermark.floor,
            applied: watermark.applied.into_iter().map(|(item, seq, position)| (item, (seq, position))).collect(),
            newest: watermark.newest,
            last_read: None,
            changed_since_snapshot: 0,
        }
    }

    fn watermark(&self) -> Watermark {
        let mut applied: Vec<_> = self.applied.iter().map(|(item, (seq, position))| (*item, *seq, *position)).collect();
        applied.sort_unstable();
        Watermark { floor: self.floor, applied, newest: self.newest }
    }
}

/// Logs why a snapshot is not used; always `false` (the caller loads from the database).
fn ignored(slot: &ProjectSlot, error: &SnapshotError) -> bool {
    tracing::warn!(project = %slot.project, %error, "search index snapshot ignored; loading from the database");
    false
}
