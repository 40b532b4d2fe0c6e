//! Confirmation before large destructive changes over plain JSON-RPC (docs/MCP.md): a tool call
//! that would delete or move more than `ASK_ABOVE` items is answered `input_required` for a
//! 2026-07-28 client with form elicitation, a tool error naming `confirm` for any other, and runs
//! once the person agreed; nothing changes before. The official Python SDK's own round trips are
//! in `tests/mcp/client_e2e.py`.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::confirm::ASK_ABOVE;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::mcp::call_tool;
use crate::support::owner_with_project;

backend_tests!(large_deletes_and_moves_ask_first_and_small_ones_do_not);

/// A `tools/call` of the 2026-07-28 revision with the client's declared `capabilities` and, on a
/// retry, its `inputResponses`.
async fn call_newest(
    app: &TestApp,
    user: &TestUser,
    name: &str,
    arguments: Value,
    capabilities: Value,
    responses: Option<Value>,
) -> Value {
    let mut params = json!({"name": name, "arguments": arguments});
    if let Some(responses) = responses {
        params["inputResponses"] = responses;
    }
    let raw = crate::mcp::post_newest(app, user, "tools/call", name, params, capabilities).await;
    assert_eq!(raw.status, StatusCode::OK, "{}", raw.text);
    raw.json()
}

fn text_of(answer: &Value) -> String {
    answer["result"]["content"].as_array().into_iter().flatten().filter_map(|b| b["text"].as_str()).collect()
}

async fn item_count(app: &TestApp, user: &TestUser, project: &str) -> usize {
    let listed = call_tool(app, user, "list_items", json!({"projectId": project, "limit": 1000})).await;
    listed["result"]["structuredContent"]["items"].as_array().map_or(0, Vec::len)
}

/// A chain of `nodes` nodes: `nodes` shapes, their labels and `nodes - 1` connectors.
fn chain(nodes: usize) -> String {
    let mut source = String::from("flowchart LR\n");
    for i in 0..nodes - 1 {
        source.push_str(&format!("  n{i}[Step {i}] --> n{}[Step {}]\n", i + 1, i + 1));
    }
    source
}

