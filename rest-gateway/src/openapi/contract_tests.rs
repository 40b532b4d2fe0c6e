//! Each pass on a small document shaped like the real one, and the served document's shape.

use serde_json::{json, Value};

use super::*;

/// A document with one create operation whose body references `LabelCreate`.
fn small() -> Value {
    json!({
        "paths": {"/x": {"post": {
            "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/LabelCreate"}}}},
            "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Label"}}}}}
        }}},
        "components": {"schemas": {
            "LabelCreate": {"type": "object", "required": ["text"], "properties": {
                "text": {"type": "string"},
                "position": {"type": ["object", "null"], "properties": {"x": {"type": "number"}},
                    "default": {"x": 0}},
                "end": {"$ref": "#/components/schemas/End"},
                "at": {"$ref": "#/components/schemas/Point"},
                "line": {"type": ["string", "null"], "enum": ["Straight", "Angled", "Curved", null],
                    "default": "Straight", "description": "the line"}
            }},
            "End": {"type": "object", "properties": {"edge": {"type": ["boolean", "null"], "default": true}}},
            "Point": {"type": "object", "required": ["x"], "properties": {"x": {"type": "number"}}},
            "Label": {"type": "object", "required": ["line"], "properties": {
                "line": {"type": "string", "enum": ["Straight", "Angled", "Curved"]},
                "patchLine": {"type": ["string", "null"], "enum": ["Straight", "Angled", "Curved", null]}
            }}
        }}
    })
}

#[test]
fn schemas_with_defaults_are_written_into_the_request_body() {
    let mut doc = small();
    apply(&mut doc);
    let body = &doc["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(body["required"], json!(["text"]), "{body}");
    assert_eq!(body["properties"]["end"]["properties"]["edge"]["type"], "boolean", "inlined, null dropped: {body}");
    assert_eq!(body["properties"]["at"]["$ref"], "#/components/schemas/Point", "no default: still shared");
    let schemas = doc["components"]["schemas"].as_object().unwrap();
    assert!(!schemas.contains_key("LabelCreate") && !schemas.contains_key("End"), "only requests used them");
    assert!(schemas.contains_key("Point") && schemas.contains_key("Label"));
}

#[test]
fn an_object_default_never_sits_on_a_nullable_type() {
    let mut doc = small();
    apply(&mut doc);
    let position =
        &doc["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"]["schema"]["properties"]["position"];
    assert_eq!(position["type"], "object", "{position}");
    assert_eq!(position["default"], json!({"x": 0}));
}

#[test]
fn a_word_list_is_one_named_schema_referenced_where_used() {
    let mut doc = small();
    apply(&mut doc);
    assert_eq!(doc["components"]["schemas"]["LineType"], json!({"type": "string", "enum": LINE_TYPES}));
    let body = &doc["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"]["schema"];
    assert_eq!(
        body["properties"]["line"],
        json!({"$ref": "#/components/schemas/LineType", "default": "Straight", "description": "the line"}),
        "a default: not nullable, and the use keeps its default and description"
    );
    let read = &doc["components"]["schemas"]["Label"]["properties"];
    assert_eq!(read["line"], json!({"$ref": "#/components/schemas/LineType"}));
    assert_eq!(read["patchLine"], json!({"anyOf": [{"$ref": "#/components/schemas/LineType"}, {"type": "null"}]}));
}

#[test]
fn the_served_document_states_each_word_list_once() {
    let doc: Value = serde_json::from_str(&super::super::to_json(&super::super::document())).unwrap();
    let mut lists = Vec::new();
    collect_enums(&doc, &mut lists);
    for list in &lists {
        let count = lists.iter().filter(|other| *other == list).count();
        assert!(list.len() < 2 || count == 1, "{list:?} is written {count} times: name it in named_enums");
        assert!(!list.contains(&Value::Null), "null belongs beside a named enum, not in it: {list:?}");
    }
}

fn collect_enums(value: &Value, found: &mut Vec<Vec<Value>>) {
    match value {
        Value::Object(object) => {
            if let Some(Value::Array(words)) = object.get("enum") {
                found.push(words.clone());
            }
            object.values().for_each(|member| collect_enums(member, found));
        }
        Value::Array(items) => items.iter().for_each(|item| collect_enums(item, found)),
        _ => {}
    }
}

#[test]
fn the_diagram_operation_names_every_mermaid_kind() {
    let doc = super::super::document();
    let item = doc.paths.paths.get("/api/v2/projects/{projectId}/diagrams").expect("the diagrams path");
    // The operation's documentation, not a message a gateway decides by.
    let documented = item.post.as_ref().and_then(|o| o.description.as_deref()).unwrap_or_default();
    for kind in canvas_vocabulary::limits::diagrams::KINDS {
        assert!(documented.contains(kind), "{kind} is missing from: {documented}");
    }
}
