//! A laid-out diagram: boxes, lines and free texts in map units, origin at the
//! top left. [`crate::to_items`] turns it into canvas items one for one, so
//! what tests check here is what the map draws.

use crate::graph::Head;

/// A point in map units.
pub type Point = (f64, f64);

/// An axis-aligned rectangle: top-left corner and size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
}

impl Rect {
    /// A rectangle of `width × height` centred on `(cx, cy)`.
    pub fn centred(cx: f64, cy: f64, width: f64, height: f64) -> Rect {
        Rect { x: cx - width / 2.0, y: cy - height / 2.0, width, height }
    }

    /// Right edge.
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// The centre.
    pub fn centre(&self) -> Point {
        (self.x + self.width / 2.0, self.y + self.height / 2.0)
    }

    /// Grown by `margin` on every side (shrunk when negative).
    pub fn grow(&self, margin: f64) -> Rect {
        Rect {
            x: self.x - margin,
            y: self.y - margin,
            width: self.width + 2.0 * margin,
            height: self.height + 2.0 * margin,
        }
    }

    /// Whether the interiors overlap.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.right() && other.x < self.right() && self.y < other.bottom() && other.y < self.bottom()
    }

    /// Whether `other` lies inside (edges may touch).
    pub fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x && other.y >= self.y && other.right() <= self.right() && other.bottom() <= self.bottom()
    }

    /// Whether the segment a–b passes through the interior (Liang–Barsky clipping).
    pub fn cut_by(&self, a: Point, b: Point) -> bool {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [(-dx, a.0 - self.x), (dx, self.right() - a.0), (-dy, a.1 - self.y), (dy, self.bottom() - a.1)] {
            if p == 0.0 {
                if q <= 0.0 {
                    return false;
                }
            } else {
                let t = q / p;
                if p < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
        }
        t1 - t0 > 1e-9
    }
}

/// What a box stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoxRole {
    /// A flowchart or mind map node: a shape with a label.
    Node,
    /// A subgraph: a shape holding its members, with a title.
    Container,
    /// A sequence participant (top or bottom): a shape with a label.
    Participant,
    /// A sequence note: a sticky note.
    Note,
    /// A sequence block (`loop`, `alt`…): a shape holding its messages, with a title.
    Frame,
    /// A sequence `box`: a shape holding its participants, with a title; frames and messages
    /// may cross it.
    Group,
    /// A plain shape with no text and no members: a sequence activation bar.
    Bar,
}

/// A box of the drawing.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneBox {
    /// The item reference (unique in the scene).
    pub key: String,
    /// What it stands for.
    pub role: BoxRole,
    /// Where it is.
    pub rect: Rect,
    /// The spec's shape `type`.
    pub shape: &'static str,
    /// Corner radius of a RoundedRectangle, map units.
    pub corner_radius: Option<f64>,
    /// The text shown inside (already wrapped); empty for none.
    pub text: String,
    /// Font size of the text.
    pub font_size: f64,
    /// The container box (index) it belongs to.
    pub container: Option<usize>,
    /// The Mermaid id it stands for.
    pub node_id: Option<String>,
    /// Fill colour (`#AARRGGBB` or `#RRGGBB`).
    pub fill: String,
    /// Outline colour.
    pub stroke: String,
    /// Outline thickness.
    pub stroke_width: f64,
    /// Text colour.
    pub text_color: String,
}

/// How a line is drawn between its points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    /// Start to end, directly.
    Straight,
    /// Through the corner points, with right angles.
    Angled,
    /// An S-curve between two ends, leaving and arriving horizontally.
    Curved,
}

/// One end of a line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct End {
    /// Where it is drawn.
    pub at: Point,
    /// The box (index) it is attached to, so it follows that box.
    pub attach: Option<usize>,
    /// Its decorator.
    pub head: Head,
}

