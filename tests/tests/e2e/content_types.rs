//! Content types of request bodies: every endpoint that reads a JSON body answers 415 with a
//! problem body naming `application/json` to any other `Content-Type` (none included), and creates
//! nothing; a `charset=utf-8` parameter and any `+json` type are accepted. What a cross-site form
//! can send without a preflight (`text/plain`, `application/x-www-form-urlencoded`,
//! `multipart/form-data`) never creates an item. Uploads keep requiring multipart.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, get_item, owner_with_project, send};

backend_tests!(json_endpoints_refuse_other_content_types, json_types_with_parameters_and_suffixes_are_accepted);

/// Sends `body` as `content_type` (no `Content-Type` header when None).
async fn raw(
    app: &TestApp,
    user: &TestUser,
    method: Method,
    url: &str,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, reqwest::header::HeaderMap, Value) {
    let mut request = app.http.request(method, url).header("Authorization", user.bearer()).body(body);
    if let Some(content_type) = content_type {
        request = request.header("Content-Type", content_type);
    }
    let response = request.send().await.expect("the gateway answers");
    let (status, headers) = (response.status(), response.headers().clone());
    let body = response.json::<Value>().await.unwrap_or(Value::Null);
    (status, headers, body)
}

async fn item_count(app: &TestApp, user: &TestUser, project: &str) -> usize {
    let url = format!("{}/api/v2/projects/{project}/items?jsonCasing=camel", app.base_url);
    let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["items"].as_array().expect("items").len()
}

