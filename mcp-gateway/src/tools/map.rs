//! Tools for an agent to check its work (beyond the spec): `read_map`, a compact outline of a
//! region or of the neighbourhood of given items, for agents that read; `render_map`, the same
//! region as a PNG image block (canvas-render, as `render.png` draws it), for agents that look.
//! Both read through core-service's filtered listing with the caller's token.

use base64::Engine;
use canvas_proto::json::from_proto_struct;
use canvas_proto::v1 as pb;
use canvas_vocabulary::limits::ITEMS_PAGE;
use rmcp::model::ContentBlock;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::items::RegionArgs;
use super::{CanvasTool, Hints, ToolContext};
use crate::error::ToolFailure;

/// Space around the given items that counts as their neighbourhood, in map units.
const NEIGHBOURHOOD_MARGIN: f64 = 400.0;
/// Characters of an item's text an outline shows.
const OUTLINE_TEXT_CHARS: usize = 200;
/// Longest side of a rendered map, in pixels: enough to read labels, small enough for a model.
const RENDER_MAX_SIDE: f64 = 1600.0;
/// Items a drawing reads at most.
const RENDER_MAX_ITEMS: usize = 5000;

/// Which part of the map: a region, the neighbourhood of items, or (neither) the whole map.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadMapArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// A rectangle of the map (top-left x, y, width, height) whose items to read.
    #[serde(default)]
    pub region: Option<RegionArgs>,
    /// Read the neighbourhood of these items (GUIDs): everything near them (see the description).
    #[serde(default)]
    pub item_ids: Vec<String>,
    /// Items per page (connectors included).
    #[serde(default, deserialize_with = "super::schema::count_opt")]
    pub limit: Option<u32>,
    /// The nextCursor of the previous page; empty for the first.
    #[serde(default)]
    pub cursor: String,
}

