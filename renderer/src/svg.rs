//! The SVG document: the items selected and read, the view fitted to them (or to the region
//! asked for), and each item drawn by its family's module inside its own group. Its own module,
//! not lib.rs, so the PNG output can import what it rasterises from here, below the crate root.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use serde_json::Value;

use crate::media::ContentLookup;
use crate::model::{Item, ItemType, Rect};
use crate::style::{escape, num};
use crate::{connector, frames, label, media, shape};

/// Smallest and largest pixels per map unit.
pub const SCALE_RANGE: (f64, f64) = (0.01, 16.0);
/// Space left around the items when no region is asked for.
const MARGIN: f64 = 24.0;
/// The map's background: dark, as the item defaults (white text and strokes) expect.
pub const BACKGROUND: &str = "#0f172a";

/// What to draw.
#[derive(Debug, Clone)]
pub struct RenderOptions {
    /// Only these items (None: every item on the canvas).
    pub item_ids: Option<HashSet<String>>,
    /// The part of the map to draw, in map units (None: fitted to the items).
    pub region: Option<Rect>,
    /// Pixels per map unit of the output.
    pub scale: f64,
    /// Only this frame and what it holds, fitted to the frame's rectangle unless a region is
    /// given (`render.svg?frame=`).
    pub frame: Option<String>,
}

impl Default for RenderOptions {
    fn default() -> Self {
        Self { item_ids: None, region: None, scale: 1.0, frame: None }
    }
}

/// A drawn map.
#[derive(Debug, Clone)]
pub struct Drawing {
    pub svg: String,
    /// The region drawn, in map units.
    pub region: Rect,
    /// Output size in pixels (region × scale, rounded up).
    pub width: u32,
    pub height: u32,
    /// How many items were drawn.
    pub items: usize,
}

/// Why a drawing cannot be made; each message says what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum RenderError {
    #[error("scale must be a number from {min} to {max}, got {0}", min = SCALE_RANGE.0, max = SCALE_RANGE.1)]
    InvalidScale(f64),
    #[error("the region must have a finite position and a width and height above 0")]
    InvalidRegion,
    #[error(
        "the image would be {width}×{height} pixels, more than the limit of {max} pixels; \
         lower the scale or draw a smaller region"
    )]
    TooLarge { width: u64, height: u64, max: u64 },
    #[error("the drawing could not be rasterised: {0}")]
    Rasterise(String),
    /// The rasteriser (tiny-skia) gave up on geometry far outside the image: paths whose
    /// device coordinates overflow its fixed-point scan converter (tiny-skia issue #167).
    #[error(
        "the drawing has geometry too far outside the image for the PNG rasteriser; \
         draw a smaller region, or use render.svg, which draws it"
    )]
    Unrasterisable,
}

