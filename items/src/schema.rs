//! The table-driven property engine: each item type lists its properties with their kind, default
//! and flags (the table is data in `canvas-vocabulary`, which the gateways export as their
//! schemas), and this engine parses, checks and fills them. Type-specific rules that tie several
//! properties together (auto-size, corner radius, connector points) run afterwards.

use serde_json::{json, Map, Value};

use canvas_vocabulary::items::CONNECTOR_POINT;
pub use canvas_vocabulary::items::{Kind, PropertyDef, FILE_NAME_MAX_CHARS};
use canvas_vocabulary::limits::tags::MAX_PER_ITEM;

use canvas_domain::{FieldViolation, ViolationReason};

/// The form in which names are compared (stated once, in `canvas-vocabulary`).
pub use canvas_vocabulary::names::fold_name;

/// Finds the definition a client's property name refers to.
pub fn lookup<'a>(defs: &'a [PropertyDef], name: &str) -> Option<&'a PropertyDef> {
    let folded = fold_name(name);
    defs.iter().find(|def| fold_name(def.name) == folded)
}

/// A broken rule: its kind and its text.
struct Rule(ViolationReason, String);

impl From<String> for Rule {
    fn from(text: String) -> Self {
        Self(ViolationReason::InvalidValue, text)
    }
}

impl From<&str> for Rule {
    fn from(text: &str) -> Self {
        Self(ViolationReason::InvalidValue, text.to_owned())
    }
}

/// Parses one value by its kind. The error is the rule, for a violation of
/// `field`.
pub fn parse_value(kind: Kind, field: &str, value: &Value, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    // The one rule of stored text comes first, for every kind and every string inside a value.
    if !canvas_domain::text::check_json(field, value, errors) {
        return None;
    }
    if matches!(kind, Kind::Point | Kind::Size | Kind::AutoSize) && !value.is_object() {
        errors.push(FieldViolation::new(field, expected_shape(kind)));
        return None;
    }
    if let Kind::Point = kind {
        let x = coordinate(value, "x", field, errors);
        let y = coordinate(value, "y", field, errors);
        return Some(json!({"x": x?, "y": y?}));
    }
    if let Kind::Size = kind {
        let width = dimension(value, "width", field, errors);
        let height = dimension(value, "height", field, errors);
        return Some(json!({"width": width?, "height": height?}));
    }
    if let Kind::AutoSize = kind {
        let mut size = Map::new();
        for name in ["width", "height"] {
            if member(value, name).is_some_and(|v| !v.is_null()) {
                size.insert(name.to_owned(), dimension(value, name, field, errors)?);
            }
        }
        return Some(Value::Object(size));
    }
    if let Some(result) = parse_compound(kind, field, value, errors) {
        return result;
    }
    let mut fail = |rule: Rule| {
        errors.push(FieldViolation::with_reason(rule.0, field, rule.1));
        None
    };
    match kind {
        Kind::Point
        | Kind::Size
        | Kind::AutoSize
        | Kind::NonNegativeList
        | Kind::PointList
        | Kind::ConnectorPoint
        | Kind::TagIds => {
            unreachable!("handled above")
        }
        Kind::HexColor => match value.as_str() {
            Some(text) if is_hex_color(text.trim()) => Some(Value::String(text.trim().to_owned())),
            _ => fail("must be a hex color: #RRGGBB, #AARRGGBB (alpha first) or #RGB".into()),
        },
        Kind::WebUrl => match value.as_str().map(str::trim) {
            Some(text) => match url::Url::parse(text) {
                Ok(url)
                    if (url.scheme() == "http" || url.scheme() == "https")
                        && url.host_str().is_some_and(|h| !h.is_empty()) =>
                {
                    Some(Value::String(text.to_owned()))
                }
                Ok(_) => fail("must be an absolute URL with the scheme http or https".into()),
                Err(_) => fail(
                    "must be an absolute URL with the scheme http or https (relative URLs are not accepted)".into(),
                ),
            },
            None => fail("must be a string holding an absolute http or https URL".into()),
        },
        Kind::FileName => match value.as_str() {
            Some(text) if text.trim().is_empty() => fail("must not be empty".into()),
            Some(text) if text.chars().count() > FILE_NAME_MAX_CHARS => {
                fail(format!("must be at most {FILE_NAME_MAX_CHARS} characters").into())
            }
            Some(text) if text.contains(['/', '\\']) => fail("must not contain a forward slash or backslash".into()),
            Some(text) if text.chars().any(char::is_control) => fail("must not contain control characters".into()),
            Some(_) => Some(value.clone()),
            None => fail("must be a string".into()),
        },
        Kind::ItemId => match value.as_str() {
            Some(raw) => match uuid::Uuid::parse_str(raw.trim()) {
                Ok(id) => Some(Value::String(id.hyphenated().to_string())),
                Err(_) => fail("must be the GUID of an item of the project".into()),
            },
            None => fail("must be a GUID string".into()),
        },
        Kind::ByteCount => match value.as_f64() {
            Some(n) if n.is_finite() && n >= 0.0 && n.fract() == 0.0 => Some(value.clone()),
            Some(_) => fail("must be a whole number of bytes >= 0".into()),
            None => fail("must be a number".into()),
        },
        Kind::NumberAbove(min) => match finite(value) {
            Some(n) if n > min => Some(value.clone()),
            Some(_) => fail(format!("must be > {min}").into()),
            None => fail("must be a number".into()),
        },
        Kind::NumberAtLeast(min) => match finite(value) {
            Some(n) if n >= min => Some(value.clone()),
            Some(_) => fail(format!("must be >= {min}").into()),
            None => fail("must be a number".into()),
        },
        Kind::NumberBetween(min, max) => match finite(value) {
            Some(n) if (min..=max).contains(&n) => Some(value.clone()),
            Some(_) => fail(format!("must be between {min} and {max}").into()),
            None => fail("must be a number".into()),
        },
        Kind::Bool => match value {
            Value::Bool(_) => Some(value.clone()),
            _ => fail("must be true or false".into()),
        },
        Kind::RichText => match value.as_str() {
            Some(text) if text.trim().is_empty() => fail("must not be empty".into()),
            Some(text) => match canvas_html::check(text) {
                Ok(()) => Some(value.clone()),
                Err(refusal) => {
                    let reason = match refusal {
                        canvas_html::Refusal::Active(_) => ViolationReason::ActiveContent,
                        canvas_html::Refusal::Malformed(_) => ViolationReason::InvalidValue,
                    };
                    fail(Rule(reason, format!("must be plain text or valid HTML: {refusal}")))
                }
            },
            None => fail("must be a string".into()),
        },
        Kind::Name(max) => match value.as_str() {
            Some(text) if text.trim().is_empty() => fail("must not be empty".into()),
            Some(text) if text.chars().count() > max => fail(format!("must be at most {max} characters").into()),
            Some(_) => Some(value.clone()),
            None => fail("must be a string".into()),
        },
        Kind::CssColor => match value.as_str() {
            Some(text) if csscolorparser::parse(text.trim()).is_ok() => Some(Value::String(text.trim().to_owned())),
            Some(_) => fail("must be a CSS color (for example #1E90FF, rgb(30, 144, 255) or dodgerblue)".into()),
            None => fail("must be a CSS color string".into()),
        },
        Kind::OneOf(words) => {
            let found = value.as_str().and_then(|raw| words.iter().find(|w| w.eq_ignore_ascii_case(raw.trim())));
            match found {
                Some(word) => Some(Value::String((*word).to_owned())),
                None => fail(format!("must be one of {}", words.join(", ")).into()),
            }
        }
    }
}

