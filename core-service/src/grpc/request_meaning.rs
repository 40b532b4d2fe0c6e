//! What an idempotent request means, for its fingerprint: two requests core-service would treat as
//! the same one have the same bytes here, whatever spellings the client chose.
//!
//! A retry is judged by its fingerprint (`service::items::idempotency::Retry`): the same key with
//! another request is refused (`IDEMPOTENCY_KEY_REUSED`, 422). Fingerprinting the message as it
//! arrived made a retry of `{"FontSize": 18}` after `{"fontSize": 18}` "another request", though
//! the rules read both as one property. So each creating request is first put in the form the
//! rules read it in:
//! - property and definition names folded as the rules fold them ([`fold_name`]: `fontSize`,
//!   `FontSize`, `font_size` and `font-size` are one name), in nested objects too (points, sizes,
//!   connector ends), and in name order;
//! - item types and parents as they parse (`Label`, ` panel `), ids in lower case;
//! - numbers as numbers: item properties travel as `google.protobuf.Struct`, whose numbers are
//!   doubles (`18`, `18.0` and `1.8e1` already arrive as one value); a webhook definition's JSON
//!   text is parsed and its numbers written as doubles too.
//!
//! Only what the rules fold is folded: text values, a webhook's `customData` (kept as the exact
//! JSON text sent) and a diagram's source keep their spelling. When folding would make two
//! members one (`{"fontSize": 1, "FontSize": 2}`, which the rules refuse), the request keeps its
//! own bytes, so it never matches another.

use canvas_items::schema::fold_name;
use canvas_items::Parent;
use canvas_proto::v1 as pb;
use canvas_vocabulary::items::ItemType;
use prost::Message;
use prost_types::value::Kind;
use prost_types::{Struct, Value};

/// The bytes a request is fingerprinted by: its meaning, as the rules read it.
pub trait Meaning: Message + Clone {
    fn meaning(&self) -> Vec<u8> {
        self.encode_to_vec()
    }
}

impl Meaning for pb::CreateItemRequest {
    fn meaning(&self) -> Vec<u8> {
        let mut request = self.clone();
        request.project_id = id(&request.project_id);
        request.parent = parent(&request.parent);
        request.item_type = item_type(&request.item_type);
        match request.properties.as_ref().map(folded_struct) {
            Some(None) => self.encode_to_vec(),
            Some(Some(properties)) => {
                request.properties = Some(properties);
                request.encode_to_vec()
            }
            None => request.encode_to_vec(),
        }
    }
}

impl Meaning for pb::CreateItemsRequest {
    fn meaning(&self) -> Vec<u8> {
        let mut request = self.clone();
        // The task a call works for is how it is followed, not what it asks.
        request.task_id = None;
        request.project_id = id(&request.project_id);
        for item in &mut request.items {
            item.parent = parent(&item.parent);
            item.item_type = item_type(&item.item_type);
            if let Some(properties) = &item.properties {
                let Some(folded) = folded_struct(properties) else { return self.encode_to_vec() };
                item.properties = Some(folded);
            }
        }
        request.encode_to_vec()
    }
}

impl Meaning for pb::ArrangeItemsRequest {
    fn meaning(&self) -> Vec<u8> {
        let mut request = self.clone();
        request.project_id = id(&request.project_id);
        request.item_ids = request.item_ids.iter().map(|item| id(item)).collect();
        request.style = fold_name(&request.style);
        request.encode_to_vec()
    }
}

impl Meaning for pb::CreateDiagramRequest {
    fn meaning(&self) -> Vec<u8> {
        // The task a call works for is how it is followed, not what it asks.
        pb::CreateDiagramRequest { task_id: None, ..self.clone() }.encode_to_vec()
    }
}

impl Meaning for pb::CreateWebhookRequest {
    fn meaning(&self) -> Vec<u8> {
        let mut request = self.clone();
        request.project_id = id(&request.project_id);
        match webhook_definition(&request.definition_json) {
            Some(definition) => {
                request.definition_json = definition;
                request.encode_to_vec()
            }
            None => self.encode_to_vec(),
        }
    }
}

impl Meaning for pb::RecoverDeliveriesRequest {
    fn meaning(&self) -> Vec<u8> {
        let mut request = self.clone();
        request.project_id = id(&request.project_id);
        request.webhook_id = id(&request.webhook_id);
        // The window is kept as sent: `since` and `until` are compared as the instants they name
        // only after parsing, and a retry sends the same text.
        request.encode_to_vec()
    }
}

/// An id as it parses: trimmed, in lower case (a GUID's hex digits are either case).
fn id(raw: &str) -> String {
    raw.trim().to_ascii_lowercase()
}

fn parent(raw: &str) -> String {
    Parent::parse(raw).map_or_else(|_| raw.to_owned(), |parent| parent.to_string())
}