async fn webhook_count(app: &TestApp, user: &TestUser, project: &str) -> usize {
    let url = format!("{}/api/v2/projects/{project}/webhooks?jsonCasing=camel", app.base_url);
    let reply = send(app, Method::GET, &url, Some(&user.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["elements"].as_array().expect("elements").len()
}

/// Asserts the 415 problem answer naming the expected type.
fn assert_unsupported(
    what: &str,
    status: StatusCode,
    headers: &reqwest::header::HeaderMap,
    body: &Value,
    expected: &str,
) {
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{what}: {body}");
    assert_eq!(headers.get("content-type").and_then(|v| v.to_str().ok()), Some("application/problem+json"), "{what}");
    // Requests without jsonCasing get the default PascalCase names.
    let member =
        |name: &str| body.get(name).or_else(|| body.get(format!("{}{}", name[..1].to_uppercase(), &name[1..])));
    assert_eq!(member("status"), Some(&json!(415)), "{what}: {body}");
    assert_eq!(member("reason"), Some(&json!("UNSUPPORTED_MEDIA_TYPE")), "{what}: {body}");
    let detail = member("detail").and_then(Value::as_str).unwrap_or("");
    assert!(detail.contains(expected), "{what}: the problem names {expected}: {body}");
}

async fn json_endpoints_refuse_other_content_types(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let create = app.item_url(&project, "/panel/label?jsonCasing=camel");
    let label = serde_json::to_vec(&json!({"text": "smuggled"})).unwrap();
    let boundary = "XyZ";
    let multipart =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nsmuggled\r\n--{boundary}--\r\n");
    let multipart_type = format!("multipart/form-data; boundary={boundary}");
    // What a cross-site form may send without a preflight, another type, and none at all.
    let refused: Vec<(Option<&str>, Vec<u8>)> = vec![
        (Some("text/plain"), label.clone()),
        (Some("text/plain; charset=utf-8"), label.clone()),
        (Some("application/x-www-form-urlencoded"), b"text=smuggled".to_vec()),
        (Some(multipart_type.as_str()), multipart.into_bytes()),
        (Some("application/xml"), b"<text>smuggled</text>".to_vec()),
        (Some("application/jsonx"), label.clone()),
        (Some("application/json; charset=iso-8859-1"), label.clone()),
        (None, label.clone()),
    ];
    for (content_type, body) in refused {
        let what = format!("create with {content_type:?}");
        let (status, headers, answer) = raw(&app, &owner, Method::POST, &create, content_type, body).await;
        assert_unsupported(&what, status, &headers, &answer, "application/json");
        assert_eq!(headers.get("accept-post").and_then(|v| v.to_str().ok()), Some("application/json"), "{what}");
        assert_eq!(item_count(&app, &owner, &project).await, 1, "{what} created nothing");
    }
    // The problem follows jsonCasing like every other answer.
    let (_, _, pascal) =
        raw(&app, &owner, Method::POST, &app.item_url(&project, "/panel/label"), Some("text/plain"), label.clone())
            .await;
    assert_eq!(pascal["Status"], 415, "{pascal}");

    // Every other endpoint that reads a JSON body, for a body it would otherwise accept.
    let projects = format!("{}/api/v2/projects/{project}", app.base_url);
    let hook = json!({"url": "https://hooks.example.com/canvas", "events": ["item.created"]});
    let endpoints: Vec<(Method, String, Value)> = vec![
        (Method::PATCH, app.item_url(&project, &format!("/label/{id}")), json!({"text": "changed"})),
        (
            Method::POST,
            format!("{projects}/items/bulk"),
            json!({"items": [{"type": "label", "properties": {"text": "b"}}]}),
        ),
        (Method::POST, format!("{projects}/items/arrange"), json!({"itemIds": [id], "style": "grid"})),
        (
            Method::POST,
            format!("{projects}/diagrams"),
            json!({"format": "mermaid", "source": "flowchart TD\n  a --> b"}),
        ),
        (
            Method::POST,
            format!("{}/api/v1/memory/retrieve", app.base_url),
            json!({"projectId": project, "query": "kept"}),
        ),
        (Method::POST, format!("{projects}/webhooks"), hook.clone()),
        (Method::POST, format!("{projects}/webhooks/test"), hook.clone()),
    ];
    for (method, url, body) in &endpoints {
        for content_type in [Some("text/plain"), None] {
            let bytes = serde_json::to_vec(body).unwrap();
            let (status, headers, answer) = raw(&app, &owner, method.clone(), url, content_type, bytes).await;
            assert_unsupported(
                &format!("{method} {url} as {content_type:?}"),
                status,
                &headers,
                &answer,
                "application/json",
            );
        }
    }
    assert_eq!(item_count(&app, &owner, &project).await, 1, "nothing was created");
    assert_eq!(webhook_count(&app, &owner, &project).await, 0, "no webhook was created");
    let item = get_item(&app, &owner, &project, &id).await;
    assert_eq!(item["text"], "kept", "the PATCH sent as text/plain changed nothing");
    // PATCH names what it takes.
    let (_, headers, _) = raw(&app, &owner, Method::PATCH, &endpoints[0].1, Some("text/plain"), b"{}".to_vec()).await;
    let accept_patch = headers.get("accept-patch").and_then(|v| v.to_str().ok()).unwrap_or("");
    assert!(
        accept_patch.contains("application/json") && accept_patch.contains("application/merge-patch+json"),
        "{accept_patch}"
    );

    // Uploads keep requiring multipart: JSON there is a 415 naming multipart/form-data.
    let upload = app.item_url(&project, "/panel/image/file");
    let (status, headers, answer) =
        raw(&app, &owner, Method::POST, &upload, Some("application/json"), b"{}".to_vec()).await;
    assert_unsupported("upload as JSON", status, &headers, &answer, "multipart/form-data");
    assert_eq!(item_count(&app, &owner, &project).await, 1);

    // Endpoints that read no body do not look at its type (decision in docs/REST.md).
    let enable = format!("{projects}/webhooks/{}/enable", uuid::Uuid::now_v7());
    let (status, _, answer) = raw(&app, &owner, Method::POST, &enable, Some("text/plain"), Vec::new()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{answer}");
}

async fn json_types_with_parameters_and_suffixes_are_accepted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let create = app.item_url(&project, "/panel/label?jsonCasing=camel");
    let accepted = [
        "application/json",
        "application/json; charset=utf-8",
        "application/json;charset=\"UTF-8\"",
        "APPLICATION/JSON",
        "application/vnd.foo+json",
        "application/merge-patch+json",
        "application/vnd.api+json; version=2",
    ];
    for (n, content_type) in accepted.iter().enumerate() {
        let body = serde_json::to_vec(&json!({"text": format!("label {n}")})).unwrap();
        let (status, _, answer) = raw(&app, &owner, Method::POST, &create, Some(content_type), body).await;
        assert_eq!(status, StatusCode::OK, "{content_type}: {answer}");
        assert_eq!(item_count(&app, &owner, &project).await, n + 1, "{content_type} created the item");
    }
    // PATCH with the merge-patch type.
    let id = create_label(&app, &owner, &project, json!({"text": "before"})).await;
    let patch = app.item_url(&project, &format!("/label/{id}?jsonCasing=camel"));
    let body = serde_json::to_vec(&json!({"text": "after"})).unwrap();
    let (status, _, answer) =
        raw(&app, &owner, Method::PATCH, &patch, Some("application/merge-patch+json"), body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let item = get_item(&app, &owner, &project, &id).await;
    assert_eq!(item["text"], "after");
    // A JSON type with a body that is not JSON is still the 400 it was.
    let (status, _, answer) =
        raw(&app, &owner, Method::POST, &create, Some("application/json"), b"text=x".to_vec()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
}
