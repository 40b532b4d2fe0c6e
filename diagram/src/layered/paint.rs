//! The colours and strokes a flowchart's items get: the map's dark theme by default, with what
//! the source's styling sets (`classDef`, `class`, `:::`, `style`, `linkStyle`) laid over it.
//!
//! Mermaid's styles are written for a light page. A node given a light fill but no text colour
//! keeps readable text: its text turns dark when its fill is light (the map's default text is
//! white).

use crate::graph::{NodeShape, Stroke};
use crate::node_boxes::{self, NODE_FILL, NODE_STROKE, NODE_TEXT};
use crate::styling::{Color, Style};

/// Subgraph fill: slate at 12 %, a faint lift off the map.
const CLUSTER_FILL: &str = "#1F94A3B8";
const CLUSTER_STROKE: &str = "#64748B";
const TITLE_TEXT: &str = "#CBD5E1";
/// Edge texts sit on the map's own colour, so lines passing behind do not blur them.
pub const EDGE_TEXT_BACKGROUND: &str = "#0F172A";
pub(crate) const EDGE_TEXT: &str = "#E2E8F0";
/// Text on a light fill.
const DARK_TEXT: &str = "#111827";
const TRANSPARENT: &str = "#00000000";

/// How one item is drawn: shape colours in the spec's hex form, text and line colours as CSS.
#[derive(Debug, Clone, PartialEq)]
pub struct Paint {
    /// Fill (hex).
    pub fill: String,
    /// Outline or line colour (hex for shapes, CSS for connectors).
    pub stroke: String,
    /// Outline or line thickness.
    pub stroke_width: f64,
    /// Text colour (CSS).
    pub text: String,
}

/// Whether text on `fill` should be dark: its relative luminance is high and it is mostly opaque.
fn light(fill: Color) -> bool {
    let [r, g, b, a] = fill.rgba;
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    a >= 128 && luminance > 0.4
}

/// Text colour: the style's, else dark on a light fill, else `default`.
fn text_on(style: &Style, default: &str) -> String {
    match (style.color, style.fill) {
        (Some(color), _) => color.css(),
        (None, Some(fill)) if light(fill) => DARK_TEXT.into(),
        _ => default.into(),
    }
}

/// A node of `shape` (drawn as the spec type `spec_type`).
pub fn node(shape: NodeShape, spec_type: &str, style: &Style) -> Paint {
    let stroke = style.stroke.map_or_else(|| NODE_STROKE.to_owned(), |c| c.hex_argb());
    let default_fill = if node_boxes::unfilled(shape) {
        TRANSPARENT.to_owned()
    } else if node_boxes::shows_text(shape) {
        NODE_FILL.to_owned()
    } else {
        // Small circles and fork bars are solid marks in their outline's colour.
        stroke.clone()
    };
    let default_width = match shape {
        NodeShape::Text => 0.0,
        _ if spec_type == "Frame" => 1.0,
        _ => 2.0,
    };
    Paint {
        fill: style.fill.map_or(default_fill, |c| c.hex_argb()),
        stroke,
        stroke_width: style.stroke_width.unwrap_or(default_width),
        text: text_on(style, NODE_TEXT),
    }
}

/// A subgraph's box and title.
pub fn cluster(style: &Style) -> Paint {
    Paint {
        fill: style.fill.map_or_else(|| CLUSTER_FILL.to_owned(), |c| c.hex_argb()),
        stroke: style.stroke.map_or_else(|| CLUSTER_STROKE.to_owned(), |c| c.hex_argb()),
        stroke_width: style.stroke_width.unwrap_or(1.5),
        text: text_on(style, TITLE_TEXT),
    }
}

/// An edge of `stroke` and its text (the spec has no dotted line: dotted is thinner and dimmer).
pub fn edge(stroke: Stroke, style: &Style) -> Paint {
    let (color, width) = match stroke {
        Stroke::Thick => ("#CBD5E1", 4.0),
        Stroke::Dotted => ("#64748B", 1.0),
        Stroke::Normal | Stroke::Invisible => ("#94A3B8", 2.0),
    };
    Paint {
        fill: TRANSPARENT.into(),
        stroke: style.stroke.map_or_else(|| color.to_owned(), |c| c.css()),
        stroke_width: style.stroke_width.unwrap_or(width),
        // The text sits on the map's colour, not on a fill: only an explicit colour changes it.
        text: style.color.map_or_else(|| EDGE_TEXT.to_owned(), |c| c.css()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_override_the_theme_and_keep_text_readable() {
        let plain = node(NodeShape::Rectangle, "Rectangle", &Style::default());
        assert_eq!((plain.fill.as_str(), plain.text.as_str()), (NODE_FILL, NODE_TEXT));
        let pink = node(NodeShape::Rectangle, "Rectangle", &Style::parse("fill:#f9f,stroke:#333,stroke-width:4px"));
        assert_eq!((pink.fill.as_str(), pink.stroke.as_str(), pink.stroke_width), ("#FF99FF", "#333333", 4.0));
        assert_eq!(pink.text, DARK_TEXT, "a light fill gets dark text");
        let dark = node(NodeShape::Rectangle, "Rectangle", &Style::parse("fill:#123,color:#ff0"));
        assert_eq!(dark.text, "#FFFF00");
        let text = node(NodeShape::Text, "Rectangle", &Style::default());
        assert_eq!((text.fill.as_str(), text.stroke_width), (TRANSPARENT, 0.0));
        let red = edge(Stroke::Dotted, &Style::parse("stroke:#ff000080,stroke-width:3px,color:red"));
        assert_eq!(
            (red.stroke.as_str(), red.stroke_width, red.text.as_str()),
            ("rgba(255, 0, 0, 0.502)", 3.0, "#FF0000")
        );
    }
}
