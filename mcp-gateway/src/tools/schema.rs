//! JSON Schemas of tool arguments and results, generated from their Rust
//! types.
//!
//! Adjustments to what schemars produces, all for the models that read
//! these schemas:
//! - subschemas are inlined: some clients and model vendors do not follow
//!   `$ref`;
//! - schemas never mention `null`: an optional argument or result field is
//!   simply not required. schemars writes `Option<T>` as `type: [T, "null"]`,
//!   which some model vendors reject. Result types therefore skip `None`
//!   fields when serialising, so results never hold a `null` their schema
//!   would not allow.
//! - only the formats JSON Schema 2020-12 defines ([`STANDARD_FORMATS`]): schemars marks integers
//!   `format: uint32`, `int64` and the like, which strict validators (the official TypeScript MCP
//!   SDK's among them) warn about on every `tools/list`; the range they mean is already stated by
//!   `minimum`/`maximum` where it is a rule;
//! - descriptions are single paragraphs: doc comments wrap lines for Rust
//!   readers, not for models; `writeOnly` (from fields a patch skips) means
//!   nothing to a tool caller and is dropped.

use std::sync::Arc;

use canvas_vocabulary::limits::PageSize;
use rmcp::model::JsonObject;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

/// The `inputSchema` of a tool taking `T`.
pub fn input<T: JsonSchema>() -> Arc<JsonObject> {
    let mut schema = generate::<T>(SchemaSettings::draft2020_12());
    tidy(&mut schema);
    into_object(schema)
}

/// The `outputSchema` of a tool answering `T`: what serialising `T` writes.
pub fn output<T: JsonSchema>() -> Arc<JsonObject> {
    let mut schema = generate::<T>(SchemaSettings::draft2020_12().for_serialize());
    tidy(&mut schema);
    into_object(schema)
}

/// The schema of an argument that takes any JSON value but `null`, spelled
/// as single-type branches (portable to clients that map schemas onto
/// single-`type` dialects).
pub fn any_value(_generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "anyOf": [
            {"type": "string"},
            {"type": "number"},
            {"type": "boolean"},
            {"type": "object"},
            {"type": "array"}
        ]
    })
}

/// Deserialises an integer argument from any JSON number that is a whole number: models and
/// SDKs send `20.0` for 20 (JSON has one number type; Python's `json.dumps(20.0)`), and refusing
/// it with -32602 only teaches the agent nothing. A fraction is still refused, naming the argument.
pub fn whole<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i128>,
{
    use serde::de::Error;
    let number = serde_json::Number::deserialize(deserializer)?;
    let whole = canvas_proto::json::whole_number(&number)
        .ok_or_else(|| D::Error::custom(format!("invalid value: {number}, expected a whole number")))?;
    T::try_from(whole).map_err(|_| D::Error::custom(format!("invalid value: {number} is out of range")))
}

/// Deserialises a count argument (a page size, a number of results) as the client sent it: a
/// whole number >= 0 in any JSON spelling, saturated at `u32::MAX`. Its default, minimum and
/// ceiling are core-service's, so nothing else is checked here.
pub fn count_opt<'de, D>(deserializer: D) -> Result<Option<u32>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    let number = serde_json::Number::deserialize(deserializer)?;
    canvas_proto::json::count(&number)
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("invalid value: {number}, expected a whole number >= 0")))
}

/// The schema of a page-size argument, from core-service's limits.
pub fn page(page: PageSize) -> Value {
    serde_json::json!({
        "type": "integer",
        "minimum": PageSize::MIN,
        "default": page.default,
        "description": page.rule(),
    })
}

/// `input` with the schemas of the arguments that carry item properties taken from core-service's
/// property table (`canvas_vocabulary::json_schema`): types, enumerations and bounds are the
/// table's; each argument keeps its own description, followed by the table's words.
pub fn with_properties(input: Arc<JsonObject>, arguments: Vec<(&str, Value)>) -> Arc<JsonObject> {
    let mut input = Arc::unwrap_or_clone(input);
    for (name, table) in arguments {
        let Some(Value::Object(argument)) = input.get_mut("properties").and_then(|p| p.get_mut(name)) else {
            panic!("the tool has no argument {name}");
        };
        let own = argument.remove("description").and_then(|d| d.as_str().map(str::to_owned));
        let Value::Object(mut schema) = table else { panic!("{name}: a property schema is an object") };
        let rule = schema.remove("description").and_then(|d| d.as_str().map(str::to_owned));
        let description = match (own, rule) {
            (Some(own), Some(rule)) => Some(format!("{} {}.", own.trim_end(), sentence_case(&rule))),
            (own, rule) => own.or(rule),
        };
        if let Some(description) = description {
            schema.insert("description".into(), Value::String(description));
        }
        *argument = schema;
    }
    Arc::new(input)
}

