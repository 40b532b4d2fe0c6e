//! Retrieval's in-memory indexes, one per project, kept current with the database.
//!
//! # Why in memory, per project
//! Both legs rank in Rust over the project's own chunks: BM25 with the project's own statistics
//! ([`keyword`]) and cosine over its vectors, through an HNSW graph once the project is large
//! ([`vectors`]). So a query's cost follows its project, not the database; another tenant's text
//! never moves this project's ranking; and SQLite and PostgreSQL rank alike, since the database
//! only stores chunks.
//!
//! # Why a retrieval never misses an indexed item
//! Chunk writes leave a change record (`knowledge_changes`, by trigger, migration 0006): one row
//! per item, moved to a new `seq` by every change. Before it answers, a retrieval reads its
//! project's records at or above the replica's *floor* (one indexed range read) and reloads the
//! items whose `seq` it has not applied yet. A retrieval that starts after a catch-up *began* may
//! rely on it; any other one reads for itself. Where the floor moves is the storage's to say
//! ([`Storage::chunk_changes`]): on SQLite (one writer, records commit in `seq` order) just past
//! the last record read; on PostgreSQL, where `seq` is taken at insert and not at commit, to the
//! oldest transaction still running when the read was made (migration 0007), so the records of
//! transactions in flight are read again, and skipped when already applied.

//! # Memory
//! Project indexes are loaded on first use (and at start, most recently changed first, in the
//! background: readiness never waits) and dropped least recently used first when their total
//! passes `--search-memory-mb`; a dropped project is loaded again by its next query.
//!
//! # Restarts
//! A big project's index is saved in a snapshot file (`--search-snapshot-dir`) and read back on
//! its first use after a restart, then caught up through the change records like any loaded
//! index ([`restart`]: why nothing is missed, when files are written; [`snapshot`]: the file).

mod graph;
pub mod project;
mod restart;
pub mod snapshot;

/// The ranking engine itself (tokeniser, BM25, vectors) is the `canvas-search` crate.
pub use canvas_search::{keyword, tokenise, top_by_score, vectors};

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Instant;

use uuid::Uuid;

use crate::domain::{ItemId, ProjectId};

use self::project::{prepare, ProjectIndex};
use self::snapshot::SnapshotStore;
use crate::error::CoreError;
use crate::storage::{ChunkChanges, RetrievalStore};

/// Chunks read per page while loading a project.
const LOAD_PAGE: u32 = 4096;

/// How far a replica has applied one project's change records.
#[derive(Debug, Default)]
struct Freshness {
    /// Whether the project's chunks were loaded at all.
    loaded: bool,
    /// Where the next read of change records starts: every record below it is applied (or
    /// predates the load).
    floor: i64,
    /// Records at or above the floor already applied: item → (seq, position).
    applied: HashMap<Uuid, (i64, i64)>,
    /// When the latest catch-up began reading: a retrieval that started before it needs no other.
    last_read: Option<Instant>,
    /// Item and `seq` of the newest record applied (a snapshot checks the database still has it).
    newest: Option<(Uuid, i64)>,
    /// Items changed by catch-ups since the last snapshot (or the load).
    changed_since_snapshot: usize,
}

/// One project's slot in the registry.
#[derive(Debug)]
pub struct ProjectSlot {
    project: Uuid,
    /// Serialises loads and catch-ups of the project.
    freshness: tokio::sync::Mutex<Freshness>,
    /// The index; readers search under the read lock on the search pool.
    index: RwLock<ProjectIndex>,
    /// Registry clock value of the last use (least recently used goes first).
    last_used: AtomicU64,
    /// Heap bytes of the index at the last change.
    bytes: AtomicUsize,
    /// Whether the index was read from a snapshot.
    restored: AtomicBool,
    /// Bytes of the last snapshot written here (0: none).
    snapshot_bytes: AtomicU64,
    /// A snapshot write is queued on the builder thread.
    snapshot_queued: AtomicBool,
}

impl ProjectSlot {
    /// Runs `work` with the index under the read lock.
    pub fn read<T>(&self, work: impl FnOnce(&ProjectIndex) -> T) -> T {
        work(&self.index.read().unwrap_or_else(|e| e.into_inner()))
    }

