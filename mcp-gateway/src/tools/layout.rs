//! `style_item`, `arrange_item` and `connect_items`: the spec's tools that
//! change how a map looks. Each gathers its arguments into one property patch
//! (or one connector) and leaves every rule to core-service.

use canvas_proto::failure::Violation;
use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use std::sync::Arc;

use canvas_vocabulary::items::{CONNECTOR, CONNECTOR_POINT, ITEM_TYPES};
use canvas_vocabulary::json_schema::{self, MCP};
use rmcp::model::JsonObject;

use super::items::update_item;
use super::output::{json_of, CreatedOut, Point, UpdatedOut};
use super::{schema, CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

/// Style properties; each is optional and only the ones given change.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StyleItemArgs {
    /// The project (GUID).
    #[serde(skip_serializing)]
    pub project_id: String,
    /// The item (GUID).
    #[serde(skip_serializing)]
    pub item_id: String,
    /// Change only if the item is still at this version (the `version` get_item answered);
    /// otherwise nothing changes and the error says the current version.
    #[serde(default, skip_serializing, deserialize_with = "super::schema::whole_opt")]
    pub expected_version: Option<i64>,
    /// Text colour of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text_color: Option<String>,
    /// Background of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    /// Fill of a shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill_color: Option<String>,
    /// Outline of a shape (hex colours only) or line colour of a connector (any CSS colour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke_color: Option<String>,
    /// Outline or line width in pixels of a shape or connector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke_thickness: Option<f64>,
    /// Font size in points of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_size: Option<f64>,
    /// Font family name of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub font_family: Option<String>,
    /// Horizontal text alignment of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub horizontal_text_alignment: Option<String>,
    /// Vertical text alignment of a label or sticky note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_text_alignment: Option<String>,
}

pub struct StyleItem;

impl CanvasTool for StyleItem {
    const NAME: &'static str = "style_item";
    const TITLE: &'static str = "Style an item";
    const DESCRIPTION: &'static str = "Changes how an item looks: colours, stroke, font and text alignment. Give \
        only the properties to change. A property the item's type does not have, or an invalid value, comes \
        back as an error naming it and the allowed values.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = StyleItemArgs;
    type Output = UpdatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// Which types take which style properties, from core-service's property table.
    fn details() -> String {
        let mut lines = Vec::new();
        for item_type in &ITEM_TYPES {
            let taken: Vec<&str> = STYLE_PROPERTIES
                .iter()
                .copied()
                .filter(|name| item_type.properties.iter().any(|d| d.name == *name && d.updatable && !d.ignored))
                .collect();
            if !taken.is_empty() {
                lines.push(format!("{} takes {}.", item_type.name, taken.join(", ")));
            }
        }
        lines.join(" ")
    }

    fn input_schema() -> Arc<JsonObject> {
        item_properties::<StyleItemArgs>(STYLE_PROPERTIES)
    }

    async fn run(ctx: &ToolContext, args: StyleItemArgs) -> Result<UpdatedOut, ToolFailure> {
        let patch = patch_of(&args);
        if patch.is_empty() {
            let names = STYLE_PROPERTIES.join(", ");
            return Err(ToolFailure::invalid(
                STYLE_PROPERTIES[0],
                format!("give at least one style property: {names}"),
            ));
        }
        update_item(ctx, args.project_id, args.item_id, patch, args.expected_version).await
    }
}

/// Placement properties; each is optional and only the ones given change.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ArrangeItemArgs {
    /// The project (GUID).
    #[serde(skip_serializing)]
    pub project_id: String,
    /// The item (GUID).
    #[serde(skip_serializing)]
    pub item_id: String,
    /// Change only if the item is still at this version (the `version` get_item answered);
    /// otherwise nothing changes and the error says the current version.
    #[serde(default, skip_serializing, deserialize_with = "super::schema::whole_opt")]
    pub expected_version: Option<i64>,
    /// New position on the map (the item's centre).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Point>,
    /// New size (an auto-sized label dimension must stay 0 or be omitted). Passed as sent: which
    /// dimensions it needs depends on the item, and core-service checks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<Map<String, Value>>,
    /// Scale factor (1 is natural size).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scale: Option<f64>,
    /// Rotation in degrees, clockwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle: Option<f64>,
}

pub struct ArrangeItem;

impl CanvasTool for ArrangeItem {
    const NAME: &'static str = "arrange_item";
    const TITLE: &'static str = "Move, resize or rotate an item";
    const DESCRIPTION: &'static str = "Changes where an item is and how big it is drawn: position, size, scale \
        and angle (their rules are in the input schema). Give only what should change. Connectors are placed \
        by their ends: use update_item_property with startPoint or endPoint.";
    const HINTS: Hints = Hints::OVERWRITE;
    type Args = ArrangeItemArgs;
    type Output = UpdatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    fn input_schema() -> Arc<JsonObject> {
        item_properties::<ArrangeItemArgs>(ARRANGE_PROPERTIES)
    }