/// `text` with its first letter in upper case.
fn sentence_case(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// [`whole`] for an optional argument.
pub fn whole_opt<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: TryFrom<i128>,
{
    whole(deserializer).map(Some)
}

fn generate<T: JsonSchema>(mut settings: SchemaSettings) -> Value {
    settings.inline_subschemas = true;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    serde_json::to_value(schema).unwrap_or(Value::Null)
}

/// The root as an object without the Rust type's name and doc comment,
/// which mean nothing to a client.
fn into_object(schema: Value) -> Arc<JsonObject> {
    let mut object = match schema {
        Value::Object(object) => object,
        // A derived schema of a struct is always an object; an empty object
        // schema is the safe fallback.
        _ => JsonObject::new(),
    };
    object.remove("title");
    object.remove("description");
    object.entry("type").or_insert_with(|| Value::from("object"));
    Arc::new(object)
}

/// The `format` values JSON Schema 2020-12 defines (Validation, section 7.3); any other is
/// dropped by [`tidy`].
pub const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// At every depth: removes `null` from `type` lists and `enum`s, drops `{"type": "null"}` branches
/// of `anyOf`/`oneOf`, `writeOnly`, formats JSON Schema does not define and a `null` `default`
/// (what an omitted optional argument becomes says nothing), and unwraps the lines of
/// descriptions.
pub fn tidy(value: &mut Value) {
    match value {
        Value::Object(object) => {
            object.remove("writeOnly");
            if object.get("format").and_then(Value::as_str).is_some_and(|f| !STANDARD_FORMATS.contains(&f)) {
                object.remove("format");
            }
            if object.get("default").is_some_and(Value::is_null) {
                object.remove("default");
            }
            if let Some(Value::String(description)) = object.get_mut("description") {
                *description = unwrap_lines(description);
            }
            if let Some(Value::Array(types)) = object.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    object.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(values)) = object.get_mut("enum") {
                values.retain(|v| !v.is_null());
            }
            for key in ["anyOf", "oneOf"] {
                let Some(Value::Array(branches)) = object.get_mut(key) else { continue };
                branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
                if branches.len() == 1 {
                    let only = branches.remove(0);
                    object.remove(key);
                    if let Value::Object(inner) = only {
                        for (k, v) in inner {
                            object.entry(k).or_insert(v);
                        }
                    }
                }
            }
            object.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// Joins wrapped lines with spaces; blank lines still separate paragraphs.
fn unwrap_lines(text: &str) -> String {
    text.split("\n\n")
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tidies_every_level() {
        let mut schema = json!({
            "type": "object",
            "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"anyOf": [{"type": "object", "properties": {"x": {"type": "number"}}}, {"type": "null"}]},
                "c": {"enum": ["x", null]},
                "d": {"type": "string", "writeOnly": true, "description": "one\ntwo\n\nthree"},
                "e": {"type": "integer", "format": "uint32", "minimum": 0},
                "f": {"type": "string", "format": "uuid"}
            }
        });
        tidy(&mut schema);
        assert_eq!(schema["properties"]["a"], json!({"type": "string"}));
        assert_eq!(schema["properties"]["b"]["type"], json!("object"));
        assert!(schema["properties"]["b"].get("anyOf").is_none());
        assert_eq!(schema["properties"]["c"]["enum"], json!(["x"]));
        assert_eq!(schema["properties"]["d"], json!({"type": "string", "description": "one two\n\nthree"}));
        assert_eq!(schema["properties"]["e"], json!({"type": "integer", "minimum": 0}));
        assert_eq!(schema["properties"]["f"], json!({"type": "string", "format": "uuid"}));
    }
}