/// An item's `tags`: GUIDs, each once, at most [`MAX_PER_ITEM`], written back hyphenated in
/// lower case. Whether each names a tag of the project is core-service's check, in the write's
/// transaction (a tag deleted meanwhile must not be left on an item).
fn parse_tag_ids(field: &str, value: &Value, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    let Some(ids) = value.as_array() else {
        errors.push(FieldViolation::new(field, "must be an array of tag ids (GUIDs)"));
        return None;
    };
    if ids.len() > MAX_PER_ITEM {
        errors.push(FieldViolation::new(field, format!("must hold at most {MAX_PER_ITEM} tags, got {}", ids.len())));
        return None;
    }
    let before = errors.len();
    let mut parsed: Vec<uuid::Uuid> = Vec::with_capacity(ids.len());
    for (i, id) in ids.iter().enumerate() {
        match id.as_str().map(|raw| uuid::Uuid::parse_str(raw.trim())) {
            Some(Ok(id)) if parsed.contains(&id) => {
                errors.push(FieldViolation::new(format!("{field}[{i}]"), format!("repeats the tag '{id}'")));
            }
            Some(Ok(id)) => parsed.push(id),
            _ => errors.push(FieldViolation::new(format!("{field}[{i}]"), "must be the GUID of a tag of the project")),
        }
    }
    (errors.len() == before).then(|| Value::Array(parsed.iter().map(|id| Value::String(id.to_string())).collect()))
}