/// Draws `items` (REST item JSON objects) as one SVG document.
pub fn render_svg(
    items: &[Value],
    contents: &dyn ContentLookup,
    options: &RenderOptions,
) -> Result<Drawing, RenderError> {
    let scale = options.scale;
    if !(SCALE_RANGE.0..=SCALE_RANGE.1).contains(&scale) {
        return Err(RenderError::InvalidScale(scale));
    }
    let read: Vec<Item<'_>> = items.iter().filter_map(Item::read).collect();
    let holders = frames::holders(&read);
    let frame_rects: HashMap<&str, Rect> =
        read.iter().filter(|item| item.kind == ItemType::Frame).map(|item| (item.id, frames::rect(item))).collect();
    let framed = options
        .frame
        .as_ref()
        .map(|frame| (frames::with_held(frame, &holders), frame_rects.get(frame.as_str()).copied()));
    let wanted = |item: &Item<'_>| {
        options.item_ids.as_ref().is_none_or(|ids| ids.contains(item.id))
            && framed.as_ref().is_none_or(|(ids, _)| ids.contains(item.id))
    };
    // Frames first, under everything else; the rest in the order given (creation order).
    let (under, over): (Vec<Item<'_>>, Vec<Item<'_>>) =
        read.into_iter().filter(wanted).partition(|item| item.kind == ItemType::Frame);
    let mut drawn: Vec<(Item<'_>, Rect)> = under
        .into_iter()
        .chain(over)
        .map(|item| {
            let bounds = outer_bounds(&item);
            (item, bounds)
        })
        .collect();
    let region = options.region.or_else(|| framed.as_ref().and_then(|(_, rect)| *rect));
    let region = match region {
        Some(region) => {
            let finite = [region.x, region.y, region.width, region.height].iter().all(|n| n.is_finite());
            if !finite || region.width <= 0.0 || region.height <= 0.0 {
                return Err(RenderError::InvalidRegion);
            }
            drawn.retain(|(_, bounds)| bounds.intersects(&region));
            region
        }
        None => drawn
            .iter()
            .map(|(_, b)| *b)
            .reduce(|a, b| a.union(&b))
            .map_or(Rect { x: -100.0, y: -100.0, width: 200.0, height: 200.0 }, |b| b.grow(MARGIN)),
    };
    let width = (region.width * scale).ceil().max(1.0);
    let height = (region.height * scale).ceil().max(1.0);
    let (width, height) = (width.min(u32::MAX as f64) as u32, height.min(u32::MAX as f64) as u32);

    let mut svg = String::with_capacity(256 + drawn.len() * 400);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"{} {} {} {}\">",
        num(region.x),
        num(region.y),
        num(region.width),
        num(region.height)
    );
    let _ = write!(
        svg,
        "<rect class=\"background\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{BACKGROUND}\"/>",
        num(region.x),
        num(region.y),
        num(region.width),
        num(region.height)
    );
    for (item, bounds) in &drawn {
        // Only an item reaching past its frame's edge needs the clip. One wholly inside (almost
        // every item) is drawn as it would be without frames: 10,000 clip paths cost a map of
        // framed items 1.4 to 1.7 times the time to open (docs/PERFORMANCE.md "Frames").
        let clip = holders
            .get(item.id)
            .and_then(|frame| frame_rects.get(frame))
            .copied()
            .filter(|frame| !frame.contains(bounds));
        draw_item(&mut svg, item, contents, clip);
    }
    svg.push_str("</svg>");
    Ok(Drawing { svg, region, width, height, items: drawn.len() })
}

/// An item's bounds including its stroke and decorators, so nothing is cut at the edge.
fn outer_bounds(item: &Item<'_>) -> Rect {
    let stroke = match item.kind {
        ItemType::Shape => item.f64("strokeThickness").unwrap_or(2.0),
        ItemType::Connector => (item.f64("strokeThickness").unwrap_or(3.0) * 3.0).max(9.0),
        _ => 1.0,
    };
    let bounds = item.frame.bounds().grow(stroke.max(0.0) / 2.0);
    match item.kind {
        // The title above the frame.
        ItemType::Frame => {
            Rect { y: bounds.y - frames::TITLE_ROOM, height: bounds.height + frames::TITLE_ROOM, ..bounds }
        }
        _ => bounds,
    }
}

