//! The 45 shape types as SVG path outlines.
//!
//! Each outline is written in the item's own coordinates (origin at the
//! centre, ±width/2 and ±height/2 at the edges), mostly as polygons given in
//! unit-box fractions so they stretch with the item like the shapes of common
//! drawing tools. The round-corner types use the radius core-service reports
//! (`cornerRadius`, world units, already capped at half the shorter side), so
//! the drawing and the API agree on the corners.

use std::f64::consts::PI;
use std::fmt::Write;

use crate::model::Item;
use crate::style::{num, shape_color, Paint};

/// How one corner of a rectangle is finished.
#[derive(Clone, Copy)]
enum Corner {
    Square,
    Round(f64),
    Snip(f64),
}

/// Draws the shape's outline with its fill, stroke and thickness.
pub fn draw(out: &mut String, item: &Item<'_>) {
    let fill = shape_color(item.str("fillColor"), Paint { rgb: [0, 0, 0], alpha: 0.0 });
    let stroke = shape_color(item.str("strokeColor"), Paint::opaque(255, 255, 255));
    let thickness = item.f64("strokeThickness").unwrap_or(2.0).max(0.0);
    let shape_type = item.str("type").unwrap_or("Rectangle");
    let (w, h) = (item.frame.width, item.frame.height);
    let radius = item.f64("cornerRadius").unwrap_or(0.0).clamp(0.0, w.min(h) / 2.0);
    let _ = write!(out, "<path class=\"body\" d=\"{}\"{}", outline(shape_type, w, h, radius), fill.attrs("fill"));
    if thickness > 0.0 && !stroke.is_invisible() {
        let _ = write!(out, "{} stroke-width=\"{}\" stroke-linejoin=\"round\"", stroke.attrs("stroke"), num(thickness));
    }
    if matches!(shape_type, "Donut" | "Frame") {
        out.push_str(" fill-rule=\"evenodd\"");
    }
    out.push_str("/>");
}

