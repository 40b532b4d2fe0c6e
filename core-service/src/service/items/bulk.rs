//! Bulk create (beyond the spec): up to [`MAX_ITEMS`] items of mixed types in one all-or-nothing
//! call, naming each other by `ref`.
//!
//! Every rule of a single create applies to every item; the offences of all items are gathered
//! and answered together, each field named `items[i].…`, and nothing is written. On success the
//! items, their `item.created` events (so webhooks and the index queue) commit in one
//! transaction. Ids are assigned in request order (UUIDv7), so a listing shows the batch in the
//! order it was sent.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::crud::{first_version, item_event, lost_race, written, NewItem};
use super::item_locks::WRITE_DEADLINE;
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, ProjectRole, TagId};
use crate::error::{CoreError, CoreResult, FieldViolation, Invalid, ViolationReason};
use crate::service::Principal;
use crate::storage::{Attachment, ItemRow};
use canvas_items::schema::fold_name;
use canvas_items::{ItemFacts, ItemType, Parent};
use canvas_vocabulary::items::containers::refusal;
use canvas_vocabulary::limits::bulk::{ref_rule, valid_ref, MAX_ITEMS, REF_PREFIX};

/// One item of a bulk create, as the client sent it.
#[derive(Debug, Clone, Default)]
pub struct BulkItem {
    /// The name other items of the batch use for this one (`"ref:<name>"`); optional.
    pub reference: Option<String>,
    pub item_type: String,
    /// `panel` when absent, as for MCP creates.
    pub parent: Option<String>,
    /// Exactly what the single create takes.
    pub properties: Map<String, Value>,
}

/// One created item, in request order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub reference: Option<String>,
    pub item: ItemId,
}

/// An item that passed every rule, ready to write.
struct Planned {
    row: ItemRow,
    props: Map<String, Value>,
    item_type: ItemType,
}

impl ItemsService {
    /// Creates every item or none. See the module documentation.
    pub async fn create_items(
        &self,
        who: &Principal,
        project: ProjectId,
        batch: Vec<BulkItem>,
    ) -> CoreResult<Vec<Created>> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        if batch.is_empty() {
            return Err(CoreError::invalid("items", "must hold at least one item"));
        }
        if batch.len() > MAX_ITEMS {
            return Err(CoreError::invalid(
                "items",
                format!("holds {} items; at most {MAX_ITEMS} may be created in one call", batch.len()),
            ));
        }
        let mut violations = Vec::new();
        let ids: Vec<ItemId> = batch.iter().map(|_| ItemId::new()).collect();
        let types: Vec<Option<ItemType>> = batch.iter().map(|item| ItemType::parse(&item.item_type).ok()).collect();
        let refs = references(&batch, &ids, &mut violations);

        let mut planned = Vec::with_capacity(batch.len());
        let mut external_parents: Vec<(usize, ItemId, ItemType)> = Vec::new();
        // Connector ends outside the batch, and the tags the items carry: each must exist when the
        // batch commits.
        let mut external_ends: Vec<(usize, Attachment)> = Vec::new();
        // The project's tags, read once if an item carries any.
        let mut known_tags: Option<Vec<TagId>> = None;
        let mut batch_parents: Vec<Option<usize>> = vec![None; batch.len()];
        let now = Utc::now();
        for (i, item) in batch.into_iter().enumerate() {
            let at = |field: &str| format!("items[{i}].{field}");
            let Some(item_type) = types[i] else {
                violations.push(FieldViolation::new(
                    at("type"),
                    "must be one of label, sticky-note, shape, connector, web, image, document, svg",
                ));
                continue;
            };
            if !item_type.vocabulary().creation.from_json() {
                violations.push(FieldViolation::new(
                    at("type"),
                    format!("{item_type} items are created by file upload: POST /{{parent}}/{item_type}/file"),
                ));
                continue;
            }
            let parent = match item.parent.as_deref().map(str::trim) {
                Some(raw) if raw.starts_with(REF_PREFIX) => match refs.get(&raw[REF_PREFIX.len()..]) {
                    Some(&(j, _)) if j == i => {
                        violations.push(FieldViolation::new(at("parent"), "an item cannot be its own parent"));
                        continue;
                    }
                    Some(&(j, id)) => {
                        batch_parents[i] = Some(j);
                        if let Some(container) = types[j].filter(|container| !container.holds(item_type)) {
                            violations.push(FieldViolation::new(at("parent"), refusal(container, item_type)));
                            continue;
                        }
                        Parent::Item(id)
                    }
                    None => {
                        violations.push(unknown_ref(at("parent"), raw));
                        continue;
                    }
                },
                raw => match Parent::parse(raw.unwrap_or_default()) {
                    Ok(parent) => {
                        if let Parent::Item(id) = parent {
                            external_parents.push((i, id, item_type));
                        }
                        parent
                    }
                    Err(error) => {
                        violations.extend(prefixed(error, &at("")));
                        continue;
                    }
                },
            };
            let mut properties = item.properties;
            let mut ends_ok = true;
            if item_type == ItemType::Connector {
                for (end, id) in resolve_ends(&mut properties, &refs, &types, i, &at, &mut violations) {
                    match id {
                        EndTarget::External(item_id) => {
                            external_ends.push((i, Attachment::item(end, ItemId::from_uuid(item_id))));
                        }
                        EndTarget::Invalid => ends_ok = false,
                        EndTarget::InBatch => {}
                    }
                }
            }
            let props = match canvas_items::validate_create(item_type, properties, ItemFacts { has_content: false }) {
                Ok(props) => props,
                Err(error) => {
                    violations.extend(prefixed(error, &at("properties.")));
                    continue;
                }
            };
            if !ends_ok {
                continue;
            }
            let added = super::tags::new_tags(&props, None);
            if !added.is_empty() {
                if known_tags.is_none() {
                    known_tags = Some(self.known_tags(project).await?);
                }
                let known = known_tags.as_deref().unwrap_or_default();
                let unknown = added.iter().filter(|(_, tag)| !known.contains(tag));
                let before = violations.len();
                violations.extend(unknown.map(|(j, tag)| {
                    FieldViolation::new(at(&format!("properties.tags[{j}]")), format!("no tag '{tag}' in this project"))
                }));
                if violations.len() > before {
                    continue;
                }
                external_ends.extend(added.into_iter().map(|(_, tag)| (i, Attachment::tag(tag))));
            }
            let new = NewItem { id: ids[i], project, item_type, parent, props: &props, content_key: None };
            let row = first_version(new, who, now);
            planned.push(Planned { row, props, item_type });
        }
        parent_cycles(&batch_parents, &mut violations);
        self.check_existing(project, &external_parents, &external_ends, &mut violations).await?;
        if !violations.is_empty() {
            // In item order, whatever check found them.
            violations.sort_by_key(|v| item_index(&v.field));
            return Err(CoreError::Validation(violations));
        }

