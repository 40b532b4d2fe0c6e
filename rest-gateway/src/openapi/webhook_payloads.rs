//! The document's top-level `webhooks` (OpenAPI 3.1): one operation per event kind, the call this
//! service makes to a receiver, with the signature headers and the body's schema. The schemas are
//! the catalog's (`canvas_vocabulary::webhook_payloads`, also served by
//! `GET /api/v2/webhooks/event-types`), listed under `components.schemas` as
//! `WebhookPayload<Kind>` (without their `$schema`: the document's dialect is already draft 2020-12),
//! before the client passes of `contract.rs` name their word lists (`Decorator`, `ProjectRole`, …)
//! as every other schema's; utoipa 5 has no `webhooks` member, so they are added to the JSON.

use canvas_vocabulary::webhook_payloads::{payload_schema, payload_title, EVENT_TYPES};
use serde_json::{json, Value};

/// The headers of every call (docs/WEBHOOKS.md, "The call").
fn headers() -> Value {
    json!([
        {"name": "Webhook-Id", "in": "header", "required": true,
         "description": "The delivery id (`deliveryId` of the body), the same on every retry: drop repeats by it.",
         "schema": {"type": "string", "format": "uuid"}},
        {"name": "Webhook-Timestamp", "in": "header", "required": true,
         "description": "Unix seconds when the attempt was signed; refuse calls more than 300 s away from your clock.",
         "schema": {"type": "string", "pattern": "^[0-9]+$"}},
        {"name": "Webhook-Signature", "in": "header", "required": true,
         "description": "`es256;kid=<kid>;<base64 of r||s>`: ECDSA P-256 with SHA-256 over \
             `{Webhook-Id}.{Webhook-Timestamp}.{raw body}`, verified with the key `kid` of `GET /api/v2/webhooks/keys`.",
         "schema": {"type": "string", "pattern": "^es256;kid=[^;]+;[A-Za-z0-9+/=]+$"}}
    ])
}

/// The receiver's answers and what each makes the service do.
fn responses() -> Value {
    json!({
        "2XX": {"description": "Delivered: any 2xx. The answer's body is never read."},
        "410": {"description": "Gone: the webhook is disabled at once."},
        "429": {"description": "Too Many Requests: with `Retry-After`, no call to this webhook until then (a \
            slow-down, not a failure); without it, a failed attempt."},
        "default": {"description": "Any other answer, a redirect, a time-out or no connection: a failed attempt, \
            retried on the schedule of docs/WEBHOOKS.md."}
    })
}

/// Adds `webhooks` and the payload schemas to the document's JSON.
pub fn add(document: &mut Value) {
    let mut webhooks = serde_json::Map::new();
    for event in EVENT_TYPES {
        let Some(mut schema) = payload_schema(event.name) else { continue };
        // An OpenAPI 3.1 document's schemas are draft 2020-12 already; generators need not see it said.
        schema.as_object_mut().map(|members| members.remove("$schema"));
        // The schema's title is its name among the components (`WebhookPayloadUserRoleChanged`).
        let name = payload_title(event.name);
        document["components"]["schemas"][&name] = schema;
        let operation = json!({
            "tags": ["webhooks"],
            "operationId": format!("on{}", &name["WebhookPayload".len()..]),
            "summary": format!("`{}`: the call a receiver gets", event.name),
            "description": event.description,
            "security": [],
            "parameters": headers(),
            "requestBody": {"required": true, "content": {"application/json": {
                "schema": {"$ref": format!("#/components/schemas/{name}")}}}},
            "responses": responses(),
        });
        webhooks.insert(event.name.to_owned(), json!({"post": operation}));
    }
    document["webhooks"] = Value::Object(webhooks);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_a_webhook_whose_body_is_the_catalogs_schema() {
        let mut document = json!({"components": {"schemas": {}}});
        add(&mut document);
        for event in EVENT_TYPES {
            let reference = &document["webhooks"][event.name]["post"]["requestBody"]["content"]["application/json"]
                ["schema"]["$ref"];
            let name = reference.as_str().unwrap().trim_start_matches("#/components/schemas/");
            let mut catalog = payload_schema(event.name).unwrap();
            catalog.as_object_mut().unwrap().remove("$schema");
            assert_eq!(document["components"]["schemas"][name], catalog);
        }
    }
}