/// The path data of a shape type (spec spelling; unknown types draw as a rectangle).
pub fn outline(shape_type: &str, w: f64, h: f64, radius: f64) -> String {
    use Corner::{Round, Snip, Square};
    let snip = w.min(h) / 6.0;
    let r = radius;
    match shape_type {
        "Ellipse" => ellipse(w / 2.0, h / 2.0),
        "RoundedRectangle" => corners(w, h, [Round(r); 4]),
        "OneRoundCornerRectangle" => corners(w, h, [Square, Round(r), Square, Square]),
        "TwoSameSideRoundCornerRectangle" => corners(w, h, [Round(r), Round(r), Square, Square]),
        "TwoDiagonalRoundCornerRectangle" => corners(w, h, [Round(r), Square, Round(r), Square]),
        "OneSnipOneRoundCornerRectangle" => corners(w, h, [Round(r), Snip(snip), Square, Square]),
        "OneSnipCornerRectangle" => corners(w, h, [Square, Snip(snip), Square, Square]),
        "TwoSameSideSnipCornerRectangle" => corners(w, h, [Snip(snip), Snip(snip), Square, Square]),
        "TwoDiagonalSnipCornerRectangle" => corners(w, h, [Snip(snip), Square, Snip(snip), Square]),
        "Triangle" => poly(w, h, &[(0.5, 0.0), (1.0, 1.0), (0.0, 1.0)]),
        "RightTriangle" => poly(w, h, &[(0.0, 0.0), (1.0, 1.0), (0.0, 1.0)]),
        "Diamond" => poly(w, h, &[(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)]),
        "Pentagon" => regular(w, h, 5),
        "Hexagon" => poly(w, h, &[(0.25, 0.0), (0.75, 0.0), (1.0, 0.5), (0.75, 1.0), (0.25, 1.0), (0.0, 0.5)]),
        "Heptagon" => regular(w, h, 7),
        "Octagon" => corners(w, h, [Snip(w.min(h) * 0.29); 4]),
        "Decagon" => regular(w, h, 10),
        "Dodecagon" => regular(w, h, 12),
        "Parallelogram" => poly(w, h, &[(0.25, 0.0), (1.0, 0.0), (0.75, 1.0), (0.0, 1.0)]),
        "Trapezoid" => poly(w, h, &[(0.2, 0.0), (0.8, 0.0), (1.0, 1.0), (0.0, 1.0)]),
        "Plus" => poly(w, h, &cross(1.0 / 3.0)),
        "Donut" => {
            let ring = w.min(h) / 4.0;
            format!("{}{}", ellipse(w / 2.0, h / 2.0), ellipse(w / 2.0 - ring, h / 2.0 - ring))
        }
        "Heart" => heart(w, h),
        "LightningBolt" => poly(w, h, &LIGHTNING),
        "Star4" => star(w, h, 4, 0.3),
        "Star5" => star(w, h, 5, 0.4),
        "Star6" => star(w, h, 6, 0.55),
        // A pentagon pointing right ("home plate") and two chevrons.
        "DirectionArrow" => poly(w, h, &[(0.0, 0.0), (0.75, 0.0), (1.0, 0.5), (0.75, 1.0), (0.0, 1.0)]),
        "DirectionArrowRight" => poly(w, h, &CHEVRON),
        "DirectionArrowLeft" => poly(w, h, &mirror_x(&CHEVRON)),
        "RightArrow" => poly(w, h, &ARROW),
        "LeftArrow" => poly(w, h, &mirror_x(&ARROW)),
        "DownArrow" => poly(w, h, &swap(&ARROW)),
        "UpArrow" => poly(w, h, &mirror_y(&swap(&ARROW))),
        "LeftRightArrow" => poly(w, h, &DOUBLE_ARROW),
        "UpDownArrow" => poly(w, h, &swap(&DOUBLE_ARROW)),
        "QuadArrow" => poly(w, h, &QUAD_ARROW),
        "LeftRightUpArrow" => poly(w, h, &LEFT_RIGHT_UP_ARROW),
        "StripedRightArrow" => format!(
            "{}{}{}",
            poly(w, h, &[(0.0, 0.3), (0.05, 0.3), (0.05, 0.7), (0.0, 0.7)]),
            poly(w, h, &[(0.1, 0.3), (0.2, 0.3), (0.2, 0.7), (0.1, 0.7)]),
            poly(w, h, &[(0.25, 0.3), (0.65, 0.3), (0.65, 0.0), (1.0, 0.5), (0.65, 1.0), (0.65, 0.7), (0.25, 0.7)])
        ),
        "NotchedRightArrow" => poly(
            w,
            h,
            &[(0.0, 0.3), (0.65, 0.3), (0.65, 0.0), (1.0, 0.5), (0.65, 1.0), (0.65, 0.7), (0.0, 0.7), (0.15, 0.5)],
        ),
        "Plaque" => plaque(w, h, w.min(h) / 6.0),
        "Frame" => {
            let t = w.min(h) / 8.0;
            format!("{}{}", corners(w, h, [Square; 4]), corners(w - 2.0 * t, h - 2.0 * t, [Square; 4]))
        }
        "HalfFrame" => poly(w, h, &[(0.0, 0.0), (1.0, 0.0), (0.8, 0.2), (0.2, 0.2), (0.2, 0.8), (0.0, 1.0)]),
        "Corner" => poly(w, h, &[(0.0, 0.0), (0.4, 0.0), (0.4, 0.6), (1.0, 0.6), (1.0, 1.0), (0.0, 1.0)]),
        _ => corners(w, h, [Square; 4]),
    }
}

