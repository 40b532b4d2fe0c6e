//! Bodies of the bulk create, diagrams and arrangements (beyond the spec). The request types are
//! also what `crate::routes::bulk` deserialises the bodies with ([`super::parse`]), so the schema
//! is the parser. Limits and the `ref` rule come from `canvas_vocabulary::limits`, the values core-service
//! enforces (the gateway does not check them).

use canvas_vocabulary::items::ITEM_TYPES;
use canvas_vocabulary::limits::arrange::{MAX_ITEMS as MAX_ARRANGED, STYLES};
use canvas_vocabulary::limits::bulk::{ref_rule, MAX_ITEMS, MAX_REF_CHARS};
use canvas_vocabulary::limits::diagrams::FORMATS;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::openapi::schema::{ArrayBuilder, Object, ObjectBuilder, Type};
use utoipa::ToSchema;

/// `POST .../items/bulk`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a bulk create {\"items\": [...]}")]
pub struct BulkRequest {
    /// The items, created in this order, all or none.
    #[schema(schema_with = bulk_items)]
    pub items: Vec<BulkItem>,
}

/// One item of a bulk create.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a bulk item {ref, type, parent, properties}")]
pub struct BulkItem {
    /// The item's name within the batch.
    #[serde(rename = "ref", default)]
    #[schema(schema_with = reference)]
    pub reference: Option<String>,
    /// label, sticky-note, shape, connector or web (image, document and svg items are created by
    /// upload; an image may also be created without bytes, as by its single create).
    #[serde(rename = "type")]
    #[schema(schema_with = bulk_item_type)]
    pub item_type: String,
    /// `panel` (default), `inbox`, an item id, or `ref:<ref>` of an item of the batch.
    #[serde(default)]
    #[schema(default = "panel")]
    pub parent: Option<String>,
    /// Exactly the properties the single create of the type takes; a connector end's `itemId`
    /// may be `ref:<ref>`. core-service checks them.
    #[serde(default)]
    pub properties: Option<Map<String, Value>>,
}

fn bulk_items() -> utoipa::openapi::schema::Array {
    ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name("BulkItem"))
        .min_items(Some(1))
        .max_items(Some(MAX_ITEMS))
        .description(Some(format!("1 to {MAX_ITEMS} items, created in this order, all or none.")))
        .build()
}

fn reference() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_REF_CHARS))
        .pattern(Some("^[A-Za-z0-9_.:-]+$"))
        .description(Some(format!("Optional: {}.", ref_rule())))
        .build()
}

/// The answer of a bulk create.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct BulkResponse {
    /// One entry per requested item, in request order.
    pub items: Vec<BulkCreated>,
}

/// One created item.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct BulkCreated {
    /// The request's `ref` for the item (null when it gave none).
    pub r#ref: Option<String>,
    /// The new item's id.
    #[schema(format = "uuid")]
    pub item_id: String,
}

/// `POST .../diagrams`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a diagram {format, source, position, frame}")]
pub struct DiagramRequest {
    /// `mermaid` (the default).
    #[serde(default)]
    #[schema(schema_with = diagram_format)]
    pub format: Option<String>,
    /// The diagram's Mermaid text; its first word names the kind (the operation lists them).
    pub source: String,
    /// Top-left corner of the diagram on the map; absent: right of everything on the map, or
    /// inside the frame.
    #[serde(default)]
    pub position: Option<DiagramPosition>,
    /// Draws the diagram inside this frame (its id; beyond the spec): its outer items become the
    /// frame's, and the frame grows to hold it.
    #[serde(default)]
    #[schema(format = "uuid")]
    pub frame: Option<String>,
}

/// A point of the map.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a point {x, y}")]
pub struct DiagramPosition {
    pub x: f64,
    pub y: f64,
}

fn diagram_format() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(FORMATS.to_vec()))
        .default(Some(FORMATS[0].into()))
        .description(Some("The diagram language."))
        .build()
}

/// The answer of a diagram create.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DiagramResponse {
    /// Every item created (shapes, labels, connectors, containers), in creation order.
    #[schema(schema_with = created_ids)]
    pub item_ids: Vec<String>,
    /// Mermaid node or participant id → the id of its shape (the ids keep their spelling
    /// whatever `jsonCasing` says).
    pub nodes: std::collections::BTreeMap<String, String>,
    /// The diagram's record: read it, update it in place or delete it at `.../diagrams/{diagramId}`.
    #[schema(format = "uuid")]
    pub diagram_id: String,
}

/// `POST .../items/arrange`.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "an arrangement {itemIds, style, position}")]
pub struct ArrangeRequest {
    /// The items to move; connectors among them are skipped (they follow their ends).
    #[schema(schema_with = arranged_ids)]
    pub item_ids: Vec<String>,
    /// How to lay them out.
    #[schema(schema_with = arrange_style)]
    pub style: String,
    /// Top-left corner of the arrangement; absent: where the items' box is now.
    #[serde(default)]
    pub position: Option<DiagramPosition>,
}

fn uuid() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(utoipa::openapi::SchemaFormat::Custom("uuid".into())))
        .build()
}

fn created_ids() -> utoipa::openapi::schema::Array {
    let description = "Every item created (shapes, labels, connectors, containers), in creation order.";
    ArrayBuilder::new().items(uuid()).description(Some(description)).build()
}

/// The item types a bulk create makes: those with a JSON create (`canvas_vocabulary`'s table).
fn bulk_item_type() -> Object {
    let types = ITEM_TYPES.iter().filter(|t| t.creation.from_json()).map(|t| t.name);
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(types))
        .description(Some(
            "The item's type. Document and SVG items are created by upload only; an image may be created \
             without bytes, as by its single create.",
        ))
        .build()
}

fn arranged_ids() -> utoipa::openapi::schema::Array {
    ArrayBuilder::new()
        .items(uuid())
        .description(Some("The items to move; connectors among them are skipped (they follow their ends)."))
        .min_items(Some(1))
        .max_items(Some(MAX_ARRANGED))
        .build()
}

fn arrange_style() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(STYLES.to_vec()))
        .description(Some(
            "`grid` in the order given; `layered` along the connectors between the items; `tree` from the items \
             no connector points to.",
        ))
        .build()
}

/// The answer of an arrangement.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ArrangeResponse {
    /// Each moved item, in the order given.
    pub items: Vec<ArrangedItem>,
}

/// A moved item and its new version.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ArrangedItem {
    #[schema(format = "uuid")]
    pub item_id: String,
    pub version: i64,
}
