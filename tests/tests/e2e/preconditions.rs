//! RFC 9110 section 13.2.2's evaluation order, walked row by row over REST on both backends: for a
//! read (`GET` of an item and of a diagram record) `If-Match`, then `If-Unmodified-Since` (only
//! without `If-Match`), then `If-None-Match` (304), then `If-Modified-Since` (only without
//! `If-None-Match`, 304); for a write (`PATCH`, `DELETE`, a diagram's `PUT`) the same first three,
//! where a true `If-None-Match` is a 412, never a 304. Dates are the `Last-Modified` the service
//! sent, the Unix epoch, or text that is no HTTP-date (ignored).

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::diagram_records::{create as create_diagram, url as diagram_url};
use crate::support::{create_label, owner_with_project};

backend_tests!(reads_follow_the_rfc_order, writes_follow_the_rfc_order);

/// A row of a table: what it checks, the request's conditions, the status it must answer.
type Row<'a> = (&'a str, Vec<(&'a str, &'a str)>, StatusCode);

const EPOCH: &str = "Thu, 01 Jan 1970 00:00:00 GMT";

/// Sends `method` to `url` with `headers`; answers the status and the response headers.
async fn conditional(
    app: &TestApp,
    user: &TestUser,
    method: Method,
    url: &str,
    headers: &[(&str, &str)],
    body: Option<serde_json::Value>,
) -> (StatusCode, reqwest::header::HeaderMap) {
    let mut request = app.http.request(method, url).header("Authorization", user.bearer());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("reaches the gateway");
    (response.status(), response.headers().clone())
}

async fn reads_follow_the_rfc_order(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
    let url = app.item_url(&project, &format!("/{id}"));
    let patched = conditional(
        &app,
        &owner,
        Method::PATCH,
        &app.item_url(&project, &format!("/label/{id}")),
        &[],
        Some(json!({"text": "v2"})),
    )
    .await;
    assert_eq!(patched.0, StatusCode::OK);
    let (status, headers) = conditional(&app, &owner, Method::GET, &url, &[], None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["etag"], "\"2\"");
    let modified = headers["last-modified"].to_str().unwrap().to_owned();
    let (diagram, _) = create_diagram(&app, &owner, &project, "flowchart TD\n    A --> B\n").await;
    let record = diagram_url(&app, &project, &format!("/{diagram}"));
    let record_modified = conditional(&app, &owner, Method::GET, &record, &[], None).await.1["last-modified"]
        .to_str()
        .unwrap()
        .to_owned();

    let rows: Vec<Row> = vec![
        ("If-Match names the ETag", vec![("If-Match", "\"2\"")], StatusCode::OK),
        ("If-Match names another", vec![("If-Match", "\"1\"")], StatusCode::PRECONDITION_FAILED),
        ("If-Match compares strongly", vec![("If-Match", "W/\"2\"")], StatusCode::PRECONDITION_FAILED),
        ("If-Match * on an existing item", vec![("If-Match", "*")], StatusCode::OK),
        (
            "step 1 before step 3",
            vec![("If-Match", "\"1\""), ("If-None-Match", "\"2\"")],
            StatusCode::PRECONDITION_FAILED,
        ),
        (
            "If-Unmodified-Since before the change",
            vec![("If-Unmodified-Since", EPOCH)],
            StatusCode::PRECONDITION_FAILED,
        ),
        ("If-Unmodified-Since at Last-Modified", vec![("If-Unmodified-Since", &modified)], StatusCode::OK),
        ("If-Unmodified-Since not a date: ignored", vec![("If-Unmodified-Since", "yesterday")], StatusCode::OK),
        ("step 2 skipped with If-Match", vec![("If-Match", "\"2\""), ("If-Unmodified-Since", EPOCH)], StatusCode::OK),
        ("If-None-Match compares weakly", vec![("If-None-Match", "W/\"2\"")], StatusCode::NOT_MODIFIED),
        ("If-None-Match names another", vec![("If-None-Match", "\"1\"")], StatusCode::OK),
        ("If-Modified-Since at Last-Modified", vec![("If-Modified-Since", &modified)], StatusCode::NOT_MODIFIED),
        ("If-Modified-Since before the change", vec![("If-Modified-Since", EPOCH)], StatusCode::OK),
        ("If-Modified-Since not a date: ignored", vec![("If-Modified-Since", "soon")], StatusCode::OK),
        (
            "step 4 skipped with If-None-Match",
            vec![("If-None-Match", "\"1\""), ("If-Modified-Since", &modified)],
            StatusCode::OK,
        ),
        (
            "step 3 decides over step 4",
            vec![("If-None-Match", "\"2\""), ("If-Modified-Since", EPOCH)],
            StatusCode::NOT_MODIFIED,
        ),
    ];
    for (name, headers, expected) in &rows {
        let (status, answer) = conditional(&app, &owner, Method::GET, &url, headers, None).await;
        assert_eq!(status, *expected, "item: {name}");
        if status == StatusCode::NOT_MODIFIED {
            // The ETag, without a body; Last-Modified is left out beside it (RFC 9110 15.4.5).
            assert_eq!(answer["etag"], "\"2\"", "{name}");
            assert!(answer.get("last-modified").is_none(), "{name}");
        } else if status == StatusCode::OK {
            assert_eq!(answer["last-modified"].to_str().unwrap(), modified, "{name}");
            // Revalidated every time: no heuristic freshness from Last-Modified (RFC 9111 4.2.2).
            assert_eq!(answer["cache-control"], "no-cache", "{name}");
        }
    }
    // A read's 412 names the current version, as a write's does.
    let stale = app.http.get(&url).header("Authorization", owner.bearer()).header("If-Match", "\"1\"");
    let refused = stale.send().await.unwrap();
    assert_eq!(refused.status(), StatusCode::PRECONDITION_FAILED);
    let problem: serde_json::Value = refused.json().await.unwrap();
    assert_eq!(problem["CurrentVersion"], 2, "{problem}");
    assert_eq!(problem["Reason"], "PRECONDITION_FAILED", "{problem}");
    // The same order on a diagram record (version 1).
    for (name, headers, expected) in [
        ("If-Match another", vec![("If-Match", "\"9\"")], StatusCode::PRECONDITION_FAILED),
        ("If-Unmodified-Since before", vec![("If-Unmodified-Since", EPOCH)], StatusCode::PRECONDITION_FAILED),
        (
            "If-Modified-Since at Last-Modified",
            vec![("If-Modified-Since", record_modified.as_str())],
            StatusCode::NOT_MODIFIED,
        ),
        ("If-None-Match the ETag", vec![("If-None-Match", "\"1\"")], StatusCode::NOT_MODIFIED),
    ] {
        assert_eq!(
            conditional(&app, &owner, Method::GET, &record, &headers, None).await.0,
            expected,
            "diagram: {name}"
        );
    }
    // A caller without access keeps its 403 whatever the conditions.
    let stranger = app.user("stranger").await;
    let (status, _) = conditional(&app, &stranger, Method::GET, &url, &[("If-None-Match", "*")], None).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
}

