//! The items context's store: items and their change events (`item_rows.rs`), diagram records
//! (`diagram_records.rs`), tags (`tags.rs`), comment threads (`comments.rs`, their writes
//! `comment_writes.rs`), what items hold and deletes of several (`containment.rs`), idempotency keys (`idempotency.rs`), MCP tasks (`agent_tasks.rs`) and presence between replicas
//! (`presence.rs`). The item read by id, the hottest read, is answered without sqlx where it can
//! be (`sqlite_reads.rs` on the calling thread, `pg_reads.rs` pipelined) behind the same method.

mod agent_tasks;
mod archive;
mod comment_writes;
pub(in crate::storage) mod comments;
mod containment;
mod diagram_records;
mod idempotency;
mod item_columns;
mod item_rows;
mod pg_reads;
mod presence;
mod sqlite_reads;
mod tags;

#[cfg(test)]
mod inline_reads_tests;

pub use agent_tasks::{AgentTaskRow, TaskClaim, TaskEnd};
pub use archive::{ArchivedThreads, ProjectSnapshot};
pub use comment_writes::comment_fields;
pub use comments::{comment_event, event_time, CommentRefusal, CommentRow, Mentions, ThreadFilter, ThreadRow};
pub use diagram_records::{DiagramRow, DiagramWrite, ElementRow, RecordChange};
pub use idempotency::{IdempotencyClaim, IdempotencyRow, Landed, LandedDiagram, LandedItem, Landing};
pub(in crate::storage) use item_rows::ITEM_COLUMNS;
pub use item_rows::{EventChanges, ItemFilter};
pub(in crate::storage) use pg_reads::PgReads;
pub use presence::MAX_PRESENCE_PAYLOAD;
pub(in crate::storage) use sqlite_reads::InlineReads;
pub use tags::{TagRefusal, TagRow, Untag};

context_store!(
    /// Items, their events, diagram records, idempotency keys and presence: what `ItemsService`
    /// (and only it) runs.
    ItemsStore
);
