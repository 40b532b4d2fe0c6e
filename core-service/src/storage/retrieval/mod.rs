//! The retrieval context's store: the knowledge queue and the chunks written by the indexer
//! (`queue.rs`), its batch transactions (`index_batch.rs`, on PostgreSQL one statement per kind of
//! change, `index_outcomes_pg.rs`), what the in-memory indexes read (`chunks.rs`), and open comment
//! threads as the index reads and cites them (`thread_texts.rs`).

mod chunks;
mod index_batch;
mod index_outcome;
mod index_outcomes_pg;
mod queue;
mod thread_texts;

pub use chunks::{ChunkChange, ChunkChanges, ChunkRecord};
pub use index_batch::{IndexCounts, StoredIndexState};
pub use index_outcome::{IndexAction, IndexOutcome};
pub use queue::{ChunkText, IndexStatusRow, IndexedChunk, IndexedItem, QueuedItem};
pub use thread_texts::ThreadText;

context_store!(
    /// The knowledge queue, chunks and index state: what `RetrievalService` and its indexer run.
    RetrievalStore
);

impl RetrievalStore {
    /// A project's connectors, which the indexer reads to give each its ends' text: the items
    /// store's query, not a second copy of it.
    pub async fn project_connectors(
        &self,
        project_id: crate::domain::ProjectId,
    ) -> Result<Vec<crate::storage::ItemRow>, crate::error::CoreError> {
        crate::storage::ItemsStore::new(self.db.clone()).project_connectors(project_id).await
    }
}
