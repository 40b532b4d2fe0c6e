//! Small request helpers shared by the test modules.

use reqwest::{Method, StatusCode};
use serde_json::Value;

use canvas_tests::{TestApp, TestUser};

/// A response as the tests look at it.
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub body: Value,
    pub bytes: Vec<u8>,
}

impl Reply {
    /// The `errors[].field` values of a problem body (any casing of the keys).
    pub fn fields(&self) -> Vec<String> {
        let errors = ["errors", "Errors"].iter().find_map(|k| self.body.get(*k)).and_then(Value::as_array);
        errors
            .map(|list| {
                list.iter()
                    .filter_map(|e| {
                        e.get("field").or_else(|| e.get("Field")).and_then(Value::as_str).map(str::to_owned)
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

pub async fn send(app: &TestApp, method: Method, url: &str, auth: Option<&str>, body: Option<Value>) -> Reply {
    let mut request = app.http.request(method, url);
    if let Some(auth) = auth {
        request = request.header("Authorization", auth);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request reaches the gateway");
    let status = response.status();
    let content_type = response.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let bytes = response.bytes().await.expect("body").to_vec();
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply { status, content_type, body, bytes }
}

/// An item as `GET .../item/{id}?jsonCasing=camel` answers it (asserting the 200).
pub async fn get_item(app: &TestApp, user: &TestUser, project: &str, id: &str) -> Value {
    let url = app.item_url(project, &format!("/{id}?jsonCasing=camel"));
    let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, reqwest::StatusCode::OK, "GET {id}: {}", reply.body);
    reply.body
}

/// Creates a label and returns its id.
pub async fn create_label(app: &TestApp, user: &TestUser, project: &str, body: Value) -> String {
    let reply = send(
        app,
        Method::POST,
        &app.item_url(project, "/panel/label?jsonCasing=camel"),
        Some(&user.bearer()),
        Some(body),
    )
    .await;
    assert_eq!(reply.status, StatusCode::OK, "create failed: {}", reply.body);
    reply.body["itemId"].as_str().expect("itemId").to_owned()
}

/// A user who owns a fresh project.
pub async fn owner_with_project(app: &TestApp) -> (TestUser, String) {
    let owner = app.user("owner").await;
    let project = app.project(&owner).await;
    (owner, project)
}

/// Asserts a problem+json 400 that names `field`.
pub fn assert_invalid(reply: &Reply, field: &str) {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "expected 400 for {field}, got {}: {}", reply.status, reply.body);
    assert_eq!(reply.content_type, "application/problem+json");
    assert!(reply.fields().iter().any(|f| f == field), "problem body does not name {field}: {}", reply.body);
}
