//! Asking the person before a large destructive change (docs/MCP.md, "Confirmation"), with MCP
//! 2026-07-28's multi round-trip requests: a tool call that core-service refuses with
//! `CONFIRMATION_REQUIRED` (it would delete or move more items than
//! `canvas_vocabulary::limits::confirm::ASK_ABOVE`) is answered `resultType: "input_required"` with
//! one form elicitation, "confirm"; the client asks the person and calls again with their answer in
//! `inputResponses`, and the call then runs with `confirm: true`, or ends as declined.
//!
//! No `requestState` is sent: the retry needs nothing but the answer, and the answer is as much
//! the caller's to give as the `confirm` argument it stands for (a client can always pass
//! `confirm: true` itself), so there is nothing to protect. The confirmation guards against an
//! agent's mistake, not against its user.
//!
//! A client that cannot be asked (an older protocol revision, or no form elicitation declared)
//! gets the tool error naming `confirm` instead, as MCP requires: no input request it did not
//! declare support for.

use std::collections::BTreeMap;

use rmcp::model::{
    CallToolResult, ClientCapabilities, ContentBlock, InputRequest, InputRequiredResult, InputResponses,
    ProtocolVersion,
};
use serde_json::{json, Value};

use canvas_vocabulary::limits::confirm::ARGUMENT;

/// What the person said in a retry's `inputResponses`.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    /// Nobody was asked: the first call.
    NotAsked,
    /// They agreed: run the call with `confirm: true`.
    Agreed,
    /// They declined or dismissed the question (the elicitation's `action`).
    Declined(String),
}

/// The person's answer to the `confirm` question, if this call carries one.
pub fn answer(responses: Option<&InputResponses>) -> Answer {
    let Some(response) = responses.and_then(|all| all.get(ARGUMENT)) else { return Answer::NotAsked };
    let action = response.get("action").and_then(Value::as_str).unwrap_or("");
    if action == "accept" && response.pointer(&format!("/content/{ARGUMENT}")) == Some(&Value::Bool(true)) {
        Answer::Agreed
    } else {
        Answer::Declined(if action.is_empty() { "no answer".to_owned() } else { action.to_owned() })
    }
}

/// Whether this client can be asked: it speaks 2026-07-28 or newer (multi round-trip requests)
/// and declared form elicitation (`elicitation: {}` means form, for older clients' sake).
pub fn can_ask(version: Option<&ProtocolVersion>, capabilities: Option<&ClientCapabilities>) -> bool {
    let recent = version.is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str());
    let form = capabilities
        .and_then(|c| c.elicitation.as_ref())
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none());
    recent && form
}

/// The `input_required` result that asks `question`; None only if rmcp could not read the form
/// (then the caller answers with the tool error naming `confirm`, as for a client that cannot ask).
pub fn ask(question: &str) -> Option<InputRequiredResult> {
    let request = json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": question,
            "requestedSchema": {
                "type": "object",
                "properties": {
                    ARGUMENT: {"type": "boolean", "title": "Go ahead", "description": "Make this change"}
                },
                "required": [ARGUMENT]
            }
        }
    });
    let request: InputRequest = serde_json::from_value(request).ok()?;
    Some(InputRequiredResult::from_input_requests(BTreeMap::from([(ARGUMENT.to_owned(), request)])))
}

/// The tool error of a call the person declined: nothing was changed.
pub fn declined(action: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "The person did not agree to this change ({action}): nothing was changed."
    ))])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn responses(value: Value) -> InputResponses {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn answers() {
        assert_eq!(answer(None), Answer::NotAsked);
        assert_eq!(answer(Some(&responses(json!({"other": {"action": "accept"}})))), Answer::NotAsked);
        let agreed = responses(json!({"confirm": {"action": "accept", "content": {"confirm": true}}}));
        assert_eq!(answer(Some(&agreed)), Answer::Agreed);
        for (said, action) in [
            (json!({"confirm": {"action": "accept", "content": {"confirm": false}}}), "accept"),
            (json!({"confirm": {"action": "accept", "content": {"confirm": "true"}}}), "accept"),
            (json!({"confirm": {"action": "accept"}}), "accept"),
            (json!({"confirm": {"action": "decline"}}), "decline"),
            (json!({"confirm": {"action": "cancel"}}), "cancel"),
            (json!({"confirm": {}}), "no answer"),
        ] {
            assert_eq!(answer(Some(&responses(said.clone()))), Answer::Declined(action.to_owned()), "{said}");
        }
    }

    #[test]
    fn only_clients_that_can_be_asked_are_asked() {
        let caps = |value: Value| serde_json::from_value::<ClientCapabilities>(value).unwrap();
        let (new, old) = (ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25);
        assert!(can_ask(Some(&new), Some(&caps(json!({"elicitation": {}})))));
        assert!(can_ask(Some(&new), Some(&caps(json!({"elicitation": {"form": {}}})))));
        assert!(!can_ask(Some(&new), Some(&caps(json!({"elicitation": {"url": {}}})))), "URL mode only");
        assert!(!can_ask(Some(&new), Some(&caps(json!({})))), "no elicitation");
        assert!(!can_ask(Some(&old), Some(&caps(json!({"elicitation": {}})))), "no multi round-trip requests");
        assert!(!can_ask(None, None));
    }

    #[test]
    fn the_question_is_one_form_elicitation_of_a_boolean() {
        let asked = serde_json::to_value(ask("Delete 60 items?").expect("the form reads as an input request")).unwrap();
        assert_eq!(asked["resultType"], "input_required");
        let request = &asked["inputRequests"]["confirm"];
        assert_eq!(request["method"], "elicitation/create");
        assert_eq!(request["params"]["message"], "Delete 60 items?");
        assert_eq!(request["params"]["requestedSchema"]["properties"]["confirm"]["type"], "boolean");
        assert!(asked.get("requestState").is_none());
    }
}
