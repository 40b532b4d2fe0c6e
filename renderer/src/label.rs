//! Labels and sticky notes: a coloured box with wrapped text.
//!
//! A dimension that is auto-sized is stored as 0 ("fitted to the text"), so
//! the drawn size is computed from the text: the widest paragraph for an
//! auto width, the wrapped lines for an auto height. Font sizes are in map
//! units at scale 1 and grow with the item's scale. That layout is [`crate::text`]'s, since
//! the item reader needs the fitted frame before anything is drawn; this module draws it.

use std::fmt::Write;

use crate::model::{Item, ItemType};
use crate::style::{css_color, escape, num, Paint};
use crate::text::layout;
pub use crate::text::{LINE_HEIGHT, PADDING};

/// Distance of the baseline below the top of its line, in em.
const ASCENT: f64 = 0.95;

/// Draws the box and the text into the item's own coordinates (origin at the centre).
pub fn draw(out: &mut String, item: &Item<'_>) {
    let sticky = item.kind == ItemType::StickyNote;
    let layout = layout(item.props);
    let (w, h) = (item.frame.width, item.frame.height);
    let (left, top) = (-w / 2.0, -h / 2.0);
    let background = if sticky {
        css_color(item.str("backgroundColor"), Paint { rgb: [245, 158, 11], alpha: 0.9 })
    } else {
        css_color(item.str("backgroundColor"), Paint::opaque(0x1e, 0x29, 0x3b))
    };
    let color =
        css_color(item.str("textColor"), if sticky { Paint::opaque(0, 0, 0) } else { Paint::opaque(255, 255, 255) });
    let radius = if sticky { 2.0 } else { (layout.font_size * 0.3).min(6.0) };
    let _ = write!(
        out,
        "<rect class=\"body\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"{}/>",
        num(left),
        num(top),
        num(w),
        num(h),
        num(radius),
        background.attrs("fill")
    );
    if layout.lines.is_empty() || color.is_invisible() {
        return;
    }
    let padding = PADDING * layout.font_size;
    let line_height = LINE_HEIGHT * layout.font_size;
    // Lines that do not fit the box are dropped; the last kept one ends in '…'.
    let room = ((h - 2.0 * padding) / line_height).floor().max(1.0) as usize;
    let mut lines = layout.lines;
    if lines.len() > room {
        lines.truncate(room);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    let block = lines.len() as f64 * line_height;
    let default_v = if sticky { "Center" } else { "Top" };
    let first_top = match item.str("verticalTextAlignment").unwrap_or(default_v) {
        "Center" => -block / 2.0,
        "Bottom" => h / 2.0 - padding - block,
        _ => top + padding,
    };
    let default_h = if sticky { "Center" } else { "Left" };
    let (anchor, x) = match item.str("horizontalTextAlignment").unwrap_or(default_h) {
        "Center" => ("middle", 0.0),
        "Right" => ("end", w / 2.0 - padding),
        _ => ("start", left + padding),
    };
    let family = item.str("fontFamily").map(str::trim).filter(|f| !f.is_empty()).unwrap_or("Arial");
    let _ = write!(
        out,
        "<text font-family=\"{}, sans-serif\" font-size=\"{}\" text-anchor=\"{anchor}\"{}>",
        escape(family),
        num(layout.font_size),
        color.attrs("fill")
    );
    for (i, line) in lines.iter().enumerate() {
        let baseline = first_top + i as f64 * line_height + ASCENT * layout.font_size;
        let _ = write!(out, "<tspan x=\"{}\" y=\"{}\">{}</tspan>", num(x), num(baseline), escape(line));
    }
    out.push_str("</text>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Lines of a wide auto-sized label, as drawn (SVG-escaped).
    fn drawn_lines(text: &str) -> Vec<String> {
        let label = json!({"itemId": "a", "itemType": "label", "text": text, "size": {"width": 0, "height": 0}});
        let mut out = String::new();
        draw(&mut out, &Item::read(&label).unwrap());
        out.split("<tspan")
            .skip(1)
            .map(|t| t[t.find('>').unwrap() + 1..t.find("</tspan>").unwrap()].to_owned())
            .collect()
    }

    #[test]
    fn text_is_drawn_as_the_rule_classifies_it() {
        assert_eq!(
            drawn_lines("AT&amp;T\nif x<y then swap"),
            ["AT&amp;amp;T", "if x&lt;y then swap"],
            "plain: literal"
        );
        assert_eq!(drawn_lines("<p>AT&amp;T</p><p>x&lt;y &Tab;z</p>"), ["AT&amp;T", "x&lt;y z"], "HTML: decoded");
    }

    #[test]
    fn overflowing_text_is_cut_with_an_ellipsis() {
        let note = json!({"itemId": "a", "itemType": "sticky-note", "text": "a b c d e f g h i j k l m n o p",
                          "size": {"width": 30, "height": 40}, "fontSize": 10});
        let item = Item::read(&note).unwrap();
        let mut out = String::new();
        draw(&mut out, &item);
        assert_eq!(out.matches("<tspan").count(), 2, "{out}");
        assert!(out.contains('…'), "{out}");
    }
}
