//! `create_frame` (beyond the spec; docs/ITEMS.md "Frames"): a titled part of the map that holds
//! items and moves them with it. The creating tools take a `frame` argument (`create_item`,
//! `create_items`, `create_diagram`, `upload_image`), `list_items` and `export_mermaid` a `frame`
//! filter, and `update_item_property` moves an item with the property `parent`. Every rule is
//! core-service's; a frame is an ordinary item created through `CreateItem`.

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_vocabulary::items::FRAME;
use canvas_vocabulary::json_schema;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::output::{json_of, CreatedOut, Point, Size};
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateFrameArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The frame's title, drawn above its top-left corner.
    #[serde(default)]
    pub title: Option<String>,
    /// The frame's centre on the map; omitted: the origin.
    #[serde(default)]
    pub position: Option<Point>,
    /// The frame's size; omitted: 800 × 600.
    #[serde(default)]
    pub size: Option<Size>,
    /// Hex fill colour (#RRGGBB, #AARRGGBB alpha first, or #RGB).
    #[serde(default)]
    pub fill_color: Option<String>,
    /// Makes a retry safe: 1 to 255 printable ASCII characters, new for each change you mean (a UUID,
    /// say). Calling again with the same key and the same arguments within 24 hours returns the first
    /// call's result and creates nothing more; the same key with other arguments is an error.
    #[serde(default)]
    pub idempotency_key: Option<String>,
}

pub struct CreateFrame;

impl CanvasTool for CreateFrame {
    const NAME: &'static str = "create_frame";
    const TITLE: &'static str = "Create a frame";
    const DESCRIPTION: &'static str = "Creates a frame: a titled rectangle of the map that holds items. Pass its \
        frameId as `frame` to create_item, create_items, create_diagram or upload_image to put what you create \
        inside it; move an existing item in with update_item_property `parent`. Moving the frame moves everything \
        it holds; deleting it deletes what it holds. Frames cannot be nested.";
    const HINTS: Hints = Hints::CREATE;
    type Args = CreateFrameArgs;
    type Output = CreatedOut;
    const SHOWN_ON_THE_MAP: bool = true;

    /// The frame's properties with their rules and defaults, from core-service's property table.
    fn details() -> String {
        let properties: Vec<String> = FRAME.iter().map(json_schema::describe).collect();
        format!("Frame properties: {}.", properties.join(", "))
    }

    async fn run(ctx: &ToolContext, args: CreateFrameArgs) -> Result<CreatedOut, ToolFailure> {
        let mut properties = Map::new();
        if let Some(title) = args.title {
            properties.insert("title".into(), Value::String(title));
        }
        if let Some(position) = args.position {
            properties.insert("position".into(), json_of(&position));
        }
        if let Some(size) = args.size {
            properties.insert("size".into(), json_of(&size));
        }
        if let Some(color) = args.fill_color {
            properties.insert("fillColor".into(), Value::String(color));
        }
        let request = pb::CreateItemRequest {
            project_id: args.project_id.clone(),
            parent: String::new(),
            item_type: "frame".to_owned(),
            properties: Some(to_proto_struct(properties)),
            file: None,
        };
        let request = ctx.request_once(request, args.idempotency_key.as_deref())?;
        let created = ctx.state.items.clone().create_item(request).await?.into_inner();
        Ok(CreatedOut::new(&ctx.state, &args.project_id, created.item_id, "frame"))
    }
}

/// The parent a creating tool sends: `frame` when given (naming the same as `parent`, if both are).
pub fn parent_or_frame(parent: String, frame: String) -> Result<String, ToolFailure> {
    match (parent.trim(), frame.trim()) {
        (_, "") => Ok(parent),
        ("", frame) => Ok(frame.to_owned()),
        (parent, frame) if parent.eq_ignore_ascii_case(frame) => Ok(frame.to_owned()),
        _ => Err(ToolFailure::invalid("frame", "names another container than parent: give one of them")),
    }
}