/// The kinds made of several values; None for the scalar kinds.
fn parse_compound(kind: Kind, field: &str, value: &Value, errors: &mut Vec<FieldViolation>) -> Option<Option<Value>> {
    let result = match kind {
        Kind::NonNegativeList => {
            let Some(items) = value.as_array() else {
                errors.push(FieldViolation::new(field, "must be an array of numbers"));
                return Some(None);
            };
            let mut ok = true;
            for (i, item) in items.iter().enumerate() {
                match finite(item) {
                    Some(n) if n >= 0.0 => {}
                    Some(_) => {
                        ok = false;
                        errors.push(FieldViolation::new(format!("{field}[{i}]"), "must be >= 0"));
                    }
                    None => {
                        ok = false;
                        errors.push(FieldViolation::new(format!("{field}[{i}]"), "must be a number"));
                    }
                }
            }
            ok.then(|| value.clone())
        }
        Kind::PointList => {
            let Some(items) = value.as_array() else {
                errors.push(FieldViolation::new(field, "must be an array of {x, y} points"));
                return Some(None);
            };
            let before = errors.len();
            let points: Vec<Value> = items
                .iter()
                .enumerate()
                .filter_map(|(i, p)| parse_value(Kind::Point, &format!("{field}[{i}]"), p, errors))
                .collect();
            (errors.len() == before).then_some(Value::Array(points))
        }
        Kind::ConnectorPoint => parse_point(field, value, errors),
        Kind::TagIds => parse_tag_ids(field, value, errors),
        _ => return None,
    };
    Some(result)
}

/// `#RGB`, `#RRGGBB` or `#AARRGGBB`.
pub fn is_hex_color(text: &str) -> bool {
    text.strip_prefix('#')
        .is_some_and(|hex| matches!(hex.len(), 3 | 6 | 8) && hex.chars().all(|c| c.is_ascii_hexdigit()))
}

fn expected_shape(kind: Kind) -> &'static str {
    match kind {
        Kind::Point => "must be an object {x: number, y: number}",
        _ => "must be an object {width: number, height: number}",
    }
}

fn finite(value: &Value) -> Option<f64> {
    value.as_f64().filter(|n| n.is_finite())
}

/// Parses a connector point into the members of [`CONNECTOR_POINT`], each by its kind, with their
/// defaults. `position` may be omitted when `itemId` is given (it is then {0, 0}, relative to the
/// item).
pub fn parse_point(field: &str, value: &Value, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    let names: Vec<&str> = CONNECTOR_POINT.iter().map(|def| def.name).collect();
    let Some(object) = value.as_object() else {
        errors.push(FieldViolation::new(field, format!("must be an object {{{}}}", names.join(", "))));
        return None;
    };
    let before = errors.len();
    for key in object.keys().filter(|key| lookup(CONNECTOR_POINT, key).is_none()) {
        errors.push(FieldViolation::new(
            format!("{field}.{key}"),
            format!("is not a member of a connector point; allowed: {}", names.join(", ")),
        ));
    }
    let mut point = Map::new();
    for def in CONNECTOR_POINT {
        let parsed = match member(value, def.name) {
            None | Some(Value::Null) => def.default_value(),
            Some(given) => parse_value(def.kind, &format!("{field}.{}", def.name), given, errors),
        };
        point.insert(def.name.to_owned(), parsed.unwrap_or(Value::Null));
    }
    if point["position"].is_null() {
        if point["itemId"].is_null() {
            errors.push(FieldViolation::new(format!("{field}.position"), "is required when itemId is not given"));
        } else {
            point.insert("position".into(), json!({"x": 0, "y": 0}));
        }
    }
    (errors.len() == before).then_some(Value::Object(point))
}

/// Looks up a member of an object case-insensitively.
pub fn member<'a>(value: &'a Value, name: &str) -> Option<&'a Value> {
    value.as_object()?.iter().find(|(k, _)| fold_name(k) == fold_name(name)).map(|(_, v)| v)
}

fn coordinate(value: &Value, axis: &str, field: &str, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    match member(value, axis) {
        Some(v) if finite(v).is_some() => Some(v.clone()),
        Some(_) => {
            errors.push(FieldViolation::new(format!("{field}.{axis}"), "must be a number"));
            None
        }
        None => {
            errors.push(FieldViolation::new(format!("{field}.{axis}"), "is required"));
            None
        }
    }
}

fn dimension(value: &Value, name: &str, field: &str, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    match member(value, name) {
        Some(v) => match finite(v) {
            Some(n) if n >= 0.0 => Some(v.clone()),
            Some(_) => {
                errors.push(FieldViolation::new(format!("{field}.{name}"), "must be >= 0"));
                None
            }
            None => {
                errors.push(FieldViolation::new(format!("{field}.{name}"), "must be a number"));
                None
            }
        },
        None => {
            errors.push(FieldViolation::new(format!("{field}.{name}"), "is required"));
            None
        }
    }
}

/// Reads a number out of a stored property map (`size.width`, say).
pub fn number_at(props: &Map<String, Value>, property: &str, member_name: &str) -> Option<f64> {
    props.get(property)?.get(member_name)?.as_f64()
}
