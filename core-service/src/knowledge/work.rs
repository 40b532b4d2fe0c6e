//! One leased item on its way through an indexing round (`indexer.rs` runs the rounds; `batch.rs`
//! and `prepare.rs` read and fill the same work), and why one could not be indexed. Apart from the
//! indexer so the stages share it without importing the module that runs them.

use std::time::Duration;

use chrono::Utc;

use crate::error::CoreError;
use crate::storage::{IndexAction, IndexedItem, QueuedItem};

/// Attempts before a transient failure is recorded as `failed`.
pub const MAX_ATTEMPTS: i32 = 6;

/// Why one item could not be indexed.
pub(super) enum IndexFailure {
    /// Will not get better by retrying (unreadable file, unsupported format).
    Permanent(String),
    /// May succeed later (embedding endpoint down, database busy).
    Transient(String),
}

impl From<CoreError> for IndexFailure {
    fn from(error: CoreError) -> Self {
        Self::Transient(error.to_string())
    }
}

/// One leased item on its way through a round.
pub(super) struct Work {
    pub queued: QueuedItem,
    /// The item's (or comment thread's) current version; `None` when it no longer exists.
    pub version: Option<i64>,
    /// Its text changed and it is not a connector: connectors quoting it are re-indexed after.
    pub follow_up: bool,
    pub state: WorkState,
}

pub(super) enum WorkState {
    /// Its text is being read.
    Preparing,
    /// Chunks known; `missing` of them still wait for a vector from the model.
    Embedding { item: IndexedItem, missing: usize },
    /// Decided; waiting to be stored.
    Ready(IndexAction),
    /// Handed to storage.
    Stored,
}

impl Work {
    /// Decided work on the key's current `version` (None: it no longer exists).
    pub(super) fn ready(queued: QueuedItem, version: Option<i64>, action: IndexAction) -> Self {
        Self { queued, version, follow_up: false, state: WorkState::Ready(action) }
    }

    pub(super) fn failed(queued: QueuedItem, version: Option<i64>, failure: IndexFailure, model_id: &str) -> Self {
        let mut work = Self::ready(queued, version, IndexAction::Remove);
        work.fail(failure, model_id);
        work
    }

    /// Records a failure: a retry with back-off, or the `failed` state once it is permanent.
    pub(super) fn fail(&mut self, failure: IndexFailure, model_id: &str) {
        let queued = &self.queued;
        self.follow_up = false;
        self.state = WorkState::Ready(match failure {
            IndexFailure::Transient(error) if queued.attempts + 1 < MAX_ATTEMPTS => {
                let delay =
                    Duration::from_secs(2u64.pow(queued.attempts.clamp(0, 8) as u32)).min(Duration::from_secs(300));
                tracing::warn!(item = %queued.item_id, %error, retry_in = ?delay, "indexing failed; will retry");
                IndexAction::Retry { attempts: queued.attempts + 1, retry_at_ms: now_ms() + delay.as_millis() as i64 }
            }
            IndexFailure::Transient(error) | IndexFailure::Permanent(error) => {
                tracing::warn!(item = %queued.item_id, %error, "indexing failed");
                match self.version {
                    None => IndexAction::Remove,
                    Some(item_version) => IndexAction::Write(IndexedItem {
                        item_id: queued.item_id,
                        project_id: queued.project_id,
                        item_version,
                        status: "failed",
                        error: Some(error.chars().take(500).collect()),
                        truncated: false,
                        model_id: model_id.to_owned(),
                        source_hash: None,
                        chunks: Vec::new(),
                    }),
                }
            }
        });
    }

    /// An item whose every chunk has its vector is ready to store.
    pub(super) fn settle(&mut self) {
        if matches!(self.state, WorkState::Embedding { missing: 0, .. }) {
            if let WorkState::Embedding { item, .. } = std::mem::replace(&mut self.state, WorkState::Stored) {
                self.state = WorkState::Ready(IndexAction::Write(item));
            }
        }
    }
}

pub(super) fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}
