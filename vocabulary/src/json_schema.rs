//! The property table as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 and of MCP tool
//! schemas): the one export both gateways build their item schemas from, so names, types,
//! required properties, enumerations, defaults and numeric bounds cannot drift from core-service's
//! table. Two forms: what a request may send ([`create_body`], [`patch_body`], [`property`]) and
//! what a read answers ([`read_body`]: types only, derived properties included).

use serde_json::{json, Map, Value};

use crate::items::MIN_SIZE;
use crate::items::{Kind, PropertyDef, CONNECTOR_POINT, CONNECTOR_POINT_DERIVED, FILE_NAME_MAX_CHARS, ITEM_TYPES};
use crate::limits::tags;

/// How a schema is written for its reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// Optional properties also allow `null`, which core-service reads as "omitted" on create and
    /// "reset to the default" on update.
    pub null_for_optional: bool,
}

/// OpenAPI 3.1 bodies: `null` is documented where it is accepted.
pub const OPENAPI: Dialect = Dialect { null_for_optional: true };
/// MCP tool schemas never mention `null`: some model vendors reject it (an optional argument is
/// simply not required).
pub const MCP: Dialect = Dialect { null_for_optional: false };

/// A number as JSON: whole numbers without a fraction (`5`, not `5.0`).
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn object(properties: Map<String, Value>, required: &[&str]) -> Value {
    let mut schema = json!({"type": "object", "properties": properties});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

fn point(member: impl Fn() -> Value) -> Value {
    object(Map::from_iter([("x".to_owned(), member()), ("y".to_owned(), member())]), &["x", "y"])
}

fn size(member: Value, required: bool) -> Value {
    let members = Map::from_iter([("width".to_owned(), member.clone()), ("height".to_owned(), member)]);
    object(members, if required { &["width", "height"] } else { &[] })
}

/// What a request may send for a value of `kind`.
pub fn kind(kind: Kind, dialect: Dialect) -> Value {
    match kind {
        Kind::Point => point(|| json!({"type": "number"})),
        Kind::Size => size(json!({"type": "number", "minimum": number(MIN_SIZE)}), true),
        Kind::AutoSize => size(json!({"type": "number", "minimum": 0}), false),
        Kind::NumberAbove(min) => json!({"type": "number", "exclusiveMinimum": number(min)}),
        Kind::NumberAtLeast(min) => json!({"type": "number", "minimum": number(min)}),
        Kind::NumberBetween(min, max) => json!({"type": "number", "minimum": number(min), "maximum": number(max)}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::RichText => json!({"type": "string", "minLength": 1, "pattern": "\\S"}),
        Kind::Name(max) => json!({"type": "string", "minLength": 1, "maxLength": max, "pattern": "\\S"}),
        Kind::CssColor => json!({"type": "string", "minLength": 1}),
        Kind::OneOf(words) => json!({"type": "string", "enum": words}),
        Kind::HexColor => json!({"type": "string", "pattern": "^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"}),
        Kind::NonNegativeList => json!({"type": "array", "items": {"type": "number", "minimum": 0}}),
        Kind::PointList => json!({"type": "array", "items": point(|| json!({"type": "number"}))}),
        Kind::WebUrl => json!({"type": "string", "format": "uri", "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://"}),
        Kind::FileName => json!({"type": "string", "minLength": 1, "maxLength": FILE_NAME_MAX_CHARS,
            "pattern": "^[^/\\\\\\x00-\\x1F\\x7F-\\x9F]*$"}),
        Kind::ByteCount => json!({"type": "integer", "minimum": 0}),
        Kind::ConnectorPoint => {
            let members = CONNECTOR_POINT.iter().map(|def| (def.name.to_owned(), property(def, dialect, true)));
            let mut schema = object(members.collect(), &[]);
            schema["additionalProperties"] = json!(false);
            schema
        }
        Kind::ItemId => json!({"type": "string", "format": "uuid"}),
        Kind::TagIds => json!({"type": "array", "items": {"type": "string", "format": "uuid"},
            "maxItems": tags::MAX_PER_ITEM, "uniqueItems": true}),
    }
}

/// The rule of a kind in words, for what JSON Schema cannot say (and for tool descriptions).
pub fn rule(kind: Kind) -> String {
    match kind {
        Kind::Point => "{x, y}".into(),
        Kind::Size => format!("{{width, height}}, each >= {}", number(MIN_SIZE)),
        Kind::AutoSize => "{width, height}".into(),
        Kind::NumberAbove(min) => format!("number > {}", number(min)),
        Kind::NumberAtLeast(min) => format!("number >= {}", number(min)),
        Kind::NumberBetween(min, max) => format!("number from {} to {}", number(min), number(max)),
        Kind::Bool => "true or false".into(),
        Kind::RichText => "plain text or valid HTML without active content (scripts, event handlers)".into(),
        Kind::Name(max) => format!("text, at most {max} characters"),
        Kind::CssColor => "any CSS color, for example #1E90FF, rgb(30, 144, 255) or dodgerblue".into(),
        Kind::OneOf(words) => format!("one of {} (any casing)", words.join(", ")),
        Kind::HexColor => "hex color only: #RRGGBB, #AARRGGBB (alpha first) or #RGB".into(),
        Kind::NonNegativeList => "array of numbers >= 0".into(),
        Kind::PointList => "array of {x, y}".into(),
        Kind::WebUrl => "absolute http or https URL".into(),
        Kind::FileName => format!("at most {FILE_NAME_MAX_CHARS} characters, without / or \\"),
        Kind::ByteCount => "whole number of bytes >= 0".into(),
        Kind::ConnectorPoint => {
            let members: Vec<&str> = CONNECTOR_POINT.iter().map(|def| def.name).collect();
            format!("{{{}}}", members.join(", "))
        }
        Kind::ItemId => "item id (GUID)".into(),
        Kind::TagIds => format!("array of tag ids (GUIDs), each once, at most {}", tags::MAX_PER_ITEM),
    }
}

/// What a request may send for one property: the kind's schema, its rule in words where the
/// schema cannot express it, its note, and its default when `with_default`.
pub fn property(def: &PropertyDef, dialect: Dialect, with_default: bool) -> Value {
    let mut schema = kind(def.kind, dialect);
    let mut description = match def.kind {
        Kind::RichText | Kind::CssColor | Kind::HexColor | Kind::WebUrl => rule(def.kind),
        _ => String::new(),
    };
    if !def.note.is_empty() {
        description = if description.is_empty() { def.note.to_owned() } else { format!("{description}; {}", def.note) };
    }
    if !def.updatable {
        description.push_str(if description.is_empty() { "fixed after creation" } else { "; fixed after creation" });
    }
    if !description.is_empty() {
        schema["description"] = json!(description);
    }
    if with_default {
        if let Some(default) = def.default_value() {
            schema["default"] = default;
        }
    }
    if dialect.null_for_optional && !def.required {
        allow_null(&mut schema);
    }
    schema
}

/// Lets `schema` accept `null` too.
fn allow_null(schema: &mut Value) {
    if let Some(Value::String(single)) = schema.get("type").cloned() {
        schema["type"] = json!([single, "null"]);
    }
    if let Some(Value::Array(words)) = schema.get_mut("enum") {
        words.push(Value::Null);
    }
}

fn body(properties: impl Iterator<Item = (String, Value)>, required: &[&str]) -> Value {
    let mut schema = object(properties.collect(), required);
    schema["additionalProperties"] = json!(false);
    schema
}

/// The properties of a create: every accepted property with its default; the required ones.
pub fn create_body(defs: &[PropertyDef], dialect: Dialect) -> Value {
    let accepted = defs.iter().filter(|def| !def.ignored);
    let required: Vec<&str> = accepted.clone().filter(|def| def.required).map(|def| def.name).collect();
    body(accepted.map(|def| (def.name.to_owned(), property(def, dialect, true))), &required)
}

/// The properties of an update: the changeable ones, none required.
pub fn patch_body(defs: &[PropertyDef], dialect: Dialect) -> Value {
    let changeable = defs.iter().filter(|def| !def.ignored && def.updatable);
    body(changeable.map(|def| (def.name.to_owned(), property(def, dialect, false))), &[])
}

/// A value of `kind` as a read answers it: its type and members, without the request's bounds.
pub fn read_kind(kind: Kind) -> Value {
    match kind {
        Kind::Point => point(|| json!({"type": "number"})),
        Kind::Size | Kind::AutoSize => size(json!({"type": "number"}), true),
        Kind::NumberAbove(_) | Kind::NumberAtLeast(_) | Kind::NumberBetween(..) => json!({"type": "number"}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::OneOf(words) => json!({"type": "string", "enum": words}),
        Kind::NonNegativeList => json!({"type": "array", "items": {"type": "number"}}),
        Kind::PointList => json!({"type": "array", "items": point(|| json!({"type": "number"}))}),
        Kind::ByteCount => json!({"type": "integer"}),
        Kind::ConnectorPoint => read_body(&[CONNECTOR_POINT, CONNECTOR_POINT_DERIVED].concat()),
        Kind::ItemId => json!({"type": "string", "format": "uuid"}),
        Kind::TagIds => json!({"type": "array", "items": {"type": "string", "format": "uuid"}}),
        Kind::RichText | Kind::Name(_) | Kind::CssColor | Kind::HexColor | Kind::WebUrl | Kind::FileName => {
            json!({"type": "string"})
        }
    }
}

/// The properties a read answers: all of them, the derived ones included. A property that is
/// required, has a default or is derived is always there; the others may be missing or `null`.
pub fn read_body(defs: &[PropertyDef]) -> Value {
    let always = |def: &PropertyDef| def.required || def.default.is_some() || def.ignored;
    let properties = defs.iter().map(|def| {
        let mut schema = read_kind(def.kind);
        if !always(def) {
            allow_null(&mut schema);
        }
        (def.name.to_owned(), schema)
    });
    let required: Vec<&str> = defs.iter().filter(|def| always(def)).map(|def| def.name).collect();
    object(properties.collect(), &required)
}

/// The schema of a property that a tool changes on items of any type (`style_item`'s
/// `fontSize`): what every type with a changeable property of that name accepts, joined by
/// [`union`]. None when no type has it.
pub fn across_types(name: &str, dialect: Dialect) -> Option<Value> {
    ITEM_TYPES
        .iter()
        .flat_map(|item_type| item_type.properties)
        .filter(|def| def.name == name && def.updatable && !def.ignored)
        .map(|def| property(def, dialect, false))
        .reduce(|a, b| union(&a, &b))
}

/// A schema accepting what either `a` or `b` accepts, as plain as the two allow: equal schemas
/// stay as they are; for one type, the looser bound of each keyword is kept and a keyword only
/// one side has is dropped; different types become `anyOf`.
pub fn union(a: &Value, b: &Value) -> Value {
    if a == b {
        return a.clone();
    }
    let (Some(a_map), Some(b_map)) = (a.as_object(), b.as_object()) else { return json!({}) };
    if a_map.get("type") != b_map.get("type") {
        return json!({"anyOf": [a, b]});
    }
    let mut joined = Map::new();
    for (key, left) in a_map {
        let Some(right) = b_map.get(key) else { continue };
        let value = match key.as_str() {
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" => lesser(left, right, true),
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" => lesser(left, right, false),
            "items" => union(left, right),
            "required" => json!(left
                .as_array()
                .into_iter()
                .flatten()
                .filter(|name| right.as_array().is_some_and(|r| r.contains(name)))
                .collect::<Vec<_>>()),
            "properties" => {
                let mut members = left.as_object().cloned().unwrap_or_default();
                for (name, schema) in right.as_object().into_iter().flatten() {
                    let merged = members.get(name).map_or_else(|| schema.clone(), |mine| union(mine, schema));
                    members.insert(name.clone(), merged);
                }
                Value::Object(members)
            }
            _ if left == right => left.clone(),
            _ => continue,
        };
        joined.insert(key.clone(), value);
    }
    Value::Object(joined)
}

/// The smaller (`smaller` true) or larger of two numbers.
fn lesser(a: &Value, b: &Value, smaller: bool) -> Value {
    let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
    if (x <= y) == smaller {
        a.clone()
    } else {
        b.clone()
    }
}

/// One property in words for a tool description: `fontSize (number >= 1; default 14)`.
pub fn describe(def: &PropertyDef) -> String {
    let mut parts = vec![rule(def.kind)];
    if !def.note.is_empty() {
        parts.push(def.note.to_owned());
    }
    if def.required {
        parts.push("required".into());
    }
    if let Some(default) = def.default {
        parts.push(format!("default {default}"));
    }
    if !def.updatable {
        parts.push("fixed after creation".into());
    }
    format!("{} ({})", def.name, parts.join("; "))
}

#[cfg(test)]
#[path = "json_schema_tests.rs"]
mod tests;