const ARROW: [(f64, f64); 7] = [(0.0, 0.25), (0.6, 0.25), (0.6, 0.0), (1.0, 0.5), (0.6, 1.0), (0.6, 0.75), (0.0, 0.75)];
const CHEVRON: [(f64, f64); 6] = [(0.0, 0.0), (0.7, 0.0), (1.0, 0.5), (0.7, 1.0), (0.0, 1.0), (0.3, 0.5)];
const DOUBLE_ARROW: [(f64, f64); 10] = [
    (0.0, 0.5),
    (0.25, 0.0),
    (0.25, 0.25),
    (0.75, 0.25),
    (0.75, 0.0),
    (1.0, 0.5),
    (0.75, 1.0),
    (0.75, 0.75),
    (0.25, 0.75),
    (0.25, 1.0),
];
const QUAD_ARROW: [(f64, f64); 24] = [
    (0.5, 0.0),
    (0.7, 0.2),
    (0.58, 0.2),
    (0.58, 0.42),
    (0.8, 0.42),
    (0.8, 0.3),
    (1.0, 0.5),
    (0.8, 0.7),
    (0.8, 0.58),
    (0.58, 0.58),
    (0.58, 0.8),
    (0.7, 0.8),
    (0.5, 1.0),
    (0.3, 0.8),
    (0.42, 0.8),
    (0.42, 0.58),
    (0.2, 0.58),
    (0.2, 0.7),
    (0.0, 0.5),
    (0.2, 0.3),
    (0.2, 0.42),
    (0.42, 0.42),
    (0.42, 0.2),
    (0.3, 0.2),
];
const LEFT_RIGHT_UP_ARROW: [(f64, f64); 17] = [
    (0.5, 0.0),
    (0.7, 0.25),
    (0.58, 0.25),
    (0.58, 0.62),
    (0.8, 0.62),
    (0.8, 0.45),
    (1.0, 0.72),
    (0.8, 1.0),
    (0.8, 0.82),
    (0.2, 0.82),
    (0.2, 1.0),
    (0.0, 0.72),
    (0.2, 0.45),
    (0.2, 0.62),
    (0.42, 0.62),
    (0.42, 0.25),
    (0.3, 0.25),
];
const LIGHTNING: [(f64, f64); 11] = [
    (0.38, 0.0),
    (0.62, 0.0),
    (0.52, 0.3),
    (0.74, 0.28),
    (0.46, 0.58),
    (0.64, 0.56),
    (0.12, 1.0),
    (0.34, 0.64),
    (0.16, 0.66),
    (0.36, 0.36),
    (0.18, 0.38),
];

fn mirror_x(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points.iter().map(|&(x, y)| (1.0 - x, y)).collect()
}

fn mirror_y(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points.iter().map(|&(x, y)| (x, 1.0 - y)).collect()
}

/// Turns a horizontal outline into a vertical one (right becomes down).
fn swap(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    points.iter().map(|&(x, y)| (y, x)).collect()
}

fn cross(arm: f64) -> Vec<(f64, f64)> {
    let (a, b) = (arm, 1.0 - arm);
    vec![(a, 0.0), (b, 0.0), (b, a), (1.0, a), (1.0, b), (b, b), (b, 1.0), (a, 1.0), (a, b), (0.0, b), (0.0, a), (a, a)]
}

/// A closed polygon from unit-box fractions.
fn poly(w: f64, h: f64, points: &[(f64, f64)]) -> String {
    let mut d = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, num(x * w - w / 2.0), num(y * h - h / 2.0));
    }
    d.push('Z');
    d
}

/// A regular polygon inscribed in the box, first vertex at the top.
fn regular(w: f64, h: f64, sides: usize) -> String {
    let points: Vec<(f64, f64)> = (0..sides)
        .map(|i| {
            let a = -PI / 2.0 + 2.0 * PI * i as f64 / sides as f64;
            (0.5 + 0.5 * a.cos(), 0.5 + 0.5 * a.sin())
        })
        .collect();
    poly(w, h, &points)
}

/// A star with `tips` points; `inner` is the inner radius as a fraction of the outer.
fn star(w: f64, h: f64, tips: usize, inner: f64) -> String {
    let points: Vec<(f64, f64)> = (0..2 * tips)
        .map(|i| {
            let a = -PI / 2.0 + PI * i as f64 / tips as f64;
            let r = if i % 2 == 0 { 0.5 } else { 0.5 * inner };
            (0.5 + r * a.cos(), 0.5 + r * a.sin())
        })
        .collect();
    poly(w, h, &points)
}

fn ellipse(rx: f64, ry: f64) -> String {
    let (rx, ry) = (num(rx.max(0.0)), num(ry.max(0.0)));
    format!("M-{rx} 0A{rx} {ry} 0 1 0 {rx} 0A{rx} {ry} 0 1 0 -{rx} 0Z")
}