async fn writes_follow_the_rfc_order(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let rows: Vec<Row> = vec![
        ("no conditions", vec![], StatusCode::OK),
        ("If-None-Match * on an existing item", vec![("If-None-Match", "*")], StatusCode::PRECONDITION_FAILED),
        (
            "If-None-Match names the version (weakly)",
            vec![("If-None-Match", "W/\"1\"")],
            StatusCode::PRECONDITION_FAILED,
        ),
        ("If-None-Match names another", vec![("If-None-Match", "\"9\"")], StatusCode::OK),
        ("If-None-Match malformed", vec![("If-None-Match", "1")], StatusCode::BAD_REQUEST),
        (
            "If-Unmodified-Since before the change",
            vec![("If-Unmodified-Since", EPOCH)],
            StatusCode::PRECONDITION_FAILED,
        ),
        ("If-Unmodified-Since not a date: ignored", vec![("If-Unmodified-Since", "then")], StatusCode::OK),
        ("step 2 skipped with If-Match", vec![("If-Match", "\"1\""), ("If-Unmodified-Since", EPOCH)], StatusCode::OK),
        (
            "If-Match, then If-None-Match",
            vec![("If-Match", "\"1\""), ("If-None-Match", "\"1\"")],
            StatusCode::PRECONDITION_FAILED,
        ),
        ("step 1 first", vec![("If-Match", "\"5\""), ("If-None-Match", "\"9\"")], StatusCode::PRECONDITION_FAILED),
    ];
    for method in [Method::PATCH, Method::DELETE] {
        for (name, headers, expected) in &rows {
            let id = create_label(&app, &owner, &project, json!({"text": "v1"})).await;
            let (url, body) = match method {
                Method::PATCH => (app.item_url(&project, &format!("/label/{id}")), Some(json!({"text": "v2"}))),
                _ => (app.item_url(&project, &format!("/{id}")), None),
            };
            let (status, _) = conditional(&app, &owner, method.clone(), &url, headers, body).await;
            assert_eq!(status, *expected, "{method} {name}");
            // State after: a refused write changed nothing.
            let read =
                conditional(&app, &owner, Method::GET, &app.item_url(&project, &format!("/{id}")), &[], None).await;
            let changed = status == StatusCode::OK;
            let expected_after = match (&method, changed) {
                (&Method::DELETE, true) => StatusCode::NOT_FOUND,
                _ => StatusCode::OK,
            };
            assert_eq!(read.0, expected_after, "{method} {name}: state after");
            if read.0 == StatusCode::OK {
                let version = if changed { "\"2\"" } else { "\"1\"" };
                assert_eq!(read.1["etag"], version, "{method} {name}: version after");
            }
        }
    }
    // A diagram's PUT and DELETE take the same conditions.
    let (diagram, _) = create_diagram(&app, &owner, &project, "flowchart TD\n    A --> B\n").await;
    let record = diagram_url(&app, &project, &format!("/{diagram}"));
    let put = json!({"source": "flowchart TD\n    A --> C\n"});
    let (status, _) =
        conditional(&app, &owner, Method::PUT, &record, &[("If-Unmodified-Since", EPOCH)], Some(put.clone())).await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED);
    let (status, _) = conditional(&app, &owner, Method::DELETE, &record, &[("If-None-Match", "*")], None).await;
    assert_eq!(status, StatusCode::PRECONDITION_FAILED);
    let (status, _) = conditional(&app, &owner, Method::PUT, &record, &[("If-None-Match", "\"7\"")], Some(put)).await;
    assert_eq!(status, StatusCode::OK, "If-None-Match names another version");
}
