//! Colours and numbers as SVG attributes.
//!
//! Two colour grammars meet on the map: labels, sticky notes and connectors
//! take any CSS colour (`rgba(…)`, names, `#RRGGBBAA`), while shapes take only
//! hex with the alpha *first* (`#AARRGGBB`). Both are normalised here to an
//! opaque `#rrggbb` plus a separate opacity, which every SVG consumer
//! (browsers, resvg) reads the same way.

use std::fmt::Write;

/// A colour ready for `fill`/`stroke` and the matching `*-opacity`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paint {
    pub rgb: [u8; 3],
    /// 0 (transparent) to 1 (opaque).
    pub alpha: f64,
}

impl Paint {
    pub const fn opaque(r: u8, g: u8, b: u8) -> Paint {
        Paint { rgb: [r, g, b], alpha: 1.0 }
    }

    pub fn is_invisible(&self) -> bool {
        self.alpha <= 0.0
    }

    /// `fill="#rrggbb"` (and `fill-opacity` when not opaque), or `fill="none"`.
    pub fn attrs(&self, name: &str) -> String {
        if self.is_invisible() {
            return format!(" {name}=\"none\"");
        }
        let [r, g, b] = self.rgb;
        let mut out = format!(" {name}=\"#{r:02x}{g:02x}{b:02x}\"");
        if self.alpha < 1.0 {
            let _ = write!(out, " {name}-opacity=\"{}\"", num(self.alpha));
        }
        out
    }
}

/// A CSS colour (any syntax browsers accept), or `fallback` when it does not parse.
pub fn css_color(value: Option<&str>, fallback: Paint) -> Paint {
    let Some(text) = value else { return fallback };
    match csscolorparser::parse(text.trim()) {
        Ok(color) => {
            let [r, g, b, a] = color.to_rgba8();
            Paint { rgb: [r, g, b], alpha: round_alpha(f64::from(a) / 255.0) }
        }
        Err(_) => fallback,
    }
}

/// A shape colour: `#RGB`, `#RRGGBB` or `#AARRGGBB` (alpha first, as the spec
/// defines it for shapes), or `fallback`.
pub fn shape_color(value: Option<&str>, fallback: Paint) -> Paint {
    let Some(text) = value else { return fallback };
    let hex = text.trim().trim_start_matches('#');
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    let nibble = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok().map(|n| n * 17);
    let parsed = match hex.len() {
        3 => (|| Some(Paint::opaque(nibble(0)?, nibble(1)?, nibble(2)?)))(),
        6 => (|| Some(Paint::opaque(byte(0)?, byte(2)?, byte(4)?)))(),
        8 => {
            (|| Some(Paint { rgb: [byte(2)?, byte(4)?, byte(6)?], alpha: round_alpha(f64::from(byte(0)?) / 255.0) }))()
        }
        _ => None,
    };
    parsed.unwrap_or(fallback)
}

fn round_alpha(alpha: f64) -> f64 {
    (alpha * 1000.0).round() / 1000.0
}

/// A number as SVG writes it: at most two decimals, no trailing zeros, no
/// `-0`. Stable output keeps the golden files meaningful.
pub fn num(value: f64) -> String {
    if !value.is_finite() {
        return "0".into();
    }
    let rounded = (value * 100.0).round() / 100.0;
    if rounded == 0.0 {
        return "0".into();
    }
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Text for the SVG document, well-formed XML 1.0 (`canvas_html::escape::svg_text`).
pub use canvas_html::escape::svg_text as escape;

#[cfg(test)]
mod tests {
    use super::*;

    const BLACK: Paint = Paint::opaque(0, 0, 0);

    #[test]
    fn shape_hex_puts_alpha_first() {
        assert_eq!(shape_color(Some("#80FF0000"), BLACK), Paint { rgb: [255, 0, 0], alpha: 0.502 });
        assert_eq!(shape_color(Some("#0f0"), BLACK), Paint::opaque(0, 255, 0));
        assert_eq!(shape_color(Some("#00000000"), BLACK).attrs("fill"), " fill=\"none\"");
        assert_eq!(shape_color(Some("red"), BLACK), BLACK, "named colours are not shape colours");
    }

    #[test]
    fn css_colours_keep_their_opacity() {
        let paint = css_color(Some("rgba(245, 158, 11, 0.9)"), BLACK);
        assert_eq!(paint.attrs("fill"), " fill=\"#f59e0b\" fill-opacity=\"0.9\"");
        assert_eq!(css_color(Some("not a colour"), BLACK), BLACK);
    }

    #[test]
    fn numbers_and_text_are_stable_and_safe() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(2.345), "2.35");
        assert_eq!(escape("<b>\"&'\u{1}</b>"), "&lt;b&gt;&quot;&amp;&#39;&lt;/b&gt;");
    }
}
