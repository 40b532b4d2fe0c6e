//! The exported schemas (`canvas_vocabulary::json_schema`, from which the OpenAPI document and the
//! MCP tool schemas are generated) against the rules as this crate applies them. For every item
//! type and property, values at and just beyond each bound, every enumerated word and a stranger,
//! lengths, types, `null`, missing required properties and unknown names are run through
//! `validate_create` and `validate_update`: whatever the schema says must be what the rules do.
//! Cross-property rules the schema cannot express (auto-size, corner radius) are kept out of the
//! way by a base body that satisfies them.

use canvas_vocabulary::json_schema::{create_body, patch_body, OPENAPI};
use serde_json::{json, Map, Value};

use super::schema::PropertyDef;
use super::{validate_create, validate_update, ItemFacts, ItemType};
use canvas_domain::{Invalid, ViolationReason};

/// A valid value for `schema`, or None when it has no obvious one (ids must name real items).
fn sample(schema: &Value) -> Option<Value> {
    if let Some(words) = schema["enum"].as_array() {
        return words.first().cloned();
    }
    let kind = match &schema["type"] {
        Value::Array(types) => types.first().and_then(Value::as_str).unwrap_or(""),
        other => other.as_str().unwrap_or(""),
    };
    match kind {
        "number" | "integer" => Some(schema.get("minimum").cloned().unwrap_or_else(|| {
            let above = schema["exclusiveMinimum"].as_f64().map_or(0.0, |m| m + 1.0);
            json!(above)
        })),
        "boolean" => Some(json!(true)),
        "array" => Some(json!([])),
        "object" => {
            let members = schema["properties"].as_object()?;
            Some(Value::Object(
                members.iter().filter_map(|(name, member)| Some((name.clone(), sample(member)?))).collect(),
            ))
        }
        "string" if schema["format"] == "uri" => Some(json!("https://example.com/page")),
        "string" if schema["format"] == "uuid" => None,
        "string" => Some(json!("a.txt")),
        _ => None,
    }
}

/// Values to try against `schema`, each with whether the schema accepts it.
fn probes(schema: &Value) -> Vec<(Value, bool)> {
    let mut out = Vec::new();
    let number = |key: &str| schema.get(key).and_then(Value::as_f64);
    if let Some(min) = number("minimum") {
        out.extend([(json!(min), true), (json!(min - 0.5), false)]);
    }
    if let Some(min) = number("exclusiveMinimum") {
        out.extend([(json!(min), false), (json!(min + 0.5), true)]);
    }
    if let Some(max) = number("maximum") {
        out.extend([(json!(max), true), (json!(max + 0.5), false)]);
    }
    if let Some(words) = schema["enum"].as_array() {
        out.extend(words.iter().filter(|w| !w.is_null()).map(|w| (w.clone(), true)));
        out.push((json!("NotAWord"), false));
    }
    if let Some(max) = schema["maxLength"].as_u64() {
        out.extend([(json!("x".repeat(max as usize)), true), (json!("x".repeat(max as usize + 1)), false)]);
    }
    if schema["minLength"].as_u64() == Some(1) {
        out.push((json!(""), false));
    }
    let types = match &schema["type"] {
        Value::Array(types) => types.clone(),
        single => vec![single.clone()],
    };
    if types.contains(&json!("integer")) {
        out.push((json!(number("minimum").unwrap_or(0.0) + 0.5), false));
    }
    // Only the stranger for booleans: turning a flag flips cross-property rules (auto-size).
    if types.contains(&json!("boolean")) {
        out.push((json!("yes"), false));
    } else if types.iter().any(|t| t == "number" || t == "integer") {
        out.push((json!("ten"), false));
    }
    if let Some(items) = schema.get("items") {
        out.extend(probes(items).into_iter().map(|(value, ok)| (json!([value]), ok)));
    }
    if let (Some(members), Some(Value::Object(base))) = (schema["properties"].as_object(), sample(schema)) {
        for (name, member) in members {
            for (value, ok) in probes(member) {
                let mut object = base.clone();
                object.insert(name.clone(), value);
                out.push((Value::Object(object), ok));
            }
        }
    }
    out
}

