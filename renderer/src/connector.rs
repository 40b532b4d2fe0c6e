//! Connectors: Straight, Angled and Curved lines between the end points
//! core-service resolved (`absolutePosition`), with a decorator at each end.
//!
//! Angled lines run through `cornerPoints` (or, without any, one elbow half
//! way between the ends), and each corner is rounded by `radius`: a fraction
//! from 0 (sharp) to 1 (the largest arc that fits, half the shorter adjacent
//! segment). Curved lines are a smooth cubic spline through the same points.

use std::fmt::Write;

use serde_json::Value;

use crate::model::Item;
use crate::style::{css_color, num, Paint};

pub use crate::geometry::points;
use crate::geometry::Point;

/// Draws the line and its two decorators, in map coordinates.
pub fn draw(out: &mut String, item: &Item<'_>) {
    let mut points = points(item.props);
    if points.len() < 2 {
        return;
    }
    let color = css_color(item.str("strokeColor"), Paint::opaque(0xf5, 0x9e, 0x0b));
    let thickness = item.f64("strokeThickness").unwrap_or(3.0).max(0.0);
    let line_type = item.str("type").unwrap_or("Straight");
    if line_type == "Angled" && points.len() == 2 {
        let (s, e) = (points[0], points[1]);
        let mid = (s.0 + e.0) / 2.0;
        points = vec![s, (mid, s.1), (mid, e.1), e];
    }
    let d = match line_type {
        "Angled" => angled(&points, item.f64("radius").unwrap_or(0.5).clamp(0.0, 1.0)),
        "Curved" => curved(&points),
        _ => format!(
            "M{} {}L{} {}",
            num(points[0].0),
            num(points[0].1),
            num(points[points.len() - 1].0),
            num(points[points.len() - 1].1)
        ),
    };
    let paint = if color.is_invisible() || thickness == 0.0 { Paint { alpha: 0.0, ..color } } else { color };
    let _ = write!(
        out,
        "<path class=\"body\" d=\"{d}\" fill=\"none\"{} stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
        paint.attrs("stroke"),
        num(thickness)
    );
    // Direction of arrival at each end: along the first and last segment for
    // straight and angled lines, along the end tangents for curves.
    let (start_from, end_from) = if line_type == "Straight" {
        (points[points.len() - 1], points[0])
    } else {
        (points[1], points[points.len() - 2])
    };
    let size = (thickness * 3.0).max(9.0);
    for (name, tip, from) in [("startPoint", points[0], start_from), ("endPoint", points[points.len() - 1], end_from)] {
        let decorator =
            item.props.get(name).and_then(|p| p.get("decorator")).and_then(Value::as_str).unwrap_or("ArrowLine");
        decorate(out, decorator, tip, from, size, paint, thickness);
    }
}

/// An angled polyline whose inner corners are rounded.
fn angled(points: &[Point], radius: f64) -> String {
    let mut d = format!("M{} {}", num(points[0].0), num(points[0].1));
    for window in points.windows(3) {
        let (a, b, c) = (window[0], window[1], window[2]);
        let (len_in, len_out) = (dist(a, b), dist(b, c));
        let r = radius * len_in.min(len_out) / 2.0;
        if r <= 0.0 || len_in == 0.0 || len_out == 0.0 {
            let _ = write!(d, "L{} {}", num(b.0), num(b.1));
            continue;
        }
        let before = (b.0 + (a.0 - b.0) * r / len_in, b.1 + (a.1 - b.1) * r / len_in);
        let after = (b.0 + (c.0 - b.0) * r / len_out, b.1 + (c.1 - b.1) * r / len_out);
        let _ = write!(
            d,
            "L{} {}Q{} {} {} {}",
            num(before.0),
            num(before.1),
            num(b.0),
            num(b.1),
            num(after.0),
            num(after.1)
        );
    }
    let last = points[points.len() - 1];
    let _ = write!(d, "L{} {}", num(last.0), num(last.1));
    d
}

/// A cubic spline through the points (Catmull-Rom, tension 1/6). With only
/// two points the curve leaves and enters horizontally, an S between the ends.
fn curved(points: &[Point]) -> String {
    let mut d = format!("M{} {}", num(points[0].0), num(points[0].1));
    if points.len() == 2 {
        let (s, e) = (points[0], points[1]);
        let mid = (s.0 + e.0) / 2.0;
        let _ = write!(d, "C{} {} {} {} {} {}", num(mid), num(s.1), num(mid), num(e.1), num(e.0), num(e.1));
        return d;
    }
    for i in 0..points.len() - 1 {
        let p0 = points[i.saturating_sub(1)];
        let (p1, p2) = (points[i], points[i + 1]);
        let p3 = points[(i + 2).min(points.len() - 1)];
        let c1 = (p1.0 + (p2.0 - p0.0) / 6.0, p1.1 + (p2.1 - p0.1) / 6.0);
        let c2 = (p2.0 - (p3.0 - p1.0) / 6.0, p2.1 - (p3.1 - p1.1) / 6.0);
        let _ = write!(d, "C{} {} {} {} {} {}", num(c1.0), num(c1.1), num(c2.0), num(c2.1), num(p2.0), num(p2.1));
    }
    d
}

fn dist(a: Point, b: Point) -> f64 {
    ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()
}

/// Draws a decorator at `tip`, pointing away from `from`.
fn decorate(out: &mut String, decorator: &str, tip: Point, from: Point, size: f64, paint: Paint, thickness: f64) {
    let length = dist(from, tip);
    let (ux, uy) = if length > 0.0 { ((tip.0 - from.0) / length, (tip.1 - from.1) / length) } else { (1.0, 0.0) };
    // The two back corners of an arrow head.
    let back = (tip.0 - ux * size, tip.1 - uy * size);
    let (nx, ny) = (-uy * size / 2.0, ux * size / 2.0);
    let (left, right) = ((back.0 + nx, back.1 + ny), (back.0 - nx, back.1 - ny));
    let pts = |a: Point, b: Point, c: Point| {
        format!("{} {} {} {} {} {}", num(a.0), num(a.1), num(b.0), num(b.1), num(c.0), num(c.1))
    };
    match decorator {
        "Arrow" => {
            let _ = write!(
                out,
                "<polygon class=\"decorator\" points=\"{}\"{}/>",
                pts(left, tip, right),
                paint.attrs("fill")
            );
        }
        "ArrowLine" => {
            let _ = write!(
                out,
                "<polyline class=\"decorator\" points=\"{}\" fill=\"none\"{} stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                pts(left, tip, right),
                paint.attrs("stroke"),
                num(thickness.max(1.0))
            );
        }
        "Circle" => {
            let _ = write!(
                out,
                "<circle class=\"decorator\" cx=\"{}\" cy=\"{}\" r=\"{}\"{}/>",
                num(tip.0),
                num(tip.1),
                num(size / 2.5),
                paint.attrs("fill")
            );
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angled_corners_are_rounded_by_a_fraction_of_the_shorter_segment() {
        let d = angled(&[(0.0, 0.0), (100.0, 0.0), (100.0, 40.0)], 0.5);
        assert_eq!(d, "M0 0L90 0Q100 0 100 10L100 40");
        assert_eq!(angled(&[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0)], 0.0), "M0 0L10 0L10 10");
    }
}
