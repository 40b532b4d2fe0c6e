//! The export, read against the spec's tables as a client would: bounds, enumerations, required
//! and fixed properties, `null`, and the union tools use for properties of several types.

use serde_json::{json, Value};

use super::*;
use crate::items::{item_type, CONNECTOR, LABEL, SHAPE, STICKY_NOTE};

fn member<'a>(schema: &'a Value, name: &str) -> &'a Value {
    &schema["properties"][name]
}

fn names(schema: &Value, key: &str) -> Vec<String> {
    let list = if key == "properties" {
        schema[key].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default()
    } else {
        schema[key].as_array().map(|l| l.iter().map(|v| v.as_str().unwrap().to_owned()).collect()).unwrap_or_default()
    };
    let mut list: Vec<String> = list;
    list.sort();
    list
}

#[test]
fn label_bodies_carry_the_spec_bounds_and_defaults() {
    let create = create_body(LABEL, MCP);
    assert_eq!(member(&create, "fontSize")["minimum"], json!(1));
    assert_eq!(member(&create, "fontSize")["default"], json!(14));
    assert_eq!(member(&create, "scale")["exclusiveMinimum"], json!(0));
    assert_eq!(
        (member(&create, "angle")["minimum"].clone(), member(&create, "angle")["maximum"].clone()),
        (json!(0), json!(360))
    );
    assert_eq!(member(&create, "horizontalTextAlignment")["enum"], json!(["Left", "Center", "Right"]));
    assert_eq!(names(&create, "required"), ["text"]);
    assert_eq!(create["additionalProperties"], json!(false));
    assert_eq!(member(&create, "size")["properties"]["width"]["minimum"], json!(0), "auto-size allows 0");
    assert!(member(&create, "size").get("required").is_none(), "an auto-sized dimension may be omitted");
    // Sticky notes: the same properties, their own defaults.
    let note = create_body(STICKY_NOTE, MCP);
    assert_eq!(names(&note, "properties"), names(&create, "properties"));
    assert_eq!(member(&note, "fontSize")["default"], json!(15));
    assert_eq!(member(&note, "size")["default"], json!({"width": 212, "height": 106}));
}

#[test]
fn shape_bodies_fix_the_type_and_bound_the_stroke() {
    let create = create_body(SHAPE, MCP);
    assert_eq!(names(&create, "required"), ["size"]);
    assert_eq!(member(&create, "size")["properties"]["height"]["minimum"], json!(5));
    assert_eq!(names(member(&create, "size"), "required"), ["height", "width"]);
    assert_eq!(member(&create, "strokeThickness")["minimum"], json!(0));
    assert_eq!(member(&create, "type")["enum"].as_array().unwrap().len(), crate::SHAPE_TYPES.len());
    assert!(member(&create, "fillColor")["pattern"].as_str().unwrap().starts_with("^#"));
    let patch = patch_body(SHAPE, MCP);
    assert!(patch["properties"].get("type").is_none(), "type cannot change");
    assert!(patch.get("required").is_none());
    assert!(member(&patch, "strokeThickness").get("default").is_none(), "an update fills no default");
}

#[test]
fn connector_bodies_leave_out_the_derived_geometry_and_reads_include_it() {
    let create = create_body(CONNECTOR, OPENAPI);
    assert_eq!(
        names(&create, "properties"),
        ["cornerPoints", "endPoint", "radius", "startPoint", "strokeColor", "strokeThickness", "tags", "type"]
    );
    assert_eq!(names(&create, "required"), ["endPoint", "startPoint"]);
    let end = member(&create, "startPoint");
    assert_eq!(end["additionalProperties"], json!(false));
    assert_eq!(names(end, "properties"), ["decorator", "edge", "itemId", "position"]);
    assert_eq!(end["properties"]["decorator"]["enum"], json!(["None", "Arrow", "ArrowLine", "Circle", null]));
    assert_eq!(end["properties"]["decorator"]["default"], json!("ArrowLine"));
    let read = read_body(CONNECTOR);
    for derived in ["position", "size", "scale", "angle"] {
        assert!(names(&read, "required").contains(&derived.to_owned()), "{derived}");
    }
    let end = member(&read, "endPoint");
    assert_eq!(member(end, "absolutePosition")["required"], json!(["x", "y"]));
    assert_eq!(member(end, "itemId")["type"], json!(["string", "null"]));
}

