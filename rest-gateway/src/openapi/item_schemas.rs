//! The item bodies per item type on create and PATCH, with the canonical camelCase names (any
//! casing is accepted). The rules are core-service's property tables (tests/tests/e2e/openapi.rs
//! compares them); these types only describe them: nothing constructs or parses them.

#![allow(dead_code)]

use serde::Deserialize;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Object;
use utoipa::ToSchema;

use super::schemas::one_of;

fn shape_type() -> Object {
    one_of(&canvas_vocabulary::SHAPE_TYPES)
}
fn horizontal() -> Object {
    one_of(&["Left", "Center", "Right"])
}
fn vertical() -> Object {
    one_of(&["Top", "Center", "Bottom"])
}
fn line_type() -> Object {
    one_of(&["Straight", "Angled", "Curved"])
}
fn decorator() -> Object {
    one_of(&["None", "Arrow", "ArrowLine", "Circle"])
}
fn image_mime_type() -> Object {
    one_of(&["image/jpeg", "image/png", "image/gif", "image/webp"])
}
fn hex_color() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$"))
        .description(Some("hex only: #RGB, #RRGGBB or #AARRGGBB (alpha first)"))
        .build()
}
fn file_name() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(128))
        .pattern(Some(r"^[^/\\]*$"))
        .description(Some("at most 128 characters; no `/` or `\\`"))
        .build()
}

fn non_negative_list() -> utoipa::openapi::schema::Array {
    let number = ObjectBuilder::new().schema_type(Type::Number).minimum(Some(0.0)).build();
    utoipa::openapi::schema::ArrayBuilder::new().items(number).build()
}

/// A map position `{x, y}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// A size `{width, height}`, minimum 5 per dimension.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Size {
    #[schema(minimum = 5)]
    pub width: f64,
    #[schema(minimum = 5)]
    pub height: f64,
}

/// A label's size: an auto-sized dimension is 0 (or omitted with the size), the others >= 5.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LabelSize {
    #[schema(minimum = 0)]
    pub width: f64,
    #[schema(minimum = 0)]
    pub height: f64,
}

/// Label and sticky-note properties on create. Text is plain text or well-formed HTML without
/// active content; auto-sized dimensions must be 0 or omitted, others >= 5.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabelCreate {
    #[schema(required = false)]
    pub position: Point,
    #[schema(required = false)]
    pub size: LabelSize,
    #[schema(required = false, exclusive_minimum = 0)]
    pub scale: f64,
    #[schema(required = false, minimum = 0, maximum = 360)]
    pub angle: f64,
    #[schema(min_length = 1)]
    pub text: String,
    #[schema(required = false, minimum = 1)]
    pub font_size: f64,
    #[schema(required = false, min_length = 1, max_length = 256)]
    pub font_family: String,
    /// Any CSS colour.
    #[schema(required = false)]
    pub text_color: String,
    /// Any CSS colour.
    #[schema(required = false)]
    pub background_color: String,
    #[schema(required = false)]
    pub is_auto_size_width: bool,
    #[schema(required = false)]
    pub is_auto_size_height: bool,
    #[schema(required = false, schema_with = horizontal)]
    pub horizontal_text_alignment: String,
    #[schema(required = false, schema_with = vertical)]
    pub vertical_text_alignment: String,
}

/// Label and sticky-note changes: only the properties to change; `null` resets an optional one.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LabelPatch {
    pub position: Option<Point>,
    pub size: Option<LabelSize>,
    #[schema(exclusive_minimum = 0)]
    pub scale: Option<f64>,
    #[schema(minimum = 0, maximum = 360)]
    pub angle: Option<f64>,
    #[schema(required = false, min_length = 1)]
    pub text: String,
    #[schema(minimum = 1)]
    pub font_size: Option<f64>,
    #[schema(min_length = 1, max_length = 256)]
    pub font_family: Option<String>,
    pub text_color: Option<String>,
    pub background_color: Option<String>,
    pub is_auto_size_width: Option<bool>,
    pub is_auto_size_height: Option<bool>,
    #[schema(schema_with = horizontal)]
    pub horizontal_text_alignment: Option<String>,
    #[schema(schema_with = vertical)]
    pub vertical_text_alignment: Option<String>,
}

/// Shape properties on create.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShapeCreate {
    #[schema(required = false)]
    pub position: Point,
    pub size: Size,
    #[schema(required = false, exclusive_minimum = 0)]
    pub scale: f64,
    #[schema(required = false, minimum = 0, maximum = 360)]
    pub angle: f64,
    /// Case-insensitive; immutable after creation.
    #[serde(rename = "type")]
    #[schema(required = false, schema_with = shape_type)]
    pub shape_type: String,
    #[schema(required = false, schema_with = hex_color)]
    pub fill_color: String,
    #[schema(required = false, schema_with = hex_color)]
    pub stroke_color: String,
    #[schema(required = false, minimum = 0)]
    pub stroke_thickness: f64,
    /// Shape-specific values, each >= 0 (the first is the corner radius of round-corner types).
    #[schema(required = false, schema_with = non_negative_list)]
    pub adjustment_values: Vec<f64>,
    /// World units; round-corner shape types only.
    #[schema(required = false, minimum = 0)]
    pub corner_radius: f64,
}

