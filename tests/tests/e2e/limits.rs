//! Limits and defaults through REST and MCP alike, as docs/LIMITS.md states them: core-service owns
//! them (`canvas_vocabulary::limits`) and the gateways forward what the client sent. Page sizes
//! (`limit`, `amount`) default when absent, refuse 0 naming the argument, and clamp above the
//! maximum; `maxResults` defaults to 20 and above its ceiling is refused; what is not a count at
//! all is refused by the gateway as undecodable.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::{retrieval, DELIVERIES_PAGE, INDEX_STATUS_PAGE, ITEMS_PAGE, PROJECTS_PAGE};
use core_service::domain::ProjectId;
use reqwest::{Method, StatusCode};
use serde_json::{json, Map, Value};

use crate::knowledge::{retrieve, wait_indexed};
use crate::mcp::{call_tool, rpc};
use crate::support::{assert_invalid, create_label, owner_with_project, send};

backend_tests!(
    item_pages_default_refuse_zero_and_clamp_alike,
    max_results_defaults_to_20_and_ceilings_are_refused_alike,
    project_amount_defaults_to_50_and_clamps,
    other_pages_forward_limit_to_core_service
);

/// `count` labels made directly through core-service (faster than HTTP for a thousand).
async fn many_labels(app: &TestApp, owner: &TestUser, project: &str, count: usize) {
    let who = app.core.access().authenticate(Some(&owner.bearer())).await.unwrap();
    let project = ProjectId::parse(project).unwrap();
    for i in 0..count {
        let properties = Map::from_iter([("text".to_owned(), json!(format!("label {i}")))]);
        app.core.items().create_item(&who, project, "panel", "label", properties, None).await.unwrap();
    }
}

/// The items and next cursor of a REST listing.
async fn rest_page(app: &TestApp, owner: &TestUser, project: &str, query: &str) -> (StatusCode, Value) {
    let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel{query}", app.base_url);
    let reply = send(app, Method::GET, &url, Some(&owner.bearer()), None).await;
    (reply.status, reply.body)
}

/// The structured result of an MCP tool call that succeeded.
async fn mcp_ok(app: &TestApp, owner: &TestUser, tool: &str, arguments: Value) -> Value {
    let reply = call_tool(app, owner, tool, arguments).await;
    assert_eq!(reply["result"]["isError"], false, "{tool}: {reply}");
    reply["result"]["structuredContent"].clone()
}

/// The text of an MCP tool error (a refusal by core-service), which names the argument.
async fn mcp_refusal(app: &TestApp, owner: &TestUser, tool: &str, arguments: Value) -> String {
    let reply = call_tool(app, owner, tool, arguments).await;
    assert_eq!(reply["result"]["isError"], true, "{tool}: {reply}");
    reply["result"]["content"][0]["text"].as_str().unwrap_or("").to_owned()
}

async fn item_pages_default_refuse_zero_and_clamp_alike(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let total = ITEMS_PAGE.max as usize + 1;
    many_labels(&app, &owner, &project, total).await;

    // Absent: the default page, with a cursor to the rest.
    let (status, page) = rest_page(&app, &owner, &project, "").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["items"].as_array().unwrap().len(), ITEMS_PAGE.default as usize);
    assert!(page["nextCursor"].is_string());
    let listed = mcp_ok(&app, &owner, "list_items", json!({"projectId": project})).await;
    assert_eq!(listed["count"], ITEMS_PAGE.default);

    // Above the maximum: clamped to it on both, the same items, and a cursor to the last one.
    let (status, page) = rest_page(&app, &owner, &project, "&limit=5000").await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let items = page["items"].as_array().unwrap();
    assert_eq!(items.len(), ITEMS_PAGE.max as usize);
    let listed = mcp_ok(&app, &owner, "list_items", json!({"projectId": project, "limit": 5000})).await;
    assert_eq!(listed["count"], ITEMS_PAGE.max);
    let last = ITEMS_PAGE.max as usize - 1;
    assert_eq!(listed["items"][last]["itemId"], items[last]["itemId"]);
    assert_eq!(listed["nextCursor"], page["nextCursor"]);
    let cursor = page["nextCursor"].as_str().unwrap();
    let (_, rest) = rest_page(&app, &owner, &project, &format!("&cursor={cursor}&limit=5000")).await;
    assert_eq!(rest["items"].as_array().unwrap().len(), total - ITEMS_PAGE.max as usize);
    assert!(rest["nextCursor"].is_null(), "{rest}");
    // Any JSON spelling of a large whole number is a large page, not an error.
    for asked in ["1e4", "99999999999999999999", "01000"] {
        let (status, page) = rest_page(&app, &owner, &project, &format!("&limit={asked}")).await;
        assert_eq!(status, StatusCode::OK, "limit={asked}: {page}");
        assert_eq!(page["items"].as_array().unwrap().len(), ITEMS_PAGE.max as usize, "limit={asked}");
    }

    // 0 is refused by core-service on both, naming `limit`.
    let (status, problem) = rest_page(&app, &owner, &project, "&limit=0").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{problem}");
    assert_eq!(problem["errors"][0]["field"], "limit");
    assert!(problem["errors"][0]["message"].as_str().unwrap().contains("at least 1"), "{problem}");
    assert_eq!(problem["reason"], "VALIDATION_FAILED");
    let text = mcp_refusal(&app, &owner, "list_items", json!({"projectId": project, "limit": 0})).await;
    assert!(text.contains("'limit'") && text.contains("at least 1"), "{text}");

    // Not a count at all: the gateway cannot decode it (REST 400, MCP invalid params).
    for bad in ["abc", "-1", "2.5", ""] {
        let (status, problem) = rest_page(&app, &owner, &project, &format!("&limit={bad}")).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "limit={bad}: {problem}");
        assert_eq!(problem["errors"][0]["field"], "limit", "limit={bad}");
    }
    for bad in [json!(-1), json!(2.5), json!("ten")] {
        let params = json!({"name": "list_items", "arguments": {"projectId": project, "limit": bad}});
        let reply = rpc(&app, &owner, "tools/call", params).await;
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap().contains("limit"), "{reply}");
    }
}

