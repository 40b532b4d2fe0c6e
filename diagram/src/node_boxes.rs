//! Node boxes: which spec shape type a Mermaid shape becomes, and how large
//! the box must be for its text to sit inside the drawn outline.
//!
//! The label of a node is the node's own box, centred both ways, so the text
//! block (plus the renderer's padding) must fit the part of the outline that
//! is inside the shape at the text's height: all of a rectangle, the middle
//! of a diamond. Each size below solves that for its outline.

use crate::graph::NodeShape;
use crate::text::{self, FONT_SIZE, LABEL_PADDING};

/// Node fill: a dark blue that white text reads well on, on the dark map.
pub const NODE_FILL: &str = "#1E3A5F";
/// Node outline.
pub const NODE_STROKE: &str = "#60A5FA";
/// Node text.
pub const NODE_TEXT: &str = "#F8FAFC";

/// Smallest node box.
const MIN_WIDTH: f64 = 48.0;
const MIN_HEIGHT: f64 = 36.0;

/// A node's box, sized for its text.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeBox {
    /// The text, wrapped with `\n`.
    pub text: String,
    /// Box width.
    pub width: f64,
    /// Box height.
    pub height: f64,
    /// The spec's shape type.
    pub shape: &'static str,
    /// Corner radius, for the round-corner types that need one set.
    pub corner_radius: Option<f64>,
}

/// The spec shape type drawing a Mermaid shape (the crate docs list the choices).
pub fn spec_type(shape: NodeShape) -> &'static str {
    match shape {
        NodeShape::Rectangle => "Rectangle",
        NodeShape::Rounded | NodeShape::Stadium | NodeShape::Plain => "RoundedRectangle",
        NodeShape::Circle | NodeShape::DoubleCircle | NodeShape::Cloud => "Ellipse",
        NodeShape::Diamond => "Diamond",
        NodeShape::Hexagon => "Hexagon",
        NodeShape::Parallelogram | NodeShape::ParallelogramAlt => "Parallelogram",
        NodeShape::Trapezoid | NodeShape::TrapezoidAlt => "Trapezoid",
        NodeShape::Cylinder => "TwoSameSideRoundCornerRectangle",
        NodeShape::Subroutine => "Frame",
        NodeShape::Asymmetric => "DirectionArrowRight",
        NodeShape::Bang => "Star6",
        NodeShape::Text | NodeShape::Fork => "Rectangle",
        NodeShape::Card => "OneSnipCornerRectangle",
        NodeShape::Document => "OneRoundCornerRectangle",
        NodeShape::Triangle => "Triangle",
        NodeShape::Bolt => "LightningBolt",
        NodeShape::Plaque => "Plaque",
        NodeShape::Brace => "HalfFrame",
        NodeShape::LoopLimit => "TwoSameSideSnipCornerRectangle",
        NodeShape::SmallCircle => "Ellipse",
    }
}

/// Whether a node of `shape` shows its text (Mermaid draws none on its small circles and bars).
pub fn shows_text(shape: NodeShape) -> bool {
    !matches!(shape, NodeShape::SmallCircle | NodeShape::Fork)
}

/// Whether a node of `shape` is drawn without a fill of its own (texts and comment braces).
pub fn unfilled(shape: NodeShape) -> bool {
    matches!(shape, NodeShape::Text | NodeShape::Brace)
}

/// Where a shape's text wraps: narrower for outlines that grow fast with it.
fn wrap_width(shape: NodeShape) -> f64 {
    match shape {
        NodeShape::Diamond
        | NodeShape::Asymmetric
        | NodeShape::Bang
        | NodeShape::Circle
        | NodeShape::DoubleCircle
        | NodeShape::Triangle
        | NodeShape::Bolt => 120.0,
        _ => text::WRAP_WIDTH,
    }
}