    fn write<T>(&self, work: impl FnOnce(&mut ProjectIndex) -> T) -> T {
        work(&mut self.index.write().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Every loaded project index, and the threads that do their CPU work.
#[derive(Debug)]
pub struct SearchIndexes {
    projects: Mutex<HashMap<Uuid, Arc<ProjectSlot>>>,
    /// Vector length of the embedding model; `None` runs keyword-only.
    dimension: Option<usize>,
    /// The model whose vectors are searched: while a re-index for a new model runs, chunks still
    /// holding another model's vectors count for the keyword leg only (vectors of two models are
    /// never compared).
    model_id: String,
    /// Scoring, tokenising and graph updates: never on the async workers.
    pool: Arc<rayon::ThreadPool>,
    /// Graph builds, one at a time, so a build never starves the queries of the main pool.
    builder: Arc<rayon::ThreadPool>,
    /// Threads that may use a graph at once (the pool's plus one), reserved in each graph.
    graph_threads: usize,
    /// The memory budget of all project indexes together.
    budget_bytes: usize,
    /// Vector count from which a project gets a graph.
    exact_below: usize,
    /// Where big projects' snapshots are written and read (`None`: off).
    snapshot_store: Option<Arc<SnapshotStore>>,
    clock: AtomicU64,
}

impl SearchIndexes {
    /// `vectors`: the embedding model's vector length and id; `None` runs keyword-only.
    pub fn new(vectors: Option<(usize, String)>, budget_bytes: usize, exact_below: usize) -> Self {
        let (dimension, model_id) = match vectors {
            Some((dimension, model_id)) => (Some(dimension), model_id),
            None => (None, "none".to_owned()),
        };
        let threads = std::thread::available_parallelism().map_or(2, usize::from).max(2);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .expect("the search threads start");
        let builder = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .thread_name(|_| "search-graph-build".into())
            .build()
            .expect("the graph build thread starts");
        Self {
            projects: Mutex::new(HashMap::new()),
            dimension,
            model_id,
            pool: Arc::new(pool),
            builder: Arc::new(builder),
            graph_threads: threads + 1,
            budget_bytes,
            exact_below,
            snapshot_store: None,
            clock: AtomicU64::new(0),
        }
    }

    /// The same registry saving snapshots of projects with at least `min_chunks` chunks in `dir`
    /// (`None`: no snapshots).
    pub fn with_snapshots(mut self, dir: Option<std::path::PathBuf>, min_chunks: usize) -> Self {
        self.snapshot_store = dir.map(|dir| Arc::new(SnapshotStore::new(dir, min_chunks)));
        self
    }

    /// Empty indexes with the same settings, holding vectors of another model.
    pub fn with_vectors(&self, vectors: Option<(usize, String)>) -> Self {
        let mut indexes = Self::new(vectors, self.budget_bytes, self.exact_below);
        indexes.snapshot_store = self.snapshot_store.clone();
        indexes
    }

    /// Runs CPU-bound `work` on the search pool and awaits it.
    pub async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, CoreError> {
        let (send, receive) = tokio::sync::oneshot::channel();
        self.pool.spawn(move || {
            let _ = send.send(work());
        });
        receive.await.map_err(|_| CoreError::Internal(anyhow::anyhow!("a search worker panicked")))
    }

    fn slot(&self, project: Uuid) -> Arc<ProjectSlot> {
        let tick = self.clock.fetch_add(1, Ordering::Relaxed);
        let mut projects = self.projects.lock().unwrap_or_else(|e| e.into_inner());
        let slot = projects.entry(project).or_insert_with(|| {
            Arc::new(ProjectSlot {
                project,
                freshness: tokio::sync::Mutex::new(Freshness::default()),
                index: RwLock::new(ProjectIndex::new(self.dimension)),
                last_used: AtomicU64::new(tick),
                bytes: AtomicUsize::new(0),
                restored: AtomicBool::new(false),
                snapshot_bytes: AtomicU64::new(0),
                snapshot_queued: AtomicBool::new(false),
            })
        });
        slot.last_used.store(tick, Ordering::Relaxed);
        slot.clone()
    }

    /// The project's index with every chunk change committed before this call applied.
    pub async fn fresh(&self, store: &RetrievalStore, project: Uuid) -> Result<Arc<ProjectSlot>, CoreError> {
        let started = Instant::now();
        let slot = self.slot(project);
        let mut freshness = slot.freshness.lock().await;
        if freshness.last_read.is_some_and(|read| read >= started) {
            drop(freshness);
            return Ok(slot);
        }
        let read = Instant::now();
        if freshness.loaded {
            self.catch_up(store, &slot, &mut freshness).await?;
        } else {
            self.load(store, &slot, &mut freshness).await?;
        }
        freshness.last_read = Some(read);
        drop(freshness);
        slot.bytes.store(slot.read(ProjectIndex::heap_bytes), Ordering::Relaxed);
        self.enforce_budget(project);
        Ok(slot)
    }

    /// Reads a project's index from its snapshot, or else its chunks from the database into a
    /// fresh index, then starts its graph when it is large and saves it when it is big.
    async fn load(
        &self,
        store: &RetrievalStore,
        slot: &Arc<ProjectSlot>,
        freshness: &mut Freshness,
    ) -> Result<(), CoreError> {
        if self.restore(store, slot, freshness).await? {
            return Ok(());
        }
        let started = Instant::now();
        // Records first, chunks second: the chunks are then at least as new as the records.
        let records = store.chunk_changes(ProjectId::from_uuid(slot.project), 0).await?;
        let mut index = ProjectIndex::new(self.dimension);
        let mut after = 0;
        loop {
            let page =
                store.project_chunks(ProjectId::from_uuid(slot.project), &self.model_id, after, LOAD_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = last.id;
            let full = page.len() as u32 == LOAD_PAGE;
            let (dimension, threads) = (self.dimension, self.graph_threads);
            index = self
                .run(move || {
                    let prepared = prepare(page, dimension);
                    index.extend(prepared, threads).map(|()| index)
                })
                .await?
                .map_err(|e| CoreError::Internal(anyhow::anyhow!(e)))?;
            if !full {
                break;
            }
        }
        let chunks = index.len();
        *slot.index.write().unwrap_or_else(|e| e.into_inner()) = index;
        *freshness = Freshness { loaded: true, ..Freshness::default() };
        advance(freshness, &records);
        tracing::info!(project = %slot.project, chunks, elapsed = ?started.elapsed(), "search index loaded");
        self.build_graph_if_wanted(slot);
        self.save_later(slot);
        Ok(())
    }

    /// Applies the change records above the floor that this replica has not applied yet.
    async fn catch_up(
        &self,
        store: &RetrievalStore,
        slot: &Arc<ProjectSlot>,
        freshness: &mut Freshness,
    ) -> Result<(), CoreError> {
        let records = store.chunk_changes(ProjectId::from_uuid(slot.project), freshness.floor).await?;
        let changed: Vec<ItemId> = records
            .records
            .iter()
            .filter(|r| freshness.applied.get(&r.item_id.uuid()).map(|(seq, _)| *seq) != Some(r.seq))
            .map(|r| r.item_id)
            .collect();
        if !changed.is_empty() {
            freshness.changed_since_snapshot += changed.len();
            let chunks = store.chunks_of_items(ProjectId::from_uuid(slot.project), &self.model_id, &changed).await?;
            // The in-memory index keys chunks by the bare UUID (its snapshot file stores it).
            let changed: Vec<Uuid> = changed.iter().map(|id| id.uuid()).collect();
            let (target, dimension, threads) = (slot.clone(), self.dimension, self.graph_threads);
            self.run(move || {
                let prepared = prepare(chunks, dimension);
                target.write(|index| index.replace_items(&changed, prepared, threads))
            })
            .await?
            .map_err(|e| CoreError::Internal(anyhow::anyhow!(e)))?;
            self.build_graph_if_wanted(slot);
        }
        advance(freshness, &records);
        if !records.records.is_empty() {
            self.save_if_changed_much(slot, freshness);
        }
        Ok(())
    }

    /// Drops least recently used projects (never `keep`) while the indexes exceed the budget.
    fn enforce_budget(&self, keep: Uuid) {
        let mut projects = self.projects.lock().unwrap_or_else(|e| e.into_inner());
        let mut total: usize = projects.values().map(|s| s.bytes.load(Ordering::Relaxed)).sum();
        while total > self.budget_bytes {
            let Some((oldest, bytes)) = projects
                .iter()
                .filter(|(id, _)| **id != keep)
                .min_by_key(|(_, s)| s.last_used.load(Ordering::Relaxed))
                .map(|(id, s)| (*id, s.bytes.load(Ordering::Relaxed)))
            else {
                break;
            };
            projects.remove(&oldest);
            total -= bytes;
            tracing::info!(project = %oldest, bytes, "search index dropped (memory budget); reloaded on its next query");
        }
    }

    /// Loads the most recently changed projects in the background, while the budget allows.
    pub async fn warm(&self, store: &RetrievalStore, projects: u32) {
        if projects == 0 {
            return;
        }
        let recent = match store.recently_changed_projects(projects).await {
            Ok(recent) => recent,
            Err(error) => return tracing::warn!(%error, "could not list projects to load their search indexes"),
        };
        for project in recent.into_iter().map(|p| p.uuid()) {
            if self.total_bytes() * 2 > self.budget_bytes {
                break;
            }
            if let Err(error) = self.fresh(store, project).await {
                tracing::warn!(%project, %error, "could not load a search index");
            }
        }
    }

    /// The project's slot if it is loaded (or being loaded), without touching its last use.
    fn existing_slot(&self, project: Uuid) -> Option<Arc<ProjectSlot>> {
        self.projects.lock().unwrap_or_else(|e| e.into_inner()).get(&project).cloned()
    }

    /// Whether the project's vector graph is built (`None`: not loaded, or no graph wanted).
    pub fn graph_ready(&self, project: Uuid) -> Option<bool> {
        let slot = self.existing_slot(project)?;
        slot.read(|index| index.vectors().filter(|v| v.len() >= self.exact_below.max(1)).map(|v| v.graph_ready()))
    }

    /// The projects whose index this replica holds.
    pub fn loaded_projects(&self) -> Vec<Uuid> {
        self.projects.lock().unwrap_or_else(|e| e.into_inner()).keys().copied().collect()
    }

    /// Heap bytes of every loaded index.
    pub fn total_bytes(&self) -> usize {
        self.projects.lock().unwrap_or_else(|e| e.into_inner()).values().map(|s| s.bytes.load(Ordering::Relaxed)).sum()
    }
}

/// Records the applied change records and moves the floor where the storage says the next read
/// starts; records below it are never returned again, so they need no memory.
fn advance(freshness: &mut Freshness, changes: &ChunkChanges) {
    for record in &changes.records {
        freshness.applied.insert(record.item_id.uuid(), (record.seq, record.position));
        if freshness.newest.is_none_or(|(_, seq)| record.seq > seq) {
            freshness.newest = Some((record.item_id.uuid(), record.seq));
        }
    }
    freshness.floor = freshness.floor.max(changes.next_floor);
    let floor = freshness.floor;
    freshness.applied.retain(|_, (_, position)| *position >= floor);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::ChunkChange;

    fn record(item: u128, seq: i64, position: i64) -> ChunkChange {
        ChunkChange { item_id: ItemId::from_uuid(Uuid::from_u128(item)), seq, position }
    }

    #[test]
    fn records_of_transactions_still_in_flight_stay_remembered_until_the_floor_passes_them() {
        let mut freshness = Freshness::default();
        // PostgreSQL: positions are transaction ids; transaction 40 was still running.
        let first = ChunkChanges { records: vec![record(1, 3, 30), record(2, 5, 41)], next_floor: 40 };
        advance(&mut freshness, &first);
        assert_eq!(freshness.floor, 40);
        assert_eq!(freshness.applied.keys().copied().collect::<Vec<_>>(), [Uuid::from_u128(2)], "41 is read again");
        // Transaction 40 commits with a smaller seq: read (its position is not below the floor).
        let second = ChunkChanges { records: vec![record(3, 4, 40), record(2, 5, 41)], next_floor: 50 };
        advance(&mut freshness, &second);
        assert_eq!(freshness.floor, 50);
        assert!(freshness.applied.is_empty());
        // A floor never moves back.
        advance(&mut freshness, &ChunkChanges { records: vec![], next_floor: 7 });
        assert_eq!(freshness.floor, 50);
    }
}