/// Shape changes (`type` cannot change).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShapePatch {
    pub position: Option<Point>,
    #[schema(required = false)]
    pub size: Size,
    #[schema(exclusive_minimum = 0)]
    pub scale: Option<f64>,
    #[schema(minimum = 0, maximum = 360)]
    pub angle: Option<f64>,
    #[schema(schema_with = hex_color)]
    pub fill_color: Option<String>,
    #[schema(schema_with = hex_color)]
    pub stroke_color: Option<String>,
    #[schema(minimum = 0)]
    pub stroke_thickness: Option<f64>,
    #[schema(schema_with = non_negative_list)]
    pub adjustment_values: Option<Vec<f64>>,
    #[schema(minimum = 0)]
    pub corner_radius: Option<f64>,
}

/// A connector end. `position` is required unless `itemId` is given (then it is relative to the
/// item, default {0, 0}).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectorPoint {
    /// Attach to the item's outline (default true).
    #[schema(required = false)]
    pub edge: bool,
    #[schema(required = false)]
    pub position: Point,
    /// Another, non-connector item of the project.
    #[schema(format = "uuid")]
    pub item_id: Option<String>,
    #[schema(required = false, schema_with = decorator)]
    pub decorator: String,
}

/// Connector properties on create (position, size, scale and angle are derived from the ends).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectorCreate {
    #[serde(rename = "type")]
    #[schema(required = false, schema_with = line_type)]
    pub line_type: String,
    /// Any CSS colour.
    #[schema(required = false)]
    pub stroke_color: String,
    #[schema(required = false, minimum = 0)]
    pub stroke_thickness: f64,
    #[schema(required = false)]
    pub corner_points: Vec<Point>,
    #[schema(required = false, minimum = 0)]
    pub radius: f64,
    pub start_point: ConnectorPoint,
    pub end_point: ConnectorPoint,
}

/// A connector PATCH wraps the changes: `{"properties": {...}}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectorPatch {
    pub properties: ConnectorChanges,
}

/// The connector properties to change.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectorChanges {
    #[serde(rename = "type")]
    #[schema(schema_with = line_type)]
    pub line_type: Option<String>,
    pub stroke_color: Option<String>,
    #[schema(minimum = 0)]
    pub stroke_thickness: Option<f64>,
    pub corner_points: Option<Vec<Point>>,
    #[schema(minimum = 0)]
    pub radius: Option<f64>,
    #[schema(required = false)]
    pub start_point: ConnectorPoint,
    #[schema(required = false)]
    pub end_point: ConnectorPoint,
}

/// Web item properties on create.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebCreate {
    #[schema(required = false)]
    pub position: Point,
    #[schema(required = false)]
    pub size: Size,
    #[schema(required = false, exclusive_minimum = 0)]
    pub scale: f64,
    #[schema(required = false, minimum = 0, maximum = 360)]
    pub angle: f64,
    /// An absolute `http` or `https` URL with a host.
    #[schema(format = "uri")]
    pub url: String,
}

/// Web item changes.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebPatch {
    pub position: Option<Point>,
    pub size: Option<Size>,
    #[schema(exclusive_minimum = 0)]
    pub scale: Option<f64>,
    #[schema(minimum = 0, maximum = 360)]
    pub angle: Option<f64>,
    #[schema(required = false, format = "uri")]
    pub url: String,
}

/// Image properties on the JSON-only create (the upload form fills the file fields itself).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImageCreate {
    #[schema(required = false)]
    pub position: Point,
    pub size: Size,
    #[schema(required = false, exclusive_minimum = 0)]
    pub scale: f64,
    #[schema(required = false, minimum = 0, maximum = 360)]
    pub angle: f64,
    #[schema(schema_with = file_name)]
    pub file_name: String,
    #[schema(schema_with = image_mime_type)]
    pub mime_type: String,
    #[schema(minimum = 0)]
    pub file_size: u64,
}

/// Image changes (`mimeType` and `fileSize` are fixed once the image has uploaded content).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ImagePatch {
    pub position: Option<Point>,
    #[schema(required = false)]
    pub size: Size,
    #[schema(exclusive_minimum = 0)]
    pub scale: Option<f64>,
    #[schema(minimum = 0, maximum = 360)]
    pub angle: Option<f64>,
    #[schema(required = false, schema_with = file_name)]
    pub file_name: String,
    #[schema(required = false, schema_with = image_mime_type)]
    pub mime_type: String,
    #[schema(required = false, minimum = 0)]
    pub file_size: u64,
}

/// Document and SVG changes (their file fields other than the name are fixed).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FilePatch {
    pub position: Option<Point>,
    pub size: Option<Size>,
    #[schema(exclusive_minimum = 0)]
    pub scale: Option<f64>,
    #[schema(minimum = 0, maximum = 360)]
    pub angle: Option<f64>,
    #[schema(schema_with = file_name)]
    pub file_name: Option<String>,
}

/// `multipart/form-data` of an upload. The file name comes from the `binary` part, the MIME type
/// is sniffed from the bytes, `fileSize` is the byte count (over 25 MiB: 413).
#[derive(Deserialize, ToSchema)]
pub struct FileUpload {
    /// Optional JSON object (as text) with further item properties.
    #[schema(required = false)]
    pub dataobject: String,
    /// The file.
    #[schema(value_type = String, format = Binary)]
    pub binary: Vec<u8>,
}
