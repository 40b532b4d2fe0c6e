//! An archive's diagram records (`diagrams.jsonl`, docs/ARCHIVE.md): each checked as a diagram
//! create checks its source and origin, its element map pointed at the new ids of the archive's
//! items. The records are written with the items, in the same transaction (`../archive_items.rs`).

use std::collections::{HashMap, HashSet};

use chrono::Utc;
use serde_json::{Map, Value};

use super::{at, named, IdMap, Offences};
use crate::domain::{DiagramId, ItemId, ProjectId};
use crate::error::CoreError;
use crate::service::Principal;
use crate::storage::{DiagramRow, ElementRow};
use canvas_vocabulary::limits::diagrams::FORMATS;

/// Longest element name (`node:A`, `edge:A->B#0`) and part (`shape`, `label`, …) accepted.
const MAX_ELEMENT_CHARS: usize = 1024;
const MAX_PART_CHARS: usize = 64;

/// The records and element rows of an archive, with new ids.
#[derive(Debug, Default)]
pub struct PlannedDiagrams {
    pub rows: Vec<DiagramRow>,
    pub elements: Vec<ElementRow>,
}

/// Checks every line of `diagrams.jsonl`; offences go to `offences`.
pub(super) fn plan(who: &Principal, lines: &[Value], ids: &IdMap, offences: &mut Offences) -> PlannedDiagrams {
    let mut planned = PlannedDiagrams::default();
    let mut seen: HashSet<String> = HashSet::new();
    // Ids the element maps remember of items deleted before the export: each gets a fresh id
    // that names nothing here either, so a later update still sees them as gone.
    let mut gone: HashMap<String, ItemId> = HashMap::new();
    let now = Utc::now();
    for (j, line) in lines.iter().enumerate() {
        if offences.full() {
            break;
        }
        let field = |name: &str| at("diagrams.jsonl", j, name);
        let Some(record) = line.as_object() else {
            offences.push(field(""), "must be a JSON object (one diagram record per line)");
            continue;
        };
        match record.get("diagramId").and_then(Value::as_str) {
            Some(raw) if DiagramId::parse(raw).is_ok() => {
                if !seen.insert(raw.trim().to_ascii_lowercase()) {
                    offences.push(field("diagramId"), "is already the diagramId of another line");
                }
            }
            _ => offences.push(field("diagramId"), "must be a GUID: the record's id in the archive"),
        }
        let format = record.get("format").and_then(Value::as_str).unwrap_or("mermaid").trim().to_ascii_lowercase();
        if !FORMATS.contains(&format.as_str()) {
            offences.push(field("format"), format!("must be one of: {}", FORMATS.join(", ")));
        }
        let Some(source) = record.get("source").and_then(Value::as_str) else {
            offences.push(field("source"), "is required: the diagram's text");
            continue;
        };
        let kind = match super::super::diagram_records::parse_source(source) {
            Ok(diagram) => kind_of(&diagram),
            Err(CoreError::Validation(violations)) => {
                offences.extend_under(&field(""), violations);
                continue;
            }
            Err(other) => {
                offences.push(field("source"), other.to_string());
                continue;
            }
        };
        let origin = record.get("origin");
        let coordinate = |axis: &str| origin.and_then(|o| o.get(axis)).and_then(Value::as_f64);
        let (Some(x), Some(y)) = (coordinate("x"), coordinate("y")) else {
            offences.push(field("origin"), "must be {\"x\": number, \"y\": number}: the diagram's top-left corner");
            continue;
        };
        if super::super::diagrams::check_origin(Some((x, y))).is_err() {
            let max = canvas_vocabulary::limits::diagrams::MAX_ORIGIN;
            offences.push(field("origin"), format!("x and y must be finite numbers from -{max:e} to {max:e}"));
            continue;
        }
        let id = DiagramId::new();
        let Some(elements) = element_rows(record, j, id, ids, &mut gone, offences) else { continue };
        planned.rows.push(DiagramRow {
            id,
            // Set with the items' once the project exists (`commit_archive`).
            project_id: ProjectId::from_uuid(uuid::Uuid::nil()),
            kind,
            format,
            source: source.to_owned(),
            origin_x: x,
            origin_y: y,
            version: 1,
            created_by: who.user_id,
            updated_by: who.user_id,
            created_at: now,
            updated_at: now,
        });
        planned.elements.extend(elements);
    }
    planned
}

