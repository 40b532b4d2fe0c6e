//! Frames (beyond the spec; docs/ITEMS.md "Frames"): what holding and moving items means.
//!
//! - **Moving an item into or out of a container** is an update naming a new `parent`: checked as
//!   a create's parent (the container must hold the type, and must still be there when the write
//!   commits) and never into the item itself or anything it holds. Its `item.updated` carries the
//!   new `parent` and `oldParent`.
//! - **Moving a frame** (its `position` changes, its `size` does not) moves everything it holds, at
//!   any depth, by the same displacement, in the same transaction, each held item at its next
//!   version with its own `item.updated` (reason [`MOVED_REASON`]). A write that changes the size
//!   (a resize from any edge, which moves the centre too) moves nothing it holds, as a person
//!   resizing a frame expects.
//! - **What a frame holds** is the listing's `frame` filter, the drawing's and the Mermaid export's.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::crud::{changed_properties, item_event, next_version, ItemPage};
use super::item_filters::ItemMatch;
use super::preconditions::Preconditions;
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, TagId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{Attachment, DependentUpdate, ItemFilter, ItemRow};
use canvas_items::connector::Frame;
use canvas_items::frame::{displacement, moved_with_frame};
use canvas_items::{ItemType, Parent};
use canvas_vocabulary::limits::frames::{FILTER, MOVED_REASON, PADDING};

impl ItemsService {
    /// The checks of moving `current` to `parent`: the container holds its type, it is not the
    /// item itself nor anything the item holds. Answers the attachment the write must still find.
    pub(super) async fn check_move(
        &self,
        project: ProjectId,
        current: &ItemRow,
        parent: Parent,
    ) -> CoreResult<Option<Attachment>> {
        let attachment = self.check_parent(project, parent, current.item_type, Some(current.id)).await?;
        if let Parent::Item(container) = parent {
            let held = self.with_held(project, vec![current.clone()], &HashSet::new()).await?;
            if held.iter().any(|row| row.id == container) {
                return Err(CoreError::invalid(
                    "parent",
                    format!("item '{container}' is inside the item moved: an item cannot hold its own container"),
                ));
            }
        }
        Ok(attachment)
    }

    /// For a frame update from `before` to `after`: every item it holds moved by the frame's
    /// displacement, as dependent writes of the same transaction. Empty when the frame did not
    /// move or changed its size too.
    pub(super) async fn moved_with(
        &self,
        who: &Principal,
        frame: &ItemRow,
        before: &Map<String, Value>,
        after: &Map<String, Value>,
    ) -> CoreResult<Vec<DependentUpdate>> {
        if frame.item_type != ItemType::Frame || before.get("size") != after.get("size") {
            return Ok(Vec::new());
        }
        let Some(shift) = displacement(before, after) else { return Ok(Vec::new()) };
        let held = self.held_by_frame(frame.project_id, frame).await?;
        let mut moved = Vec::with_capacity(held.len());
        for row in held {
            let Some(stored) = row.properties.as_object() else { continue };
            let Some(properties) = moved_with_frame(row.item_type, stored, shift) else { continue };
            let (new, old) = changed_properties(stored, &properties);
            let next = next_version(&row, who, properties);
            let payload = json!({"parent": row.parent.to_string(), "new": new, "old": old, "reason": MOVED_REASON});
            let event = item_event(who, row.project_id, row.id, row.item_type, EventKind::ItemUpdated, payload);
            moved.push(DependentUpdate { row: next, expected_version: row.version, event });
        }
        Ok(moved)
    }

    /// Everything `frame` holds at any depth, the frame itself left out, in creation order.
    async fn held_by_frame(&self, project: ProjectId, frame: &ItemRow) -> CoreResult<Vec<ItemRow>> {
        let mut held = self.with_held(project, vec![frame.clone()], &HashSet::new()).await?;
        held.retain(|row| row.id != frame.id);
        held.sort_by_key(|row| row.id);
        Ok(held)
    }

    /// The frame `raw` names: an id of a frame of the project, else a refusal naming `frame` (the
    /// filters' and the diagram's field alike).
    pub(super) async fn named_frame(&self, project: ProjectId, raw: &str) -> CoreResult<ItemRow> {
        let id = ItemId::parse(raw.trim()).map_err(|_| CoreError::invalid(FILTER, "must be the id of a frame"))?;
        match self.store.get_item(project, id).await? {
            Some(row) if row.item_type == ItemType::Frame => Ok(row),
            Some(row) => Err(CoreError::invalid(FILTER, format!("item '{id}' is a {}, not a frame", row.item_type))),
            None => Err(CoreError::invalid(FILTER, format!("no frame '{id}' in this project"))),
        }
    }