async fn large_deletes_and_moves_ask_first_and_small_ones_do_not(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let asking = json!({"elicitation": {}});
    let made = call_tool(&app, &owner, "create_diagram", json!({"projectId": project, "source": chain(30)})).await;
    let diagram = made["result"]["structuredContent"]["diagramId"].as_str().unwrap().to_owned();
    let items = made["result"]["structuredContent"]["itemIds"].as_array().unwrap().len();
    assert!(items > ASK_ABOVE as usize, "{items} items");
    let delete = json!({"projectId": project, "diagramId": diagram});

    // Asked: one form elicitation, no request state, and nothing deleted.
    let asked = call_newest(&app, &owner, "delete_diagram", delete.clone(), asking.clone(), None).await;
    let result = &asked["result"];
    assert_eq!(result["resultType"], "input_required", "{asked}");
    let question = &result["inputRequests"]["confirm"];
    assert_eq!(question["method"], "elicitation/create", "{asked}");
    assert_eq!(question["params"]["mode"], "form");
    let message = question["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("would delete {items} items")) && message.contains(&format!("{ASK_ABOVE}")),
        "{message}"
    );
    assert_eq!(question["params"]["requestedSchema"]["properties"]["confirm"]["type"], "boolean");
    assert!(result.get("requestState").is_none(), "{asked}");
    assert_eq!(item_count(&app, &owner, &project).await, items, "nothing deleted while asking");

    // Declined or dismissed: a tool error, still nothing deleted.
    for action in [
        json!({"action": "decline"}),
        json!({"action": "cancel"}),
        json!({"action": "accept", "content": {"confirm": false}}),
    ] {
        let answered = call_newest(
            &app,
            &owner,
            "delete_diagram",
            delete.clone(),
            asking.clone(),
            Some(json!({"confirm": action})),
        )
        .await;
        assert_eq!(answered["result"]["isError"], true, "{answered}");
        assert!(text_of(&answered).contains("did not agree"), "{answered}");
    }
    assert_eq!(item_count(&app, &owner, &project).await, items);

    // A client that cannot be asked: the error names the argument, on either revision.
    let cannot = call_newest(&app, &owner, "delete_diagram", delete.clone(), json!({}), None).await;
    assert_eq!(cannot["result"]["isError"], true, "{cannot}");
    assert!(text_of(&cannot).contains("'confirm'") && text_of(&cannot).contains("would delete"), "{cannot}");
    assert_eq!(cannot["result"]["_meta"]["canvas/errorReason"], "VALIDATION_FAILED", "{cannot}");
    let legacy = call_tool(&app, &owner, "delete_diagram", delete.clone()).await;
    assert_eq!(legacy["result"]["isError"], true, "{legacy}");
    assert!(text_of(&legacy).contains("'confirm'"), "{legacy}");
    assert_eq!(item_count(&app, &owner, &project).await, items);

    // Moving: 51 items asks, 50 do not.
    let labels: Vec<Value> =
        (0..=ASK_ABOVE).map(|i| json!({"type": "label", "properties": {"text": format!("L{i}")}})).collect();
    let created = call_tool(&app, &owner, "create_items", json!({"projectId": project, "items": labels})).await;
    let ids: Vec<Value> = created["result"]["structuredContent"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["itemId"].clone())
        .collect();
    let arrange = |ids: &[Value]| json!({"projectId": project, "itemIds": ids, "style": "grid", "x": 0, "y": 90000});
    let too_many = call_newest(&app, &owner, "arrange_items", arrange(&ids), asking.clone(), None).await;
    assert_eq!(too_many["result"]["resultType"], "input_required", "{too_many}");
    assert!(too_many.to_string().contains(&format!("would move {} items", ids.len())), "{too_many}");
    let fifty =
        call_newest(&app, &owner, "arrange_items", arrange(&ids[..ASK_ABOVE as usize]), asking.clone(), None).await;
    assert!(
        fifty["result"]["isError"] != true && fifty["result"]["structuredContent"]["items"].as_array().is_some(),
        "{fifty}"
    );
    let confirmed = call_tool(
        &app,
        &owner,
        "arrange_items",
        json!({"projectId": project, "itemIds": ids, "style": "grid", "confirm": true}),
    )
    .await;
    assert_eq!(
        confirmed["result"]["structuredContent"]["items"].as_array().map(Vec::len),
        Some(ids.len()),
        "{confirmed}"
    );

    // Updating a diagram counts what it would delete: two nodes kept of thirty asks, one removed does not.
    let kept = call_newest(
        &app,
        &owner,
        "update_diagram",
        json!({"projectId": project, "diagramId": diagram, "source": chain(29)}),
        asking.clone(),
        None,
    )
    .await;
    assert!(kept["result"]["isError"] != true && kept["result"]["resultType"] != "input_required", "{kept}");
    let shrink = json!({"projectId": project, "diagramId": diagram, "source": chain(2)});
    let asked = call_newest(&app, &owner, "update_diagram", shrink.clone(), asking.clone(), None).await;
    assert_eq!(asked["result"]["resultType"], "input_required", "{asked}");

    // Agreed: the same call runs.
    let agreed = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
    let done = call_newest(&app, &owner, "update_diagram", shrink, asking.clone(), Some(agreed.clone())).await;
    let deleted = done["result"]["structuredContent"]["deleted"].as_array().map_or(0, Vec::len);
    assert!(deleted > ASK_ABOVE as usize, "{done}");
    let left = done["result"]["structuredContent"]["nodes"].as_object().map_or(0, |n| n.len());
    assert_eq!(left, 2, "{done}");

    // A container goes with what it holds: deleting one with 51 notes in it asks first.
    let mut held = vec![json!({"ref": "box", "type": "shape",
        "properties": {"size": {"width": 4000, "height": 4000}, "type": "Rectangle", "position": {"x": 0, "y": 120000}}})];
    for i in 0..=ASK_ABOVE {
        held.push(json!({"type": "sticky-note", "parent": "ref:box", "properties": {"text": format!("n{i}"), "position": {"x": i * 10, "y": 0}}}));
    }
    let made = call_tool(&app, &owner, "create_items", json!({"projectId": project, "items": held})).await;
    let container = made["result"]["structuredContent"]["items"][0]["itemId"].as_str().unwrap().to_owned();
    let before = item_count(&app, &owner, &project).await;
    let delete = json!({"projectId": project, "itemId": container});
    let asked = call_newest(&app, &owner, "delete_item", delete.clone(), asking.clone(), None).await;
    let message =
        asked["result"]["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains(&format!("would delete {} items", ASK_ABOVE + 2)), "{asked}");
    assert_eq!(item_count(&app, &owner, &project).await, before, "nothing deleted while asking");
    let done =
        call_tool(&app, &owner, "delete_item", json!({"projectId": project, "itemId": container, "confirm": true}))
            .await;
    assert_eq!(done["result"]["structuredContent"]["deleted"], true, "{done}");
    assert_eq!(item_count(&app, &owner, &project).await, before - (ASK_ABOVE as usize + 2));
    // One item, or a container of a few, is never asked about.
    let single = &ids[0];
    let gone =
        call_newest(&app, &owner, "delete_item", json!({"projectId": project, "itemId": single}), asking.clone(), None)
            .await;
    assert_eq!(gone["result"]["structuredContent"]["deleted"], true, "{gone}");

    // REST is never asked: a person's delete of a large diagram just runs.
    let made = call_tool(
        &app,
        &owner,
        "create_diagram",
        json!({"projectId": project, "source": chain(30), "x": 0, "y": 50000}),
    )
    .await;
    let other = made["result"]["structuredContent"]["diagramId"].as_str().unwrap().to_owned();
    let response = app
        .http
        .delete(format!("{}/api/v2/projects/{project}/diagrams/{other}", app.base_url))
        .header("authorization", owner.bearer())
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "{}", response.text().await.unwrap());
}
