//! Frames (beyond the spec; docs/ITEMS.md "Frames"): a titled, upright rectangle that holds items
//! and moves them with it. Which items a frame holds is `canvas_vocabulary::items::containers`;
//! this module has the frame's own rules and what "moving with it" does to an item's properties.

use serde_json::{json, Map, Value};

use crate::{minimum_size, RuleContext};

/// Frames answer these single-property reads beyond the base ones.
pub const READABLE: &[(&str, &str)] = &[("title", "title"), ("fillColor", "fillColor")];

/// A frame's rules beyond its property table: the minimum size, and the title kept trimmed (it is
/// drawn as one line above the frame, where leading spaces would only push it aside).
pub fn apply_rules(ctx: &mut RuleContext<'_>) {
    minimum_size(ctx);
    if let Some(Value::String(title)) = ctx.props.get_mut("title") {
        let trimmed = title.trim();
        if trimmed.len() != title.len() {
            *title = trimmed.to_owned();
        }
    }
}

/// A displacement in map units.
pub type Shift = (f64, f64);

/// The properties of an item of `item_type` moved by `shift` with the frame holding it: its
/// `position`; for a connector, its free ends and its corner points (ends attached to an item
/// follow that item already). None when nothing of it moves (a connector attached at both ends
/// with no corners, or an item without a position).
pub fn moved_with_frame(
    item_type: canvas_vocabulary::items::ItemType,
    props: &Map<String, Value>,
    shift: Shift,
) -> Option<Map<String, Value>> {
    use canvas_vocabulary::items::ItemType;
    let mut moved = props.clone();
    let mut changed = false;
    if item_type == ItemType::Connector {
        for end in ["startPoint", "endPoint"] {
            if let Some(Value::Object(point)) = moved.get_mut(end) {
                let free = point.get("itemId").is_none_or(Value::is_null);
                if let (true, Some(at)) = (free, point.get_mut("position")) {
                    changed |= shift_point(at, shift);
                }
            }
        }
        if let Some(Value::Array(corners)) = moved.get_mut("cornerPoints") {
            for corner in corners.iter_mut() {
                changed |= shift_point(corner, shift);
            }
        }
    } else if let Some(at) = moved.get_mut("position") {
        changed |= shift_point(at, shift);
    }
    changed.then_some(moved)
}

/// Moves `{x, y}` in place by `shift`; whether it was a point.
fn shift_point(at: &mut Value, shift: Shift) -> bool {
    let (Some(x), Some(y)) = (at.get("x").and_then(Value::as_f64), at.get("y").and_then(Value::as_f64)) else {
        return false;
    };
    *at = json!({"x": x + shift.0, "y": y + shift.1});
    true
}

/// The displacement between a frame's stored position and its new one; None when it did not
/// move (a frame whose position is unchanged moves nothing it holds).
pub fn displacement(before: &Map<String, Value>, after: &Map<String, Value>) -> Option<Shift> {
    let at = |props: &Map<String, Value>| -> Option<(f64, f64)> {
        let position = props.get("position")?;
        Some((position.get("x")?.as_f64()?, position.get("y")?.as_f64()?))
    };
    let (from, to) = (at(before)?, at(after)?);
    let shift = (to.0 - from.0, to.1 - from.1);
    (shift != (0.0, 0.0)).then_some(shift)
}

#[cfg(test)]
mod tests {
    use super::*;
    use canvas_vocabulary::items::ItemType;
    use proptest::prelude::*;

    fn object(value: Value) -> Map<String, Value> {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn a_box_moves_by_the_shift_and_a_connector_moves_only_its_free_ends_and_corners() {
        let note = object(json!({"position": {"x": 10.0, "y": -5.0}, "text": "a"}));
        let moved = moved_with_frame(ItemType::StickyNote, &note, (100.0, 50.0)).unwrap();
        assert_eq!(moved["position"], json!({"x": 110.0, "y": 45.0}));
        assert_eq!(moved["text"], json!("a"));

        let connector = object(json!({
            "startPoint": {"itemId": "0190e4a0-0000-7000-8000-000000000001", "position": {"x": 0.0, "y": 0.0}},
            "endPoint": {"position": {"x": 30.0, "y": 40.0}},
            "cornerPoints": [{"x": 1.0, "y": 2.0}],
        }));
        let moved = moved_with_frame(ItemType::Connector, &connector, (10.0, 10.0)).unwrap();
        assert_eq!(moved["startPoint"]["position"], json!({"x": 0.0, "y": 0.0}), "attached: relative to its item");
        assert_eq!(moved["endPoint"]["position"], json!({"x": 40.0, "y": 50.0}));
        assert_eq!(moved["cornerPoints"], json!([{"x": 11.0, "y": 12.0}]));

        let attached = object(json!({
            "startPoint": {"itemId": "0190e4a0-0000-7000-8000-000000000001"},
            "endPoint": {"itemId": "0190e4a0-0000-7000-8000-000000000002"},
            "cornerPoints": [],
        }));
        assert_eq!(moved_with_frame(ItemType::Connector, &attached, (10.0, 10.0)), None);
    }

    #[test]
    fn only_a_changed_position_is_a_displacement() {
        let at = |x: f64, y: f64| object(json!({"position": {"x": x, "y": y}}));
        assert_eq!(displacement(&at(0.0, 0.0), &at(0.0, 0.0)), None);
        assert_eq!(displacement(&at(1.5, 2.0), &at(-1.0, 4.0)), Some((-2.5, 2.0)));
        assert_eq!(displacement(&object(json!({})), &at(1.0, 1.0)), None);
    }

    proptest! {
        /// Moving by a shift and back returns every point where it was (within rounding), and
        /// moves every box by exactly the shift.
        #[test]
        fn moving_there_and_back_is_the_identity(
            x in -1e6f64..1e6, y in -1e6f64..1e6, dx in -1e5f64..1e5, dy in -1e5f64..1e5,
        ) {
            let note = object(json!({"position": {"x": x, "y": y}}));
            let there = moved_with_frame(ItemType::Label, &note, (dx, dy)).unwrap();
            let px = there["position"]["x"].as_f64().unwrap();
            prop_assert!((px - (x + dx)).abs() < 1e-6);
            let back = moved_with_frame(ItemType::Label, &there, (-dx, -dy)).unwrap();
            prop_assert!((back["position"]["x"].as_f64().unwrap() - x).abs() < 1e-6);
            prop_assert!((back["position"]["y"].as_f64().unwrap() - y).abs() < 1e-6);
        }
    }
}
