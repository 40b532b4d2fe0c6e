//! Mermaid styling read into what canvas items can show: the CSS of `classDef`, `style` and
//! `linkStyle` statements (`fill:#f9f,stroke:#333,stroke-width:4px,color:#fff`) as a [`Style`],
//! with colours converted to the spec's formats.
//!
//! The spec has two colour rules: a shape's `fillColor`/`strokeColor` take hex only (`#RRGGBB` or
//! `#AARRGGBB`, alpha first), while label `textColor` and connector `strokeColor` take any CSS
//! colour. Mermaid sources write every CSS form (`#f9f`, `#ff9900`, `#ff990080` with alpha last,
//! names, `rgb()`/`rgba()`, `hsl()`); [`Color`] reads them all (with `csscolorparser`, the crate
//! the item rules use) and writes each rule's form. A colour that cannot be read, and any CSS
//! property that has no counterpart on the items (dash patterns, fonts), is ignored: styling
//! never makes a diagram refused. Other diagram kinds reuse this module.

pub(crate) mod theme;

/// A colour, 8 bits per channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Color {
    /// Red, green, blue, alpha.
    pub rgba: [u8; 4],
}

impl Color {
    /// Reads any CSS colour; None when it is not one (or is `none`/`transparent`-like garbage).
    pub fn parse(css: &str) -> Option<Color> {
        let css = css.trim().trim_end_matches("!important").trim();
        if css.is_empty() {
            return None;
        }
        let parsed = csscolorparser::parse(css).ok()?;
        Some(Color { rgba: parsed.to_rgba8() })
    }

    /// The spec's hex form for shapes: `#RRGGBB` when opaque, else `#AARRGGBB` (alpha first).
    pub fn hex_argb(&self) -> String {
        let [r, g, b, a] = self.rgba;
        if a == 255 {
            format!("#{r:02X}{g:02X}{b:02X}")
        } else {
            format!("#{a:02X}{r:02X}{g:02X}{b:02X}")
        }
    }

    /// A CSS colour for labels and connectors: `#RRGGBB` when opaque, else `rgba(…)`.
    pub fn css(&self) -> String {
        let [r, g, b, a] = self.rgba;
        if a == 255 {
            format!("#{r:02X}{g:02X}{b:02X}")
        } else {
            format!("rgba({r}, {g}, {b}, {:.3})", f64::from(a) / 255.0)
        }
    }
}

/// What a style statement sets; every part optional, later statements override earlier ones.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Style {
    /// `fill` (also `background`/`background-color`).
    pub fill: Option<Color>,
    /// `stroke` (also `border-color`).
    pub stroke: Option<Color>,
    /// `stroke-width` in map units (`px` and unitless; also `border-width`).
    pub stroke_width: Option<f64>,
    /// `color`: the text colour.
    pub color: Option<Color>,
}

/// The widest outline or line a style may ask for: beyond it a diagram is unreadable.
const MAX_STROKE_WIDTH: f64 = 20.0;

impl Style {
    /// Reads a CSS declaration list: `fill:#f9f,stroke:#333,stroke-width:4px` (Mermaid separates
    /// declarations with `,`; `;` is accepted too). Commas inside `rgb(…)` are kept with their
    /// colour.
    pub fn parse(css: &str) -> Style {
        let mut style = Style::default();
        for declaration in split_declarations(css) {
            let Some((name, value)) = declaration.split_once(':') else { continue };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "fill" | "background" | "background-color" => style.fill = Color::parse(value).or(style.fill),
                "stroke" | "border-color" => style.stroke = Color::parse(value).or(style.stroke),
                "color" => style.color = Color::parse(value).or(style.color),
                "stroke-width" | "border-width" => style.stroke_width = length(value).or(style.stroke_width),
                _ => {}
            }
        }
        style
    }

    /// `self` with what `other` sets laid over it.
    pub fn over(self, other: &Style) -> Style {
        Style {
            fill: other.fill.or(self.fill),
            stroke: other.stroke.or(self.stroke),
            stroke_width: other.stroke_width.or(self.stroke_width),
            color: other.color.or(self.color),
        }
    }

    /// Whether nothing is set.
    pub fn is_empty(&self) -> bool {
        *self == Style::default()
    }
}

/// A CSS length in map units: `4px`, `4`, `1.5px`; other units and negatives are ignored.
fn length(value: &str) -> Option<f64> {
    let value = value.trim().trim_end_matches("!important").trim();
    let number = value.strip_suffix("px").unwrap_or(value).trim();
    number.parse::<f64>().ok().filter(|w| w.is_finite() && *w >= 0.0).map(|w| w.min(MAX_STROKE_WIDTH))
}

/// Declarations split at `,` and `;` outside parentheses.
fn split_declarations(css: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut depth = 0usize;
    for c in css.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' | ';' if depth == 0 => {
                out.push(String::new());
                continue;
            }
            _ => {}
        }
        out.last_mut().expect("never empty").push(c);
    }
    out.into_iter().map(|d| d.trim().to_owned()).filter(|d| !d.is_empty()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_css_colour_form_is_read() {
        let hex = |css: &str| Color::parse(css).map(|c| c.hex_argb());
        assert_eq!(hex("#f9f").as_deref(), Some("#FF99FF"));
        assert_eq!(hex("#ff9900").as_deref(), Some("#FF9900"));
        assert_eq!(hex("#ff990080").as_deref(), Some("#80FF9900"), "CSS alpha last, the spec's first");
        assert_eq!(hex("orange").as_deref(), Some("#FFA500"));
        assert_eq!(hex("rgb(255, 0, 0)").as_deref(), Some("#FF0000"));
        assert_eq!(hex(" rgba(0,0,255,0.5) ").as_deref(), Some("#800000FF"));
        assert_eq!(hex("hsl(120, 100%, 50%)").as_deref(), Some("#00FF00"));
        assert_eq!(hex("notacolour"), None);
        assert_eq!(hex(""), None);
        assert_eq!(Color::parse("#ff990080").unwrap().css(), "rgba(255, 153, 0, 0.502)");
    }

    #[test]
    fn declarations_set_fill_stroke_width_and_text_colour() {
        let style = Style::parse("fill:#f9f,stroke:#333,stroke-width:4px,color:#fff,stroke-dasharray: 5 5");
        assert_eq!(style.fill.unwrap().hex_argb(), "#FF99FF");
        assert_eq!(style.stroke.unwrap().hex_argb(), "#333333");
        assert_eq!(style.stroke_width, Some(4.0));
        assert_eq!(style.color.unwrap().css(), "#FFFFFF");
        let style = Style::parse("fill:rgb(1, 2, 3); stroke: bogus; stroke-width: -3px");
        assert_eq!(style.fill.unwrap().hex_argb(), "#010203");
        assert_eq!((style.stroke, style.stroke_width), (None, None), "unreadable parts are ignored");
        let layered = Style::parse("fill:red,stroke:blue").over(&Style::parse("fill:green"));
        assert_eq!(layered.fill.unwrap().hex_argb(), "#008000");
        assert_eq!(layered.stroke.unwrap().hex_argb(), "#0000FF");
    }
}
