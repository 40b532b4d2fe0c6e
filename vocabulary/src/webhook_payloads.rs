//! The webhook event catalog: for each kind a webhook can receive, its meaning and the JSON Schema
//! (draft 2020-12) of the whole call body. core-service writes the bodies
//! (`core-service/src/webhooks/body.rs`) from the same names and tables; rest-gateway serves this
//! catalog (`GET /api/v2/webhooks/event-types`) and puts the same schemas in the OpenAPI document's
//! `webhooks` section. The end-to-end tests validate every body they receive against it with a
//! validator others wrote (Python `jsonschema`), so a body that drifts from the catalog fails them.
//!
//! Each schema is self-contained (no `$ref`, no `$defs`): it is served alone and also embedded in
//! the OpenAPI document, where a local reference would resolve against the wrong root. An item
//! event's change is one variant per item type (`anyOf`), told apart by `subject.type`, so generated
//! clients get a typed `new`/`old` per type.

use serde_json::{json, Map, Value};

use crate::items::{ItemTypeDef, PropertyDef, ITEM_TYPES};
use crate::json_schema::read_kind;
use crate::limits::comments::{MAX_MENTIONS, MAX_TEXT_CHARS, SUBJECT_TYPE as COMMENT};
use crate::limits::webhooks::{COMMENT_PREFIX, EVENT_KINDS, OPERATIONAL_PREFIX};

/// A project member's role, as `user.*` events carry it (`{"role": …}`).
pub const PROJECT_ROLES: [&str; 4] = ["Viewer", "Editor", "Manager", "Admin"];

/// The kind of a test call (`POST .../webhooks/test`): not selectable, always sent.
pub const PING: &str = "ping";

/// One entry of the catalog.
#[derive(Debug, Clone, Copy)]
pub struct EventType {
    /// The `kind` of the change, as `events` lists it.
    pub name: &'static str,
    /// When it is sent, in words.
    pub description: &'static str,
}

/// The catalog: the spec's six kinds in their order, the two operational kinds, the four comment
/// kinds, then the test call's `ping`.
pub const EVENT_TYPES: [EventType; 13] = [
    EventType {
        name: EVENT_KINDS[0],
        description: "An item was created (by any route: one create, a bulk create, a diagram, an archive import). \
            `new` holds every stored property; `parent` is where it was put.",
    },
    EventType {
        name: EVENT_KINDS[1],
        description: "An item changed. `new` holds only the changed properties (null: removed, back to its default), \
            `old` their previous values; `parent` is the item's parent after the change (a move changes only it).",
    },
    EventType {
        name: EVENT_KINDS[2],
        description: "An item was deleted; `old` holds its properties. Deleting a container sends one per item it \
            held, deepest first.",
    },
    EventType {
        name: EVENT_KINDS[3],
        description: "A person became a member of the project; `new.role` is their role.",
    },
    EventType { name: EVENT_KINDS[4], description: "A member's role changed; `new.role` and `old.role`." },
    EventType { name: EVENT_KINDS[5], description: "A member left the project or was removed." },
    EventType {
        name: EVENT_KINDS[6],
        description: "Operational: a webhook of the project was disabled, by its failures in a row or a `410 Gone`. \
            `subject.id` is that webhook; `new` says why and its last answer. It is called again by \
            `POST .../webhooks/{webhookId}/enable`; its deliveries wait until then. Raised by the service: no \
            `actorUserId`.",
    },
    EventType {
        name: EVENT_KINDS[7],
        description: "Operational: a delivery was given up after every attempt. `subject.id` is its webhook; `new` \
            names the delivery, its event and its last answer. `POST .../webhooks/{webhookId}/recover` with \
            `since` at or before `new.eventOccurredAt` sends it again. A delivery of an operational event that is \
            given up raises none. Raised by the service: no `actorUserId`.",
    },
    EventType {
        name: EVENT_KINDS[8],
        description: "A comment was written: a thread opened (`subject.id` is the thread's id) or a reply. `new` \
            holds the comment; `threadId` and `itemId` say where it is (docs/COMMENTS.md).",
    },
    EventType {
        name: EVENT_KINDS[9],
        description: "A comment changed: its text edited, its thread reopened (`new.resolved` false), or the item \
            its thread was on deleted (`new.itemId` null, `new.formerItemId`, `new.position`: the thread stays \
            where the item was). `new` holds the changed fields, `old` their previous values.",
    },
    EventType {
        name: EVENT_KINDS[10],
        description: "A thread was resolved. `new` holds `resolved`, `resolvedAt` and `resolvedByUserId`.",
    },
    EventType {
        name: EVENT_KINDS[11],
        description: "A comment was deleted; `old` holds it. Deleting a thread sends one per reply, then the \
            thread's own.",
    },
    EventType {
        name: PING,
        description: "A test call (`POST .../webhooks/test`): `webhookId` is null, as the definition tested is not \
            saved, and the one change holds only `kind` and `occurredAt`. Never selected in `events`; always sent.",
    },
];

