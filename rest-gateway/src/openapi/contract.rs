//! The last passes over the served document, so that the clients people generate from it work as
//! the service does (docs/REST-CONTRACT.md says why each is needed):
//!
//! - [`inline_request_bodies`]: a request schema that states defaults is written inside its
//!   operation's `requestBody`, not as a shared component. Generators read a default as "the
//!   server always sends this" in shared schemas (openapi-typescript types such a property as
//!   required), but as "may be omitted" in a request body.
//! - [`defaults_are_not_null`]: in a request, a property with a default is not nullable (sending
//!   `null` means the default, as omitting it does). An object default on a nullable object is
//!   what openapi-python-client cannot read.
//! - [`name_enums`]: each closed word list of the item tables is one named schema, referenced
//!   where it is used (`null` added by `anyOf` at the use site), so a generator makes one type of
//!   it, not one per use.
//! - [`binary_answers`]: an answer that is a file (the rendered map, an uploaded file) is a
//!   binary string, also offered as `application/octet-stream`, the binary type generators read
//!   (openapi-python-client skips an operation whose answer is only `image/png` or `*/*`).
//!
//! The passes work on JSON because OpenAPI 3.1 allows what utoipa's types cannot hold: keywords
//! beside a `$ref` (the default and description of a use of a named enumeration).

use std::collections::BTreeSet;

use canvas_vocabulary::items::{DECORATORS, HORIZONTAL_ALIGNMENTS, IMAGE_TYPES, LINE_TYPES, VERTICAL_ALIGNMENTS};
use canvas_vocabulary::limits::webhooks::EVENT_KINDS;
use canvas_vocabulary::webhook_payloads::PROJECT_ROLES;
use canvas_vocabulary::SHAPE_TYPES;
use serde_json::{json, Map, Value};

/// The closed word lists clients see as types, by name. An enumeration of the document equal to
/// one of these becomes a reference to it.
pub fn named_enums() -> [(&'static str, &'static [&'static str]); 9] {
    [
        ("HorizontalTextAlignment", HORIZONTAL_ALIGNMENTS),
        ("VerticalTextAlignment", VERTICAL_ALIGNMENTS),
        ("ShapeType", &SHAPE_TYPES),
        ("LineType", LINE_TYPES),
        ("Decorator", DECORATORS),
        ("ImageMimeType", IMAGE_TYPES),
        ("EventKind", &EVENT_KINDS),
        ("JsonCasing", super::JSON_CASINGS),
        ("ProjectRole", &PROJECT_ROLES),
    ]
}

/// Every pass, in order.
pub fn apply(doc: &mut Value) {
    inline_request_bodies(doc);
    for schema in request_schemas(doc) {
        defaults_are_not_null(schema);
    }
    name_enums(doc);
    binary_answers(doc);
}

/// The type generators read as "any bytes".
const OCTET_STREAM: &str = "application/octet-stream";

/// Every success answer that is neither JSON nor text: a binary string, under its own type and
/// under [`OCTET_STREAM`].
pub fn binary_answers(doc: &mut Value) {
    let binary = json!({"type": "string", "format": "binary"});
    let operations = doc["paths"].as_object_mut().into_iter().flat_map(|paths| paths.values_mut());
    let answers = operations
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.get_mut("responses").and_then(Value::as_object_mut))
        .flat_map(|responses| responses.iter_mut().filter(|(status, _)| status.starts_with('2')).map(|(_, r)| r))
        .filter_map(|response| response.get_mut("content").and_then(Value::as_object_mut));
    for content in answers {
        let is_binary = |media: &str| !media.contains("json") && !media.starts_with("text/");
        if !content.keys().any(|media| is_binary(media)) {
            continue;
        }
        for (_, media) in content.iter_mut().filter(|(media, _)| is_binary(media)) {
            media["schema"] = binary.clone();
        }
        content.entry(OCTET_STREAM).or_insert_with(|| json!({"schema": binary}));
    }
}

const SCHEMAS: &str = "#/components/schemas/";

/// The schemas of every JSON request body.
fn request_schemas(doc: &mut Value) -> Vec<&mut Value> {
    let operations = doc["paths"].as_object_mut().into_iter().flat_map(|paths| paths.values_mut());
    operations
        .filter_map(Value::as_object_mut)
        .flat_map(|item| item.values_mut())
        .filter_map(|operation| operation.pointer_mut("/requestBody/content"))
        .filter_map(Value::as_object_mut)
        .flat_map(|content| content.iter_mut())
        .filter(|(media, _)| media.ends_with("json"))
        .filter_map(|(_, media)| media.get_mut("schema"))
        .collect()
}

/// The members of `schema` that are schemas themselves, to walk into.
fn subschemas(schema: &mut Value) -> Vec<&mut Value> {
    let Some(object) = schema.as_object_mut() else { return Vec::new() };
    let mut found = Vec::new();
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            "properties" => found.extend(value.as_object_mut().into_iter().flat_map(|p| p.values_mut())),
            "allOf" | "anyOf" | "oneOf" | "prefixItems" => {
                found.extend(value.as_array_mut().into_iter().flat_map(|items| items.iter_mut()))
            }
            "items" | "additionalProperties" | "not" if value.is_object() => found.push(value),
            _ => {}
        }
    }
    found
}

