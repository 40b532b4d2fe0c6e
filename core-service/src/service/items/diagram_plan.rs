//! What a diagram write changes: the items a (new or edited) source plans, matched against the
//! diagram's element map by `(element, part)`, as inserts, updates and deletes with their events.
//! No I/O: `diagram_records.rs` reads what this needs and writes what it answers.
//!
//! The rules (docs/diagrams/records.md):
//! - An item whose element and part the new source still has keeps its id.
//! - A property a person changed on the map (its value differs from what the diagram last wrote)
//!   is kept unless the source changed that very property; every other property takes the new
//!   plan's value.
//! - Position: a box a person moved stays where they put it; any other kept box takes its place
//!   in the new layout. Its "displacement" (where it is minus where the new layout puts it) is what
//!   its labels, its connectors and its new neighbours are moved by, so a node added beside a
//!   moved node appears beside it, where the layout would put it relative to that neighbour.
//! - A connector whose two ends moved by different amounts loses its corner points and is drawn
//!   straight (the laid-out route no longer fits); one a person re-routed keeps its route.
//! - Elements the new source no longer has are deleted (the caller detaches people's connectors).

use std::collections::{BTreeMap, HashMap};

use canvas_diagram::PlannedItem;
use chrono::Utc;
use serde_json::{json, Map, Value};
use uuid::Uuid;

use super::crud::{changed_properties, first_version, item_event, next_version, NewItem};
use super::diagram_shifts::{point, Placed, Shifts};
use crate::domain::{DiagramId, EventKind, ItemId, ProjectId};
use crate::error::{CoreError, CoreResult, Invalid};
use crate::service::Principal;
use crate::storage::{Attachment, ElementRow, ItemRow, NewEvent};
use canvas_items::{ItemFacts, ItemType, Parent};
use canvas_vocabulary::limits::bulk::REF_PREFIX;

/// A diagram's items as they are, read before planning.
pub(super) struct Prior {
    /// The element map as last written.
    pub elements: Vec<ElementRow>,
    /// The items of the map that still exist, by id.
    pub items: HashMap<Uuid, ItemRow>,
    /// Connectors people drew between two of those items: a new link of the source between the
    /// same two items, in the same direction, adopts one of them instead of drawing a second.
    pub people: Vec<ItemRow>,
    /// Where the diagram's outer items go: the canvas, or the frame it was drawn into.
    pub outer: Parent,
}

/// Everything a diagram write changes.
#[derive(Default)]
pub(super) struct Change {
    pub inserts: Vec<ItemRow>,
    pub attached: Vec<Attachment>,
    pub updates: Vec<(ItemRow, i64)>,
    /// Deleted items as they were; their events are added with what they hold
    /// (`diagram_records.rs`, `containers.rs`).
    pub deletes: Vec<ItemRow>,
    pub events: Vec<NewEvent>,
    pub elements: Vec<ElementRow>,
    /// Every item of the new plan, in plan order.
    pub order: Vec<ItemId>,
    /// Mermaid node id → its shape.
    pub nodes: BTreeMap<String, ItemId>,
    pub created: Vec<ItemId>,
    pub updated: Vec<ItemId>,
}

/// One planned item with its ids resolved.
struct Resolved {
    id: Uuid,
    item_type: ItemType,
    parent: Parent,
    props: Map<String, Value>,
    /// Index of the plan item each connector end attaches to.
    ends: Vec<usize>,
    /// The kept item, if any, and its element row.
    kept: Option<(ItemRow, ElementRow)>,
}

