//! The item schemas of the document, generated from core-service's property table
//! (`canvas_vocabulary::items`, exported as JSON Schema by `canvas_vocabulary::json_schema`):
//! per item type its create body, its PATCH body and the item as reads answer it, so names,
//! types, required properties, enumerations, defaults and bounds are the table's and cannot
//! drift. Requests use the canonical camelCase names (any casing is accepted); reads are shown in
//! the default PascalCase, re-cased by [`Casing`], the one place that knows casings.

use canvas_vocabulary::items::{ItemTypeDef, INBOX, ITEM_TYPES, PANEL};
use canvas_vocabulary::json_schema::{self, OPENAPI};

use serde_json::{json, Map, Value};
use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, OneOfBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::{Components, Ref, RefOr};
use utoipa::PartialSchema;

use crate::bodies::items::{WrappedChanges, WRAPPED_CHANGES, WRAPPED_UPDATE};
use crate::casing::Casing;

/// The name of a type's create body; None for types created by upload only.
pub fn create_name(item_type: &ItemTypeDef) -> Option<String> {
    item_type.creation.from_json().then(|| format!("{}Create", operation_name(item_type.name)))
}

/// The name of a type's PATCH body.
pub fn patch_name(item_type: &ItemTypeDef) -> String {
    format!("{}Patch", operation_name(item_type.name))
}

/// Adds every item schema to `components`.
pub fn add(components: &mut Components) {
    let mut views = OneOfBuilder::new().description(Some("An item of any type, told apart by `ItemType`."));
    for item_type in &ITEM_TYPES {
        let order: Vec<&str> = item_type.properties.iter().map(|def| def.name).collect();
        if let Some(name) = create_name(item_type) {
            let body = json_schema::create_body(item_type.properties, OPENAPI);
            components.schemas.insert(name, ordered(body, &order).into());
        }
        let mut patch = json_schema::patch_body(item_type.properties, OPENAPI);
        let mut patch_order = order.clone();
        if item_type.name != WRAPPED_UPDATE {
            // A connector's goes beside its wrapped properties (`WrappedChanges`).
            patch["properties"]["parent"] = parent_move();
            patch_order.push("parent");
        }
        let patch = ordered(patch, &patch_order);
        if item_type.name == WRAPPED_UPDATE {
            components.schemas.insert(WRAPPED_CHANGES.into(), patch.into());
            components.schemas.insert(patch_name(item_type), WrappedChanges::schema());
        } else {
            components.schemas.insert(patch_name(item_type), patch.into());
        }
        let view = format!("{}Item", operation_name(item_type.name));
        components.schemas.insert(view.clone(), read_view(item_type).into());
        views = views.item(Ref::from_schema_name(view));
    }
    components.schemas.insert("Item".into(), Schema::OneOf(views.build()).into());
    for (name, schema) in framing() {
        components.schemas.insert(name.into(), schema.into());
    }
}

/// The `parent` of an update: moving the item into or out of a container (beyond the spec).
pub fn parent_move() -> serde_json::Value {
    json!({"type": "string", "description": "Moves the item (beyond the spec): `panel`, `inbox`, or the id of a \
        frame, shape or connector that may hold it (canvas_vocabulary::items::containers). Omitted: where it is."})
}

/// The item as `GET .../item/{itemId}` and the listing answer it (`routes::items::item_json`):
/// its identity, every property of its type (defaults filled, derived ones included) and its times.
fn read_view(item_type: &ItemTypeDef) -> Schema {
    let mut read = json_schema::read_body(item_type.properties);
    let identity = [
        ("itemId", json!({"type": "string", "format": "uuid"})),
        ("itemType", json!({"type": "string", "enum": [item_type.name]})),
        ("projectId", json!({"type": "string", "format": "uuid"})),
        ("parent", json!({"type": "string", "description": "`panel`, `inbox` or a container item's id"})),
    ];
    let times = [
        ("createdAt", json!({"type": "string", "format": "date-time"})),
        ("updatedAt", json!({"type": "string", "format": "date-time"})),
    ];
    let mut order: Vec<&str> = identity.iter().map(|(name, _)| *name).collect();
    order.extend(item_type.properties.iter().map(|def| def.name));
    order.extend(times.iter().map(|(name, _)| *name));
    for (name, schema) in identity.into_iter().chain(times) {
        read["properties"][name] = schema;
        read["required"].as_array_mut().expect("reads have required properties").push(json!(name));
    }
    read["description"] = json!(format!("A {} item, as read (default PascalCase).", item_type.name));
    let order: Vec<String> = order.iter().map(|name| Casing::Pascal.rename(name)).collect();
    let order: Vec<&str> = order.iter().map(String::as_str).collect();
    ordered(pascal(read), &order)
}

