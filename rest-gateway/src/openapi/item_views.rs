//! The item as GET and the listing answer it, in the default PascalCase: its identity, every
//! property of its type with its default filled in, and its times (RFC 3339, UTC).

#![allow(dead_code)]

use serde::Serialize;
use serde_json::Value;
use utoipa::openapi::Object;
use utoipa::ToSchema;

use super::schemas::one_of;

fn text_types() -> Object {
    one_of(&["label", "sticky-note"])
}
fn shape_kind() -> Object {
    one_of(&["shape"])
}
fn connector_kind() -> Object {
    one_of(&["connector"])
}
fn web_kind() -> Object {
    one_of(&["web"])
}
fn image_kind() -> Object {
    one_of(&["image"])
}
fn file_kinds() -> Object {
    one_of(&["document", "svg"])
}

/// The answer of create, update and delete.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ItemRef {
    #[schema(format = "uuid")]
    pub item_id: String,
}

/// A position on the map.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MapPoint {
    pub x: f64,
    pub y: f64,
}

/// A size on the map (0 for a label's auto-sized dimension).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct MapSize {
    pub width: f64,
    pub height: f64,
}

/// Identity, geometry and times, common to every item.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ItemCommon {
    #[schema(format = "uuid")]
    pub item_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    /// `panel`, `inbox` or a container item's id.
    pub parent: String,
    /// The item's centre.
    pub position: MapPoint,
    pub size: MapSize,
    pub scale: f64,
    /// Degrees clockwise about the centre.
    pub angle: f64,
    #[schema(format = DateTime)]
    pub created_at: String,
    #[schema(format = DateTime)]
    pub updated_at: String,
}

/// A label or sticky note.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct LabelItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = text_types)]
    pub item_type: String,
    pub text: String,
    pub font_size: f64,
    pub font_family: String,
    pub text_color: String,
    pub background_color: String,
    pub is_auto_size_width: bool,
    pub is_auto_size_height: bool,
    pub horizontal_text_alignment: String,
    pub vertical_text_alignment: String,
}

/// A shape.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ShapeItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = shape_kind)]
    pub item_type: String,
    #[serde(rename = "Type")]
    pub shape_type: String,
    pub fill_color: String,
    pub stroke_color: String,
    pub stroke_thickness: f64,
    pub adjustment_values: Vec<f64>,
    /// The drawn radius in world units; null for shape types without round corners.
    pub corner_radius: Option<f64>,
}

/// A connector; its geometry is derived from the ends.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ConnectorItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = connector_kind)]
    pub item_type: String,
    #[serde(rename = "Type")]
    pub line_type: String,
    pub stroke_color: String,
    pub stroke_thickness: f64,
    pub corner_points: Vec<MapPoint>,
    pub radius: f64,
    pub start_point: ConnectorEnd,
    pub end_point: ConnectorEnd,
}

/// A connector end as read.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ConnectorEnd {
    pub edge: bool,
    pub position: MapPoint,
    /// The item it follows, or null.
    pub item_id: Option<String>,
    pub decorator: String,
    /// Where the end is drawn.
    pub absolute_position: MapPoint,
}

/// A web link.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct WebItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = web_kind)]
    pub item_type: String,
    pub url: String,
}

/// An image.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ImageItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = image_kind)]
    pub item_type: String,
    pub file_name: String,
    pub mime_type: String,
    pub file_size: u64,
}

/// A document or SVG (created by upload).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FileItem {
    #[serde(flatten)]
    pub common: ItemCommon,
    #[schema(schema_with = file_kinds)]
    pub item_type: String,
    pub file_name: Option<String>,
    pub mime_type: Option<String>,
    pub file_size: Option<u64>,
}

/// An item of any type, told apart by `ItemType`.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum Item {
    Label(LabelItem),
    Shape(ShapeItem),
    Connector(ConnectorItem),
    Web(WebItem),
    Image(ImageItem),
    File(FileItem),
}

/// `GET .../items`: a page in creation order.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct ItemPage {
    pub items: Vec<Item>,
    /// The cursor of the next page; null on the last one.
    pub next_cursor: Option<String>,
}

/// A single property's bare value (string, number, boolean, array or object; object member
/// names follow `jsonCasing`).
#[derive(Serialize, ToSchema)]
pub struct PropertyValue(pub Value);
