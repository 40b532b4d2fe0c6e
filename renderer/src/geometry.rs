//! Where items are drawn, read from core-service's geometry (docs/ITEMS.md, "Geometry"):
//! rectangles in map units, an item's frame (centre, drawn size, angle), and a connector's
//! resolved points. Every drawing module and the item reader stand on this, so it imports none
//! of them.
//!
//! `position` is the centre; the item is drawn `size × scale` large and turned `angle` degrees
//! clockwise about its centre. Connectors carry their resolved end points (`absolutePosition`),
//! so nothing is recomputed here.

use serde_json::{Map, Value};

/// An axis-aligned rectangle in map units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    pub fn intersects(&self, other: &Rect) -> bool {
        self.x <= other.right() && other.x <= self.right() && self.y <= other.bottom() && other.y <= self.bottom()
    }

    /// Whether `other` lies wholly inside (edges included).
    pub fn contains(&self, other: &Rect) -> bool {
        self.x <= other.x && other.right() <= self.right() && self.y <= other.y && other.bottom() <= self.bottom()
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        let (x, y) = (self.x.min(other.x), self.y.min(other.y));
        Rect { x, y, width: self.right().max(other.right()) - x, height: self.bottom().max(other.bottom()) - y }
    }

    pub fn grow(&self, margin: f64) -> Rect {
        Rect {
            x: self.x - margin,
            y: self.y - margin,
            width: self.width + 2.0 * margin,
            height: self.height + 2.0 * margin,
        }
    }
}

/// Where an item is drawn: centre, drawn size (size × scale), clockwise angle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub cx: f64,
    pub cy: f64,
    pub width: f64,
    pub height: f64,
    pub angle: f64,
}

impl Frame {
    /// The bounding box of the turned rectangle.
    pub fn bounds(&self) -> Rect {
        let (half_w, half_h) = canvas_vocabulary::geometry::turned_half_extents(
            self.width / 2.0,
            self.height / 2.0,
            self.angle.to_radians(),
        );
        Rect { x: self.cx - half_w, y: self.cy - half_h, width: 2.0 * half_w, height: 2.0 * half_h }
    }

    /// `transform` of the item's group: its own coordinates have the origin at
    /// the centre, so the outline spans ±width/2, ±height/2.
    pub fn transform(&self) -> String {
        use crate::style::num;
        if self.angle == 0.0 || self.angle == 360.0 {
            format!("translate({} {})", num(self.cx), num(self.cy))
        } else {
            format!("translate({} {}) rotate({})", num(self.cx), num(self.cy), num(self.angle))
        }
    }
}

/// `props[outer][inner]` as a number (0 when missing).
pub fn number(props: &Map<String, Value>, outer: &str, inner: &str) -> f64 {
    props.get(outer).and_then(|v| v.get(inner)).and_then(Value::as_f64).filter(|n| n.is_finite()).unwrap_or(0.0)
}

/// The frame of a non-connector item whose unscaled size is `width × height`.
pub fn base_frame(props: &Map<String, Value>, width: f64, height: f64) -> Frame {
    let scale = props.get("scale").and_then(Value::as_f64).filter(|s| *s > 0.0 && s.is_finite()).unwrap_or(1.0);
    Frame {
        cx: number(props, "position", "x"),
        cy: number(props, "position", "y"),
        width: width.max(0.0) * scale,
        height: height.max(0.0) * scale,
        angle: props.get("angle").and_then(Value::as_f64).filter(|a| a.is_finite()).unwrap_or(0.0),
    }
}

/// A point in map units.
pub type Point = (f64, f64);

fn point_of(value: &Value) -> Option<Point> {
    let x = value.get("x")?.as_f64()?;
    let y = value.get("y")?.as_f64()?;
    (x.is_finite() && y.is_finite()).then_some((x, y))
}

/// Where an end is drawn: its resolved position, else its stored position.
fn end(props: &Map<String, Value>, name: &str) -> Option<Point> {
    let end = props.get(name)?;
    end.get("absolutePosition").and_then(point_of).or_else(|| end.get("position").and_then(point_of))
}

/// Start, corner points, end: every point the line passes.
pub fn points(props: &Map<String, Value>) -> Vec<Point> {
    let (Some(start), Some(finish)) = (end(props, "startPoint"), end(props, "endPoint")) else {
        return Vec::new();
    };
    let mut points = vec![start];
    points.extend(props.get("cornerPoints").and_then(Value::as_array).into_iter().flatten().filter_map(point_of));
    points.push(finish);
    points
}

/// (what core-service also reports as its position and size).
pub fn connector_frame(props: &Map<String, Value>) -> Frame {
    let points = points(props);
    let (mut min_x, mut min_y, mut max_x, mut max_y) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in &points {
        min_x = min_x.min(*x);
        min_y = min_y.min(*y);
        max_x = max_x.max(*x);
        max_y = max_y.max(*y);
    }
    if points.is_empty() {
        return Frame { cx: 0.0, cy: 0.0, width: 0.0, height: 0.0, angle: 0.0 };
    }
    Frame {
        cx: (min_x + max_x) / 2.0,
        cy: (min_y + max_y) / 2.0,
        width: max_x - min_x,
        height: max_y - min_y,
        angle: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turned_item_is_bounded_by_its_corners() {
        let frame = Frame { cx: 10.0, cy: 20.0, width: 40.0, height: 20.0, angle: 90.0 };
        let b = frame.bounds();
        assert!((b.width - 20.0).abs() < 1e-9 && (b.height - 40.0).abs() < 1e-9, "{b:?}");
        assert!((b.x - 0.0).abs() < 1e-9 && (b.y - 0.0).abs() < 1e-9, "{b:?}");
    }

    #[test]
    fn ends_prefer_the_resolved_position() {
        let props = serde_json::json!({
            "startPoint": {"position": {"x": 0, "y": 0}, "absolutePosition": {"x": 5, "y": 6}},
            "endPoint": {"position": {"x": 9, "y": 9}},
            "cornerPoints": [{"x": 1, "y": 2}]
        });
        assert_eq!(points(props.as_object().unwrap()), [(5.0, 6.0), (1.0, 2.0), (9.0, 9.0)]);
    }
}