/// The answers around items: the listing page, the id a write answers, a single property's value,
/// the upload form, and the parent a create names.
fn framing() -> [(&'static str, Schema); 5] {
    let page = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("`GET .../items`: a page in creation order."))
        .property("Items", utoipa::openapi::schema::ArrayBuilder::new().items(Ref::from_schema_name("Item")))
        .property(
            "NextCursor",
            ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
                .description(Some("The cursor of the next page; null on the last one.")),
        )
        .required("Items")
        .required("NextCursor");
    let item_ref = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some("The answer of create, update and delete."))
        .property("ItemId", uuid())
        .required("ItemId");
    // Any JSON value: no `type`, which generators read as "unknown" (a `type: object` without
    // properties would be typed as an empty object, and a scalar answer would not fit it).
    let value = ObjectBuilder::new().schema_type(utoipa::openapi::schema::SchemaType::AnyValue).description(Some(
        "A single property's bare value: any JSON (string, number, boolean, array, object or null; object \
         member names follow `jsonCasing`).",
    ));
    let upload = ObjectBuilder::new()
        .schema_type(Type::Object)
        .description(Some(
            "`multipart/form-data` of an upload. The file name comes from the `binary` part, the MIME type is \
             sniffed from the bytes, `fileSize` is the byte count (over 25 MiB: 413).",
        ))
        .property(
            "dataobject",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .description(Some("Optional JSON object (as text) with further item properties.")),
        )
        .property(
            "binary",
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Binary)))
                .description(Some("The file.")),
        )
        .required("binary");
    [
        ("ItemPage", page.build().into()),
        ("ItemRef", item_ref.build().into()),
        ("PropertyValue", value.build().into()),
        ("FileUpload", upload.build().into()),
        (PARENT, parent_schema()),
    ]
}

fn uuid() -> Object {
    ObjectBuilder::new().schema_type(Type::String).format(Some(SchemaFormat::Custom("uuid".into()))).build()
}

/// A JSON Schema object as a utoipa schema, with its top-level properties in `order` (the table's,
/// the spec's order; nested members follow JSON's order).
fn ordered(mut schema: Value, order: &[&str]) -> Schema {
    let mut properties = match schema.as_object_mut().and_then(|object| object.remove("properties")) {
        Some(Value::Object(properties)) => properties,
        _ => Map::new(),
    };
    let mut object: Object = serde_json::from_value(schema).expect("generated schemas are OpenAPI schemas");
    for name in order {
        if let Some(property) = properties.remove(*name) {
            object.properties.insert((*name).to_owned(), from_json(property));
        }
    }
    assert!(properties.is_empty(), "properties left out of the order: {:?}", properties.keys());
    Schema::Object(object)
}

fn from_json(schema: Value) -> RefOr<Schema> {
    serde_json::from_value(schema).expect("generated schemas are OpenAPI schemas")
}

/// The schema of a read with the names as the default casing writes them: object members and
/// `required` entries at every depth.
fn pascal(schema: Value) -> Value {
    match schema {
        Value::Object(object) => Value::Object(
            object
                .into_iter()
                .map(|(key, value)| {
                    let value = match key.as_str() {
                        "properties" => Value::Object(
                            value
                                .as_object()
                                .into_iter()
                                .flatten()
                                .map(|(name, member)| (Casing::Pascal.rename(name), pascal(member.clone())))
                                .collect(),
                        ),
                        "required" => json!(value
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(Value::as_str)
                            .map(|name| Casing::Pascal.rename(name))
                            .collect::<Vec<_>>()),
                        _ => pascal(value),
                    };
                    (key, value)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(pascal).collect()),
        other => other,
    }
}

/// The name of the schema of a parent: one type for clients, not one per create operation.
pub const PARENT: &str = "Parent";

/// `panel`, `inbox` or a container item's id.
pub fn parent_schema() -> utoipa::openapi::Schema {
    let words = crate::bodies::common::one_of(&[PANEL, INBOX]);
    let item = ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::Custom("uuid".into())))
        .description(Some("a container item of the same project"))
        .build();
    // `anyOf`, not `oneOf`: the two alternatives are told apart by their form, not by a rule that
    // only one of them may match (linters warn about a `oneOf` they cannot prove exclusive).
    let schema = utoipa::openapi::schema::AnyOfBuilder::new()
        .item(words)
        .item(item)
        .description(Some("`panel` (the canvas), `inbox`, or the id of a container item of the same project"))
        .build();
    utoipa::openapi::Schema::AnyOf(schema)
}

/// `sticky-note` → `StickyNote`.
pub fn operation_name(item_type: &str) -> String {
    item_type
        .split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every generated schema survives the trip into utoipa's types unchanged: nothing the table
    /// says is lost on the way into the document.
    #[test]
    fn generated_schemas_reach_the_document_unchanged() {
        for item_type in &ITEM_TYPES {
            let order: Vec<&str> = item_type.properties.iter().map(|def| def.name).collect();
            for body in [
                json_schema::create_body(item_type.properties, OPENAPI),
                json_schema::patch_body(item_type.properties, OPENAPI),
            ] {
                let written = serde_json::to_value(ordered(body.clone(), &order)).unwrap();
                assert_eq!(written, body, "{}", item_type.name);
            }
        }
    }

    #[test]
    fn reads_are_pascal_case_at_every_depth() {
        let connector = ITEM_TYPES.iter().find(|t| t.name == "connector").unwrap();
        let view = serde_json::to_value(read_view(connector)).unwrap();
        let end = &view["properties"]["StartPoint"];
        assert!(end["properties"]["AbsolutePosition"]["properties"]["X"].is_object(), "{end}");
        assert!(view["required"].as_array().unwrap().contains(&json!("ItemType")));
        assert_eq!(view["properties"]["ItemType"]["enum"], json!(["connector"]));
    }
}
