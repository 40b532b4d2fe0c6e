//! The `jsonCasing` rule: responses carry PascalCase names by default, or
//! camel, snake or kebab case on request. Core-service speaks camelCase; this
//! module is the only place that knows about other casings.

use serde_json::{Map, Value};

/// How JSON property names are written in a response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Casing {
    #[default]
    Pascal,
    Camel,
    Snake,
    Kebab,
}

impl Casing {
    /// Parses the `jsonCasing` query value, case-insensitively.
    pub fn parse(raw: &str) -> Option<Self> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "default" | "pascal" => Some(Self::Pascal),
            "camel" => Some(Self::Camel),
            "snake" => Some(Self::Snake),
            "kebab" => Some(Self::Kebab),
            _ => None,
        }
    }

    /// Renames one camelCase name.
    pub fn rename(self, camel: &str) -> String {
        match self {
            Self::Camel => camel.to_owned(),
            Self::Pascal => {
                let mut chars = camel.chars();
                match chars.next() {
                    Some(first) => first.to_uppercase().chain(chars).collect(),
                    None => String::new(),
                }
            }
            Self::Snake => separated(camel, '_'),
            Self::Kebab => separated(camel, '-'),
        }
    }

    /// Renames every object key, at every depth, except below the keys in
    /// `opaque` (user data such as webhook `customData`, returned as sent).
    pub fn apply(self, value: Value, opaque: &[&str]) -> Value {
        if self == Self::Camel {
            return value;
        }
        match value {
            Value::Object(map) => {
                let renamed: Map<String, Value> = map
                    .into_iter()
                    .map(|(key, inner)| {
                        let inner = if opaque.contains(&key.as_str()) { inner } else { self.apply(inner, opaque) };
                        (self.rename(&key), inner)
                    })
                    .collect();
                Value::Object(renamed)
            }
            Value::Array(items) => Value::Array(items.into_iter().map(|v| self.apply(v, opaque)).collect()),
            other => other,
        }
    }
}

/// `fontSize` → `font_size`; runs of capitals stay one word (`itemID` →
/// `item_id`).
fn separated(camel: &str, separator: char) -> String {
    let chars: Vec<char> = camel.chars().collect();
    let mut out = String::with_capacity(camel.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() {
            let prev_lower = i > 0 && (chars[i - 1].is_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            let prev_upper = i > 0 && chars[i - 1].is_uppercase();
            if i > 0 && (prev_lower || (prev_upper && next_lower)) {
                out.push(separator);
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn renames_each_casing() {
        assert_eq!(Casing::Pascal.rename("fontSize"), "FontSize");
        assert_eq!(Casing::Camel.rename("fontSize"), "fontSize");
        assert_eq!(Casing::Snake.rename("isAutoSizeWidth"), "is_auto_size_width");
        assert_eq!(Casing::Kebab.rename("horizontalTextAlignment"), "horizontal-text-alignment");
        assert_eq!(Casing::Snake.rename("itemID"), "item_id");
        assert_eq!(Casing::Snake.rename("x"), "x");
    }

    #[test]
    fn parses_case_insensitively() {
        assert_eq!(Casing::parse("KEBAB"), Some(Casing::Kebab));
        assert_eq!(Casing::parse("Default"), Some(Casing::Pascal));
        assert_eq!(Casing::parse("title"), None);
    }

    #[test]
    fn applies_deeply_but_not_to_opaque_values() {
        let value = json!({"size": {"width": 1}, "customData": {"keepMe": 1}, "list": [{"aB": 1}]});
        let out = Casing::Snake.apply(value, &["customData"]);
        assert_eq!(out, json!({"size": {"width": 1}, "custom_data": {"keepMe": 1}, "list": [{"a_b": 1}]}));
    }
}
