//! The items context: every operation on a project's items, and the project's change stream.
//!
//! [`ItemsService`] holds what these operations need and nothing of another context: the shared
//! [`Access`] (authentication and roles), its store (`storage::ItemsStore`), file content, the wake-ups of the indexer and of
//! webhook dispatchers, and this replica's per-item write turns. Its fields are private to this
//! module; a new item operation is an `impl ItemsService` block in a file here.
//!
//! - [`crud`]: create, read, update, delete, list one item at a time.
//! - [`item_views`]: derived properties, uploads, connector bookkeeping.
//! - `containers`: which item may hold which, and deleting a container with what it holds.
//! - [`repair`]: the once-per-database repair of items held by gone or non-container items.
//! - [`item_filters`]: the listing's region, text and changed-since filters.
//! - [`bulk`]: many items created in one all-or-nothing call (beyond the spec).
//! - [`diagrams`]: Mermaid laid out and created through the bulk path (beyond the spec).
//! - [`arrange`]: existing items laid out (grid, layered, tree) in one atomic update.
//! - [`watch`]: a project's live change stream.
//! - [`presence`]: who has the map open, their cursors and selections (in memory, across
//!   replicas through the database's notifications; never a table write).
//! - [`item_locks`]: writers of one item take turns.
//! - [`preconditions`]: RFC 9110's conditional writes, in its order.
//! - [`idempotency`]: creating calls run once per caller and `Idempotency-Key`, retries replayed.
//! - [`tags`]: a project's tags, which items carry by id (beyond the spec).
//! - [`comments`]: comment threads on items and points of the map (beyond the spec), their rules
//!   in `comment_rules`.
//! - [`agent_tasks`]: MCP tasks, long agent work followed by polling, whose write claims its task.

pub mod agent_tasks;
pub mod archive_items;
pub mod arrange;
pub mod bulk;
mod comment_rules;
pub mod comments;
mod containers;
pub mod crud;
pub mod diagram_export;
pub mod diagram_plan;
pub mod diagram_records;
mod diagram_shifts;
pub mod diagrams;
mod frames;
pub mod idempotency;
pub mod item_filters;
pub mod item_locks;
pub mod item_views;
mod mentions;
pub mod preconditions;
pub mod presence;
mod presence_checks;
mod presence_resync;
mod project_copy;
pub mod repair;
pub mod tags;
pub mod watch;

use std::sync::Arc;

use super::access::Access;
use crate::blobs::BlobStore;
use crate::knowledge::Knowledge;
use crate::storage::ItemsStore;
use crate::webhooks::runtime::DueSignal;

/// Items, their files, diagrams and layouts, and the change stream of a project.
#[derive(Debug, Clone)]
pub struct ItemsService {
    access: Arc<Access>,
    store: ItemsStore,
    /// Uploaded file content, addressed by hash.
    blobs: BlobStore,
    /// Only to wake the indexer after a write (the queue itself is filled by a database trigger).
    knowledge: Knowledge,
    /// Only to wake webhook dispatchers after a write (the deliveries are the outbox's fan-out).
    deliveries: DueSignal,
    /// Serialises writers of one item within this replica.
    item_locks: Arc<item_locks::ItemLocks>,
    /// Lets a container's delete win against creates into it within this replica.
    container_turns: Arc<item_locks::ContainerTurns>,
    /// This replica's presence of every open map.
    presence: Arc<presence::PresenceHub>,
    /// Rung after each of this replica's writes, per project, for its open change streams.
    change_bells: Arc<watch::ChangeBells>,
}

impl ItemsService {
    pub(crate) fn new(
        access: Arc<Access>,
        store: ItemsStore,
        blobs: BlobStore,
        knowledge: Knowledge,
        deliveries: DueSignal,
    ) -> Self {
        let bounds = &access.shares().config;
        let presence =
            presence::PresenceHub::bounded(bounds.presence_clients_per_person, bounds.presence_clients_per_project);
        Self {
            access,
            store,
            blobs,
            knowledge,
            deliveries,
            item_locks: Arc::default(),
            container_turns: Arc::default(),
            presence: Arc::new(presence),
            change_bells: Arc::default(),
        }
    }

    /// After a committed write with events in `project`: the indexer, the webhook dispatchers and
    /// the project's open change streams on this replica read them at once instead of at their
    /// next poll.
    fn outbox_written(&self, project: crate::domain::ProjectId) {
        self.knowledge.wake();
        self.deliveries.written();
        self.change_bells.ring(project);
    }
}
