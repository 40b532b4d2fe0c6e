//! A webhook definition and its rules, checked by the names the REST
//! interface uses, so a 400 names the field and the rule it broke.
//!
//! The definition arrives as the JSON text the client sent. `customData` is
//! kept as its exact text (a raw JSON value), so every call carries it back
//! byte for byte, key order and number spelling included.

use std::collections::HashMap;

use serde_json::value::RawValue;
use serde_json::Value;
use url::{Host, Url};

use super::EVENT_KINDS;
use crate::domain::text;
use crate::error::{CoreError, FieldViolation, ViolationReason};
use canvas_items::schema::fold_name;

/// The definition's limits (longest `name` in characters, largest `customData` in bytes of its
/// JSON text, longest `url` in bytes), shared with the gateways, which document them.
pub use canvas_vocabulary::limits::webhooks::{
    MAX_CUSTOM_DATA_BYTES, MAX_DELIVERIES_PER_SECOND, MAX_NAME_CHARS, MAX_URL_BYTES,
};

/// The definition's properties, by their canonical names.
const PROPERTIES: [&str; 6] = ["name", "url", "enabled", "events", "customData", "maxDeliveriesPerSecond"];

/// Record fields a client may send back unchanged (GET, edit, PUT); ignored.
const READ_ONLY: [&str; 5] = ["id", "createdAt", "status", "inactive", "projectId"];

/// A valid definition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// Display name; None when not given.
    pub name: Option<String>,
    /// The absolute `https` URL receiving the calls.
    pub url: String,
    /// Disabled webhooks are kept but never called.
    pub enabled: bool,
    /// The selected event kinds, as sent (no duplicates).
    pub events: Vec<String>,
    /// The JSON text of `customData` exactly as sent; None when absent or null.
    pub custom_data: Option<String>,
    /// The most calls per second the receiver takes (1 to [`MAX_DELIVERIES_PER_SECOND`]); None:
    /// no limit.
    pub max_deliveries_per_second: Option<u32>,
}

impl Definition {
    /// Parses and validates the JSON text of a definition. `destination`
    /// judges literal-IP hosts with the same rules as the calls themselves.
    pub fn parse(json: &str, destination: &webhook_client::DestinationPolicy) -> Result<Self, CoreError> {
        let sent: Vec<(String, Box<RawValue>)> = serde_json::from_str::<HashMap<String, Box<RawValue>>>(json)
            .map_err(|_| CoreError::invalid("body", "must be a JSON object with the webhook definition"))?
            .into_iter()
            .collect();
        // Names match in any casing, like item properties (`Url`, `custom_data`, `CUSTOM-DATA`), so
        // a record read with any `jsonCasing` can be PUT back as it is.
        let mut violations = Vec::new();
        let mut fields: HashMap<&'static str, Box<RawValue>> = HashMap::new();
        for (key, raw) in sent {
            let folded = fold_name(&key);
            if let Some(canonical) = PROPERTIES.iter().find(|p| fold_name(p) == folded) {
                if fields.insert(canonical, raw).is_some() {
                    violations.push(FieldViolation::with_reason(
                        ViolationReason::DuplicateProperty,
                        *canonical,
                        "is given more than once (names are case-insensitive)",
                    ));
                }
            } else if !READ_ONLY.iter().any(|r| fold_name(r) == folded) {
                violations.push(FieldViolation::with_reason(
                    ViolationReason::UnknownProperty,
                    crate::domain::ids::truncate(&key),
                    format!("is not a webhook property; the properties are {}", PROPERTIES.join(", ")),
                ));
            }
        }
        let value = |key: &str| -> Option<Value> {
            fields.get(key).and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok()).filter(|v| !v.is_null())
        };

