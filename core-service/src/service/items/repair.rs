//! The repair of items written before containers were enforced (migration 0013 and
//! docs/DECISIONS.md, "Containers"), run once per database by `core_service::build` after the
//! schema migrations:
//!
//! - an item whose container is gone (its parent names an item that no longer exists) is deleted
//!   with everything it holds, as deleting the container would have done had the rule been there;
//! - an item held by an item that may not hold it (a sticky note inside a label) moves out to that
//!   item's own parent, where it is drawn already (positions are on the canvas, not relative).
//!
//! Each change is an ordinary write: its `item.deleted` or `item.updated` event carries
//! `"reason": "repair: …"` and the item's last editor as the actor (nobody acted now; the last
//! person who changed it is whom integrators can ask). Several replicas starting at once may run
//! it together: every write is version-guarded, a lost race reads again, and only one records it.

use std::collections::{HashMap, HashSet};

use serde_json::json;

use super::crud::{item_event, next_version};
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, TokenId};
use crate::error::CoreResult;
use crate::service::Principal;
use crate::storage::ItemRow;
use canvas_items::Parent;

/// The repair's name in `data_repairs`.
pub const DANGLING_PARENTS: &str = "dangling-parents";

/// Items read per round.
const PAGE: u32 = 1_000;

/// Passes over the data at most: an item moved out can land in another item that may not hold it
/// either; each pass moves it one level up, and nesting is never this deep.
const MAX_PASSES: usize = 64;

/// What the repair did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Repaired {
    /// Items deleted because their container was gone (with what they held).
    pub deleted: usize,
    /// Items moved out of an item that may not hold them.
    pub moved: usize,
}

impl ItemsService {
    /// Runs the repair unless it ran on this database before; answers what it did now.
    pub async fn repair_parents(&self) -> CoreResult<Repaired> {
        if self.store.repair_done(DANGLING_PARENTS).await?.is_some() {
            return Ok(Repaired::default());
        }
        let mut total = Repaired::default();
        for _ in 0..MAX_PASSES {
            let pass = self.repair_pass().await?;
            total.deleted += pass.deleted;
            total.moved += pass.moved;
            if pass == Repaired::default() {
                break;
            }
        }
        let summary = format!("{} items deleted with their gone container, {} moved out", total.deleted, total.moved);
        if self.store.record_repair(DANGLING_PARENTS, &summary).await? && total != Repaired::default() {
            tracing::warn!(
                deleted = total.deleted,
                moved = total.moved,
                "repaired items held by gone or non-container items"
            );
        }
        Ok(total)
    }

    /// One walk over every item held by another item.
    async fn repair_pass(&self) -> CoreResult<Repaired> {
        let mut done = Repaired::default();
        let mut after = None;
        loop {
            let page = self.store.items_held_by_items(after, PAGE).await?;
            let Some(last) = page.last() else { break };
            after = Some(last.id);
            let mut by_project: HashMap<ProjectId, Vec<ItemRow>> = HashMap::new();
            for row in page {
                by_project.entry(row.project_id).or_default().push(row);
            }
            for (project, rows) in by_project {
                let wanted: Vec<ItemId> = rows
                    .iter()
                    .filter_map(|r| match r.parent {
                        Parent::Item(p) => Some(p),
                        _ => None,
                    })
                    .collect();
                let holders: HashMap<ItemId, ItemRow> =
                    self.store.get_items(project, &wanted).await?.into_iter().map(|r| (r.id, r)).collect();
                for row in rows {
                    let Parent::Item(holder) = row.parent else { continue };
                    match holders.get(&holder) {
                        None => done.deleted += self.repair_orphan(project, row).await?,
                        Some(h) if !h.item_type.holds(row.item_type) => {
                            done.moved += self.repair_move(project, row, h.parent).await?
                        }
                        Some(_) => {}
                    }
                }
            }
        }
        Ok(done)
    }

    /// Deletes `row` (whose container is gone) with what it holds; answers how many were deleted
    /// (0 when someone changed or deleted it meanwhile: the next pass sees it again).
    async fn repair_orphan(&self, project: ProjectId, row: ItemRow) -> CoreResult<usize> {
        let who = last_editor(&row);
        let mut removal = self.removal(&who, project, vec![row], &HashSet::new()).await?;
        for event in &mut removal.events {
            event.payload["reason"] = json!("repair: its container had been deleted");
        }
        let done = self.store.delete_items(project, &removal.deletes, &removal.events, &removal.dependents).await?;
        if done {
            self.outbox_written(project);
        }
        Ok(if done { removal.deletes.len() } else { 0 })
    }

    /// Moves `row` out to `to`, the parent of the item that may not hold it.
    async fn repair_move(&self, project: ProjectId, row: ItemRow, to: Parent) -> CoreResult<usize> {
        let who = last_editor(&row);
        let properties = row.properties.as_object().cloned().unwrap_or_default();
        let mut next = next_version(&row, &who, properties);
        next.updated_by = row.updated_by;
        next.parent = to;
        let payload = json!({"parent": to.to_string(), "new": {}, "old": {},
            "oldParent": row.parent.to_string(), "reason": "repair: moved out of an item that may not hold it"});
        let event = item_event(&who, project, row.id, row.item_type, EventKind::ItemUpdated, payload);
        let done = self.store.update_item(&next, row.version, &event, &[], &[]).await?;
        if done {
            self.outbox_written(project);
        }
        Ok(usize::from(done))
    }
}

/// The actor of a repair's events: the item's last editor.
fn last_editor(row: &ItemRow) -> Principal {
    Principal {
        user_id: row.updated_by,
        name: String::new(),
        system_admin: false,
        token_id: TokenId::from_uuid(uuid::Uuid::nil()),
    }
}