/// A create body of each type that the cross-property rules accept with any single property changed
/// within its schema: round corners (so `cornerRadius` applies), both connector ends placed.
fn base(item_type: ItemType) -> Map<String, Value> {
    let body = match item_type {
        ItemType::Label | ItemType::StickyNote => json!({"text": "t", "size": {"width": 0, "height": 0},
            "isAutoSizeWidth": true, "isAutoSizeHeight": true}),
        ItemType::Shape => json!({"size": {"width": 10, "height": 10}, "type": "RoundedRectangle"}),
        ItemType::Connector => {
            json!({"startPoint": {"position": {"x": 0, "y": 0}}, "endPoint": {"position": {"x": 10, "y": 0}}})
        }
        ItemType::Web => json!({"url": "https://example.com/"}),
        ItemType::Image => {
            json!({"size": {"width": 10, "height": 10}, "fileName": "a.png", "mimeType": "image/png", "fileSize": 3})
        }
        ItemType::Document | ItemType::Svg => {
            json!({"fileName": "a.pdf", "mimeType": "application/pdf", "fileSize": 3})
        }
        ItemType::Frame => json!({"title": "Sprint", "size": {"width": 400, "height": 300}}),
    };
    body.as_object().cloned().expect("an object")
}

/// The rules' answer about one body: the stored properties, or the fields and reasons they name.
type Settled = Result<Map<String, Value>, Vec<(String, ViolationReason)>>;

fn settle(result: Result<Map<String, Value>, Invalid>) -> Settled {
    result.map_err(|Invalid(violations)| violations.into_iter().map(|v| (v.field, v.reason)).collect())
}

/// Accepted, or the fields named.
fn outcome(result: Result<Map<String, Value>, Invalid>) -> Result<(), Vec<(String, ViolationReason)>> {
    settle(result).map(|_| ())
}

fn check(
    item_type: ItemType,
    what: &str,
    name: &str,
    value: &Value,
    ok: bool,
    got: Result<(), Vec<(String, ViolationReason)>>,
) {
    match got {
        Ok(()) => assert!(ok, "{item_type} {what}: {name} = {value} is outside the schema but accepted"),
        Err(fields) => {
            let own = fields.iter().any(|(field, _)| field.starts_with(name));
            // Refused for another property only: a cross-property rule (`null` resets a sticky
            // note's auto-size flag to false, which then wants a size), not this property's own.
            assert!(!ok || !own, "{item_type} {what}: {name} = {value} fits the schema but is refused: {fields:?}");
            assert!(ok || own, "{item_type} {what}: {name} = {value} is refused without naming it: {fields:?}");
        }
    }
}

/// One item type as the tests use it.
struct Fixture {
    item_type: ItemType,
    /// Its property table.
    defs: &'static [PropertyDef],
    /// A valid create body ([`base`]).
    base: Map<String, Value>,
    /// That body as stored, for updates.
    stored: Map<String, Value>,
    /// The exported create schema.
    create: Value,
}

fn fixtures() -> impl Iterator<Item = Fixture> {
    ItemType::ALL.into_iter().map(|item_type| {
        let defs = item_type.vocabulary().properties;
        let base = base(item_type);
        let stored = validate_create(item_type, base.clone(), FACTS).unwrap_or_else(|e| panic!("{item_type}: {e}"));
        Fixture { item_type, defs, base, stored, create: create_body(defs, OPENAPI) }
    })
}

/// No uploaded content: the rules of a JSON-created item.
const FACTS: ItemFacts = ItemFacts { has_content: false };

