//! Frames (beyond the spec): a titled, upright rectangle under the items it holds, and the clip
//! that keeps what it holds drawn inside it.
//!
//! Frames are drawn first (under every other item, as Miro and Figma draw theirs), the title above
//! the top-left corner. Every item a frame holds, at any depth, that reaches past the frame's edge
//! carries its own `<clipPath>`: the frame's rectangle in the item's own coordinates (an item's
//! group is moved and turned by its `transform`), so a fragment drawn alone
//! (`render.svg?itemIds=`) is clipped with no reference to another fragment. An item wholly
//! inside its frame (by its drawn bounds, stroke included) needs none and gets none.

use std::collections::{HashMap, HashSet};
use std::fmt::Write;

use serde_json::Value;

use crate::model::{Item, ItemType, Rect};
use crate::style::{escape, num, shape_color, Paint};

/// Title size and the gap between the title's baseline and the frame, in map units.
const TITLE_SIZE: f64 = 14.0;
const TITLE_GAP: f64 = 8.0;
/// Room the title takes above a frame (what a drawing fitted to the items leaves for it).
pub const TITLE_ROOM: f64 = TITLE_SIZE + TITLE_GAP + 4.0;
/// The title's colour and the frame's outline: light slate on the dark map.
const TITLE_COLOR: Paint = Paint::opaque(0xCB, 0xD5, 0xE1);
const OUTLINE: Paint = Paint::opaque(0x33, 0x41, 0x55);
/// Deepest nesting followed up from an item to its frame (the service writes no loops).
const MAX_DEPTH: usize = 64;

/// Draws a frame's body: its rectangle and its title (its group is translated to its centre).
pub fn draw(out: &mut String, item: &Item<'_>) {
    let (w, h) = (item.frame.width, item.frame.height);
    let fill = shape_color(item.str("fillColor"), Paint::opaque(0x1E, 0x29, 0x3B));
    let _ = write!(
        out,
        "<rect class=\"body\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{}{} stroke-width=\"1\"/>",
        num(-w / 2.0),
        num(-h / 2.0),
        num(w),
        num(h),
        fill.attrs("fill"),
        OUTLINE.attrs("stroke")
    );
    let title = item.str("title").unwrap_or("Frame");
    let _ = write!(
        out,
        "<text class=\"title\" x=\"{}\" y=\"{}\" font-family=\"Arial, sans-serif\" font-size=\"{}\"{}>{}</text>",
        num(-w / 2.0),
        num(-h / 2.0 - TITLE_GAP),
        num(TITLE_SIZE),
        TITLE_COLOR.attrs("fill"),
        escape(&fitted(title, w))
    );
}

/// The title cut with an ellipsis where it would run past the frame's width (Arial averages
/// about 0.55 em per character).
fn fitted(title: &str, width: f64) -> String {
    let most = ((width / (TITLE_SIZE * 0.55)).floor() as usize).max(1);
    if title.chars().count() <= most {
        return title.to_owned();
    }
    let kept: String = title.chars().take(most.saturating_sub(1)).collect();
    format!("{kept}…")
}

/// For every item, the frame holding it (at any depth), by the items' `parent` links.
pub fn holders<'a>(items: &[Item<'a>]) -> HashMap<&'a str, &'a str> {
    let by_id: HashMap<&str, &Item<'_>> = items.iter().map(|item| (item.id, item)).collect();
    let parent_of = |item: &Item<'a>| item.props.get("parent").and_then(Value::as_str);
    let mut holders = HashMap::new();
    for item in items.iter().filter(|item| item.kind != ItemType::Frame) {
        let mut at = parent_of(item);
        for _ in 0..MAX_DEPTH {
            let Some(parent) = at.and_then(|id| by_id.get(id)) else { break };
            if parent.kind == ItemType::Frame {
                holders.insert(item.id, parent.id);
                break;
            }
            at = parent_of(parent);
        }
    }
    holders
}

/// `frame` and every item it holds: what `render.svg?frame=` draws.
pub fn with_held<'a>(frame: &str, holders: &HashMap<&'a str, &'a str>) -> HashSet<String> {
    let mut ids: HashSet<String> =
        holders.iter().filter(|(_, f)| **f == frame).map(|(id, _)| (*id).to_owned()).collect();
    ids.insert(frame.to_owned());
    ids
}

/// The frame's rectangle on the map.
pub fn rect(frame: &Item<'_>) -> Rect {
    let f = frame.frame;
    Rect { x: f.cx - f.width / 2.0, y: f.cy - f.height / 2.0, width: f.width, height: f.height }
}

/// Opens the clip of `item` inside its group: the frame's rectangle in the item's coordinates.
/// The caller closes it with `</g>`.
pub fn open_clip(out: &mut String, item: &Item<'_>, frame: Rect) {
    let corners =
        [(frame.x, frame.y), (frame.right(), frame.y), (frame.right(), frame.bottom()), (frame.x, frame.bottom())];
    let local = |(x, y): (f64, f64)| -> (f64, f64) {
        if item.kind == ItemType::Connector {
            return (x, y); // drawn in map coordinates, no transform
        }
        let (dx, dy) = (x - item.frame.cx, y - item.frame.cy);
        let turn = -item.frame.angle.to_radians();
        (dx * turn.cos() - dy * turn.sin(), dx * turn.sin() + dy * turn.cos())
    };
    let mut path = String::new();
    for (i, corner) in corners.into_iter().map(local).enumerate() {
        let _ = write!(path, "{}{} {}", if i == 0 { "M" } else { " L" }, num(corner.0), num(corner.1));
    }
    let id = escape(item.id);
    let _ =
        write!(out, "<clipPath id=\"clip-{id}\"><path d=\"{path} Z\"/></clipPath><g clip-path=\"url(#clip-{id})\">");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn long_titles_end_in_an_ellipsis_within_the_width() {
        assert_eq!(fitted("Sprint 1", 800.0), "Sprint 1");
        let cut = fitted(&"x".repeat(200), 80.0);
        assert_eq!(cut.chars().count(), 10);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn an_item_belongs_to_the_frame_above_it_at_any_depth() {
        let values = [
            json!({"itemId": "f", "itemType": "frame", "parent": "panel", "position": {"x": 0, "y": 0}, "size": {"width": 100, "height": 100}}),
            json!({"itemId": "s", "itemType": "shape", "parent": "f", "position": {"x": 0, "y": 0}, "size": {"width": 10, "height": 10}}),
            json!({"itemId": "l", "itemType": "label", "parent": "s", "text": "a", "position": {"x": 0, "y": 0}}),
            json!({"itemId": "o", "itemType": "label", "parent": "panel", "text": "b", "position": {"x": 0, "y": 0}}),
        ];
        let items: Vec<Item<'_>> = values.iter().filter_map(Item::read).collect();
        let holders = holders(&items);
        assert_eq!(holders.get("s"), Some(&"f"));
        assert_eq!(holders.get("l"), Some(&"f"));
        assert_eq!(holders.get("o"), None);
        let drawn = with_held("f", &holders);
        assert_eq!(drawn, HashSet::from(["f".to_owned(), "s".to_owned(), "l".to_owned()]));
    }
}