/// One item of an outline.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineItem {
    pub id: String,
    #[serde(rename = "type")]
    pub item_type: String,
    /// The text (shortened), url or file name, when the item has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The shape type, for shapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    /// Centre on the map.
    pub x: f64,
    pub y: f64,
    /// Drawn size (0 for an auto-sized label).
    pub width: f64,
    pub height: f64,
    /// The containing item, when it is not the canvas.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// A connector as an edge.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutlineEdge {
    /// The connector's id.
    pub id: String,
    /// The item the start follows, if attached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The item the end follows, if attached.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Arrow heads at the start and end (decorators other than None).
    pub arrow: String,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadMapOut {
    pub items: Vec<OutlineItem>,
    pub edges: Vec<OutlineEdge>,
    /// Pass as cursor for the next page; absent on the last.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

pub struct ReadMap;

impl CanvasTool for ReadMap {
    const NAME: &'static str = "read_map";
    const TITLE: &'static str = "Read the map";
    const DESCRIPTION: &'static str = "Returns a compact outline of part of a project map: each item's id, type, \
        text, shape, centre, size and container, and connectors as edges between item ids. Give a region, or \
        itemIds to read their neighbourhood (what lies near them), or neither for the whole map. Paginated: pass nextCursor back as cursor. Use it after creating or changing items to check the \
        result; use render_map to look at it.";
    const HINTS: Hints = Hints::READ;
    type Args = ReadMapArgs;
    type Output = ReadMapOut;

    fn details() -> String {
        format!(
            "The neighbourhood of itemIds is everything within {NEIGHBOURHOOD_MARGIN} map units of their box; texts \
             are cut after {OUTLINE_TEXT_CHARS} characters."
        )
    }

    async fn run(ctx: &ToolContext, args: ReadMapArgs) -> Result<ReadMapOut, ToolFailure> {
        let region = area(ctx, &args.project_id, args.region, &args.item_ids).await?;
        let request = pb::ListItemsRequest {
            project_id: args.project_id,
            page_size: Some(args.limit.unwrap_or(ITEMS_PAGE.default)),
            page_token: args.cursor,
            region,
            ..Default::default()
        };
        let page = ctx.state.items.clone().list_items(ctx.request(request)).await?.into_inner();
        let mut out = ReadMapOut {
            items: Vec::new(),
            edges: Vec::new(),
            next_cursor: Some(page.next_page_token).filter(|t| !t.is_empty()),
        };
        for item in page.items {
            let props = item.properties.map(from_proto_struct).unwrap_or_default();
            if item.item_type == "connector" {
                out.edges.push(edge(item.item_id, &props));
            } else {
                out.items.push(outline(item.item_id, item.item_type, item.parent, &props));
            }
        }
        Ok(out)
    }
}

/// The region to read: the one given, the neighbourhood of the given items, or none.
async fn area(
    ctx: &ToolContext,
    project_id: &str,
    region: Option<RegionArgs>,
    item_ids: &[String],
) -> Result<Option<pb::Region>, ToolFailure> {
    if let Some(r) = region {
        return Ok(Some(pb::Region { x: r.x, y: r.y, width: r.width, height: r.height }));
    }
    let mut bounds: Option<(f64, f64, f64, f64)> = None;
    for item_id in item_ids {
        let request = pb::GetItemRequest {
            project_id: project_id.to_owned(),
            item_id: item_id.clone(),
            properties_as_json: false,
        };
        let item = ctx.state.items.clone().get_item(ctx.request(request)).await?.into_inner();
        let props = item.properties.map(from_proto_struct).unwrap_or_default();
        let angle = props.get("angle").and_then(Value::as_f64).unwrap_or(0.0);
        let o = outline(item.item_id, item.item_type, item.parent, &props);
        // The box the item covers as drawn, turned by its angle (the rule core-service's region
        // filter applies, so the neighbourhood holds what a region listing would find).
        let (hw, hh) =
            canvas_vocabulary::geometry::turned_half_extents(o.width / 2.0, o.height / 2.0, angle.to_radians());
        let (l, t, r, b) = (o.x - hw, o.y - hh, o.x + hw, o.y + hh);
        bounds = Some(bounds.map_or((l, t, r, b), |(bl, bt, br, bb)| (bl.min(l), bt.min(t), br.max(r), bb.max(b))));
    }
    Ok(bounds.map(|(l, t, r, b)| pb::Region {
        x: l - NEIGHBOURHOOD_MARGIN,
        y: t - NEIGHBOURHOOD_MARGIN,
        width: r - l + 2.0 * NEIGHBOURHOOD_MARGIN,
        height: b - t + 2.0 * NEIGHBOURHOOD_MARGIN,
    }))
}

fn number(props: &Map<String, Value>, outer: &str, inner: &str) -> f64 {
    props.get(outer).and_then(|v| v.get(inner)).and_then(Value::as_f64).unwrap_or(0.0)
}

fn outline(id: String, item_type: String, parent: String, props: &Map<String, Value>) -> OutlineItem {
    let scale = props.get("scale").and_then(Value::as_f64).unwrap_or(1.0);
    let text = ["text", "url", "fileName"].iter().find_map(|k| props.get(*k).and_then(Value::as_str)).map(|t| {
        let mut short: String = t.chars().take(OUTLINE_TEXT_CHARS).collect();
        if t.chars().count() > OUTLINE_TEXT_CHARS {
            short.push('…');
        }
        short
    });
    let shape = (item_type == "shape").then(|| props.get("type").and_then(Value::as_str).map(str::to_owned)).flatten();
    OutlineItem {
        id,
        text,
        shape,
        x: number(props, "position", "x"),
        y: number(props, "position", "y"),
        width: number(props, "size", "width") * scale,
        height: number(props, "size", "height") * scale,
        parent: Some(parent).filter(|p| p != "panel"),
        item_type,
    }
}

fn edge(id: String, props: &Map<String, Value>) -> OutlineEdge {
    let end = |name: &str| props.get(name).and_then(|p| p.get("itemId")).and_then(Value::as_str).map(str::to_owned);
    let arrow = |name: &str| {
        props.get(name).and_then(|p| p.get("decorator")).and_then(Value::as_str).is_some_and(|d| d != "None")
    };
    let arrow = match (arrow("startPoint"), arrow("endPoint")) {
        (true, true) => "both",
        (false, true) => "end",
        (true, false) => "start",
        (false, false) => "none",
    };
    OutlineEdge { id, from: end("startPoint"), to: end("endPoint"), arrow: arrow.to_owned() }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RenderMapArgs {
    /// The project (GUID) from list_projects.
    pub project_id: String,
    /// The rectangle of the map to draw (top-left x, y, width, height).
    #[serde(default)]
    pub region: Option<RegionArgs>,
    /// Draw the neighbourhood of these items (GUIDs) instead.
    #[serde(default)]
    pub item_ids: Vec<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenderMapOut {
    /// The PNG's size in pixels (the image is the result's image block).
    pub width: u32,
    pub height: u32,
    /// Pixels per map unit.
    pub scale: f64,
    /// The region drawn: x, y, width, height in map units.
    pub region: [f64; 4],
    /// How many items were drawn.
    pub items: usize,
    #[serde(skip)]
    #[schemars(skip)]
    pub png: Vec<u8>,
}

pub struct RenderMap;

impl CanvasTool for RenderMap {
    const NAME: &'static str = "render_map";
    const TITLE: &'static str = "Look at the map";
    const DESCRIPTION: &'static str = "Draws part of a project map as a PNG image (returned as an image block): a region, the neighbourhood of itemIds, or the whole map. Use it to \
        see what a diagram or a change looks like; read_map gives the same area as text.";
    const HINTS: Hints = Hints::READ;
    type Args = RenderMapArgs;
    type Output = RenderMapOut;

    fn details() -> String {
        format!(
            "The image is at most {RENDER_MAX_SIDE} pixels on its longest side and draws at most {RENDER_MAX_ITEMS} \
             items; the neighbourhood of itemIds is everything within {NEIGHBOURHOOD_MARGIN} map units of them."
        )
    }

    fn attachments(output: &RenderMapOut) -> Vec<ContentBlock> {
        vec![ContentBlock::image(base64::engine::general_purpose::STANDARD.encode(&output.png), "image/png")]
    }

    async fn run(ctx: &ToolContext, args: RenderMapArgs) -> Result<RenderMapOut, ToolFailure> {
        let region = area(ctx, &args.project_id, args.region, &args.item_ids).await?;
        let project_id = &args.project_id;
        let page = |page_token: String| async move {
            let request = pb::ListItemsRequest {
                project_id: project_id.clone(),
                page_size: Some(ITEMS_PAGE.max),
                page_token,
                region,
                ..Default::default()
            };
            let page = ctx.state.items.clone().list_items(ctx.request(request)).await?.into_inner();
            Ok::<_, ToolFailure>((page.items.into_iter().map(view).collect(), page.next_page_token))
        };
        ctx.say("Reading the items to draw.");
        let items: Vec<Value> = canvas_proto::client::all_pages(page, Some(RENDER_MAX_ITEMS)).await?;
        ctx.say(format!("Drawing {} items.", items.len()));
        let drawn_region = region.map(|r| canvas_render::Rect { x: r.x, y: r.y, width: r.width, height: r.height });
        tokio::task::spawn_blocking(move || draw(&items, drawn_region))
            .await
            .map_err(|_| ToolFailure::Internal)?
            .map_err(|error| ToolFailure::invalid("region", error.to_string()))
    }
}

/// An item as canvas-render reads it (the REST item JSON, without timestamps).
fn view(item: pb::Item) -> Value {
    let mut body = item.properties.map(from_proto_struct).unwrap_or_default();
    body.insert("itemId".into(), Value::String(item.item_id));
    body.insert("itemType".into(), Value::String(item.item_type));
    body.insert("parent".into(), Value::String(item.parent));
    Value::Object(body)
}

/// Draws at one pixel per unit, or smaller so the longest side fits [`RENDER_MAX_SIDE`].
fn draw(items: &[Value], region: Option<canvas_render::Rect>) -> Result<RenderMapOut, canvas_render::RenderError> {
    let mut options = canvas_render::RenderOptions { region, ..Default::default() };
    let first = canvas_render::render_svg(items, &canvas_render::NoContent, &options)?;
    let longest = first.region.width.max(first.region.height);
    let scale = (RENDER_MAX_SIDE / longest).clamp(canvas_render::SCALE_RANGE.0, 1.0);
    let drawing = if scale < 1.0 {
        options.scale = scale;
        canvas_render::render_svg(items, &canvas_render::NoContent, &options)?
    } else {
        first
    };
    let png = canvas_render::render_png(&drawing)?;
    let r = drawing.region;
    Ok(RenderMapOut {
        width: drawing.width,
        height: drawing.height,
        scale,
        region: [r.x, r.y, r.width, r.height],
        items: drawing.items,
        png,
    })
}
