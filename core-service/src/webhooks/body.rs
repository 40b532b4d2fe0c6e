//! The JSON body of a call.
//!
//! ```json
//! {"projectId": "…", "webhookId": "…", "deliveryId": "…",
//!  "changes": [{"kind": "item.updated", "eventId": "…", "seq": 42, "occurredAt": "…",
//!               "actorUserId": "…", "subject": {"type": "label", "id": "…"},
//!               "parent": "panel", "new": {"text": "b"}, "old": {"text": "a"}}],
//!  "customData": <exactly as registered>}
//! ```
//! `new`, `old` and `parent` come from the event's outbox payload: `new` holds
//! the properties after the change (all of them for a create, only the
//! changed ones for an update), `old` their values before (update, delete).
//! A test call carries one change `{"kind": "ping", "occurredAt": "…"}` and
//! `webhookId: null` (the definition is not saved). An operational event
//! (`webhook.disabled`, `webhook.deliveryExhausted`) has no `actorUserId`: the
//! service raised it. A comment's change also carries `threadId` and `itemId`
//! (docs/COMMENTS.md "Events").

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{json, Map, Value};
use uuid::Uuid;

use crate::domain::SERVICE_ACTOR;
use crate::error::CoreError;
use crate::storage::EventRow;
use canvas_vocabulary::limits::comments::SUBJECT_TYPE as COMMENT;

/// The body as serialised; `custom_data` is written verbatim.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body {
    project_id: Uuid,
    webhook_id: Option<Uuid>,
    delivery_id: Uuid,
    changes: [Value; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    custom_data: Option<Box<RawValue>>,
}

/// Times in bodies: RFC 3339, UTC, milliseconds.
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// The change record of one outbox event.
pub fn change(event: &EventRow) -> Value {
    let mut change = Map::new();
    change.insert("kind".into(), Value::String(event.kind.as_str().to_owned()));
    change.insert("eventId".into(), Value::String(event.id.to_string()));
    // The event's place in the project's change log (the change stream's `seq`): deliveries may
    // arrive out of order and more than once, and one item's changes have rising seqs, so a
    // receiver keeps the highest seq applied per item and drops anything at or below it.
    change.insert("seq".into(), json!(event.seq));
    change.insert("occurredAt".into(), Value::String(timestamp(event.occurred_at)));
    // An operational event's actor is the service: it names no person.
    if event.actor_user_id != SERVICE_ACTOR {
        change.insert("actorUserId".into(), Value::String(event.actor_user_id.to_string()));
    }
    change.insert("subject".into(), json!({"type": event.subject_type, "id": event.subject_id.to_string()}));
    if let Value::Object(payload) = &event.payload {
        // `oldParent`: where an item moved out of (into or out of a frame; beyond the spec).
        for key in ["parent", "oldParent", "new", "old"] {
            if let Some(value) = payload.get(key).filter(|v| !v.is_null()) {
                change.insert(key.into(), value.clone());
            }
        }
        // A comment's change says where it is: its thread, and the thread's item (null on a point).
        if event.subject_type == COMMENT {
            for key in ["threadId", "itemId"] {
                change.insert(key.into(), payload.get(key).cloned().unwrap_or(Value::Null));
            }
        }
    }
    Value::Object(change)
}

/// The change of a test call.
pub fn ping(at: DateTime<Utc>) -> Value {
    json!({"kind": "ping", "occurredAt": timestamp(at)})
}

/// Serialises a body; `custom_data` is the stored JSON text.
pub fn render(
    project_id: Uuid,
    webhook_id: Option<Uuid>,
    delivery_id: Uuid,
    change: Value,
    custom_data: Option<&str>,
) -> Result<Vec<u8>, CoreError> {
    let custom_data = custom_data
        .map(|text| RawValue::from_string(text.to_owned()))
        .transpose()
        .map_err(|e| CoreError::internal(format!("stored customData is not JSON: {e}")))?;
    let body = Body { project_id, webhook_id, delivery_id, changes: [change], custom_data };
    serde_json::to_vec(&body).map_err(|e| CoreError::internal(format!("cannot serialise a webhook body: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_data_is_written_verbatim() {
        let (p, w, d) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        let bytes = render(p, Some(w), d, ping(Utc::now()), Some(r#"{"z": 1, "a": 1.50}"#)).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.ends_with(r#","customData":{"z": 1, "a": 1.50}}"#), "{text}");
        let parsed: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(parsed["projectId"], p.to_string());
        assert_eq!(parsed["webhookId"], w.to_string());
        assert_eq!(parsed["deliveryId"], d.to_string());
        assert_eq!(parsed["changes"][0]["kind"], "ping");
    }

    #[test]
    fn a_test_call_has_no_webhook_id_and_no_custom_data_key_when_none() {
        let bytes = render(Uuid::now_v7(), None, Uuid::now_v7(), ping(Utc::now()), None).unwrap();
        let parsed: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(parsed["webhookId"], Value::Null);
        assert!(parsed.get("customData").is_none());
    }
}