/// `user.roleChanged` → `UserRoleChanged`, `sticky-note` → `StickyNote`: names for generated code.
fn pascal(words: &str) -> String {
    let mut name = String::new();
    for part in words.split(['.', '-']) {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
    name
}

/// The title of a kind's body schema, also its name among the OpenAPI document's schemas:
/// `item.created` → `WebhookPayloadItemCreated`. Titles are what client generators name types by.
pub fn payload_title(kind: &str) -> String {
    format!("WebhookPayload{}", pascal(kind))
}

fn uuid() -> Value {
    json!({"type": "string", "format": "uuid"})
}

fn date_time() -> Value {
    json!({"type": "string", "format": "date-time"})
}

fn closed(properties: Map<String, Value>, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

fn members(pairs: impl IntoIterator<Item = (&'static str, Value)>) -> Map<String, Value> {
    pairs.into_iter().map(|(name, schema)| (name.to_owned(), schema)).collect()
}

/// The properties an item event may carry for `item_type`: every stored property (the derived
/// ones are never stored, so never sent), each as a read types it; `nullable` for updates, where
/// null means "removed".
fn item_properties(item_type: &ItemTypeDef, nullable: bool) -> Value {
    let stored = item_type.properties.iter().filter(|def: &&PropertyDef| !def.ignored);
    let properties = stored.map(|def| {
        let schema = read_kind(def.kind);
        let schema = if nullable { json!({"anyOf": [schema, {"type": "null"}]}) } else { schema };
        (def.name.to_owned(), schema)
    });
    json!({"type": "object", "properties": Map::from_iter(properties), "additionalProperties": false})
}

/// What every change of an event (not a ping) carries.
fn change_head(kind: &str, subject_type: Value) -> Map<String, Value> {
    members([
        ("kind", json!({"const": kind})),
        (
            "eventId",
            json!({"type": "string", "format": "uuid", "description": "The same on every delivery of the event: drop repeats by it."}),
        ),
        (
            "seq",
            json!({"type": "integer", "minimum": 1, "description": "The event's place in the project's change log, as `GET .../changes` gives it; one item's changes have rising seqs."}),
        ),
        ("occurredAt", date_time()),
        ("actorUserId", uuid()),
        ("subject", closed(members([("type", subject_type), ("id", uuid())]), &["type", "id"])),
    ])
}

/// The change of an item event for one item type.
fn item_change(kind: &str, item_type: &ItemTypeDef) -> Value {
    let mut properties = change_head(kind, json!({"const": item_type.name}));
    properties.insert(
        "parent".into(),
        json!({"type": "string", "description": "`panel`, `inbox` or the id of the container item that holds it"}),
    );
    if kind == EVENT_KINDS[1] {
        properties.insert(
            "oldParent".into(),
            json!({"type": "string", "description": "Where the item was before this update moved it into or out of a \
                container (beyond the spec); absent when it did not move"}),
        );
    }
    let (new, old) = if kind == EVENT_KINDS[0] {
        (Some(item_properties(item_type, false)), None)
    } else if kind == EVENT_KINDS[1] {
        (Some(item_properties(item_type, true)), Some(item_properties(item_type, true)))
    } else {
        (None, Some(item_properties(item_type, false)))
    };
    let mut required = vec!["kind", "eventId", "seq", "occurredAt", "actorUserId", "subject", "parent"];
    for (name, schema) in [("new", new), ("old", old)] {
        if let Some(schema) = schema {
            properties.insert(name.into(), schema);
            required.push(name);
        }
    }
    let mut change = closed(properties, &required);
    // Generators name the type after the body's title and this one: `WebhookPayloadItemCreatedLabelChange`.
    change["title"] = json!(format!("{}Change", pascal(item_type.name)));
    change["description"] = json!(format!("`{kind}` of a {}", item_type.name));
    change
}

/// The change of a member event.
fn member_change(kind: &str) -> Value {
    let mut properties = change_head(kind, json!({"const": "user"}));
    let role = || closed(members([("role", json!({"type": "string", "enum": PROJECT_ROLES}))]), &["role"]);
    let mut required = vec!["kind", "eventId", "seq", "occurredAt", "actorUserId", "subject"];
    if kind != EVENT_KINDS[5] {
        properties.insert("new".into(), role());
        required.push("new");
    }
    if kind == EVENT_KINDS[4] {
        properties.insert("old".into(), role());
        required.push("old");
    }
    let mut change = closed(properties, &required);
    change["title"] = json!("Change");
    change
}

fn nullable(schema: Value) -> Value {
    json!({"anyOf": [schema, {"type": "null"}]})
}

/// The change of an operational event: about a webhook, raised by the service (no actor).
fn operational_change(kind: &str) -> Value {
    let mut properties = change_head(kind, json!({"const": "webhook"}));
    properties.remove("actorUserId");
    let name = ("name", nullable(json!({"type": "string", "description": "The webhook's `name`, if it has one."})));
    let last_status = ("lastStatusCode", nullable(json!({"type": "integer"})));
    let last_error = ("lastError", nullable(json!({"type": "string"})));
    let new = if kind == EVENT_KINDS[6] {
        closed(
            members([
                name,
                ("reason", nullable(json!({"type": "string"}))),
                ("disabledAt", date_time()),
                ("consecutiveFailures", json!({"type": "integer", "minimum": 0})),
                last_status,
                last_error,
            ]),
            &["name", "reason", "disabledAt", "consecutiveFailures", "lastStatusCode", "lastError"],
        )
    } else {
        closed(
            members([
                name,
                ("deliveryId", uuid()),
                ("eventId", uuid()),
                ("eventKind", json!({"type": "string", "enum": given_up_kinds()})),
                ("eventOccurredAt", date_time()),
                ("attempts", json!({"type": "integer", "minimum": 1})),
                last_status,
                last_error,
            ]),
            &[
                "name",
                "deliveryId",
                "eventId",
                "eventKind",
                "eventOccurredAt",
                "attempts",
                "lastStatusCode",
                "lastError",
            ],
        )
    };
    properties.insert("new".into(), new);
    let mut change = closed(properties, &["kind", "eventId", "seq", "occurredAt", "subject", "new"]);
    change["title"] = json!("Change");
    change
}

/// The kinds whose deliveries raise `webhook.deliveryExhausted` when given up: all but the
/// operational ones.
fn given_up_kinds() -> Vec<&'static str> {
    EVENT_KINDS.into_iter().filter(|kind| !kind.starts_with(OPERATIONAL_PREFIX)).collect()
}

/// The fields of a comment as its events carry them; `partial` for updates, where each is
/// optional (only the changed ones are sent).
fn comment_fields(partial: bool) -> Value {
    let fields = members([
        ("text", json!({"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS})),
        ("mentions", json!({"type": "array", "items": uuid(), "maxItems": MAX_MENTIONS, "uniqueItems": true})),
        ("authorUserId", uuid()),
        ("itemId", nullable(uuid())),
        ("formerItemId", nullable(uuid())),
        (
            "position",
            nullable(closed(
                members([("x", json!({"type": "number"})), ("y", json!({"type": "number"}))]),
                &["x", "y"],
            )),
        ),
        ("resolved", json!({"type": "boolean"})),
        ("resolvedAt", nullable(date_time())),
        ("resolvedByUserId", nullable(uuid())),
        ("createdAt", date_time()),
        ("editedAt", nullable(date_time())),
    ]);
    let required: &[&str] = if partial { &[] } else { &["text", "mentions", "authorUserId", "createdAt"] };
    closed(fields, required)
}

/// The change of a comment event: the comment's own id as `subject.id`, its thread and item beside.
fn comment_change(kind: &str) -> Value {
    let mut properties = change_head(kind, json!({"const": COMMENT}));
    properties.insert(
        "threadId".into(),
        json!({"type": "string", "format": "uuid", "description": "The thread: the id of its first comment."}),
    );
    properties.insert(
        "itemId".into(),
        nullable(json!({"type": "string", "format": "uuid", "description": "The item the thread is on, if any."})),
    );
    let mut required = vec!["kind", "eventId", "seq", "occurredAt", "actorUserId", "subject", "threadId", "itemId"];
    let (new, old) = match kind {
        _ if kind == EVENT_KINDS[8] => (Some(comment_fields(false)), None),
        _ if kind == EVENT_KINDS[11] => (None, Some(comment_fields(false))),
        _ => (Some(comment_fields(true)), Some(comment_fields(true))),
    };
    for (name, schema) in [("new", new), ("old", old)] {
        if let Some(schema) = schema {
            properties.insert(name.into(), schema);
            required.push(name);
        }
    }
    let mut change = closed(properties, &required);
    change["title"] = json!("Change");
    change
}

/// The change of `kind`, or None for a kind not in the catalog.
fn change(kind: &str) -> Option<Value> {
    if kind == PING {
        let mut change =
            closed(members([("kind", json!({"const": PING})), ("occurredAt", date_time())]), &["kind", "occurredAt"]);
        change["title"] = json!("Change");
        return Some(change);
    }
    if kind.starts_with("item.") && EVENT_KINDS.contains(&kind) {
        let variants: Vec<Value> = ITEM_TYPES.iter().map(|item_type| item_change(kind, item_type)).collect();
        // `anyOf`, not `oneOf`: the variants exclude each other by `subject.type`, which linters
        // of OpenAPI documents cannot see in a nested member (Redocly asks for a discriminator,
        // which must be a top-level property); validation is the same either way.
        return Some(json!({"anyOf": variants}));
    }
    if kind.starts_with(OPERATIONAL_PREFIX) && EVENT_KINDS.contains(&kind) {
        return Some(operational_change(kind));
    }
    if kind.starts_with(COMMENT_PREFIX) && EVENT_KINDS.contains(&kind) {
        return Some(comment_change(kind));
    }
    EVENT_KINDS.contains(&kind).then(|| member_change(kind))
}

/// The JSON Schema of a whole call body carrying a change of `kind`; None for an unknown kind.
pub fn payload_schema(kind: &str) -> Option<Value> {
    let event = EVENT_TYPES.iter().find(|event| event.name == kind)?;
    let webhook_id = if kind == PING {
        json!({"type": "null", "description": "A test call's definition is not saved: it has no id."})
    } else {
        json!({"type": "string", "format": "uuid", "description": "The webhook called; a receiver checks it is the one it registered."})
    };
    let properties = members([
        ("projectId", uuid()),
        ("webhookId", webhook_id),
        (
            "deliveryId",
            json!({"type": "string", "format": "uuid", "description": "The `Webhook-Id` header: the same on every retry of this delivery."}),
        ),
        ("changes", json!({"type": "array", "minItems": 1, "maxItems": 1, "items": change(kind)?})),
        (
            "customData",
            json!({"description": "The definition's `customData`, byte for byte as registered; absent when it has none."}),
        ),
    ]);
    let mut schema = closed(properties, &["projectId", "webhookId", "deliveryId", "changes"]);
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    schema["title"] = json!(payload_title(kind));
    schema["description"] = json!(format!("`{kind}`: {}", event.description));
    Some(schema)
}

/// The catalog as `GET /api/v2/webhooks/event-types` answers it: `{elements: [{name, description,
/// schema}]}`, its names fixed (a JSON Schema's keywords and the body's names cannot be re-cased).
pub fn catalog() -> Value {
    let elements: Vec<Value> = EVENT_TYPES
        .iter()
        .map(
            |event| json!({"name": event.name, "description": event.description, "schema": payload_schema(event.name)}),
        )
        .collect();
    json!({"elements": elements})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_a_schema_and_unknown_kinds_none() {
        for event in EVENT_TYPES {
            let schema = payload_schema(event.name).unwrap();
            assert_eq!(schema["title"], payload_title(event.name));
            assert!(!schema.to_string().contains("$ref"), "{} refers outside itself", event.name);
        }
        assert!(payload_schema("item.moved").is_none());
        assert!(payload_schema("").is_none());
    }

    #[test]
    fn titles_are_names_for_generated_code() {
        assert_eq!(payload_title(EVENT_KINDS[4]), "WebhookPayloadUserRoleChanged");
        assert_eq!(payload_title(PING), "WebhookPayloadPing");
        let schema = payload_schema(EVENT_KINDS[0]).unwrap();
        let variants = schema["properties"]["changes"]["items"]["anyOf"].as_array().unwrap();
        assert!(variants.iter().any(|v| v["title"] == "StickyNoteChange"));
    }

    #[test]
    fn operational_kinds_name_a_webhook_and_no_actor() {
        for kind in &EVENT_KINDS[6..8] {
            let schema = payload_schema(kind).unwrap();
            let change = &schema["properties"]["changes"]["items"];
            assert_eq!(change["properties"]["subject"]["properties"]["type"]["const"], "webhook", "{kind}");
            assert!(change["properties"].get("actorUserId").is_none(), "{kind}");
            assert!(change["required"].as_array().unwrap().contains(&json!("new")), "{kind}");
        }
        assert_eq!(payload_title(EVENT_KINDS[7]), "WebhookPayloadWebhookDeliveryExhausted");
    }

    #[test]
    fn comment_kinds_name_a_comment_and_its_thread() {
        for kind in &EVENT_KINDS[8..] {
            let schema = payload_schema(kind).unwrap();
            let change = &schema["properties"]["changes"]["items"];
            assert_eq!(change["properties"]["subject"]["properties"]["type"]["const"], COMMENT, "{kind}");
            let required = change["required"].as_array().unwrap();
            assert!(required.contains(&json!("threadId")) && required.contains(&json!("itemId")), "{kind}");
        }
        let exhausted = payload_schema(EVENT_KINDS[7]).unwrap();
        let kinds =
            &exhausted["properties"]["changes"]["items"]["properties"]["new"]["properties"]["eventKind"]["enum"];
        assert!(kinds.as_array().unwrap().contains(&json!("comment.created")));
        assert!(!kinds.as_array().unwrap().contains(&json!("webhook.disabled")));
    }

    #[test]
    fn item_kinds_have_one_variant_per_item_type() {
        let schema = payload_schema(EVENT_KINDS[1]).unwrap();
        let variants = schema["properties"]["changes"]["items"]["anyOf"].as_array().unwrap();
        let types: Vec<&Value> =
            variants.iter().map(|v| &v["properties"]["subject"]["properties"]["type"]["const"]).collect();
        assert_eq!(types.len(), ITEM_TYPES.len());
        for item_type in ITEM_TYPES {
            assert!(types.contains(&&json!(item_type.name)), "{}", item_type.name);
        }
    }
}
