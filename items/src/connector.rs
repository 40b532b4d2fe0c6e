//! Connectors: end points that may follow items, line types, decorators, and
//! the geometry that places an attached end on its item.
//!
//! Geometry conventions (written down in docs/ITEMS.md): an item's `position` is
//! its centre; it is drawn `size × scale` large and turned by `angle` degrees
//! (clockwise) about that centre. An end attached with `edge: false` sits at
//! the item's position plus the end's `position`. With `edge: true` it sits
//! on the item's outline: where the ray from the centre towards the anchor
//! (item position + end position) leaves the item, or, when that offset is
//! zero, towards the connector's other end.

use serde_json::{json, Map, Value};

use super::RuleContext;

pub use canvas_vocabulary::items::{CONNECTOR_POINT, DECORATORS, LINE_TYPES};

pub const READABLE: &[(&str, &str)] = &[
    ("type", "type"),
    ("strokeColor", "strokeColor"),
    ("strokeThickness", "strokeThickness"),
    ("cornerPoints", "cornerPoints"),
    ("radius", "radius"),
    ("startPoint", "startPoint"),
    ("endPoint", "endPoint"),
];

/// Connector rules beyond single properties: nothing derived is stored.
pub fn apply_rules(ctx: &mut RuleContext<'_>) {
    for ignored in ["position", "size", "scale", "angle"] {
        ctx.props.remove(ignored);
    }
}

/// The item ids a connector's ends are attached to.
pub fn attached_items(props: &Map<String, Value>) -> Vec<String> {
    ["startPoint", "endPoint"]
        .iter()
        .filter_map(|end| props.get(*end)?.get("itemId")?.as_str().map(str::to_owned))
        .collect()
}

/// Where an item is drawn: centre, drawn half extents, rotation.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub cx: f64,
    pub cy: f64,
    pub half_width: f64,
    pub half_height: f64,
    /// Radians, clockwise on the map (y grows downwards).
    pub angle: f64,
}

impl Frame {
    /// The frame of an item from its stored properties.
    pub fn of(props: &Map<String, Value>) -> Frame {
        let get = |p: &str, m: &str| props.get(p).and_then(|v| v.get(m)).and_then(Value::as_f64).unwrap_or(0.0);
        let scale = props.get("scale").and_then(Value::as_f64).unwrap_or(1.0);
        Frame {
            cx: get("position", "x"),
            cy: get("position", "y"),
            half_width: get("size", "width") * scale / 2.0,
            half_height: get("size", "height") * scale / 2.0,
            angle: props.get("angle").and_then(Value::as_f64).unwrap_or(0.0).to_radians(),
        }
    }

    /// Half extents of the box the item covers, turned by its angle.
    pub fn turned_half_extents(&self) -> (f64, f64) {
        canvas_vocabulary::geometry::turned_half_extents(self.half_width, self.half_height, self.angle)
    }

    /// Where the ray from the centre in direction (dx, dy) leaves the item.
    fn boundary_towards(&self, dx: f64, dy: f64) -> (f64, f64) {
        if (dx == 0.0 && dy == 0.0) || self.half_width <= 0.0 || self.half_height <= 0.0 {
            return (self.cx, self.cy);
        }
        let (sin, cos) = self.angle.sin_cos();
        // Into the item's own frame…
        let lx = dx * cos + dy * sin;
        let ly = -dx * sin + dy * cos;
        let t = (self.half_width / lx.abs()).min(self.half_height / ly.abs());
        let (px, py) = (lx * t, ly * t);
        // …and back onto the map.
        (self.cx + px * cos - py * sin, self.cy + px * sin + py * cos)
    }
}

/// One end of a connector as stored.
struct End<'a> {
    point: &'a Value,
    frame: Option<Frame>,
}

impl End<'_> {
    fn offset(&self) -> (f64, f64) {
        let p = &self.point["position"];
        (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0))
    }

    /// The end's position before edge snapping.
    fn anchor(&self) -> (f64, f64) {
        let (ox, oy) = self.offset();
        match self.frame {
            Some(f) => (f.cx + ox, f.cy + oy),
            None => (ox, oy),
        }
    }

    fn resolve(&self, other_anchor: (f64, f64)) -> (f64, f64) {
        let Some(frame) = self.frame else { return self.anchor() };
        if !self.point["edge"].as_bool().unwrap_or(true) {
            return self.anchor();
        }
        let (ox, oy) = self.offset();
        let (dx, dy) =
            if ox == 0.0 && oy == 0.0 { (other_anchor.0 - frame.cx, other_anchor.1 - frame.cy) } else { (ox, oy) };
        frame.boundary_towards(dx, dy)
    }
}