/// The box of a node of `shape` showing `label`.
pub fn node_box(shape: NodeShape, label: &str) -> NodeBox {
    match shape {
        NodeShape::SmallCircle => {
            return NodeBox {
                text: String::new(),
                width: 24.0,
                height: 24.0,
                shape: spec_type(shape),
                corner_radius: None,
            }
        }
        NodeShape::Fork => {
            return NodeBox {
                text: String::new(),
                width: 72.0,
                height: 10.0,
                shape: spec_type(shape),
                corner_radius: None,
            }
        }
        _ => {}
    }
    let block = text::block(label, FONT_SIZE, wrap_width(shape));
    // The text block with the renderer's padding and a little slack: what must stay inside.
    let pad = 2.0 * LABEL_PADDING * FONT_SIZE;
    let (tw, th) = (block.width + pad + 4.0, block.height + pad);
    let (width, height) = match shape {
        NodeShape::Rectangle
        | NodeShape::Rounded
        | NodeShape::Plain
        | NodeShape::Cylinder
        | NodeShape::Text
        | NodeShape::Brace
        | NodeShape::SmallCircle
        | NodeShape::Fork => (tw + 16.0, th + 10.0),
        // Cut or rounded corners and notches: a margin keeps the text off them.
        NodeShape::Card | NodeShape::Document | NodeShape::LoopLimit | NodeShape::Plaque => (tw + 32.0, th + 18.0),
        NodeShape::Triangle => {
            // Apex on top: at the text's top line the outline is as wide as the text.
            let h = 2.0 * th + 24.0;
            (tw * h / (h / 2.0 - th / 2.0) + 8.0, h)
        }
        NodeShape::Bolt => {
            let side = (tw * tw + th * th).sqrt() * 1.8;
            (side, side)
        }
        NodeShape::Subroutine => {
            let h = th + 16.0;
            (tw + h / 4.0 + 12.0, h)
        }
        NodeShape::Stadium => {
            let h = th + 10.0;
            (tw + 0.8 * h, h)
        }
        NodeShape::Circle | NodeShape::DoubleCircle => {
            let d = (tw * tw + th * th).sqrt() + 4.0;
            (d, d)
        }
        NodeShape::Diamond => (2.0 * (block.width + 10.0), 2.0 * (block.height + 8.0)),
        NodeShape::Hexagon => {
            let h = th + 12.0;
            (tw / (1.0 - 0.5 * th / h) + 8.0, h)
        }
        NodeShape::Parallelogram | NodeShape::ParallelogramAlt => {
            let h = th + 12.0;
            (tw / (0.75 - 0.25 * th / h) + 8.0, h)
        }
        NodeShape::Trapezoid | NodeShape::TrapezoidAlt => {
            let h = th + 12.0;
            (tw / (0.6 + 0.4 * (h - th) / (2.0 * h)) + 8.0, h)
        }
        NodeShape::Asymmetric => (tw / 0.4, th + 10.0),
        NodeShape::Cloud => ((block.width + 10.0) * 1.45, (block.height + 8.0) * 1.45 + pad),
        NodeShape::Bang => {
            let r = (tw * tw + th * th).sqrt() / 0.95;
            (r, r.max(th * 2.2))
        }
    };
    let (width, height) = (width.max(MIN_WIDTH).ceil(), height.max(MIN_HEIGHT).ceil());
    let corner_radius = match shape {
        NodeShape::Stadium => Some(height / 2.0),
        NodeShape::Cylinder => Some(height / 4.0),
        _ => None,
    };
    NodeBox { text: block.text, width, height, shape: spec_type(shape), corner_radius }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_is_a_spec_shape_type() {
        use NodeShape::*;
        let all = [
            Rectangle,
            Rounded,
            Stadium,
            Circle,
            DoubleCircle,
            Diamond,
            Hexagon,
            Parallelogram,
            ParallelogramAlt,
            Trapezoid,
            TrapezoidAlt,
            Cylinder,
            Subroutine,
            Asymmetric,
            Bang,
            Cloud,
            Plain,
            Text,
            Card,
            Document,
            Triangle,
            Bolt,
            Plaque,
            Brace,
            LoopLimit,
        ];
        for shape in all {
            let b = node_box(shape, "a node text that wraps over a few lines when it is long enough");
            assert!(canvas_vocabulary::SHAPE_TYPES.contains(&b.shape), "{shape:?}");
            assert!(b.width >= MIN_WIDTH && b.height >= MIN_HEIGHT, "{shape:?}: {b:?}");
            // The renderer drops lines that do not fit the label's height.
            let lines = b.text.split('\n').count() as f64;
            assert!(b.height - 2.0 * LABEL_PADDING * FONT_SIZE >= lines * text::LINE_HEIGHT * FONT_SIZE, "{shape:?}");
        }
    }

    #[test]
    fn small_circles_and_bars_have_no_text() {
        for shape in [NodeShape::SmallCircle, NodeShape::Fork] {
            let b = node_box(shape, "start");
            assert!(b.text.is_empty() && !shows_text(shape), "{shape:?}");
            assert!(canvas_vocabulary::SHAPE_TYPES.contains(&b.shape));
        }
    }

    #[test]
    fn circles_are_round_and_stadiums_are_pills() {
        let circle = node_box(NodeShape::Circle, "round");
        assert_eq!(circle.width, circle.height);
        let pill = node_box(NodeShape::Stadium, "pill");
        assert_eq!(pill.corner_radius, Some(pill.height / 2.0));
    }
}
