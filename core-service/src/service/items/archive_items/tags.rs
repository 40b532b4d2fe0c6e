//! An archive's tags (`tags.json`, version 2; docs/ARCHIVE.md): each checked by the rules of a
//! create and given a new id, and the items' `tags` remapped to them. A tag id an item names
//! that `tags.json` does not hold is an offence, never a tag left dangling in the new project.

use std::collections::HashMap;

use chrono::Utc;
use serde_json::{Map, Value};

use super::offences::{at, Offences};
use crate::domain::{ProjectId, TagId};
use crate::error::{CoreError, CoreResult};
use crate::service::items::tags::{tag_color, tag_name};
use crate::service::Principal;
use crate::storage::TagRow;
use canvas_vocabulary::limits::tags::{name_key, DEFAULT_COLOR, MAX_PER_PROJECT};

/// The members of a tag of `tags.json`: any other is refused, as an item line's unknown members.
const MEMBERS: [&str; 3] = ["tagId", "name", "color"];

/// The archive's tags as rows of the new project (its id filled in at the write), and each
/// archived id's new one.
pub fn plan(who: &Principal, tags: &[Value], offences: &mut Offences) -> (Vec<TagRow>, HashMap<TagId, TagId>) {
    let (mut rows, mut ids, mut keys) = (Vec::new(), HashMap::new(), Vec::<String>::new());
    if tags.len() > MAX_PER_PROJECT {
        offences.push("tags.json.tags", format!("holds {} tags; a project has at most {MAX_PER_PROJECT}", tags.len()));
        return (rows, ids);
    }
    let now = Utc::now();
    for (i, tag) in tags.iter().enumerate() {
        let field = |member: &str| format!("tags.json.tags[{i}].{member}");
        let Some(object) = tag.as_object() else {
            offences.push(format!("tags.json.tags[{i}]"), "must be an object {tagId, name, color}");
            continue;
        };
        let unknown: Vec<&String> = object.keys().filter(|k| !MEMBERS.contains(&k.as_str())).collect();
        for member in &unknown {
            offences.push(field(member), "is not a member of a tag (tagId, name, color)");
        }
        if !unknown.is_empty() {
            continue;
        }
        let Some(old) = object.get("tagId").and_then(Value::as_str).and_then(|id| TagId::parse(id).ok()) else {
            offences.push(field("tagId"), "must be a GUID");
            continue;
        };
        if ids.contains_key(&old) {
            offences.push(field("tagId"), format!("repeats the tag '{old}'"));
            continue;
        }
        // The rules of a create (`service/items/tags.rs`), each offence named under this tag.
        let name = match object.get("name") {
            Some(Value::String(name)) => checked(tag_name(name), i, offences),
            _ => {
                offences.push(field("name"), "must be a string");
                None
            }
        };
        let color = match object.get("color") {
            Some(Value::String(color)) => checked(tag_color(color), i, offences),
            None => Some(DEFAULT_COLOR.to_owned()),
            Some(_) => {
                offences.push(field("color"), "must be a hex colour string");
                None
            }
        };
        let (Some(name), Some(color)) = (name, color) else { continue };
        let key = name_key(&name);
        if keys.contains(&key) {
            offences.push(field("name"), format!("another tag of the archive is named '{name}' (ignoring case)"));
            continue;
        }
        keys.push(key);
        let id = TagId::new();
        ids.insert(old, id);
        rows.push(TagRow {
            id,
            project_id: ProjectId::from_uuid(uuid::Uuid::nil()),
            name,
            color,
            version: 1,
            created_by: who.user_id,
            updated_by: who.user_id,
            created_at: now,
            updated_at: now,
        });
    }
    (rows, ids)
}

/// A checked value, or None with its offences named under `tags.json.tags[i]`.
fn checked(value: CoreResult<String>, i: usize, offences: &mut Offences) -> Option<String> {
    match value {
        Ok(value) => Some(value),
        Err(CoreError::Validation(violations)) => {
            offences.extend_under(&format!("tags.json.tags[{i}]"), violations);
            None
        }
        Err(other) => {
            offences.push(format!("tags.json.tags[{i}]"), other.to_string());
            None
        }
    }
}

/// Line `i`'s `tags`, naming the new tags; an id `tags.json` does not hold is an offence.
pub fn remap(properties: &mut Map<String, Value>, i: usize, ids: &HashMap<TagId, TagId>, offences: &mut Offences) {
    let Some(Value::Array(tags)) = properties.get_mut("tags") else { return };
    for (j, tag) in tags.iter_mut().enumerate() {
        // Ids that are not GUIDs are left for the property rules to name.
        let Some(old) = tag.as_str().and_then(|raw| TagId::parse(raw).ok()) else { continue };
        match ids.get(&old) {
            Some(new) => *tag = Value::String(new.to_string()),
            None => offences
                .push(at("items.jsonl", i, &format!("tags[{j}]")), format!("names no tag of tags.json ('{old}')")),
        }
    }
}