/// Whether `schema`, or a schema it contains or references, states a default.
fn has_default(schema: &Value, components: &Value, seen: &mut BTreeSet<String>) -> bool {
    if schema.get("default").is_some() {
        return true;
    }
    if let Some(name) = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(SCHEMAS)) {
        if !seen.insert(name.to_owned()) {
            return false;
        }
        return has_default(&components[name], components, seen);
    }
    let mut copy = schema.clone();
    subschemas(&mut copy).into_iter().any(|sub| has_default(sub, components, seen))
}

/// Every `$ref` target anywhere in `value`.
fn references(value: &Value, into: &mut BTreeSet<String>) {
    match value {
        Value::Object(members) => {
            for (key, member) in members {
                match (key.as_str(), member) {
                    ("$ref", Value::String(target)) => {
                        into.insert(target.clone());
                    }
                    _ => references(member, into),
                }
            }
        }
        Value::Array(values) => values.iter().for_each(|v| references(v, into)),
        _ => {}
    }
}

/// Writes each referenced schema that states a default into the request bodies using it, and
/// drops the components only request bodies used.
pub fn inline_request_bodies(doc: &mut Value) {
    let components = doc["components"]["schemas"].clone();
    let mut inlined = BTreeSet::new();
    for schema in request_schemas(doc) {
        inline(schema, &components, &mut inlined);
    }
    // Until none is left: an inlined component may be used only by another one (`BulkItem` by
    // `BulkRequest`).
    loop {
        let mut referenced = BTreeSet::new();
        references(doc, &mut referenced);
        let unused: Vec<String> =
            inlined.iter().filter(|name| !referenced.contains(&format!("{SCHEMAS}{name}"))).cloned().collect();
        if unused.is_empty() {
            break;
        }
        let schemas = doc["components"]["schemas"].as_object_mut().expect("the document has schemas");
        for name in unused {
            schemas.remove(&name);
            inlined.remove(&name);
        }
    }
}

fn inline(schema: &mut Value, components: &Value, inlined: &mut BTreeSet<String>) {
    let target = schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(SCHEMAS)).map(str::to_owned);
    if let Some(name) = target {
        if !has_default(schema, components, &mut BTreeSet::new()) {
            return;
        }
        let mut copy = components[&name].clone();
        // What the use says (its description) wins over the component's own.
        for (key, value) in schema.as_object().into_iter().flatten().filter(|(key, _)| *key != "$ref") {
            copy[key] = value.clone();
        }
        *schema = copy;
        inlined.insert(name);
    }
    for sub in subschemas(schema) {
        inline(sub, components, inlined);
    }
}

/// Removes `null` from every schema with a default, at every depth.
pub fn defaults_are_not_null(schema: &mut Value) {
    if schema.get("default").is_some_and(|default| !default.is_null()) {
        if let Some(Value::Array(types)) = schema.get_mut("type") {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                schema["type"] = types.remove(0);
            }
        }
        if let Some(Value::Array(words)) = schema.get_mut("enum") {
            words.retain(|w| !w.is_null());
        }
        if let Some(Value::Array(alternatives)) = schema.get_mut("anyOf") {
            alternatives.retain(|a| a != &json!({"type": "null"}));
        }
    }
    for sub in subschemas(schema) {
        defaults_are_not_null(sub);
    }
}

/// Replaces each enumeration equal to a [`named_enums`] list by a reference to it, everywhere.
pub fn name_enums(doc: &mut Value) {
    let named = named_enums();
    let mut used = BTreeSet::new();
    name_in(doc, &named, &mut used);
    let schemas = doc["components"]["schemas"].as_object_mut().expect("the document has schemas");
    for (name, words) in named.iter().filter(|(name, _)| used.contains(*name)) {
        schemas.insert((*name).to_owned(), json!({"type": "string", "enum": words}));
    }
}

fn name_in(value: &mut Value, named: &[(&'static str, &'static [&'static str])], used: &mut BTreeSet<&'static str>) {
    match value {
        Value::Object(object) => {
            if let Some((name, nullable)) = named_enum(object, named) {
                used.insert(name);
                let reference = json!({"$ref": format!("{SCHEMAS}{name}")});
                let mut replaced = if nullable {
                    Map::from_iter([("anyOf".to_owned(), json!([reference, {"type": "null"}]))])
                } else {
                    reference.as_object().cloned().unwrap_or_default()
                };
                for (key, kept) in object.iter().filter(|(key, _)| !matches!(key.as_str(), "type" | "enum")) {
                    replaced.insert(key.clone(), kept.clone());
                }
                *object = replaced;
                return;
            }
            object.values_mut().for_each(|member| name_in(member, named, used));
        }
        Value::Array(items) => items.iter_mut().for_each(|item| name_in(item, named, used)),
        _ => {}
    }
}

/// The name of the list `schema` enumerates, and whether it allows `null` too.
fn named_enum(
    schema: &Map<String, Value>,
    named: &[(&'static str, &'static [&'static str])],
) -> Option<(&'static str, bool)> {
    let words = schema.get("enum")?.as_array()?;
    let nullable = words.iter().any(Value::is_null)
        || schema.get("type").and_then(Value::as_array).is_some_and(|types| types.iter().any(|t| t == "null"));
    let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
    named.iter().find(|(_, list)| *list == words.as_slice()).map(|(name, _)| (*name, nullable))
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod tests;