/// Plans the change from `prior` to the items of `planned`.
pub(super) fn plan(
    who: &Principal,
    project: ProjectId,
    diagram: DiagramId,
    planned: Vec<PlannedItem>,
    prior: &Prior,
) -> CoreResult<Change> {
    let old: HashMap<(&str, &str), &ElementRow> =
        prior.elements.iter().map(|row| ((row.element.as_str(), row.part.as_str()), row)).collect();
    let index: HashMap<&str, usize> = planned.iter().enumerate().map(|(i, p)| (p.reference.as_str(), i)).collect();
    let mut resolved = Vec::with_capacity(planned.len());
    for p in &planned {
        let item_type = ItemType::parse(p.item_type).map_err(|_| CoreError::internal("a planned item type"))?;
        // An element keeps its item unless the new plan needs another type of item, or another value
        // of a property set only at creation (a node turned from a box into a circle): that item is
        // deleted and a new one drawn, as an update could not change it.
        let kept = old.get(&(p.element.as_str(), p.part)).and_then(|row| {
            let item = prior.items.get(&row.item_id.uuid()).filter(|item| item.item_type == item_type)?;
            fixed_properties_agree(item_type, &p.properties, &item.properties).then(|| (item.clone(), (*row).clone()))
        });
        let id = kept.as_ref().map_or_else(|| ItemId::new().uuid(), |(item, _)| item.id.uuid());
        resolved.push(Resolved { id, item_type, parent: Parent::Panel, props: Map::new(), ends: Vec::new(), kept });
    }
    let adopted = adopt_people_connectors(diagram, &planned, &index, &mut resolved, prior);
    for (i, p) in planned.iter().enumerate() {
        let of = |reference: &str| index.get(reference).copied();
        resolved[i].parent = match p.parent.as_deref().and_then(of) {
            Some(j) => Parent::Item(ItemId::from_uuid(resolved[j].id)),
            None => prior.outer,
        };
        let mut props = match &p.properties {
            Value::Object(map) => map.clone(),
            _ => Map::new(),
        };
        for end in ["startPoint", "endPoint"] {
            let Some(Value::Object(point)) = props.get_mut(end) else { continue };
            let target = point.get("itemId").and_then(Value::as_str).and_then(|r| r.strip_prefix(REF_PREFIX));
            if let Some(j) = target.and_then(of) {
                point.insert("itemId".into(), json!(resolved[j].id.to_string()));
                resolved[i].ends.push(j);
            }
        }
        resolved[i].props = props;
        if adopted.contains(&i) {
            // Adopted as it is: what this write would have drawn counts as what it drew, so only
            // a later change of the source restyles the person's connector.
            let drawn = json!({"parent": resolved[i].parent.to_string(), "properties": resolved[i].props});
            if let Some((_, row)) = resolved[i].kept.as_mut() {
                row.planned = drawn;
            }
        }
    }
    let placed: Vec<Placed<'_>> = planned
        .iter()
        .zip(&resolved)
        .map(|(p, r)| Placed {
            element: &p.element,
            part: p.part,
            planned_at: point(r.props.get("position")),
            kept: r.kept.as_ref().map(|(item, row)| {
                (point(item.properties.get("position")), point(planned_properties(&row.planned).get("position")))
            }),
            ends: r.ends.clone(),
            parent: p.parent.as_deref().and_then(|reference| index.get(reference).copied()),
        })
        .collect();
    let shifts = Shifts::of(&placed);
    let mut change = Change::default();
    let now = Utc::now();
    let mut inserted = std::collections::HashSet::new();
    for (i, (p, r)) in planned.iter().zip(&resolved).enumerate() {
        let stored = match &r.kept {
            None => {
                let wanted = shifts.place(i, &r.props);
                let props =
                    canvas_items::validate_create(r.item_type, wanted.clone(), ItemFacts { has_content: false })
                        .map_err(|error| layout_defect(p, error))?;
                let new = NewItem {
                    id: ItemId::from_uuid(r.id),
                    project,
                    item_type: r.item_type,
                    parent: r.parent,
                    props: &props,
                    content_key: None,
                };
                let row = first_version(new, who, now);
                let payload = json!({"parent": row.parent.to_string(), "new": props});
                change.events.push(item_event(
                    who,
                    project,
                    ItemId::from_uuid(r.id),
                    r.item_type,
                    EventKind::ItemCreated,
                    payload,
                ));
                change.inserts.push(row);
                change.created.push(ItemId::from_uuid(r.id));
                inserted.insert(r.id);
                wanted
            }
            Some((current, row)) => {
                let last = planned_properties(&row.planned);
                let stored = current.properties.as_object().cloned().unwrap_or_default();
                let (patch, remembered) = shifts.patch(i, &r.props, &last, &stored);
                let last_parent = row.planned.get("parent").and_then(Value::as_str).unwrap_or("panel");
                let parent = if r.parent.to_string() != last_parent { r.parent } else { current.parent };
                if !patch.is_empty() || parent != current.parent {
                    let props =
                        canvas_items::validate_update(r.item_type, &stored, patch, ItemFacts { has_content: false })
                            .map_err(|error| layout_defect(p, error))?;
                    let (new, old) = changed_properties(&stored, &props);
                    let mut next = next_version(current, who, props);
                    next.parent = parent;
                    let payload = json!({"parent": parent.to_string(), "new": new, "old": old});
                    change.events.push(item_event(
                        who,
                        project,
                        ItemId::from_uuid(r.id),
                        r.item_type,
                        EventKind::ItemUpdated,
                        payload,
                    ));
                    change.updates.push((next, current.version));
                    change.updated.push(ItemId::from_uuid(r.id));
                }
                remembered
            }
        };
        change.elements.push(ElementRow {
            diagram_id: diagram,
            element: p.element.clone(),
            part: p.part.to_owned(),
            item_id: ItemId::from_uuid(r.id),
            item_type: r.item_type.as_str().to_owned(),
            ordinal: i as i64,
            planned: json!({"parent": r.parent.to_string(), "properties": stored}),
        });
        change.order.push(ItemId::from_uuid(r.id));
        if let (Some(node), "shape") = (&p.node_id, p.part) {
            change.nodes.insert(node.clone(), ItemId::from_uuid(r.id));
        }
    }
    // Connector ends of the connectors written, on items this write does not insert, must still
    // exist when it commits.
    let written: std::collections::HashSet<Uuid> = change
        .inserts
        .iter()
        .map(|row| row.id.uuid())
        .chain(change.updates.iter().map(|(row, _)| row.id.uuid()))
        .collect();
    for r in resolved.iter().filter(|r| written.contains(&r.id)) {
        for (&j, field) in r.ends.iter().zip(["startPoint.itemId", "endPoint.itemId"]) {
            let target = resolved[j].id;
            if !inserted.contains(&target)
                && !change.attached.iter().any(|a| a.item_id() == Some(ItemId::from_uuid(target)))
            {
                change.attached.push(Attachment::item(field, ItemId::from_uuid(target)));
            }
        }
    }
    let kept: std::collections::HashSet<Uuid> = resolved.iter().map(|r| r.id).collect();
    for row in &prior.elements {
        if kept.contains(&row.item_id.uuid()) {
            continue;
        }
        if let Some(item) = prior.items.get(&row.item_id.uuid()) {
            change.deletes.push(item.clone());
        }
    }
    Ok(change)
}

