//! What an indexing round decided for each leased queue row, as the store applies it
//! (`index_batch.rs` on both backends, `index_outcomes_pg.rs` in PostgreSQL's few statements).

use crate::domain::ItemId;

use super::queue::IndexedItem;

/// What to do with one leased queue row.
#[derive(Debug, Clone)]
pub enum IndexAction {
    /// Store new chunks and state (`indexed` or `failed`), then complete the row.
    Write(IndexedItem),
    /// The text is unchanged: record `item_version` and complete the row, provided the stored
    /// entry still has this fingerprint and model; otherwise the row becomes due again at once.
    Unchanged { item_version: i64, source_hash: Vec<u8>, model_id: String },
    /// The item is gone: forget its entry, complete the row.
    Remove,
    /// Keep the row queued with `attempts` failures, free again at `retry_at_ms`.
    Retry { attempts: i32, retry_at_ms: i64 },
}

/// An action on the queue row of `item_id` as leased at `generation`.
#[derive(Debug, Clone)]
pub struct IndexOutcome {
    pub item_id: ItemId,
    /// The row is completed only while its generation is this one (no change arrived meanwhile).
    pub generation: i64,
    pub action: IndexAction,
}