/// A rectangle whose corners (top-left, top-right, bottom-right, bottom-left)
/// are square, rounded or snipped.
fn corners(w: f64, h: f64, finish: [Corner; 4]) -> String {
    let (l, t, r, b) = (-w / 2.0, -h / 2.0, w / 2.0, h / 2.0);
    let cap = |c: Corner| match c {
        Corner::Square => 0.0,
        Corner::Round(x) | Corner::Snip(x) => x.clamp(0.0, w.min(h) / 2.0),
    };
    // Each corner: the vertex, and the unit directions towards the previous and next sides.
    let vertices = [
        ((l, t), (0.0, 1.0), (1.0, 0.0)),
        ((r, t), (-1.0, 0.0), (0.0, 1.0)),
        ((r, b), (0.0, -1.0), (-1.0, 0.0)),
        ((l, b), (1.0, 0.0), (0.0, -1.0)),
    ];
    let mut d = String::new();
    for (i, ((x, y), (px, py), (nx, ny))) in vertices.into_iter().enumerate() {
        let size = cap(finish[i]);
        let (ax, ay) = (x + px * size, y + py * size);
        let (bx, by) = (x + nx * size, y + ny * size);
        let _ = write!(d, "{}{} {}", if i == 0 { "M" } else { "L" }, num(ax), num(ay));
        match finish[i] {
            Corner::Round(_) if size > 0.0 => {
                let _ = write!(d, "A{s} {s} 0 0 1 {} {}", num(bx), num(by), s = num(size));
            }
            _ if size > 0.0 => {
                let _ = write!(d, "L{} {}", num(bx), num(by));
            }
            _ => {}
        }
    }
    d.push('Z');
    d
}

/// A rectangle with concave (inward-rounded) corners.
fn plaque(w: f64, h: f64, cut: f64) -> String {
    let (l, t, r, b) = (-w / 2.0, -h / 2.0, w / 2.0, h / 2.0);
    let c = num(cut);
    format!(
        "M{} {}L{} {}A{c} {c} 0 0 0 {} {}L{} {}A{c} {c} 0 0 0 {} {}L{} {}A{c} {c} 0 0 0 {} {}L{} {}A{c} {c} 0 0 0 {} {}Z",
        num(l + cut), num(t), num(r - cut), num(t), num(r), num(t + cut), num(r), num(b - cut),
        num(r - cut), num(b), num(l + cut), num(b), num(l), num(b - cut), num(l), num(t + cut), num(l + cut), num(t)
    )
}

fn heart(w: f64, h: f64) -> String {
    let p = |x: f64, y: f64| format!("{} {}", num(x * w - w / 2.0), num(y * h - h / 2.0));
    format!(
        "M{}C{} {} {}C{} {} {}C{} {} {}C{} {} {}Z",
        p(0.5, 0.25),
        p(0.5, 0.0),
        p(0.0, -0.05),
        p(0.0, 0.3),
        p(0.0, 0.6),
        p(0.35, 0.75),
        p(0.5, 1.0),
        p(0.65, 0.75),
        p(1.0, 0.6),
        p(1.0, 0.3),
        p(1.0, -0.05),
        p(0.5, 0.0),
        p(0.5, 0.25)
    )
}

/// The spec's 45 shape types, in its order (the names core-service accepts in `type`).
pub use canvas_vocabulary::SHAPE_TYPES;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_has_its_own_closed_outline() {
        let types = SHAPE_TYPES;
        assert_eq!(types.len(), 45);
        let outlines: std::collections::HashSet<String> = types.iter().map(|t| outline(t, 120.0, 80.0, 10.0)).collect();
        assert_eq!(outlines.len(), 45, "two shape types draw the same outline");
        assert!(outlines.iter().all(|d| d.starts_with('M') && d.ends_with('Z')));
    }

    #[test]
    fn round_corners_use_the_reported_radius() {
        let d = outline("RoundedRectangle", 100.0, 50.0, 5.0);
        assert!(d.starts_with("M-50 -20A5 5 0 0 1 -45 -25"), "{d}");
        let pill = outline("RoundedRectangle", 100.0, 50.0, 25.0);
        assert!(pill.contains("A25 25"), "capped at half the shorter side: {pill}");
    }
}