    /// The frame a `frame` filter names and what it holds (creation order).
    pub(super) async fn frame_filter(&self, project: ProjectId, raw: &str) -> CoreResult<(ItemRow, Vec<ItemRow>)> {
        let frame = self.named_frame(project, raw).await?;
        let held = self.held_by_frame(project, &frame).await?;
        Ok((frame, held))
    }

    /// Grows `frame` (keeping its top-left corner) so that it holds the box `(x, y, width, height)`
    /// with [`PADDING`] around it; nothing is written when it does already. A resize moves
    /// nothing the frame holds.
    pub(super) async fn grow_frame(
        &self,
        who: &Principal,
        frame: &ItemRow,
        wanted: (f64, f64, f64, f64),
    ) -> CoreResult<()> {
        let (left, top, right, bottom) = bounds(frame);
        let (x, y, width, height) = wanted;
        let needed = (
            left.min(x - PADDING),
            top.min(y - PADDING),
            right.max(x + width + PADDING),
            bottom.max(y + height + PADDING),
        );
        if needed == (left, top, right, bottom) {
            return Ok(());
        }
        let (w, h) = (needed.2 - needed.0, needed.3 - needed.1);
        let mut patch = Map::new();
        patch.insert("position".into(), json!({"x": needed.0 + w / 2.0, "y": needed.1 + h / 2.0}));
        patch.insert("size".into(), json!({"width": w, "height": h}));
        self.update_item(who, frame.project_id, None, frame.id, patch, None, Preconditions::default()).await?;
        Ok(())
    }

    /// A page of what the frame `raw` names holds, the listing's other filters (`filter`,
    /// `matching`) tested on its rows: read from the frame, not by a scan of the project.
    pub(super) async fn list_in_frame(
        &self,
        project: ProjectId,
        raw: &str,
        filter: &ItemFilter,
        limit: u32,
        matching: &ItemMatch,
    ) -> CoreResult<ItemPage> {
        let (_, held) = self.frame_filter(project, raw).await?;
        let kept: Vec<ItemRow> = held
            .into_iter()
            .filter(|row| filter.item_type.as_deref().is_none_or(|t| row.item_type.as_str() == t))
            .filter(|row| filter.parent.as_deref().is_none_or(|p| row.parent.to_string() == p))
            .filter(|row| filter.after.is_none_or(|after| row.id > after))
            .filter(|row| filter.tag.is_none_or(|tag| carries(row, tag)))
            .collect();
        let presented = self.present(project, kept).await?;
        let mut items: Vec<ItemRow> =
            presented.into_iter().filter(|row| matching.matches(row)).take(limit as usize + 1).collect();
        let mut next_cursor = None;
        if items.len() > limit as usize {
            items.truncate(limit as usize);
            next_cursor = items.last().map(|r| r.id.to_string());
        }
        Ok(ItemPage { items, next_cursor })
    }
}

/// A frame's left, top, right and bottom edges (an item's box, read as every item's is; a frame is
/// never turned).
fn bounds(frame: &ItemRow) -> (f64, f64, f64, f64) {
    let empty = Map::new();
    let f = Frame::of(frame.properties.as_object().unwrap_or(&empty));
    (f.cx - f.half_width, f.cy - f.half_height, f.cx + f.half_width, f.cy + f.half_height)
}

/// Where something put inside `frame` starts: [`PADDING`] in from its top-left corner.
pub(super) fn inside(frame: &ItemRow) -> (f64, f64) {
    let (left, top, _, _) = bounds(frame);
    (left + PADDING, top + PADDING)
}

/// Whether a row carries `tag` (the listing's `tag` filter, tested here on rows a frame holds).
fn carries(row: &ItemRow, tag: TagId) -> bool {
    let wanted = tag.to_string();
    row.properties
        .get("tags")
        .and_then(Value::as_array)
        .is_some_and(|tags| tags.iter().any(|t| t.as_str().is_some_and(|t| t.eq_ignore_ascii_case(&wanted))))
}