        let name = match value("name") {
            None => None,
            Some(Value::String(name)) if name.chars().count() > MAX_NAME_CHARS => {
                violations.push(FieldViolation::new("name", format!("must be at most {MAX_NAME_CHARS} characters")));
                None
            }
            Some(Value::String(name)) => {
                violations.extend(text::violation("name", &name));
                Some(name)
            }
            Some(_) => {
                violations.push(FieldViolation::new("name", "must be a string"));
                None
            }
        };
        let url = match value("url") {
            None => {
                violations.push(FieldViolation::new("url", "is required"));
                String::new()
            }
            Some(Value::String(url)) => {
                if let Some(violation) = text::violation("url", &url) {
                    violations.push(violation);
                } else if let Err(rule) = check_url(&url, destination) {
                    violations.push(FieldViolation::new("url", rule));
                }
                url
            }
            Some(_) => {
                violations.push(FieldViolation::new("url", "must be a string"));
                String::new()
            }
        };
        let enabled = match value("enabled") {
            None => true,
            Some(Value::Bool(enabled)) => enabled,
            Some(_) => {
                violations.push(FieldViolation::new("enabled", "must be true or false"));
                true
            }
        };
        let events = check_events(value("events"), &mut violations);
        let custom_data = match fields.get("customData").map(|raw| raw.get()) {
            None | Some("null") => None,
            Some(text) if text.len() > MAX_CUSTOM_DATA_BYTES => {
                violations.push(FieldViolation::new(
                    "customData",
                    format!("must be at most {MAX_CUSTOM_DATA_BYTES} bytes of JSON; it is {} bytes", text.len()),
                ));
                None
            }
            Some(json) => text::check_json_text("customData", json, &mut violations).then(|| json.to_owned()),
        };
        let max_deliveries_per_second = match value("maxDeliveriesPerSecond") {
            None => None,
            Some(number) => {
                let pace = number.as_u64().filter(|n| (1..=u64::from(MAX_DELIVERIES_PER_SECOND)).contains(n));
                if pace.is_none() {
                    violations.push(FieldViolation::new(
                        "maxDeliveriesPerSecond",
                        format!("must be a whole number from 1 to {MAX_DELIVERIES_PER_SECOND}, or null for no limit"),
                    ));
                }
                pace.map(|n| n as u32)
            }
        };
        if violations.is_empty() {
            Ok(Self { name, url, enabled, events, custom_data, max_deliveries_per_second })
        } else {
            Err(CoreError::Validation(violations))
        }
    }

    /// Re-checks a stored definition against today's rules (the destination
    /// rules may have changed since it was saved).
    pub fn still_valid(&self, destination: &webhook_client::DestinationPolicy) -> bool {
        let kinds_ok = !self.events.is_empty() && self.events.iter().all(|e| EVENT_KINDS.contains(&e.as_str()));
        let name_ok = self.name.as_ref().is_none_or(|n| n.chars().count() <= MAX_NAME_CHARS);
        let data_ok = self.custom_data.as_ref().is_none_or(|d| d.len() <= MAX_CUSTOM_DATA_BYTES);
        let pace_ok = self.max_deliveries_per_second.is_none_or(|n| (1..=MAX_DELIVERIES_PER_SECOND).contains(&n));
        kinds_ok && name_ok && data_ok && pace_ok && check_url(&self.url, destination).is_ok()
    }
}

fn check_events(value: Option<Value>, violations: &mut Vec<FieldViolation>) -> Vec<String> {
    let list = match value {
        None => {
            violations.push(FieldViolation::new("events", "is required: a non-empty list of event kinds"));
            return Vec::new();
        }
        Some(Value::Array(list)) if list.is_empty() => {
            violations.push(FieldViolation::new("events", "must name at least one event kind"));
            return Vec::new();
        }
        Some(Value::Array(list)) => list,
        Some(_) => {
            violations.push(FieldViolation::new("events", "must be a list of event kinds"));
            return Vec::new();
        }
    };
    let mut events: Vec<String> = Vec::with_capacity(list.len());
    for (i, entry) in list.into_iter().enumerate() {
        let field = format!("events[{i}]");
        match entry {
            Value::String(kind) if !EVENT_KINDS.contains(&kind.as_str()) => violations.push(FieldViolation::new(
                field,
                format!("'{kind}' is not an event kind; use {}", EVENT_KINDS.join(", ")),
            )),
            Value::String(kind) if events.contains(&kind) => {
                violations.push(FieldViolation::new(field, format!("'{kind}' is listed twice")))
            }
            Value::String(kind) => events.push(kind),
            _ => violations.push(FieldViolation::new(field, "must be a string")),
        }
    }
    events
}