    async fn run(ctx: &ToolContext, args: ArrangeItemArgs) -> Result<UpdatedOut, ToolFailure> {
        let patch = patch_of(&args);
        if patch.is_empty() {
            let names = ARRANGE_PROPERTIES.join(", ");
            return Err(ToolFailure::invalid(ARRANGE_PROPERTIES[0], format!("give at least one of {names}")));
        }
        update_item(ctx, args.project_id, args.item_id, patch, args.expected_version).await
    }
}

/// The item properties `style_item` changes (its arguments of the same names).
const STYLE_PROPERTIES: &[&str] = &[
    "textColor",
    "backgroundColor",
    "fillColor",
    "strokeColor",
    "strokeThickness",
    "fontSize",
    "fontFamily",
    "horizontalTextAlignment",
    "verticalTextAlignment",
];

/// The item properties `arrange_item` changes.
const ARRANGE_PROPERTIES: &[&str] = &["position", "size", "scale", "angle"];

/// The input schema of a tool whose arguments `names` are item properties of the same names, each
/// as every item type that can change it accepts it.
fn item_properties<T: JsonSchema>(names: &[&str]) -> Arc<JsonObject> {
    let arguments =
        names.iter().map(|name| (*name, json_schema::across_types(name, MCP).expect("an item property"))).collect();
    schema::with_properties(schema::input::<T>(), arguments)
}

/// The given (serialised, non-skipped) arguments as a property patch.
fn patch_of<T: Serialize>(args: &T) -> Map<String, Value> {
    match json_of(args) {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ConnectItemsArgs {
    /// The project (GUID) holding both items.
    pub project_id: String,
    /// The item the connector starts at (GUID).
    pub from_item_id: String,
    /// The item the connector ends at (GUID).
    pub to_item_id: String,
    /// The line: Angled has 90-degree corners.
    pub line_type: Option<String>,
    /// Line colour.
    pub color: Option<String>,
    /// Line width in pixels.
    pub stroke_thickness: Option<f64>,
    /// Tip at the start (Arrow is filled, ArrowLine an outline).
    pub start_decorator: Option<String>,
    /// Tip at the end (Arrow is filled, ArrowLine an outline).
    pub end_decorator: Option<String>,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

pub struct ConnectItems;

impl CanvasTool for ConnectItems {
    const NAME: &'static str = "connect_items";
    const TITLE: &'static str = "Connect two items";
    const DESCRIPTION: &'static str = "Draws a connector from one item to another. Both ends attach to the \
        items' edges and follow them when they move. Choose the lineType, colour, strokeThickness and the \
        decorators at either end. Returns the connector's itemId and link.";
    const HINTS: Hints = Hints::CREATE;
    type Args = ConnectItemsArgs;
    type Output = CreatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// The connector's properties and its ends' decorator, from core-service's property table (their
    /// defaults included: they are what an omitted argument gets).
    fn input_schema() -> Arc<JsonObject> {
        let connector = |name: &str| CONNECTOR.iter().find(|d| d.name == name).expect("a connector property");
        let decorator = CONNECTOR_POINT.iter().find(|d| d.name == "decorator").expect("an end's decorator");
        let arguments = vec![
            ("lineType", json_schema::property(connector("type"), MCP, true)),
            ("color", json_schema::property(connector("strokeColor"), MCP, true)),
            ("strokeThickness", json_schema::property(connector("strokeThickness"), MCP, true)),
            ("startDecorator", json_schema::property(decorator, MCP, true)),
            ("endDecorator", json_schema::property(decorator, MCP, true)),
        ];
        schema::with_properties(schema::input::<ConnectItemsArgs>(), arguments)
    }

    fn argument_for(violation: &Violation) -> String {
        let field = violation.field.as_str();
        match field {
            "type" => "lineType",
            "strokeColor" => "color",
            "startPoint" | "startPoint.itemId" => "fromItemId",
            "endPoint" | "endPoint.itemId" => "toItemId",
            "startPoint.decorator" => "startDecorator",
            "endPoint.decorator" => "endDecorator",
            other => other,
        }
        .to_owned()
    }

    async fn run(ctx: &ToolContext, args: ConnectItemsArgs) -> Result<CreatedOut, ToolFailure> {
        let end = |item_id: &str, decorator: &Option<String>| {
            let mut point = json!({"itemId": item_id, "edge": true});
            if let Some(decorator) = decorator {
                point["decorator"] = Value::String(decorator.clone());
            }
            point
        };
        let mut properties = Map::new();
        properties.insert("startPoint".into(), end(&args.from_item_id, &args.start_decorator));
        properties.insert("endPoint".into(), end(&args.to_item_id, &args.end_decorator));
        let optional = [
            ("type", args.line_type.map(Value::String)),
            ("strokeColor", args.color.map(Value::String)),
            ("strokeThickness", args.stroke_thickness.map(|t| json!(t))),
        ];
        for (name, value) in optional {
            if let Some(value) = value {
                properties.insert(name.to_owned(), value);
            }
        }
        let request = pb::CreateItemRequest {
            project_id: args.project_id.clone(),
            // The default parent (the canvas) is core-service's.
            parent: String::new(),
            item_type: "connector".to_owned(),
            properties: Some(to_proto_struct(properties)),
            file: None,
        };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_item(request).await?.into_inner();
        Ok(CreatedOut::new(&ctx.state, &args.project_id, created.item_id, "connector"))
    }
}
