//! A small, table-driven property schema: each item type lists its
//! properties with their kind, default and flags, and one engine parses,
//! checks and fills them. Type-specific rules that tie several properties
//! together (auto-size, corner radius, connector points) run afterwards.

use serde_json::{json, Map, Value};

use crate::error::FieldViolation;

/// What a property holds and the rule for its value.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// `{x, y}`, finite numbers.
    Point,
    /// `{width, height}`, finite numbers >= 0; minimums are checked by the
    /// type's rules because the label auto-size rules change them.
    Size,
    /// A finite number `> min` (exclusive).
    NumberAbove(f64),
    /// A finite number `>= min`.
    NumberAtLeast(f64),
    /// A finite number within `[min, max]`.
    NumberBetween(f64, f64),
    Bool,
    /// A non-empty string that is plain text or valid HTML.
    RichText,
    /// A non-empty string with at most `max` characters.
    Name(usize),
    /// Any CSS colour (`red`, `rgb(…)`, `#abc`, `hsl(…)`, …).
    CssColor,
    /// One of the listed words, matched case-insensitively and stored in the
    /// listed spelling.
    OneOf(&'static [&'static str]),
}

/// One property of an item type.
#[derive(Debug, Clone, Copy)]
pub struct PropertyDef {
    /// Canonical camelCase name, as the spec writes it.
    pub name: &'static str,
    pub kind: Kind,
    /// Must be present on create.
    pub required: bool,
    /// May be changed by an update.
    pub updatable: bool,
    /// JSON text of the default, filled on create when the property is
    /// omitted; None leaves it absent.
    pub default: Option<&'static str>,
}

impl PropertyDef {
    pub const fn new(name: &'static str, kind: Kind) -> Self {
        Self { name, kind, required: false, updatable: true, default: None }
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    pub const fn fixed(mut self) -> Self {
        self.updatable = false;
        self
    }

    pub const fn default(mut self, json: &'static str) -> Self {
        self.default = Some(json);
        self
    }

    pub fn default_value(&self) -> Option<Value> {
        self.default.map(|text| serde_json::from_str(text).expect("property defaults are valid JSON"))
    }
}

/// The form in which names are compared: lower case without `_` and `-`, so
/// `fontSize`, `FontSize`, `font_size` and `font-size` are the same name.
pub fn fold_name(name: &str) -> String {
    name.chars().filter(|c| *c != '_' && *c != '-').flat_map(char::to_lowercase).collect()
}

/// Finds the definition a client's property name refers to.
pub fn lookup<'a>(defs: &'a [PropertyDef], name: &str) -> Option<&'a PropertyDef> {
    let folded = fold_name(name);
    defs.iter().find(|def| fold_name(def.name) == folded)
}

/// Parses one value by its kind. The error is the rule, for a violation of
/// `field`.
pub fn parse_value(kind: Kind, field: &str, value: &Value, errors: &mut Vec<FieldViolation>) -> Option<Value> {
    if matches!(kind, Kind::Point | Kind::Size) && !value.is_object() {
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
    let mut fail = |rule: String| {
        errors.push(FieldViolation::new(field, rule));
        None
    };
    match kind {
        Kind::Point | Kind::Size => unreachable!("handled above"),
        Kind::NumberAbove(min) => match finite(value) {
            Some(n) if n > min => Some(value.clone()),
            Some(_) => fail(format!("must be > {min}")),
            None => fail("must be a number".into()),
        },
        Kind::NumberAtLeast(min) => match finite(value) {
            Some(n) if n >= min => Some(value.clone()),
            Some(_) => fail(format!("must be >= {min}")),
            None => fail("must be a number".into()),
        },
        Kind::NumberBetween(min, max) => match finite(value) {
            Some(n) if (min..=max).contains(&n) => Some(value.clone()),
            Some(_) => fail(format!("must be between {min} and {max}")),
            None => fail("must be a number".into()),
        },
        Kind::Bool => match value {
            Value::Bool(_) => Some(value.clone()),
            _ => fail("must be true or false".into()),
        },
        Kind::RichText => match value.as_str() {
            Some(text) if text.trim().is_empty() => fail("must not be empty".into()),
            Some(text) => match super::html::check(text) {
                Ok(()) => Some(value.clone()),
                Err(rule) => fail(format!("must be plain text or valid HTML: {rule}")),
            },
            None => fail("must be a string".into()),
        },
        Kind::Name(max) => match value.as_str() {
            Some(text) if text.trim().is_empty() => fail("must not be empty".into()),
            Some(text) if text.chars().count() > max => fail(format!("must be at most {max} characters")),
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
                None => fail(format!("must be one of {}", words.join(", "))),
            }
        }
    }
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
