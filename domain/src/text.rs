//! The one rule every text value the service stores follows, on both backends.
//!
//! PostgreSQL's `text` and `jsonb` cannot hold U+0000 (NUL), while SQLite stores it. So that both
//! backends give the same answer, no text value a client writes may contain it: item properties
//! (and every string inside them), names (users, projects, tokens, webhooks, OAuth clients),
//! webhook URLs and `customData` (its strings and its keys), diagram sources and file names. The
//! refusal names the field and states [`NUL_RULE`], before anything is stored. Every other code
//! point (controls, separators, noncharacters, U+10FFFF) is stored and read back unchanged, unless
//! the field's own rule refuses it.

use serde_json::Value;

use crate::violation::{FieldViolation, Invalid};

/// The rule, as a refusal states it.
pub const NUL_RULE: &str = "must not contain U+0000 (NUL)";

/// Whether `text` can be stored alike on both backends.
pub fn storable(text: &str) -> bool {
    !text.contains('\0')
}

/// The violation of `field` when `text` breaks the rule.
pub fn violation(field: &str, text: &str) -> Option<FieldViolation> {
    (!storable(text)).then(|| FieldViolation::new(field, NUL_RULE))
}

/// `text` of `field` as a single-field validation error when it breaks the rule.
pub fn check(field: &str, text: &str) -> Result<(), Invalid> {
    match violation(field, text) {
        Some(violation) => Err(Invalid(vec![violation])),
        None => Ok(()),
    }
}

/// Every string and every key inside `value`, named by its path from `field` (`customData.a.b`,
/// `adjustmentValues[2]`); a key is named by the object holding it. Adds one violation per
/// offending path and returns whether there was none.
pub fn check_json(field: &str, value: &Value, violations: &mut Vec<FieldViolation>) -> bool {
    let before = violations.len();
    walk(field, value, violations);
    violations.len() == before
}

fn walk(path: &str, value: &Value, violations: &mut Vec<FieldViolation>) {
    match value {
        Value::String(text) => violations.extend(violation(path, text)),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(&format!("{path}[{i}]"), item, violations);
            }
        }
        Value::Object(map) => {
            if map.keys().any(|key| !storable(key)) {
                violations.push(FieldViolation::new(path, format!("{NUL_RULE} in its keys either")));
            }
            for (key, item) in map.iter().filter(|(key, _)| storable(key)) {
                walk(&format!("{path}.{key}"), item, violations);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// [`check_json`] over JSON text kept verbatim (webhook `customData`). Text serde_json cannot load
/// as a value (a number beyond a double) is scanned for the `\u0000` escape instead, and a
/// violation names `field`.
pub fn check_json_text(field: &str, json: &str, violations: &mut Vec<FieldViolation>) -> bool {
    match serde_json::from_str::<Value>(json) {
        Ok(value) => check_json(field, &value, violations),
        Err(_) if escapes_nul(json) => {
            violations.push(FieldViolation::new(field, NUL_RULE));
            false
        }
        Err(_) => true,
    }
}

/// Whether JSON text holds the escape `\u0000` inside a string (an escaped backslash followed by
/// `u0000` is not one).
fn escapes_nul(json: &str) -> bool {
    let bytes = json.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            if bytes[i + 1..].starts_with(b"u0000") {
                return true;
            }
            i += 2;
        } else {
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn nul_is_refused_anywhere_and_named_by_its_path() {
        let mut found = Vec::new();
        let value = json!({"a": {"b": "x\u{0}"}, "list": ["ok", "\u{0}"], "k": {"bad\u{0}key": 1}});
        assert!(!check_json("customData", &value, &mut found));
        let mut named: Vec<&str> = found.iter().map(|v| v.field.as_str()).collect();
        named.sort();
        assert_eq!(named, ["customData.a.b", "customData.k", "customData.list[1]"]);
        assert!(found.iter().all(|v| v.description.starts_with(NUL_RULE)));
    }

    #[test]
    fn every_other_code_point_passes() {
        let text: String = (1..=0x10FFFF).filter_map(char::from_u32).collect();
        assert!(storable(&text));
        assert!(check("text", &text).is_ok());
        assert!(check("text", "a\u{0}").is_err());
    }

    #[test]
    fn json_text_beyond_doubles_is_scanned_for_the_escape() {
        let mut found = Vec::new();
        assert!(check_json_text("customData", r#"{"n": 1e400, "s": "\\u0000"}"#, &mut found));
        assert!(!check_json_text("customData", r#"{"n": 1e400, "s": "\u0000"}"#, &mut found));
        assert_eq!(found[0].field, "customData");
        assert!(!check_json_text("customData", r#"{"s": "\u0000"}"#, &mut found));
        assert_eq!(found[1].field, "customData.s");
    }
}
