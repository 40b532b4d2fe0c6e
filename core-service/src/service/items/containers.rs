//! Containers (docs/DECISIONS.md, "Containers"): which item may hold which (the rule is
//! canvas-vocabulary's `items/containers.rs`), and what deleting a container does: everything it
//! holds, at any depth, is deleted with it in the same transaction, each with its own
//! `item.deleted` event, deepest first, so a consumer applying the events in order never sees an
//! item whose container is gone. Connectors attached to any deleted item and not deleted
//! themselves are detached where they were drawn, as for a single delete.
//!
//! Every path that deletes items comes through here: a single delete (REST, gRPC, MCP
//! `delete_item`), a diagram's `PUT` and `DELETE` (items a person put into a diagram's shapes go
//! with them), and the repair of data written before the rule (`repair.rs`).

use std::collections::HashSet;

use serde_json::json;

use super::crud::{item_event, Dependents};
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{Attachment, ItemRow, NewEvent};
use canvas_items::{ItemType, Parent};
use canvas_vocabulary::items::containers::refusal;

/// Deepest nesting followed when collecting what a container holds. The API never writes a
/// loop (an item's parent exists before it does), so this only bounds the walk over data written
/// by other means.
const MAX_DEPTH: usize = 1_000;

/// Everything one deletion removes, ready for `ItemsStore::delete_items`.
pub(super) struct Removal {
    /// The items deleted, deepest first (the containers asked for come last), with the version
    /// each must still be at.
    pub deletes: Vec<(ItemId, i64)>,
    /// Their `item.deleted` events, in the same order.
    pub events: Vec<NewEvent>,
    /// Connectors detached from them.
    pub dependents: Dependents,
    /// The deleted items as they were, in the same order.
    pub rows: Vec<ItemRow>,
}

impl ItemsService {
    /// A parent item must exist in the same project, not be the item itself, and be a container
    /// that holds items of `child`'s type. Answers the attachment the write must find still there
    /// when it commits (the container may be deleted meanwhile).
    pub(super) async fn check_parent(
        &self,
        project: ProjectId,
        parent: Parent,
        child: ItemType,
        item: Option<ItemId>,
    ) -> CoreResult<Option<Attachment>> {
        let Parent::Item(parent_id) = parent else { return Ok(None) };
        if Some(parent_id) == item {
            return Err(CoreError::invalid("parent", "an item cannot be its own parent"));
        }
        let Some(container) = self.store.get_item(project, parent_id).await? else {
            return Err(CoreError::invalid(
                "parent",
                format!("no item '{parent_id}' in this project to act as the container"),
            ));
        };
        if !container.item_type.holds(child) {
            return Err(CoreError::invalid("parent", refusal(container.item_type, child)));
        }
        Ok(Some(Attachment::item("parent", parent_id)))
    }

    /// `roots` and everything they hold at any depth, deepest first and `roots` last; items in
    /// `spared` (and what they hold) are left out (a diagram's items that its new source keeps).
    pub(super) async fn with_held(
        &self,
        project: ProjectId,
        roots: Vec<ItemRow>,
        spared: &HashSet<ItemId>,
    ) -> CoreResult<Vec<ItemRow>> {
        let mut seen: HashSet<ItemId> = roots.iter().map(|r| r.id).collect();
        let mut levels: Vec<Vec<ItemRow>> = Vec::new();
        let mut level = roots;
        while !level.is_empty() {
            if levels.len() >= MAX_DEPTH {
                return Err(CoreError::internal(format!("items nested deeper than {MAX_DEPTH} in project {project}")));
            }
            let containers: Vec<ItemId> = level.iter().filter(|r| r.item_type.is_container()).map(|r| r.id).collect();
            let held = match containers.is_empty() {
                true => Vec::new(),
                false => self.store.held_by(project, &containers).await?,
            };
            let next = held.into_iter().filter(|r| !spared.contains(&r.id) && seen.insert(r.id)).collect();
            levels.push(std::mem::replace(&mut level, next));
        }
        Ok(levels.into_iter().rev().flatten().collect())
    }

    /// What deleting `roots` removes: the items with everything they hold, their events, and the
    /// connectors detached from them (except those in `spared`, which the caller writes itself).
    pub(super) async fn removal(
        &self,
        who: &Principal,
        project: ProjectId,
        roots: Vec<ItemRow>,
        spared: &HashSet<ItemId>,
    ) -> CoreResult<Removal> {
        let rows = self.with_held(project, roots, spared).await?;
        let events = rows.iter().map(|row| deleted_event(who, project, row)).collect();
        let mut untouched: HashSet<ItemId> = spared.clone();
        untouched.extend(rows.iter().map(|r| r.id));
        let dependents = self.detach_connectors(who, project, &rows, &untouched).await?;
        Ok(Removal { deletes: rows.iter().map(|r| (r.id, r.version)).collect(), events, dependents, rows })
    }
}

/// The `item.deleted` event of `row`: where it was and every property it had.
pub(super) fn deleted_event(who: &Principal, project: ProjectId, row: &ItemRow) -> NewEvent {
    let payload = json!({"parent": row.parent.to_string(), "old": row.properties});
    item_event(who, project, row.id, row.item_type, EventKind::ItemDeleted, payload)
}