/// A line of the drawing (a connector).
#[derive(Debug, Clone, PartialEq)]
pub struct SceneLine {
    /// The item reference.
    pub key: String,
    /// First end.
    pub start: End,
    /// Last end.
    pub end: End,
    /// Corner points of an angled line, in order.
    pub corners: Vec<Point>,
    /// Line type.
    pub kind: LineKind,
    /// Stroke colour.
    pub color: String,
    /// Stroke thickness.
    pub thickness: f64,
    /// The container box (index) it belongs to.
    pub container: Option<usize>,
}

impl SceneLine {
    /// Start, corners, end.
    pub fn points(&self) -> Vec<Point> {
        let mut points = vec![self.start.at];
        points.extend(&self.corners);
        points.push(self.end.at);
        points
    }

    /// The polyline the map draws: corners as given, a curve sampled.
    pub fn drawn(&self) -> Vec<Point> {
        let (s, e) = (self.start.at, self.end.at);
        match self.kind {
            LineKind::Straight => vec![s, e],
            LineKind::Angled => self.points(),
            LineKind::Curved => {
                let mid = (s.0 + e.0) / 2.0;
                let (c1, c2) = ((mid, s.1), (mid, e.1));
                (0..=24)
                    .map(|i| {
                        let t = f64::from(i) / 24.0;
                        let u = 1.0 - t;
                        let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                        (a * s.0 + b * c1.0 + c * c2.0 + d * e.0, a * s.1 + b * c1.1 + c * c2.1 + d * e.1)
                    })
                    .collect()
            }
        }
    }
}

/// Who a text belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The title of a container or frame (box index).
    Box(usize),
    /// The text of a line (line index).
    Line(usize),
    /// Nobody: a free text on the panel.
    Free,
}

/// A text on its own: an edge text, a container title.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneText {
    /// The item reference.
    pub key: String,
    /// Its box.
    pub rect: Rect,
    /// The text (already wrapped).
    pub text: String,
    /// Font size.
    pub font_size: f64,
    /// Who it belongs to (its parent item).
    pub owner: Owner,
    /// Text colour.
    pub color: String,
    /// Background colour (CSS).
    pub background: String,
    /// Centred (else left-aligned).
    pub centred: bool,
}

/// A laid-out diagram.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Scene {
    /// Shapes, containers, participants, notes and frames; a container comes before what it holds.
    pub boxes: Vec<SceneBox>,
    /// Connectors.
    pub lines: Vec<SceneLine>,
    /// Edge texts and titles.
    pub texts: Vec<SceneText>,
}

impl Scene {
    /// Moves everything by `(dx, dy)`.
    pub fn translate(&mut self, dx: f64, dy: f64) {
        for b in &mut self.boxes {
            b.rect.x += dx;
            b.rect.y += dy;
        }
        for line in &mut self.lines {
            for p in
                std::iter::once(&mut line.start.at).chain(std::iter::once(&mut line.end.at)).chain(&mut line.corners)
            {
                *p = (p.0 + dx, p.1 + dy);
            }
        }
        for t in &mut self.texts {
            t.rect.x += dx;
            t.rect.y += dy;
        }
    }
}

/// Width and height of the region the scene covers from the origin.
pub fn scene_bounds(scene: &Scene) -> (f64, f64) {
    let mut size = (0.0_f64, 0.0_f64);
    let mut take = |x: f64, y: f64| size = (size.0.max(x), size.1.max(y));
    scene.boxes.iter().for_each(|b| take(b.rect.right(), b.rect.bottom()));
    scene.texts.iter().for_each(|t| take(t.rect.right(), t.rect.bottom()));
    scene.lines.iter().flat_map(SceneLine::drawn).for_each(|(x, y)| take(x, y));
    size
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_cut_a_rectangle_only_through_its_interior() {
        let r = Rect { x: 0.0, y: 0.0, width: 10.0, height: 10.0 };
        assert!(r.cut_by((-5.0, 5.0), (15.0, 5.0)));
        assert!(!r.cut_by((-5.0, 10.0), (15.0, 10.0)), "along the edge");
        assert!(!r.cut_by((-5.0, 5.0), (-1.0, 5.0)));
        assert!(r.cut_by((5.0, 5.0), (5.0, 20.0)), "from inside");
        assert!(!r.cut_by((11.0, -5.0), (11.0, 15.0)));
    }
}