        let events: Vec<_> = planned
            .iter()
            .map(|p| {
                let payload = json!({"parent": p.row.parent.to_string(), "new": p.props});
                item_event(who, project, p.row.id, p.item_type, EventKind::ItemCreated, payload)
            })
            .collect();
        let rows: Vec<ItemRow> = planned.into_iter().map(|p| p.row).collect();
        // Containers outside the batch must still be there when it commits, as connector ends must.
        let mut must_exist = external_ends;
        must_exist.extend(external_parents.iter().map(|&(i, item_id, _)| (i, Attachment::item("parent", item_id))));
        let _filling = match external_parents.is_empty() {
            false => Some(self.container_turns.fill(project).await),
            true => None,
        };
        let deadline = Instant::now() + WRITE_DEADLINE;
        while !written(self.store.insert_items(&rows, &events, &must_exist).await.map(|()| true))? {
            lost_race(deadline).await?;
        }
        self.outbox_written(project);
        let mut names: Vec<Option<String>> = vec![None; ids.len()];
        for (name, (i, _)) in refs {
            names[i] = Some(name);
        }
        Ok(ids.into_iter().zip(names).map(|(item, reference)| Created { reference, item }).collect())
    }

    /// Parents and connector ends outside the batch must be items of the project (parents
    /// containers that hold the item's type, connector ends not connectors). Both are checked
    /// again inside the write transaction.
    async fn check_existing(
        &self,
        project: ProjectId,
        parents: &[(usize, ItemId, ItemType)],
        ends: &[(usize, Attachment)],
        violations: &mut Vec<FieldViolation>,
    ) -> CoreResult<()> {
        let mut wanted: Vec<ItemId> =
            parents.iter().map(|(_, id, _)| *id).chain(ends.iter().filter_map(|(_, a)| a.item_id())).collect();
        wanted.sort_unstable();
        wanted.dedup();
        let found: HashMap<ItemId, ItemType> =
            self.store.get_items(project, &wanted).await?.into_iter().map(|row| (row.id, row.item_type)).collect();
        for (i, id, child) in parents {
            let field = format!("items[{i}].parent");
            match found.get(id) {
                None => violations.push(FieldViolation::new(
                    field,
                    format!("no item '{id}' in this project to act as the container"),
                )),
                Some(container) if !container.holds(*child) => {
                    violations.push(FieldViolation::new(field, refusal(*container, *child)))
                }
                Some(_) => {}
            }
        }
        for (i, end) in ends {
            let Some(end_id) = end.item_id() else { continue };
            let field = format!("items[{i}].properties.{}", end.field);
            match found.get(&end_id) {
                None => violations.push(FieldViolation::new(field, format!("no item '{end_id}' in this project"))),
                Some(ItemType::Connector) => {
                    violations.push(FieldViolation::new(field, "a connector cannot attach to another connector"))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }
}

/// The batch's `ref`s: name → (index, id). Invalid and repeated names are offences.
fn references(
    batch: &[BulkItem],
    ids: &[ItemId],
    violations: &mut Vec<FieldViolation>,
) -> HashMap<String, (usize, ItemId)> {
    let mut refs: HashMap<String, (usize, ItemId)> = HashMap::new();
    for (i, item) in batch.iter().enumerate() {
        let Some(name) = &item.reference else { continue };
        let field = format!("items[{i}].ref");
        if !valid_ref(name) {
            violations.push(FieldViolation::new(field, format!("must be {}", ref_rule())));
        } else if let Some(&(first, _)) = refs.get(name) {
            violations.push(FieldViolation::new(field, format!("'{name}' is already the ref of items[{first}]")));
        } else {
            refs.insert(name.clone(), (i, ids[i]));
        }
    }
    refs
}

/// Where a connector end points.
enum EndTarget {
    /// An item of the batch (written in the same transaction, so it exists).
    InBatch,
    /// An item that must already exist.
    External(uuid::Uuid),
    /// A `ref:` that names nothing usable (already an offence).
    Invalid,
}

/// Replaces `"ref:<name>"` in the connector's `startPoint.itemId` and `endPoint.itemId` (property
/// names in any casing the single create accepts) by the id of that item of the batch, and says
/// where each given end points.
fn resolve_ends(
    properties: &mut Map<String, Value>,
    refs: &HashMap<String, (usize, ItemId)>,
    types: &[Option<ItemType>],
    this: usize,
    at: &dyn Fn(&str) -> String,
    violations: &mut Vec<FieldViolation>,
) -> Vec<(&'static str, EndTarget)> {
    let mut ends = Vec::new();
    for (key, point) in properties.iter_mut() {
        let end = match fold_name(key).as_str() {
            "startpoint" => ("startPoint", "startPoint.itemId"),
            "endpoint" => ("endPoint", "endPoint.itemId"),
            _ => continue,
        };
        let Some(point) = point.as_object_mut() else { continue };
        let Some((_, value)) = point.iter_mut().find(|(name, _)| fold_name(name) == "itemid") else { continue };
        let Some(raw) = value.as_str().map(str::trim) else { continue };
        let field = at(&format!("properties.{}", end.1));
        let offence = match raw.strip_prefix(REF_PREFIX) {
            None => match uuid::Uuid::parse_str(raw) {
                Ok(id) => {
                    ends.push((end.1, EndTarget::External(id)));
                    continue;
                }
                Err(_) => FieldViolation::new(field, "must be a GUID or \"ref:<name>\" of an item of the batch"),
            },
            Some(name) => match refs.get(name) {
                None => unknown_ref(field, raw),
                Some(&(j, _)) if j == this => FieldViolation::new(field, "a connector cannot attach to itself"),
                Some(&(j, _)) if types[j] == Some(ItemType::Connector) => {
                    FieldViolation::new(field, "a connector cannot attach to another connector")
                }
                Some(&(_, id)) => {
                    *value = Value::String(id.to_string());
                    ends.push((end.1, EndTarget::InBatch));
                    continue;
                }
            },
        };
        violations.push(offence);
        // Named once here: the item's other rules still run, on a stand-in id they accept.
        *value = Value::String(uuid::Uuid::nil().to_string());
        ends.push((end.1, EndTarget::Invalid));
    }
    ends
}

/// Parents within the batch must not form a loop (`a` in `b` in `a`).
fn parent_cycles(parents: &[Option<usize>], violations: &mut Vec<FieldViolation>) {
    for start in 0..parents.len() {
        let mut at = parents[start];
        let mut steps = 0;
        while let Some(next) = at {
            if next == start {
                violations.push(FieldViolation::new(
                    format!("items[{start}].parent"),
                    "the batch's parents form a loop through this item",
                ));
                break;
            }
            steps += 1;
            if steps > parents.len() {
                break; // a loop further up, reported at its own items
            }
            at = parents[next];
        }
    }
}

/// `i` of a field named `items[i]…`.
fn item_index(field: &str) -> usize {
    field.strip_prefix("items[").and_then(|rest| rest.split(']').next()).and_then(|i| i.parse().ok()).unwrap_or(0)
}

fn unknown_ref(field: String, raw: &str) -> FieldViolation {
    FieldViolation::with_reason(
        ViolationReason::InvalidValue,
        field,
        format!("'{raw}' names no item of this batch (each item's \"ref\" is its name)"),
    )
}

/// A single create's violations, each field put under `prefix`.
fn prefixed(Invalid(violations): Invalid, prefix: &str) -> Vec<FieldViolation> {
    violations.into_iter().map(|v| FieldViolation { field: format!("{prefix}{}", v.field), ..v }).collect()
}