/// Draws one item in its group; `clip`, the rectangle of the frame holding it, if any.
fn draw_item(svg: &mut String, item: &Item<'_>, contents: &dyn ContentLookup, clip: Option<Rect>) {
    let type_name = item.str("itemType").unwrap_or_default();
    let id = escape(item.id);
    let _ = write!(
        svg,
        "<g class=\"item\" id=\"item-{id}\" data-item-id=\"{id}\" data-item-type=\"{}\"",
        escape(type_name)
    );
    if item.kind == ItemType::Connector {
        // The items a connector joins, so a page or tool can find what follows which item.
        for (end, attribute) in [("startPoint", "data-start-id"), ("endPoint", "data-end-id")] {
            if let Some(id) = item.props.get(end).and_then(|p| p.get("itemId")).and_then(Value::as_str) {
                let _ = write!(svg, " {attribute}=\"{}\"", escape(id));
            }
        }
    } else {
        let _ = write!(svg, " transform=\"{}\"", item.frame.transform());
    }
    svg.push('>');
    if let Some(frame) = clip {
        frames::open_clip(svg, item, frame);
    }
    match item.kind {
        ItemType::Label | ItemType::StickyNote => label::draw(svg, item),
        ItemType::Shape => shape::draw(svg, item),
        ItemType::Connector => connector::draw(svg, item),
        ItemType::Web | ItemType::Image | ItemType::Document | ItemType::Svg => media::draw(svg, item, contents),
        ItemType::Frame => frames::draw(svg, item),
    }
    if clip.is_some() {
        svg.push_str("</g>");
    }
    svg.push_str("</g>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::NoContent;
    use serde_json::json;

    fn shape(id: &str, x: f64, y: f64) -> Value {
        json!({"itemId": id, "itemType": "shape", "parent": "panel", "position": {"x": x, "y": y},
               "size": {"width": 100, "height": 50}, "fillColor": "#FF0000", "strokeThickness": 2})
    }

    #[test]
    fn the_view_fits_the_items_with_a_margin() {
        let items = [shape("a", 0.0, 0.0), shape("b", 200.0, 100.0)];
        let drawing = render_svg(&items, &NoContent, &RenderOptions { scale: 0.5, ..Default::default() }).unwrap();
        assert_eq!(drawing.region, Rect { x: -75.0, y: -50.0, width: 350.0, height: 200.0 });
        assert_eq!((drawing.width, drawing.height, drawing.items), (175, 100, 2));
        assert!(drawing.svg.contains("id=\"item-a\"") && drawing.svg.contains("id=\"item-b\""));
    }

    #[test]
    fn item_ids_and_regions_select_what_is_drawn() {
        let items = [shape("a", 0.0, 0.0), shape("b", 500.0, 0.0)];
        let ids = RenderOptions { item_ids: Some(HashSet::from(["b".to_owned()])), ..Default::default() };
        let drawing = render_svg(&items, &NoContent, &ids).unwrap();
        assert!(!drawing.svg.contains("item-a") && drawing.svg.contains("item-b"));
        let region = Rect { x: -60.0, y: -30.0, width: 120.0, height: 60.0 };
        let drawing =
            render_svg(&items, &NoContent, &RenderOptions { region: Some(region), ..Default::default() }).unwrap();
        assert_eq!(drawing.items, 1);
        assert!(drawing.svg.contains("viewBox=\"-60 -30 120 60\""));
    }

    #[test]
    fn only_what_reaches_past_its_frame_is_clipped() {
        let frame = json!({"itemId": "f", "itemType": "frame", "parent": "panel", "position": {"x": 0, "y": 0},
                           "size": {"width": 300, "height": 100}, "title": "F"});
        let held = |id: &str, x: f64, angle: f64| {
            let mut item = shape(id, x, 0.0);
            item["parent"] = json!("f");
            item["angle"] = json!(angle);
            item
        };
        // Inside; past the right edge by its stroke alone; turned so its corners reach past the
        // top and bottom; and one on the panel reaching into the frame.
        let items = [
            frame,
            held("in", 0.0, 0.0),
            held("edge", 99.5, 0.0),
            held("turned", 0.0, 80.0),
            shape("free", 150.0, 0.0),
        ];
        let drawing = render_svg(&items, &NoContent, &RenderOptions::default()).unwrap();
        let clipped = |id: &str| drawing.svg.contains(&format!("clip-path=\"url(#clip-{id})\""));
        assert!(!clipped("in") && !clipped("free"));
        assert!(clipped("edge") && clipped("turned"));
        roxmltree::Document::parse(&drawing.svg).expect("well-formed SVG");
    }

    #[test]
    fn bad_scales_and_regions_are_refused_with_a_reason() {
        let bad = RenderOptions { scale: 0.0, ..Default::default() };
        assert_eq!(render_svg(&[], &NoContent, &bad).unwrap_err(), RenderError::InvalidScale(0.0));
        let empty =
            RenderOptions { region: Some(Rect { x: 0.0, y: 0.0, width: 0.0, height: 5.0 }), ..Default::default() };
        assert_eq!(render_svg(&[], &NoContent, &empty).unwrap_err(), RenderError::InvalidRegion);
    }
}