/// The record's element map with new item ids; None when an offence was named.
fn element_rows(
    record: &Map<String, Value>,
    j: usize,
    diagram: DiagramId,
    ids: &IdMap,
    gone: &mut HashMap<String, ItemId>,
    offences: &mut Offences,
) -> Option<Vec<ElementRow>> {
    let Some(list) = record.get("elements").and_then(Value::as_array) else {
        offences.push(at("diagrams.jsonl", j, "elements"), "must be a list of the items the diagram drew");
        return None;
    };
    let before = offences.0.len();
    let mut rows = Vec::with_capacity(list.len());
    let mut keys = HashSet::new();
    for (k, element) in list.iter().enumerate() {
        let field = |name: &str| at("diagrams.jsonl", j, &format!("elements[{k}].{name}"));
        let text = |name: &str, max: usize| {
            element
                .get(name)
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty() && t.chars().count() <= max && !t.contains('\0'))
        };
        let (Some(name), Some(part)) = (text("element", MAX_ELEMENT_CHARS), text("part", MAX_PART_CHARS)) else {
            offences.push(field("element"), format!("element (at most {MAX_ELEMENT_CHARS} characters) and part (at most {MAX_PART_CHARS}) must be texts without U+0000"));
            continue;
        };
        if !keys.insert((name, part)) {
            offences.push(field("element"), format!("the element '{name}' and part '{part}' are already listed"));
            continue;
        }
        let raw = element.get("itemId").and_then(Value::as_str).unwrap_or_default();
        let Some(item) = named(ids, raw) else {
            offences.push(
                field("itemId"),
                format!("names no item of the archive ('{}')", canvas_domain::ids::truncate(raw)),
            );
            continue;
        };
        let item_type = element.get("itemType").and_then(Value::as_str).unwrap_or_default();
        if item.item_type.map(|t| t.as_str()) != Some(item_type) {
            offences.push(field("itemType"), "must be the type of the item it names");
            continue;
        }
        let Some(ordinal) = element.get("ordinal").and_then(Value::as_i64) else {
            offences.push(field("ordinal"), "must be an integer: the element's place in the diagram");
            continue;
        };
        let Some(planned) = remapped_planned(element.get("planned"), ids, gone) else {
            offences.push(field("planned"), "must be {\"parent\": text, \"properties\": object} without U+0000");
            continue;
        };
        rows.push(ElementRow {
            diagram_id: diagram,
            element: name.to_owned(),
            part: part.to_owned(),
            item_id: item.id,
            item_type: item_type.to_owned(),
            ordinal,
            planned,
        });
    }
    (offences.0.len() == before).then_some(rows)
}

/// What the diagram last wrote for an element (`{"parent", "properties"}`: what tells a person's
/// change from the source's), with its parent and connector ends pointed at the new ids. An id of
/// an item that is not in the archive (deleted before the export) gets a fresh id naming nothing.
fn remapped_planned(planned: Option<&Value>, ids: &IdMap, gone: &mut HashMap<String, ItemId>) -> Option<Value> {
    let planned = planned?.as_object()?;
    let mut renamed = |raw: &str| -> String {
        if ItemId::parse(raw).is_err() {
            return raw.to_owned(); // `panel`, `inbox`
        }
        match named(ids, raw) {
            Some(item) => item.id.to_string(),
            // `ItemId::default()` is a fresh id.
            None => gone.entry(raw.trim().to_ascii_lowercase()).or_default().to_string(),
        }
    };
    let parent = renamed(planned.get("parent")?.as_str()?);
    let mut properties = planned.get("properties")?.as_object()?.clone();
    for end in ["startPoint", "endPoint"] {
        if let Some(Value::String(id)) = properties.get(end).and_then(|point| point.get("itemId")) {
            let id = renamed(id);
            properties[end]["itemId"] = Value::String(id);
        }
    }
    let value = serde_json::json!({"parent": parent, "properties": properties});
    (!holds_nul(&value)).then_some(value)
}

/// Whether any text of `value` (keys included) holds U+0000, which PostgreSQL's `jsonb` cannot.
fn holds_nul(value: &Value) -> bool {
    match value {
        Value::String(text) => text.contains('\0'),
        Value::Array(list) => list.iter().any(holds_nul),
        Value::Object(map) => map.iter().any(|(key, v)| key.contains('\0') || holds_nul(v)),
        _ => false,
    }
}

/// The diagram kind a record names (`flowchart`, `mindmap`, `sequence`, …), as a diagram create
/// names it (`diagram_records.rs`): the model's variant, recomputed from the source rather than
/// taken from the archive.
fn kind_of(diagram: &canvas_diagram::Diagram) -> String {
    let debug = format!("{diagram:?}");
    debug.split(['(', ' ', '{']).next().unwrap_or("diagram").to_ascii_lowercase()
}