#[test]
fn every_bound_enumeration_and_length_of_the_schemas_is_a_rule() {
    let facts = FACTS;
    for Fixture { item_type, defs, base, stored, create } in fixtures() {
        for (name, schema) in create["properties"].as_object().unwrap() {
            for (value, ok) in probes(schema) {
                let mut body = base.clone();
                body.insert(name.clone(), value.clone());
                check(item_type, "create", name, &value, ok, outcome(validate_create(item_type, body, facts)));
            }
        }
        let patch = patch_body(defs, OPENAPI);
        for (name, schema) in patch["properties"].as_object().unwrap() {
            for (value, ok) in probes(schema) {
                let change = Map::from_iter([(name.clone(), value.clone())]);
                let got = outcome(validate_update(item_type, &stored, change, facts));
                check(item_type, "update", name, &value, ok, got);
            }
        }
    }
}

/// The schemas allow `null` for exactly the optional properties, and `null` means what docs/ITEMS.md
/// says: omitted on create, the default (or removal, without one) on update. Compared with
/// sending that instead, so cross-property rules answer alike.
#[test]
fn null_is_allowed_where_the_schemas_say_and_means_omitted_or_default() {
    let facts = FACTS;
    for Fixture { item_type, defs, base, stored, create } in fixtures() {
        for (name, schema) in create["properties"].as_object().unwrap() {
            let def = defs.iter().find(|d| d.name == name).unwrap();
            assert_eq!(schema["type"].is_array(), !def.required, "{item_type}.{name}: {schema}");
            let mut with_null = base.clone();
            with_null.insert(name.clone(), Value::Null);
            let mut without = base.clone();
            without.remove(name);
            let null = settle(validate_create(item_type, with_null, facts));
            assert_eq!(null, settle(validate_create(item_type, without, facts)), "{item_type} create: {name} = null");
            if def.updatable {
                let change = |value: Value| Map::from_iter([(name.clone(), value)]);
                let null = settle(validate_update(item_type, &stored, change(Value::Null), facts));
                match def.default_value() {
                    _ if def.required => assert!(null.is_err(), "{item_type} update: required {name} = null"),
                    Some(default) => {
                        let expected = settle(validate_update(item_type, &stored, change(default), facts));
                        assert_eq!(null, expected, "{item_type} update: {name} = null");
                    }
                    None => {
                        let null = null.unwrap_or_else(|e| panic!("{item_type} update: {name} = null: {e:?}"));
                        assert!(null.get(name).is_none(), "{item_type} update: {name} = null is removed");
                    }
                }
            }
        }
    }
}

#[test]
fn required_fixed_and_unknown_properties_are_as_the_schemas_say() {
    let facts = FACTS;
    for Fixture { item_type, defs, base, stored, create } in fixtures() {
        for name in create["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
            let mut body = base.clone();
            body.remove(name);
            let refused = outcome(validate_create(item_type, body, facts)).expect_err(name);
            assert!(refused.contains(&(name.to_owned(), ViolationReason::Required)), "{item_type}.{name}: {refused:?}");
        }
        let patch = patch_body(defs, OPENAPI);
        let changeable = patch["properties"].as_object().unwrap();
        for name in create["properties"].as_object().unwrap().keys().filter(|n| !changeable.contains_key(*n)) {
            let change = Map::from_iter([(name.clone(), base.get(name).cloned().unwrap_or(json!("Ellipse")))]);
            let refused = outcome(validate_update(item_type, &stored, change, facts)).expect_err(name);
            assert_eq!(refused, [(name.clone(), ViolationReason::ReadOnlyProperty)], "{item_type}.{name}");
        }
        assert_eq!(create["additionalProperties"], json!(false));
        let mut body = base.clone();
        body.insert("noSuchProperty".into(), json!(1));
        let refused = outcome(validate_create(item_type, body, facts)).expect_err("unknown");
        assert_eq!(refused, [("noSuchProperty".to_owned(), ViolationReason::UnknownProperty)], "{item_type}");
    }
}
