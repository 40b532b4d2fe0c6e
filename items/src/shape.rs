//! Shapes: the corner-radius rules (the table, with the 45 types and hex colours, is
//! `canvas_vocabulary::items::SHAPE`).

use serde_json::{json, Map, Value};

use super::schema::number_at;
use super::RuleContext;

/// The round-corner types and their default radius as a fraction of the
/// shorter drawn side: one tenth for RoundedRectangle (the spec), one sixth
/// for the others (their usual drawing default).
const ROUND_CORNER: &[(&str, f64)] = &[
    ("RoundedRectangle", 0.1),
    ("OneRoundCornerRectangle", 1.0 / 6.0),
    ("TwoSameSideRoundCornerRectangle", 1.0 / 6.0),
    ("TwoDiagonalRoundCornerRectangle", 1.0 / 6.0),
    ("OneSnipOneRoundCornerRectangle", 1.0 / 6.0),
];

/// Single-property read names: the spec's list, plus the table's own names
/// for the same concepts (`type`, `strokeThickness`).
pub const READABLE: &[(&str, &str)] = &[
    ("shapeType", "type"),
    ("type", "type"),
    ("fillColor", "fillColor"),
    ("strokeColor", "strokeColor"),
    ("strokeWidth", "strokeThickness"),
    ("strokeThickness", "strokeThickness"),
    ("cornerRadius", "cornerRadius"),
];

fn round_corner_default(shape_type: &str) -> Option<f64> {
    ROUND_CORNER.iter().find(|(name, _)| *name == shape_type).map(|(_, fraction)| *fraction)
}

/// The shorter side of the drawn shape (size times scale).
fn shorter_drawn_side(props: &Map<String, Value>) -> f64 {
    let width = number_at(props, "size", "width").unwrap_or(0.0);
    let height = number_at(props, "size", "height").unwrap_or(0.0);
    let scale = props.get("scale").and_then(Value::as_f64).unwrap_or(1.0);
    width.min(height) * scale
}

/// The corner-radius rules, numbered as in the spec:
/// 1. other types reject `cornerRadius`;
/// 2. it is stored as `adjustmentValues[0]`, a fraction of the shorter drawn side;
/// 3. `cornerRadius` beats the first adjustment value, the others are kept;
/// 4. the radius is capped at half the shorter side;
/// 5. it converts with the size and scale of the same request, else the stored ones
///    (the context holds exactly that merge);
/// 6. a later resize scales the corners (the fraction stays), unless `size` and
///    `cornerRadius` come together (then the radius is converted anew);
/// 7. reads return the drawn radius (see [`present`]).
pub fn apply_rules(ctx: &mut RuleContext<'_>) {
    super::minimum_size(ctx);
    let shape_type = ctx.props.get("type").and_then(Value::as_str).unwrap_or("Rectangle").to_owned();
    let radius = ctx.props.remove("cornerRadius").and_then(|v| v.as_f64());
    let Some(default_fraction) = round_corner_default(&shape_type) else {
        if radius.is_some() {
            let allowed: Vec<&str> = ROUND_CORNER.iter().map(|(n, _)| *n).collect();
            ctx.violation(
                "cornerRadius",
                format!("{shape_type} has no round corners; only {} accept it", allowed.join(", ")),
            );
        }
        return;
    };
    let mut values: Vec<Value> =
        ctx.props.get("adjustmentValues").and_then(Value::as_array).cloned().unwrap_or_default();
    let shorter = shorter_drawn_side(ctx.props);
    let fraction = match radius {
        Some(radius) if shorter > 0.0 => (radius.min(shorter / 2.0)) / shorter,
        Some(_) => 0.0,
        None => values.first().and_then(Value::as_f64).unwrap_or(default_fraction).min(0.5),
    };
    let fraction = json!(round(fraction));
    if values.is_empty() {
        values.push(fraction);
    } else {
        values[0] = fraction;
    }
    ctx.props.insert("adjustmentValues".into(), Value::Array(values));
}

/// Adds the derived `cornerRadius` (world units, or null) to a stored shape.
pub fn present(props: &mut Map<String, Value>) {
    let shape_type = props.get("type").and_then(Value::as_str).unwrap_or("Rectangle");
    let radius = round_corner_default(shape_type).map(|default| {
        let fraction = props
            .get("adjustmentValues")
            .and_then(Value::as_array)
            .and_then(|v| v.first())
            .and_then(Value::as_f64)
            .unwrap_or(default);
        round(fraction * shorter_drawn_side(props))
    });
    props.insert("cornerRadius".into(), radius.map_or(Value::Null, |r| json!(r)));
}

/// Twelve significant decimals: enough for any map, and it keeps
/// `0.1 * 50 = 5.000000000000001` from leaking to clients.
fn round(value: f64) -> f64 {
    (value * 1e12).round() / 1e12
}
