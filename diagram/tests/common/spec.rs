//! Planned items checked against the spec's property tables
//! (`canvas-vocabulary`, the data core-service validates with) and the rules
//! between properties that matter here: label auto-size, corner radius,
//! references to earlier items.

use std::collections::HashSet;

use canvas_diagram::PlannedItem;
use canvas_vocabulary::items::{item_type, Kind, PropertyDef, CONNECTOR_POINT, MIN_SIZE};
use serde_json::Value;

const ROUND_CORNER: &[&str] = &[
    "RoundedRectangle",
    "OneRoundCornerRectangle",
    "TwoSameSideRoundCornerRectangle",
    "TwoDiagonalRoundCornerRectangle",
    "OneSnipOneRoundCornerRectangle",
];

fn is_hex(s: &str) -> bool {
    let Some(hex) = s.strip_prefix('#') else { return false };
    matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|c| c.is_ascii_hexdigit())
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|n| n.is_finite())
}

fn point(v: &Value) -> bool {
    number(&v["x"]).is_some() && number(&v["y"]).is_some() && v.as_object().is_some_and(|o| o.len() == 2)
}

/// Problems of one value against its kind.
fn check_value(def: &PropertyDef, value: &Value, at: &str, problems: &mut Vec<String>) {
    let ok = match def.kind {
        Kind::Point => point(value),
        Kind::Size | Kind::AutoSize => number(&value["width"]).is_some() && number(&value["height"]).is_some(),
        Kind::NumberAbove(min) => number(value).is_some_and(|n| n > min),
        Kind::NumberAtLeast(min) => number(value).is_some_and(|n| n >= min),
        Kind::NumberBetween(lo, hi) => number(value).is_some_and(|n| (lo..=hi).contains(&n)),
        Kind::Bool => value.is_boolean(),
        Kind::RichText => value.as_str().is_some_and(|t| !t.trim().is_empty() && canvas_html::check(t).is_ok()),
        Kind::Name(max) => value.as_str().is_some_and(|t| !t.is_empty() && t.chars().count() <= max),
        Kind::HexColor => value.as_str().is_some_and(is_hex),
        // Hex that reads the same under both colour rules (`#RRGGBB`, or transparent) or a CSS
        // form such as `rgba()`: never other 8-digit hex, whose alpha CSS reads last and the hex
        // rule first.
        Kind::CssColor => value.as_str().is_some_and(|s| {
            (is_hex(s) && (s.len() == 7 || s == "#00000000"))
                || (!s.starts_with('#') && csscolorparser::parse(s).is_ok())
        }),
        Kind::OneOf(list) => value.as_str().is_some_and(|s| list.contains(&s)),
        Kind::NonNegativeList => {
            value.as_array().is_some_and(|a| a.iter().all(|n| number(n).is_some_and(|n| n >= 0.0)))
        }
        Kind::PointList => value.as_array().is_some_and(|a| a.iter().all(point)),
        Kind::ItemId => value.as_str().is_some_and(|s| s.starts_with("ref:")),
        // A diagram tags nothing: a tag is a project's, never named by a source.
        Kind::TagIds => false,
        Kind::ConnectorPoint => {
            let Some(object) = value.as_object() else {
                problems.push(format!("{at}: not an object"));
                return;
            };
            for (key, member) in object {
                match CONNECTOR_POINT.iter().find(|d| d.name == key) {
                    Some(d) => check_value(d, member, &format!("{at}.{key}"), problems),
                    None => problems.push(format!("{at}.{key}: not a connector point member")),
                }
            }
            object.contains_key("position") || object.contains_key("itemId")
        }
        Kind::WebUrl | Kind::FileName | Kind::ByteCount => false,
    };
    if !ok {
        problems.push(format!("{at}: {value} is not a valid {:?}", def.kind));
    }
}

/// Every rule an item of the batch breaks (empty: all accepted).
pub fn problems(items: &[PlannedItem]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for item in items {
        let at = &item.reference;
        if !seen.insert(&item.reference) {
            problems.push(format!("{at}: reference used twice"));
        }
        if let Some(parent) = &item.parent {
            if !seen.contains(parent.as_str()) || parent == &item.reference {
                problems.push(format!("{at}: parent {parent} is not an earlier item"));
            }
        }
        let Some(def) = item_type(item.item_type) else {
            problems.push(format!("{at}: unknown item type {}", item.item_type));
            continue;
        };
        let Some(props) = item.properties.as_object() else {
            problems.push(format!("{at}: properties are not an object"));
            continue;
        };
        for required in def.properties.iter().filter(|d| d.required) {
            if !props.contains_key(required.name) {
                problems.push(format!("{at}: {} is required", required.name));
            }
        }
        for (key, value) in props {
            match def.properties.iter().find(|d| d.name == key) {
                Some(d) if d.ignored => problems.push(format!("{at}: {key} is ignored for {}", item.item_type)),
                Some(d) => check_value(d, value, &format!("{at}.{key}"), &mut problems),
                None => problems.push(format!("{at}: {key} is not a property of {}", item.item_type)),
            }
        }
        // Sizes: at least 5 per dimension (labels here never auto-size).
        if let Some(size) = props.get("size") {
            for dim in ["width", "height"] {
                if number(&size[dim]).is_none_or(|n| n < MIN_SIZE) {
                    problems.push(format!("{at}: size.{dim} {} is below {MIN_SIZE}", size[dim]));
                }
            }
            if matches!(item.item_type, "label" | "sticky-note") {
                let auto = |k: &str| props.get(k).and_then(Value::as_bool).unwrap_or(item.item_type == "label");
                if auto("isAutoSizeWidth") || auto("isAutoSizeHeight") {
                    problems.push(format!("{at}: a sized label must turn auto-size off"));
                }
            }
        }
        if props.contains_key("cornerRadius") && !ROUND_CORNER.contains(&props["type"].as_str().unwrap_or("Rectangle"))
        {
            problems.push(format!("{at}: cornerRadius on a {} shape", props["type"]));
        }
        // Every "ref:" names an item earlier in the batch.
        let mut refs = Vec::new();
        collect_refs(&item.properties, &mut refs);
        for r in refs {
            if !seen.contains(r.as_str()) || r == item.reference {
                problems.push(format!("{at}: ref:{r} is not an earlier item"));
            }
        }
    }
    problems
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.extend(s.strip_prefix("ref:").map(str::to_owned)),
        Value::Array(a) => a.iter().for_each(|v| collect_refs(v, out)),
        Value::Object(o) => o.values().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}
