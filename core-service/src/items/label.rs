//! Labels and sticky notes: the same properties, different defaults, and the
//! auto-size rules.

use serde_json::{Map, Value};

use super::schema::{number_at, Kind, PropertyDef};
use super::theme;
use super::RuleContext;

const HORIZONTAL: &[&str] = &["Left", "Center", "Right"];
const VERTICAL: &[&str] = &["Top", "Center", "Bottom"];

pub const LABEL: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).default(r#"{"width":0,"height":0}"#),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("text", Kind::RichText).required(),
    PropertyDef::new("fontSize", Kind::NumberAtLeast(1.0)).default(theme::LABEL_FONT_SIZE),
    PropertyDef::new("fontFamily", Kind::Name(256)).default(theme::FONT_FAMILY),
    PropertyDef::new("textColor", Kind::CssColor).default(r##""#FFFFFF""##),
    PropertyDef::new("backgroundColor", Kind::CssColor).default(theme::LABEL_BACKGROUND),
    PropertyDef::new("isAutoSizeWidth", Kind::Bool).default("true"),
    PropertyDef::new("isAutoSizeHeight", Kind::Bool).default("true"),
    PropertyDef::new("horizontalTextAlignment", Kind::OneOf(HORIZONTAL)).default(r#""Left""#),
    PropertyDef::new("verticalTextAlignment", Kind::OneOf(VERTICAL)).default(r#""Top""#),
];

pub const STICKY_NOTE: &[PropertyDef] = &[
    PropertyDef::new("position", Kind::Point).default(r#"{"x":0,"y":0}"#),
    PropertyDef::new("size", Kind::Size).default(r#"{"width":212,"height":106}"#),
    PropertyDef::new("scale", Kind::NumberAbove(0.0)).default("1"),
    PropertyDef::new("angle", Kind::NumberBetween(0.0, 360.0)).default("0"),
    PropertyDef::new("text", Kind::RichText).required(),
    PropertyDef::new("fontSize", Kind::NumberAtLeast(1.0)).default("15"),
    PropertyDef::new("fontFamily", Kind::Name(256)).default(theme::FONT_FAMILY),
    PropertyDef::new("textColor", Kind::CssColor).default(r##""#000000""##),
    PropertyDef::new("backgroundColor", Kind::CssColor).default(theme::ACCENT_90),
    PropertyDef::new("isAutoSizeWidth", Kind::Bool).default("false"),
    PropertyDef::new("isAutoSizeHeight", Kind::Bool).default("false"),
    PropertyDef::new("horizontalTextAlignment", Kind::OneOf(HORIZONTAL)).default(r#""Center""#),
    PropertyDef::new("verticalTextAlignment", Kind::OneOf(VERTICAL)).default(r#""Center""#),
];

/// Names the single-property read accepts for labels and sticky notes
/// (besides position, size, scale, angle).
pub const READABLE: &[(&str, &str)] = &[
    ("text", "text"),
    ("fontSize", "fontSize"),
    ("fontFamily", "fontFamily"),
    ("textColor", "textColor"),
    ("backgroundColor", "backgroundColor"),
    ("horizontalTextAlignment", "horizontalTextAlignment"),
    ("verticalTextAlignment", "verticalTextAlignment"),
];

/// The auto-size rules of the spec:
/// 1. `isAutoSizeWidth` true: `size.width` must be 0 or omitted.
/// 2. `isAutoSizeHeight` true: `size.height` must be 0 or omitted.
/// 3. Auto-size off for a dimension: that size must be >= 5.
///
/// A stored auto-sized dimension is 0 ("fitted to the text"); turning
/// auto-size on in an update resets it to 0.
pub fn apply_auto_size(ctx: &mut RuleContext<'_>) {
    for (flag, dimension) in [("isAutoSizeWidth", "width"), ("isAutoSizeHeight", "height")] {
        let auto = ctx.props.get(flag).and_then(Value::as_bool).unwrap_or(false);
        let field = format!("size.{dimension}");
        let value = number_at(ctx.props, "size", dimension).unwrap_or(0.0);
        let sent_size = ctx.sent("size");
        if auto {
            if sent_size && value != 0.0 {
                ctx.violation(&field, format!("must be 0 or omitted when {flag} is true"));
            } else {
                set_dimension(ctx.props, dimension, 0.0);
            }
        } else if value < 5.0 {
            let rule = if sent_size || ctx.is_create() {
                format!("must be >= 5 when {flag} is false")
            } else {
                format!("must be sent (>= 5) when {flag} is set to false")
            };
            ctx.violation(&field, rule);
        }
    }
}

fn set_dimension(props: &mut Map<String, Value>, dimension: &str, value: f64) {
    if let Some(Value::Object(size)) = props.get_mut("size") {
        size.insert(dimension.to_owned(), Value::from(value as i64));
    }
}