fn item_type(raw: &str) -> String {
    ItemType::parse(raw).map_or_else(|_| raw.to_owned(), |t| t.as_str().to_owned())
}

/// `properties` with every member name folded, nested objects too; None when two members of one
/// object fold to one name.
fn folded_struct(properties: &Struct) -> Option<Struct> {
    let mut fields = std::collections::BTreeMap::new();
    for (name, value) in &properties.fields {
        if fields.insert(fold_name(name), folded_value(value)?).is_some() {
            return None;
        }
    }
    Some(Struct { fields })
}

fn folded_value(value: &Value) -> Option<Value> {
    let kind = match &value.kind {
        Some(Kind::StructValue(inner)) => Some(Kind::StructValue(folded_struct(inner)?)),
        Some(Kind::ListValue(list)) => Some(Kind::ListValue(prost_types::ListValue {
            values: list.values.iter().map(folded_value).collect::<Option<_>>()?,
        })),
        other => other.clone(),
    };
    Some(Value { kind })
}

/// A webhook definition's JSON text in the form its rules read it: names folded and sorted,
/// values with numbers as doubles, `customData` as the exact text sent. None when the text is no
/// JSON object or two names fold to one (the request is then refused anyway).
fn webhook_definition(json: &str) -> Option<String> {
    let sent: serde_json::Map<String, serde_json::Value> = serde_json::from_str(json).ok()?;
    let raw: std::collections::HashMap<String, Box<serde_json::value::RawValue>> = serde_json::from_str(json).ok()?;
    let mut folded = std::collections::BTreeMap::new();
    for (name, value) in sent {
        let key = fold_name(&name);
        let value = if key == "customdata" {
            // Kept as sent: the definition stores and delivers this exact text.
            serde_json::Value::String(raw.get(&name)?.get().to_owned())
        } else {
            numbers_as_doubles(value)
        };
        if folded.insert(key, value).is_some() {
            return None;
        }
    }
    serde_json::to_string(&folded).ok()
}

fn numbers_as_doubles(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Number(n) => {
            n.as_f64().and_then(serde_json::Number::from_f64).map_or(serde_json::Value::Number(n), Into::into)
        }
        serde_json::Value::Array(items) => items.into_iter().map(numbers_as_doubles).collect(),
        serde_json::Value::Object(members) => {
            members.into_iter().map(|(name, value)| (name, numbers_as_doubles(value))).collect()
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(n: f64) -> Value {
        Value { kind: Some(Kind::NumberValue(n)) }
    }

    fn properties(members: &[(&str, Value)]) -> Option<Struct> {
        Some(Struct { fields: members.iter().map(|(k, v)| ((*k).to_owned(), v.clone())).collect() })
    }

    fn label(item_type: &str, parent: &str, members: &[(&str, Value)]) -> pb::CreateItemRequest {
        pb::CreateItemRequest {
            project_id: "0190A000-0000-7000-8000-000000000001".into(),
            parent: parent.into(),
            item_type: item_type.into(),
            properties: properties(members),
            file: None,
        }
    }

    #[test]
    fn spellings_the_rules_fold_mean_the_same_request() {
        let point = Value { kind: Some(Kind::StructValue(properties(&[("X", number(1.0))]).unwrap())) };
        let base = label("label", "panel", &[("fontSize", number(18.0)), ("position", point.clone())]);
        let respelled = label(" Label ", "PANEL", &[("Font_Size", number(18.0)), ("POSITION", point)]);
        assert_eq!(base.meaning(), respelled.meaning());
        let other = label("label", "panel", &[("fontSize", number(19.0))]);
        assert_ne!(base.meaning(), other.meaning(), "another value is another request");
    }

    #[test]
    fn names_folding_into_one_keep_the_request_apart() {
        let twice = label("label", "panel", &[("fontSize", number(1.0)), ("FontSize", number(2.0))]);
        let once = label("label", "panel", &[("fontsize", number(2.0))]);
        assert_ne!(twice.meaning(), once.meaning());
        assert_eq!(twice.meaning(), twice.encode_to_vec());
    }

    #[test]
    fn a_webhook_definition_is_read_by_name_and_number_but_custom_data_exactly() {
        let hook = |json: &str| pb::CreateWebhookRequest { project_id: "p".into(), definition_json: json.into() };
        let base = hook(r#"{"url":"https://example.com/h","maxRetries":3,"customData":{"a":1}}"#);
        let respelled = hook(r#"{ "MAX_RETRIES": 3.0, "Url": "https://example.com/h", "customData":{"a":1} }"#);
        assert_eq!(base.meaning(), respelled.meaning());
        let reordered_data = hook(r#"{"url":"https://example.com/h","maxRetries":3,"customData":{"a": 1}}"#);
        assert_ne!(base.meaning(), reordered_data.meaning(), "customData is kept as the exact text sent");
    }
}
