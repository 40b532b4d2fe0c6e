//! Label and sticky-note text wrapped into lines.
//!
//! The paragraphs come from `canvas_html::paragraphs`, which classifies the
//! text exactly as core-service's rule does (plain text literally, HTML reduced
//! to its visible text). The renderer never trusts markup: what remains is
//! escaped again when written into the SVG, so no markup from a client ever
//! reaches the output as markup.
//!
//! Widths are estimated from per-character em widths of a sans-serif face
//! rather than measured with a font: the output must be identical on every
//! machine (golden tests, browsers and the PNG rasteriser all get the same
//! lines), and an estimate is close enough to wrap sensibly.
//!
//! Also here: a label's or sticky note's text laid out in its box, and the box an auto-sized
//! one is drawn in (a dimension stored as 0 is fitted to the text), which the item reader needs
//! before anything is drawn.

use serde_json::{Map, Value};

use crate::geometry::{base_frame, number, Frame};

/// Estimated advance of one character, in em.
fn char_em(c: char) -> f64 {
    match c {
        ' ' | 'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'I' => 0.28,
        'f' | 't' | 'r' | '(' | ')' | '-' | '[' | ']' | '"' => 0.36,
        'm' | 'w' | 'M' | 'W' | '@' => 0.85,
        c if c.is_ascii_uppercase() => 0.67,
        c if c.is_ascii() => 0.55,
        // CJK and other wide scripts take a full em.
        c if (c as u32) >= 0x1100 => 1.0,
        _ => 0.6,
    }
}

/// Estimated width of `text` at `font_size`.
pub fn width(text: &str, font_size: f64) -> f64 {
    text.chars().map(char_em).sum::<f64>() * font_size
}

/// Greedy word wrap of the paragraphs into lines no wider than `max_width`
/// (None: no wrapping). A word wider than the line is broken by characters.
pub fn wrap(paragraphs: &[String], font_size: f64, max_width: Option<f64>) -> Vec<String> {
    let Some(max_width) = max_width else { return paragraphs.to_vec() };
    let mut lines = Vec::new();
    for paragraph in paragraphs {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if width(&candidate, font_size) <= max_width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                if !line.is_empty() && width(&line, font_size) + char_em(c) * font_size > max_width {
                    lines.push(std::mem::take(&mut line));
                }
                line.push(c);
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

/// Line height as a multiple of the font size.
pub const LINE_HEIGHT: f64 = 1.25;
/// Inner padding, in em.
pub const PADDING: f64 = 0.5;

/// Text laid out in an item's box, in drawn units.
pub(crate) struct Layout {
    pub lines: Vec<String>,
    pub font_size: f64,
    pub width: f64,
    pub height: f64,
}

fn is_sticky(props: &Map<String, Value>) -> bool {
    props.get("itemType").and_then(Value::as_str) == Some(canvas_vocabulary::items::ItemType::StickyNote.as_str())
}

fn scale(props: &Map<String, Value>) -> f64 {
    props.get("scale").and_then(Value::as_f64).filter(|s| *s > 0.0 && s.is_finite()).unwrap_or(1.0)
}

pub(crate) fn layout(props: &Map<String, Value>) -> Layout {
    let scale = scale(props);
    let default_size = if is_sticky(props) { 15.0 } else { 14.0 };
    let font_size =
        props.get("fontSize").and_then(Value::as_f64).filter(|f| *f >= 1.0 && f.is_finite()).unwrap_or(default_size)
            * scale;
    let padding = PADDING * font_size;
    let paragraphs = canvas_html::paragraphs(props.get("text").and_then(Value::as_str).unwrap_or_default());
    let stored_width = number(props, "size", "width") * scale;
    let stored_height = number(props, "size", "height") * scale;
    let width = if stored_width > 0.0 {
        stored_width
    } else {
        let widest = paragraphs.iter().map(|p| width(p, font_size)).fold(0.0, f64::max);
        widest.max(font_size) + 2.0 * padding
    };
    let lines = wrap(&paragraphs, font_size, Some((width - 2.0 * padding).max(font_size)));
    let height = if stored_height > 0.0 {
        stored_height
    } else {
        lines.len().max(1) as f64 * LINE_HEIGHT * font_size + 2.0 * padding
    };
    Layout { lines, font_size, width, height }
}

/// The frame of a label or sticky note, auto-sized dimensions fitted.
pub fn label_frame(props: &Map<String, Value>) -> Frame {
    let layout = layout(props);
    let scale = scale(props);
    base_frame(props, layout.width / scale, layout.height / scale)
}

#[cfg(test)]
mod tests {
    use super::label_frame as frame;
    use super::*;
    use crate::text;
    use serde_json::json;

    #[test]
    fn wrapping_keeps_lines_inside_the_width() {
        let text = vec!["the quick brown fox jumps over the lazy dog".to_owned()];
        let lines = wrap(&text, 10.0, Some(80.0));
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l, 10.0) <= 80.0), "{lines:?}");
        assert_eq!(lines.join(" "), text[0]);
        let long = wrap(&["aaaaaaaaaaaaaaaaaaaa".to_owned()], 10.0, Some(30.0));
        assert!(long.len() > 1 && long.iter().all(|l| width(l, 10.0) <= 30.0), "{long:?}");
    }

    #[test]
    fn auto_sized_labels_fit_their_text() {
        let label = json!({"itemId": "a", "itemType": "label", "text": "<p>one</p><p>two three</p>",
                           "size": {"width": 0, "height": 0}, "fontSize": 10, "scale": 2});
        let frame = frame(label.as_object().unwrap());
        assert!(frame.width > text::width("two three", 20.0), "{frame:?}");
        assert!((frame.height - (2.0 * 1.25 * 20.0 + 20.0)).abs() < 1e-9, "two lines and padding: {frame:?}");
    }
}