/// Resolves both ends of a connector against the frames of the items they
/// follow (`frame_of(itemId)`; None when the item is gone) and returns the
/// map positions of start and end.
pub fn resolve_ends(props: &Map<String, Value>, frame_of: impl Fn(&str) -> Option<Frame>) -> ((f64, f64), (f64, f64)) {
    let end = |name: &str| {
        let point = props.get(name).unwrap_or(&Value::Null);
        let frame = point.get("itemId").and_then(Value::as_str).and_then(&frame_of);
        End { point, frame }
    };
    let (start, finish) = (end("startPoint"), end("endPoint"));
    let (start_anchor, end_anchor) = (start.anchor(), finish.anchor());
    (start.resolve(end_anchor), finish.resolve(start_anchor))
}

/// Adds what a reader sees: each end's resolved `absolutePosition`, and the
/// derived position (centre), size, scale and angle of the connector.
pub fn present(props: &mut Map<String, Value>, frame_of: impl Fn(&str) -> Option<Frame>) {
    let (start, end) = resolve_ends(props, frame_of);
    for (name, at) in [("startPoint", start), ("endPoint", end)] {
        if let Some(Value::Object(point)) = props.get_mut(name) {
            point.insert("absolutePosition".into(), json!({"x": round(at.0), "y": round(at.1)}));
        }
    }
    let mut xs = vec![start.0, end.0];
    let mut ys = vec![start.1, end.1];
    for corner in props.get("cornerPoints").and_then(Value::as_array).into_iter().flatten() {
        xs.push(corner["x"].as_f64().unwrap_or(0.0));
        ys.push(corner["y"].as_f64().unwrap_or(0.0));
    }
    let (min_x, max_x) = xs.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let (min_y, max_y) = ys.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &y| (lo.min(y), hi.max(y)));
    props.insert("position".into(), json!({"x": round((min_x + max_x) / 2.0), "y": round((min_y + max_y) / 2.0)}));
    props.insert("size".into(), json!({"width": round(max_x - min_x), "height": round(max_y - min_y)}));
    props.insert("scale".into(), json!(1));
    props.insert("angle".into(), json!(0));
}

/// Detaches every end that follows `item_id`, pinning it where it was drawn
/// (`frame` is the deleted item's). Returns true when something changed.
pub fn detach(props: &mut Map<String, Value>, item_id: &str, frames: impl Fn(&str) -> Option<Frame>) -> bool {
    let (start, end) = resolve_ends(props, &frames);
    let mut changed = false;
    for (name, at) in [("startPoint", start), ("endPoint", end)] {
        if let Some(Value::Object(point)) = props.get_mut(name) {
            if point.get("itemId").and_then(Value::as_str) == Some(item_id) {
                point.insert("itemId".into(), Value::Null);
                point.insert("position".into(), json!({"x": round(at.0), "y": round(at.1)}));
                changed = true;
            }
        }
    }
    changed
}

fn round(value: f64) -> f64 {
    (value * 1e9).round() / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(cx: f64, cy: f64, w: f64, h: f64, angle: f64) -> Frame {
        Frame { cx, cy, half_width: w / 2.0, half_height: h / 2.0, angle: angle.to_radians() }
    }

    #[test]
    fn edge_points_land_on_the_outline_facing_the_other_end() {
        let f = frame(100.0, 100.0, 40.0, 20.0, 0.0);
        assert_eq!(f.boundary_towards(1.0, 0.0), (120.0, 100.0));
        assert_eq!(f.boundary_towards(0.0, -1.0), (100.0, 90.0));
        let turned = frame(0.0, 0.0, 40.0, 20.0, 90.0);
        let (x, y) = turned.boundary_towards(1.0, 0.0);
        assert!((x - 10.0).abs() < 1e-9 && y.abs() < 1e-9, "{x},{y}");
    }
}