/// An absolute `https` URL with a host, no fragment, and no literal IP the
/// destination rules refuse.
fn check_url(raw: &str, destination: &webhook_client::DestinationPolicy) -> Result<(), String> {
    if raw.len() > MAX_URL_BYTES {
        return Err(format!("must be at most {MAX_URL_BYTES} bytes"));
    }
    let url = Url::parse(raw).map_err(|_| "must be an absolute https URL".to_owned())?;
    if url.scheme() != "https" {
        return Err("must be an absolute https URL".to_owned());
    }
    if url.fragment().is_some() {
        return Err("must not have a fragment (#…)".to_owned());
    }
    let ip: std::net::IpAddr = match url.host() {
        None => return Err("must name a host".to_owned()),
        Some(Host::Domain(_)) => return Ok(()),
        Some(Host::Ipv4(v4)) => v4.into(),
        Some(Host::Ipv6(v6)) => v6.into(),
    };
    match destination.refuse_literal(ip) {
        Some(refusal) => Err(refusal.to_string()),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<Definition, Vec<String>> {
        Definition::parse(json, &webhook_client::DestinationPolicy::default()).map_err(|e| match e {
            CoreError::Validation(v) => v.into_iter().map(|f| f.field).collect(),
            other => panic!("unexpected {other:?}"),
        })
    }

    #[test]
    fn a_minimal_definition_gets_defaults() {
        let d = parse(r#"{"url": "https://example.com/hook", "events": ["item.created"]}"#).unwrap();
        assert!(d.enabled);
        assert_eq!(d.name, None);
        assert_eq!(d.custom_data, None);
    }

    #[test]
    fn custom_data_is_kept_byte_for_byte() {
        let json = r#"{"url":"https://e.com","events":["user.added"],"customData":{"z":1,"a":[1.50,"x"]}}"#;
        assert_eq!(parse(json).unwrap().custom_data.as_deref(), Some(r#"{"z":1,"a":[1.50,"x"]}"#));
    }

    #[test]
    fn each_rule_names_its_field() {
        let long = "n".repeat(129);
        assert_eq!(
            parse(&format!(r#"{{"name":"{long}","url":"https://e.com","events":["item.created"]}}"#)),
            Err(vec!["name".into()])
        );
        assert_eq!(parse(r#"{"url":"http://e.com","events":["item.created"]}"#), Err(vec!["url".into()]));
        assert_eq!(parse(r#"{"url":"/relative","events":["item.created"]}"#), Err(vec!["url".into()]));
        assert_eq!(parse(r#"{"url":"https://127.0.0.1/x","events":["item.created"]}"#), Err(vec!["url".into()]));
        assert_eq!(parse(r#"{"url":"https://e.com","events":[]}"#), Err(vec!["events".into()]));
        assert_eq!(parse(r#"{"url":"https://e.com"}"#), Err(vec!["events".into()]));
        assert_eq!(parse(r#"{"url":"https://e.com","events":["item.moved"]}"#), Err(vec!["events[0]".into()]));
        assert_eq!(
            parse(r#"{"url":"https://e.com","events":["item.created","item.created"]}"#),
            Err(vec!["events[1]".into()])
        );
        let big = format!(r#"{{"url":"https://e.com","events":["item.created"],"customData":"{}"}}"#, "x".repeat(4095));
        assert_eq!(parse(&big), Err(vec!["customData".into()]));
        assert_eq!(
            parse(r#"{"url":"https://e.com","events":["item.created"],"enabled":"yes"}"#),
            Err(vec!["enabled".into()])
        );
        assert_eq!(
            parse(r#"{"url":"https://e.com","events":["item.created"],"colour":1}"#),
            Err(vec!["colour".into()])
        );
        assert_eq!(parse("[1]"), Err(vec!["body".into()]));
    }

    #[test]
    fn the_pace_is_a_whole_number_from_one_to_the_limit_or_null() {
        let with = |pace: &str| {
            parse(&format!(r#"{{"url":"https://e.com","events":["item.created"],"maxDeliveriesPerSecond":{pace}}}"#))
        };
        assert_eq!(with("1").unwrap().max_deliveries_per_second, Some(1));
        assert_eq!(with("1000").unwrap().max_deliveries_per_second, Some(1000));
        assert_eq!(with("null").unwrap().max_deliveries_per_second, None, "null is no limit");
        for refused in ["0", "-1", "1001", "2.5", "1e2", "\"5\"", "true", "[5]", "18446744073709551616"] {
            assert_eq!(with(refused), Err(vec!["maxDeliveriesPerSecond".into()]), "{refused}");
        }
        let d = parse(r#"{"url":"https://e.com","events":["item.created"],"MAX_DELIVERIES_PER_SECOND":7}"#).unwrap();
        assert_eq!(d.max_deliveries_per_second, Some(7), "any casing, like the other properties");
    }

    #[test]
    fn names_match_in_any_casing_like_item_properties() {
        let record = r#"{"Id":"x","Name":"n","Url":"https://e.com","Enabled":false,"Events":["item.created"],
            "CustomData":{"Team":"blue"},"CreatedAt":"2026-01-01T00:00:00Z","Status":{"ConsecutiveFailures":0}}"#;
        let d = parse(record).unwrap();
        assert_eq!((d.name.as_deref(), d.enabled), (Some("n"), false));
        assert_eq!(d.custom_data.as_deref(), Some(r#"{"Team":"blue"}"#), "customData's content is never re-cased");
        for casing in ["custom_data", "custom-data", "CUSTOMDATA"] {
            let json = format!(r#"{{"url":"https://e.com","events":["user.added"],"{casing}":1}}"#);
            assert_eq!(parse(&json).unwrap().custom_data.as_deref(), Some("1"), "{casing}");
        }
        assert_eq!(
            parse(r#"{"url":"https://e.com","URL":"https://f.com","events":["item.created"]}"#),
            Err(vec!["url".into()])
        );
    }
}
