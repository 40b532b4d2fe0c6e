//! Arranging existing items (beyond the spec): a grid, a layered layout along their connectors, or
//! a tree, written as one atomic update of every moved item with its `item.updated` event.
//!
//! Connectors are never moved themselves: those attached follow their items; those named are
//! skipped. The arrangement keeps the items' top-left corner where it was unless an origin is
//! given. Writers take the turns of every item at once (`ItemLocks::lock_many`), and the write is
//! guarded by every item's version, so a concurrent change elsewhere makes it start over.

use std::collections::HashMap;

use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::crud::{changed_properties, item_event, lost_race, next_version, written, Written};
use super::diagrams::check_origin;
use super::item_locks::WRITE_DEADLINE;
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult, FieldViolation};
use crate::service::Principal;
use crate::storage::ItemRow;
use canvas_diagram::arrange::{arrange, Node, Style};
use canvas_items::connector::Frame;
use canvas_items::ItemType;
use canvas_vocabulary::limits::arrange::{MAX_ITEMS, STYLES};

/// Smallest box an item counts as (an auto-sized label stores no size).
const MIN_EXTENT: f64 = 40.0;

impl ItemsService {
    /// Lays out `items` in `style` and moves them all at once. Answers each moved item's new
    /// version, in the order given.
    pub async fn arrange_items(
        &self,
        who: &Principal,
        project: ProjectId,
        items: &[String],
        style: &str,
        origin: Option<(f64, f64)>,
        ask_above: Option<u32>,
    ) -> CoreResult<Vec<Written>> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let style = match style.trim().to_ascii_lowercase().as_str() {
            "grid" => Style::Grid,
            "layered" => Style::Layered,
            "tree" => Style::Tree,
            _ => return Err(CoreError::invalid("style", format!("must be one of: {}", STYLES.join(", ")))),
        };
        if items.is_empty() || items.len() > MAX_ITEMS {
            return Err(CoreError::invalid("itemIds", format!("must name 1 to {MAX_ITEMS} items")));
        }
        check_origin(origin)?;
        // Every id that is not a GUID is named (the answer lists the first and counts the rest).
        let mut ids = Vec::with_capacity(items.len());
        let mut malformed = Vec::new();
        for (i, raw) in items.iter().enumerate() {
            match ItemId::parse(raw) {
                Ok(id) if !ids.contains(&id) => ids.push(id),
                Ok(_) => {}
                Err(_) => malformed.push(FieldViolation::new(format!("itemIds[{i}]"), "must be a GUID")),
            }
        }
        if !malformed.is_empty() {
            return Err(CoreError::Validation(malformed));
        }
        CoreError::ask_first(ask_above, ids.len(), "move")?;
        let _turns = self.item_locks.lock_many(&ids).await;
        // A frame arranged takes what it holds along: creates into containers wait meanwhile.
        let _moving = self.container_turns.empty(project).await;
        let deadline = Instant::now() + WRITE_DEADLINE;
        loop {
            let (changes, events, answer) = self.plan_arrangement(who, project, items, &ids, style, origin).await?;
            if changes.is_empty() || written(self.store.update_items(&changes, &events).await)? {
                self.outbox_written(project);
                return Ok(answer);
            }
            lost_race(deadline).await?;
        }
    }

    /// Reads the items and plans their new versions.
    #[allow(clippy::type_complexity)]
    async fn plan_arrangement(
        &self,
        who: &Principal,
        project: ProjectId,
        raw: &[String],
        ids: &[ItemId],
        style: Style,
        origin: Option<(f64, f64)>,
    ) -> CoreResult<(Vec<(crate::storage::ItemRow, i64)>, Vec<crate::storage::NewEvent>, Vec<Written>)> {
        let mut rows: HashMap<uuid::Uuid, crate::storage::ItemRow> =
            self.store.get_items(project, ids).await?.into_iter().map(|r| (r.id.uuid(), r)).collect();
        let missing: Vec<FieldViolation> = raw
            .iter()
            .enumerate()
            .filter(|(_, r)| ItemId::parse(r).is_ok_and(|id| !rows.contains_key(&id.uuid())))
            .map(|(i, r)| FieldViolation::new(format!("itemIds[{i}]"), format!("no item '{r}' in this project")))
            .collect();
        if !missing.is_empty() {
            return Err(CoreError::Validation(missing));
        }
        let movable: Vec<ItemId> =
            ids.iter().copied().filter(|id| rows[&id.uuid()].item_type != ItemType::Connector).collect();
        if movable.is_empty() {
            return Err(CoreError::invalid("itemIds", "names only connectors, which follow the items they join"));
        }
        let frames: Vec<Frame> = movable.iter().map(|id| Frame::of(props(&rows[&id.uuid()]))).collect();
        let nodes: Vec<Node> = frames
            .iter()
            .map(|f| {
                let (w, h) = turned_extents(f);
                Node { width: w.max(MIN_EXTENT), height: h.max(MIN_EXTENT) }
            })
            .collect();
        let index: HashMap<uuid::Uuid, usize> = movable.iter().enumerate().map(|(i, id)| (id.uuid(), i)).collect();
        let mut edges = Vec::new();
        for connector in self.store.project_connectors(project).await? {
            let end = |name: &str| {
                connector.properties.get(name)?.get("itemId")?.as_str().and_then(|s| uuid::Uuid::parse_str(s).ok())
            };
            if let (Some(a), Some(b)) =
                (end("startPoint").and_then(|a| index.get(&a)), end("endPoint").and_then(|b| index.get(&b)))
            {
                if a != b {
                    edges.push((*a, *b));
                }
            }
        }
        let centres = arrange(&nodes, &edges, style);
        let (left, top) = origin.unwrap_or_else(|| {
            frames.iter().zip(&nodes).fold((f64::MAX, f64::MAX), |(l, t), (f, n)| {
                (l.min(f.cx - n.width / 2.0), t.min(f.cy - n.height / 2.0))
            })
        });
        let mut changes = Vec::new();
        let mut events = Vec::new();
        let mut answer = Vec::new();
        for (id, (cx, cy)) in movable.iter().zip(centres) {
            let Some(current) = rows.remove(&id.uuid()) else { continue };
            let stored = props(&current).clone();
            let mut updated = stored.clone();
            updated.insert("position".into(), json!({"x": round(left + cx), "y": round(top + cy)}));
            let (new, old) = changed_properties(&stored, &updated);
            let item_type = current.item_type;
            if new.is_empty() {
                answer.push(Written { item: *id, item_type, version: current.version });
                continue;
            }
            let row = next_version(&current, who, updated);
            events.push(item_event(
                who,
                project,
                *id,
                item_type,
                EventKind::ItemUpdated,
                json!({"parent": current.parent.to_string(), "new": new, "old": old}),
            ));
            answer.push(Written { item: *id, item_type, version: row.version });
            // A frame takes what it holds along, except what is arranged itself (`frames.rs`).
            for held in self.moved_with(who, &current, &stored, props(&row)).await? {
                if !ids.contains(&held.row.id) && !changes.iter().any(|(c, _): &(ItemRow, i64)| c.id == held.row.id) {
                    events.push(held.event);
                    changes.push((held.row, held.expected_version));
                }
            }
            changes.push((row, current.version));
        }
        Ok((changes, events, answer))
    }
}

fn props(row: &crate::storage::ItemRow) -> &Map<String, Value> {
    static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();
    row.properties.as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
}

/// Width and height of an item's box turned by its angle.
fn turned_extents(frame: &Frame) -> (f64, f64) {
    let (half_w, half_h) = frame.turned_half_extents();
    (half_w * 2.0, half_h * 2.0)
}

/// Positions on a tenth of a unit, as the other writes store them.
fn round(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}