/// A connector the plan draws anew between two items the diagram keeps takes, instead, a
/// connector a person drew between the same two items in the same direction (each adopted once):
/// so a diagram read back with a person's connector as a link, and sent back, does not get the
/// link twice. Returns the plan indexes adopted.
fn adopt_people_connectors(
    diagram: DiagramId,
    planned: &[PlannedItem],
    index: &HashMap<&str, usize>,
    resolved: &mut [Resolved],
    prior: &Prior,
) -> std::collections::HashSet<usize> {
    let mut adopted = std::collections::HashSet::new();
    let mut taken = std::collections::HashSet::new();
    for (i, p) in planned.iter().enumerate() {
        if resolved[i].kept.is_some() || resolved[i].item_type != ItemType::Connector {
            continue;
        }
        // The kept items the planned ends attach to, as ids.
        let end = |name: &str| {
            let reference = p.properties.get(name)?.get("itemId")?.as_str()?.strip_prefix(REF_PREFIX)?;
            let j = *index.get(reference)?;
            resolved[j].kept.as_ref().map(|(item, _)| item.id.to_string())
        };
        let (Some(start), Some(finish)) = (end("startPoint"), end("endPoint")) else { continue };
        let person = prior.people.iter().find(|c| {
            let at = |name: &str| c.properties.get(name).and_then(|e| e.get("itemId")).and_then(Value::as_str);
            !taken.contains(&c.id)
                && at("startPoint") == Some(start.as_str())
                && at("endPoint") == Some(finish.as_str())
        });
        let Some(person) = person else { continue };
        taken.insert(person.id);
        let row = ElementRow {
            diagram_id: diagram,
            element: p.element.clone(),
            part: p.part.to_owned(),
            item_id: person.id,
            item_type: person.item_type.as_str().to_owned(),
            ordinal: i as i64,
            planned: Value::Null,
        };
        resolved[i].id = person.id.uuid();
        resolved[i].kept = Some((person.clone(), row));
        adopted.insert(i);
    }
    adopted
}

/// Whether the plan's values of the properties that cannot be changed after creation are the
/// item's (names folded, as the rules match them).
fn fixed_properties_agree(item_type: ItemType, planned: &Value, stored: &Value) -> bool {
    use canvas_items::schema::{fold_name, lookup};
    let (Some(planned), Some(stored)) = (planned.as_object(), stored.as_object()) else { return true };
    let defs = canvas_items::definitions(item_type);
    planned.iter().all(|(name, value)| match lookup(defs, name) {
        Some(def) if !def.updatable => {
            let current = stored.iter().find(|(k, _)| fold_name(k) == fold_name(def.name));
            current.is_none_or(|(_, current)| match (current.as_str(), value.as_str()) {
                // Words of a closed list are matched in any casing.
                (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
                _ => current == value,
            })
        }
        _ => true,
    })
}

/// The properties of an element row's `planned` value.
fn planned_properties(planned: &Value) -> Map<String, Value> {
    planned.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}

/// An item the layout planned broke an item rule: a defect of the layout, not the caller's.
fn layout_defect(p: &PlannedItem, error: Invalid) -> CoreError {
    let why: Vec<String> = error.0.iter().map(ToString::to_string).collect();
    CoreError::internal(format!("a laid-out diagram broke item rules at {}: {}", p.reference, why.join("; ")))
}