/// A `null` value or the type name "null" anywhere in `schema`.
fn mentions_null(schema: &Value) -> bool {
    match schema {
        Value::Null => true,
        Value::String(text) => text == "null",
        Value::Array(items) => items.iter().any(mentions_null),
        Value::Object(map) => map.values().any(mentions_null),
        _ => false,
    }
}

#[test]
fn openapi_allows_null_for_optional_properties_and_mcp_never_mentions_it() {
    let openapi = create_body(LABEL, OPENAPI);
    assert_eq!(member(&openapi, "fontSize")["type"], json!(["number", "null"]));
    assert_eq!(member(&openapi, "text")["type"], json!("string"), "required: never null");
    for item_type in ITEM_TYPES {
        for schema in [create_body(item_type.properties, MCP), patch_body(item_type.properties, MCP)] {
            assert!(!mentions_null(&schema), "{}: {schema}", item_type.name);
        }
    }
}

#[test]
fn reads_may_lack_only_properties_without_default() {
    let read = read_body(item_type("document").unwrap().properties);
    assert_eq!(member(&read, "fileName")["type"], json!(["string", "null"]));
    assert!(!names(&read, "required").contains(&"fileName".to_owned()));
    assert!(names(&read, "required").contains(&"size".to_owned()));
    let shape = read_body(SHAPE);
    assert_eq!(member(&shape, "cornerRadius")["type"], json!(["number", "null"]));
    assert!(member(&shape, "strokeThickness").get("minimum").is_none(), "reads carry types, not bounds");
}

#[test]
fn a_property_of_several_types_accepts_what_each_accepts() {
    // Shapes take hex colours only, connectors any CSS colour: the union is any string.
    let stroke = across_types("strokeColor", MCP).unwrap();
    assert_eq!(stroke["type"], json!("string"));
    assert!(stroke.get("pattern").is_none(), "{stroke}");
    assert_eq!(across_types("strokeThickness", MCP).unwrap()["minimum"], json!(0));
    assert_eq!(across_types("fontSize", MCP).unwrap()["minimum"], json!(1));
    // Labels may send 0 for an auto-sized dimension; other types need 5.
    let size = across_types("size", MCP).unwrap();
    assert_eq!(size["properties"]["width"]["minimum"], json!(0));
    assert!(size.get("required").is_none(), "{size}");
    assert!(
        across_types("type", MCP).is_some_and(|t| t["enum"] == json!(["Straight", "Angled", "Curved"])),
        "a shape's type is fixed"
    );
    assert!(across_types("noSuchProperty", MCP).is_none());
}

#[test]
fn union_keeps_the_looser_bound_and_drops_one_sided_keywords() {
    let a = json!({"type": "number", "minimum": 1, "maximum": 10});
    let b = json!({"type": "number", "minimum": 0});
    assert_eq!(union(&a, &b), json!({"type": "number", "minimum": 0}));
    assert_eq!(union(&json!({"type": "string"}), &json!({"type": "number"}))["anyOf"].as_array().unwrap().len(), 2);
}

#[test]
fn descriptions_state_each_rule() {
    let font_size = LABEL.iter().find(|d| d.name == "fontSize").unwrap();
    assert_eq!(describe(font_size), "fontSize (number >= 1; default 14)");
    let shape_type = SHAPE.iter().find(|d| d.name == "type").unwrap();
    assert!(describe(shape_type).ends_with("default \"Rectangle\"; fixed after creation)"), "{}", describe(shape_type));
}
