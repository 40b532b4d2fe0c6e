//! The `jsonCasing` rule: responses carry PascalCase names by default, or
//! camel, snake or kebab case on request. Core-service speaks camelCase; this
//! module is the only place that knows about other casings.

use std::collections::BTreeMap;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use serde_json::Value;

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
    /// `opaque` (user data such as webhook `customData`, returned as sent): the plain statement of
    /// the rule, which [`Recased`] must write byte for byte (the tests compare the two).
    #[cfg(test)]
    pub fn apply(self, value: Value, opaque: &[&str]) -> Value {
        if self == Self::Camel {
            return value;
        }
        match value {
            Value::Object(map) => {
                let renamed: serde_json::Map<String, Value> = map
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

/// A JSON value written with its keys in another casing, as `serde_json::to_vec(&casing.apply(…))`
/// would write it, byte for byte, without building the renamed tree first: every response body
/// passes here, and rebuilding each object (a new map and a new `String` per key) was a large
/// part of a small read's cost (docs/PERFORMANCE.md, "The GET path").
pub struct Recased<'a> {
    pub value: &'a Value,
    pub casing: Casing,
    /// Keys whose values keep their names (as in [`Casing::apply`]).
    pub opaque: &'a [&'a str],
}

impl Casing {
    /// The value, to be serialized with its keys renamed (see [`Recased`]).
    pub fn recased<'a>(self, value: &'a Value, opaque: &'a [&'a str]) -> Recased<'a> {
        Recased { value, casing: self, opaque }
    }
}

impl<'a> Serialize for Recased<'a> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let map = match self.value {
            Value::Object(map) if self.casing != Casing::Camel => map,
            Value::Array(items) if self.casing != Casing::Camel => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&self.casing.recased(item, self.opaque))?;
                }
                return seq.end();
            }
            other => return other.serialize(serializer),
        };
        let inner = |key: &str, value: &'a Value| -> Recased<'a> {
            if self.opaque.contains(&key) {
                Recased { value, casing: Casing::Camel, opaque: &[] }
            } else {
                self.casing.recased(value, self.opaque)
            }
        };
        // `Map` keeps its keys sorted. Upper-casing a leading ASCII lower-case letter keeps both
        // the order and the keys distinct, so PascalCase (the default) streams as it goes; any
        // other renaming may reorder or merge keys, so it is sorted as `apply` would (the last
        // key of a merged pair wins, as there).
        if self.casing == Casing::Pascal && map.keys().all(|k| k.as_bytes().first().is_some_and(u8::is_ascii_lowercase))
        {
            let mut out = serializer.serialize_map(Some(map.len()))?;
            for (key, value) in map {
                out.serialize_entry(&PascalKey(key), &inner(key, value))?;
            }
            return out.end();
        }
        let renamed: BTreeMap<String, (&str, &Value)> =
            map.iter().map(|(key, value)| (self.casing.rename(key), (key.as_str(), value))).collect();
        let mut out = serializer.serialize_map(Some(renamed.len()))?;
        for (name, (key, value)) in &renamed {
            out.serialize_entry(name, &inner(key, value))?;
        }
        out.end()
    }
}

/// A camelCase key starting with an ASCII lower-case letter, written in PascalCase without
/// allocating (keys longer than the buffer, rare, are renamed the ordinary way).
struct PascalKey<'a>(&'a str);

impl Serialize for PascalKey<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = self.0.as_bytes();
        let mut buffer = [0u8; 64];
        match buffer.get_mut(..bytes.len()) {
            Some(name) => {
                name.copy_from_slice(bytes);
                name[0] = name[0].to_ascii_uppercase();
                // Only an ASCII byte changed: still UTF-8.
                serializer.serialize_str(std::str::from_utf8(name).map_err(serde::ser::Error::custom)?)
            }
            None => serializer.serialize_str(&Casing::Pascal.rename(self.0)),
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
    use proptest::prelude::*;
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

    fn any_json() -> impl Strategy<Value = Value> {
        // Keys as they come: camelCase, Pascal, snake, digits, non-ASCII, empty, long.
        let key = prop_oneof![
            "[a-z][a-zA-Z0-9]{0,12}",
            "[A-Za-z0-9_\\-]{0,6}",
            "[a-z]\\PC{0,5}",
            "[a-z][a-z]{60,70}",
            Just("customData".to_owned()),
            Just("nodes".to_owned()),
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|n| json!(n)),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| json!(f)),
            "\\PC{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..7)
                    .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// The streamed renaming writes exactly the bytes of renaming first, for every casing.
        #[test]
        fn recased_writes_the_bytes_of_apply(value in any_json()) {
            let opaque = ["customData", "nodes"];
            for casing in [Casing::Pascal, Casing::Camel, Casing::Snake, Casing::Kebab] {
                let streamed = serde_json::to_vec(&casing.recased(&value, &opaque)).unwrap();
                let built = serde_json::to_vec(&casing.apply(value.clone(), &opaque)).unwrap();
                prop_assert_eq!(String::from_utf8(streamed).unwrap(), String::from_utf8(built).unwrap(), "{:?}", casing);
            }
        }
    }

    #[test]
    fn recased_keys_merge_and_long_keys_as_apply_does() {
        let long = "k".repeat(80);
        let value =
            json!({"fontSize": 1, "FontSize": 2, "font_size": 3, "a1": 4, "aB": 5, long.clone(): {"innerKey": 6}});
        for casing in [Casing::Pascal, Casing::Snake, Casing::Kebab] {
            let streamed = serde_json::to_string(&casing.recased(&value, &[])).unwrap();
            assert_eq!(streamed, serde_json::to_string(&casing.apply(value.clone(), &[])).unwrap());
        }
        let pascal = serde_json::to_string(&Casing::Pascal.recased(&json!({long.clone(): 1}), &[])).unwrap();
        assert_eq!(pascal, format!("{{\"K{}\":1}}", &long[1..]));
    }

    #[test]
    fn applies_deeply_but_not_to_opaque_values() {
        let value = json!({"size": {"width": 1}, "customData": {"keepMe": 1}, "list": [{"aB": 1}]});
        let out = Casing::Snake.apply(value, &["customData"]);
        assert_eq!(out, json!({"size": {"width": 1}, "custom_data": {"keepMe": 1}, "list": [{"a_b": 1}]}));
    }
}
