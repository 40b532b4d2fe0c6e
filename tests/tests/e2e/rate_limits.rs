//! Request rate limits as a client meets them: one token flooding gets 429 with `Retry-After`,
//! `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers) and a problem body,
//! while a second token at the same time is unaffected; calls with failing credentials spend their
//! address's budget; MCP answers a JSON-RPC error carrying the same information.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::service::rate_limits::RateLimitConfig;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::mcp::{post, BOTH};
use crate::support::{create_label, owner_with_project};

backend_tests!(
    a_flooding_token_gets_429_with_the_fields_and_others_are_unaffected,
    failing_credentials_spend_the_address_budget
);

/// A small policy, so that a test reaches it in a few calls.
fn small_policy() -> RateLimitConfig {
    RateLimitConfig { requests: 30, anonymous_requests: 8, window_secs: 60, replicas: 1 }
}

async fn a_flooding_token_gets_429_with_the_fields_and_others_are_unaffected(backend: Backend) {
    let app = TestApp::spawn_rate_limited(backend, small_policy()).await;
    let (owner, project) = owner_with_project(&app).await;
    let other = app.user("other").await;
    let other_project = app.project(&other).await;
    let label = create_label(&app, &owner, &project, json!({"text": "flooded"})).await;
    let other_label = create_label(&app, &other, &other_project, json!({"text": "calm"})).await;
    let url = app.item_url(&project, &format!("/{label}?jsonCasing=camel"));
    let other_url = app.item_url(&other_project, &format!("/{other_label}?jsonCasing=camel"));

    // The flooding token and the calm one call at the same time.
    let flood = async {
        let mut statuses = Vec::new();
        for _ in 0..40 {
            let reply = app.http.get(&url).header("Authorization", owner.bearer()).send().await.unwrap();
            statuses.push((reply.status(), reply.headers().clone(), reply.text().await.unwrap()));
        }
        statuses
    };
    let calm = async {
        let mut statuses = Vec::new();
        for _ in 0..20 {
            let reply = app.http.get(&other_url).header("Authorization", other.bearer()).send().await.unwrap();
            statuses.push(reply.status());
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        statuses
    };
    let (flooded, calm) = tokio::join!(flood, calm);

    // 30 in the budget, one of which went to create the label: 29 reads served, then 429s.
    let served = flooded.iter().take_while(|(status, _, _)| *status == StatusCode::OK).count();
    assert_eq!(served, 29, "{:?}", flooded.iter().map(|(s, _, _)| *s).collect::<Vec<_>>());
    for (status, headers, body) in &flooded[served..] {
        assert_eq!(*status, StatusCode::TOO_MANY_REQUESTS, "{body}");
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
        let retry_after: u64 = header("retry-after").parse().expect("Retry-After in seconds");
        assert!((1..=3).contains(&retry_after), "30 a minute refill one every 2 s: {retry_after}");
        assert_eq!(header("ratelimit-policy"), r#""credential";q=30;w=60"#);
        assert_eq!(header("ratelimit"), format!(r#""credential";r=0;t={retry_after}"#));
        assert!(header("content-type").starts_with("application/problem+json"));
        let problem: Value = serde_json::from_str(body).unwrap();
        assert_eq!(problem["status"], 429);
        assert_eq!(problem["reason"], "TOO_MANY_REQUESTS");
        assert!(problem["detail"].as_str().unwrap().contains("at most 30 calls per 60 s"), "{problem}");
    }
    assert!(calm.iter().all(|s| *s == StatusCode::OK), "the second token was affected: {calm:?}");

    // The limit covers writes too, and nothing is written by a refused call.
    let create = app.item_url(&project, "/panel/label");
    let refused =
        app.http.post(&create).header("Authorization", owner.bearer()).json(&json!({"text": "no"})).send().await;
    assert_eq!(refused.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
    let listing = app.http.get(format!("{}/api/v2/projects/{other_project}/items", app.base_url));
    assert_eq!(listing.header("Authorization", other.bearer()).send().await.unwrap().status(), StatusCode::OK);

    // MCP: the same budget, answered as a JSON-RPC error with the same information.
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
        "params": {"name": "get_item", "arguments": {"projectId": project, "itemId": label}}});
    let raw = post(&app, Some(&owner.bearer()), BOTH, call.to_string()).await;
    let body = raw.json();
    assert_eq!(body["error"]["code"], -32029, "{} {}", raw.status, raw.text);
    assert_eq!(body["error"]["data"]["reason"], "TOO_MANY_REQUESTS");
    assert_eq!(body["error"]["data"]["rateLimitPolicy"], r#""credential";q=30;w=60"#);
    assert!(body["error"]["data"]["retryAfter"].as_u64().is_some_and(|s| s >= 1), "{body}");
    assert_eq!(raw.status, StatusCode::TOO_MANY_REQUESTS);
    assert!(!raw.header("retry-after").is_empty() && !raw.header("ratelimit").is_empty(), "{:?}", raw.headers);
}

async fn failing_credentials_spend_the_address_budget(backend: Backend) {
    let app = TestApp::spawn_rate_limited(backend, small_policy()).await;
    let (owner, project) = owner_with_project(&app).await;
    let url = format!("{}/api/v2/projects/{project}/items", app.base_url);
    let mut statuses = Vec::new();
    for i in 0..12 {
        let reply = app.http.get(&url).header("Authorization", format!("Bearer svc_tk_guess{i:040}")).send().await;
        statuses.push(reply.unwrap().status());
    }
    let unauthenticated = statuses.iter().take_while(|s| **s == StatusCode::UNAUTHORIZED).count();
    assert_eq!(unauthenticated, 8, "{statuses:?}");
    assert!(statuses[8..].iter().all(|s| *s == StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    // A valid token from the same address has its own budget.
    let reply = app.http.get(&url).header("Authorization", owner.bearer()).send().await.unwrap();
    assert_eq!(reply.status(), StatusCode::OK);
}