async fn max_results_defaults_to_20_and_ceilings_are_refused_alike(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let labels = retrieval::DEFAULT_MAX_RESULTS as usize + 5;
    for i in 0..labels {
        create_label(&app, &owner, &project, json!({"text": format!("glider wing {i}")})).await;
    }
    wait_indexed(&app, &owner, &project).await;

    let reply = retrieve(&app, &owner, json!({"projectId": project, "query": "glider"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["citations"].as_array().unwrap().len(), retrieval::DEFAULT_MAX_RESULTS as usize);
    let found = mcp_ok(&app, &owner, "retrieve_knowledge", json!({"projectId": project, "query": "glider"})).await;
    assert_eq!(found["citations"].as_array().unwrap().len(), retrieval::DEFAULT_MAX_RESULTS as usize);
    let all = json!({"projectId": project, "query": "glider", "maxResults": 50});
    assert_eq!(mcp_ok(&app, &owner, "retrieve_knowledge", all).await["citations"].as_array().unwrap().len(), labels);

    // Above a ceiling, or 0: refused by core-service naming `maxResults`, on both.
    let refused = [
        json!({"maxResults": retrieval::MAX_RESULTS_POST_PROCESS + 1, "postProcess": true}),
        json!({"maxResults": retrieval::MAX_RESULTS + 1}),
        json!({"maxResults": 5000}),
        json!({"maxResults": 0}),
    ];
    for extra in refused {
        let mut body = json!({"projectId": project, "query": "glider"});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        let reply = retrieve(&app, &owner, body.clone()).await;
        assert_invalid(&reply, "maxResults");
        let text = mcp_refusal(&app, &owner, "retrieve_knowledge", body).await;
        assert!(text.contains("'maxResults'"), "{extra}: {text}");
    }
}

async fn project_amount_defaults_to_50_and_clamps(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.user("owner").await;
    for _ in 0..=PROJECTS_PAGE.default {
        app.project(&owner).await;
    }
    let count = |listed: Value| listed["count"].as_u64().unwrap();
    assert_eq!(count(mcp_ok(&app, &owner, "list_projects", json!({})).await), u64::from(PROJECTS_PAGE.default));
    let all = mcp_ok(&app, &owner, "list_projects", json!({"amount": 5000})).await;
    assert_eq!(count(all), u64::from(PROJECTS_PAGE.default) + 1, "clamped to the maximum, which holds them all");
    assert_eq!(count(mcp_ok(&app, &owner, "list_projects", json!({"amount": 3})).await), 3);
    let text = mcp_refusal(&app, &owner, "list_projects", json!({"amount": 0})).await;
    assert!(text.contains("'amount'") && text.contains("at least 1"), "{text}");
}

async fn other_pages_forward_limit_to_core_service(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    create_label(&app, &owner, &project, json!({"text": "one"})).await;
    let hook = json!({"url": "https://hooks.example.com/canvas", "events": ["item.created"]});
    let hooks = format!("{}/api/v2/projects/{project}/webhooks?jsonCasing=camel", app.base_url);
    let created = send(&app, Method::POST, &hooks, Some(&owner.bearer()), Some(hook)).await;
    assert_eq!(created.status, StatusCode::OK, "{}", created.body);
    let webhook = created.body["id"].as_str().unwrap();
    let deliveries = format!("{}/api/v2/projects/{project}/webhooks/{webhook}/deliveries", app.base_url);
    let index = format!("{}/api/v1/memory/index?projectId={project}", app.base_url);
    for (url, page) in [(deliveries, DELIVERIES_PAGE), (index, INDEX_STATUS_PAGE)] {
        let separator = if url.contains('?') { '&' } else { '?' };
        let above = format!("{url}{separator}limit={}", page.max + 1);
        let reply = send(&app, Method::GET, &above, Some(&owner.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{above}: {}", reply.body);
        for bad in ["0", "abc"] {
            let reply =
                send(&app, Method::GET, &format!("{url}{separator}limit={bad}"), Some(&owner.bearer()), None).await;
            assert_invalid(&reply, "limit");
        }
    }
}
