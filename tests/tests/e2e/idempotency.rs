//! Idempotent retries (`Idempotency-Key`, draft-ietf-httpapi-idempotency-key-header): a retried
//! create commits once and replays its first answer (`Idempotent-Replayed: true`); concurrent
//! duplicates run once; the same key with another request is a 422 and writes nothing; keys are per
//! user; a failed call keeps no key; uploads, webhooks and MCP tools take keys too; a key held by a
//! call still running is a 409 at the retry's deadline, and one whose lease lapsed is taken over.

use std::time::{Duration, Instant};

use canvas_proto::json::to_proto_struct;
use canvas_proto::v1 as pb;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectRole;
use core_service::service::items::idempotency::Retry;
use core_service::storage::IdempotencyClaim;
use prost::Message;
use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};
use serde_json::{json, Map, Value};
use tonic::metadata::MetadataValue;
use tonic::Code;
use tonic_types::StatusExt;

use crate::bulk::all_items;
use crate::mcp::call_tool;
use crate::support::{owner_with_project, send};

backend_tests!(
    a_retried_bulk_create_commits_once,
    concurrent_duplicates_run_once_and_share_the_answer,
    the_same_key_for_another_request_is_422_and_writes_nothing,
    keys_are_per_user,
    a_retried_label_create_replays_its_id_and_body,
    a_failed_call_keeps_no_key,
    uploads_webhooks_and_diagrams_are_replayed,
    mcp_tools_take_an_idempotency_key,
    keys_are_checked,
    a_running_call_holds_its_key_until_its_lease_lapses,
    retries_are_judged_by_meaning_not_spelling
);

/// An answer as a client retrying sees it.
struct Answer {
    status: StatusCode,
    body: Value,
    replayed: bool,
}

async fn post_keyed(app: &TestApp, user: &TestUser, url: &str, key: Option<&str>, body: &Value) -> Answer {
    let mut request = app.http.post(url).header("Authorization", user.bearer()).json(body);
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    answer(request.send().await.expect("the gateway answers")).await
}

async fn answer(response: reqwest::Response) -> Answer {
    let status = response.status();
    let replayed = match response.headers().get("idempotent-replayed") {
        None => false,
        Some(value) => {
            assert_eq!(value, "true");
            true
        }
    };
    let body = serde_json::from_slice(&response.bytes().await.expect("a body")).unwrap_or(Value::Null);
    Answer { status, body, replayed }
}

fn bulk_url(app: &TestApp, project: &str) -> String {
    format!("{}/api/v2/projects/{project}/items/bulk?jsonCasing=camel", app.base_url)
}

fn label_url(app: &TestApp, project: &str) -> String {
    app.item_url(project, "/panel/label?jsonCasing=camel")
}

/// The kinds of the project's change events.
async fn event_kinds(app: &TestApp, project: &str) -> Vec<String> {
    let project = uuid::Uuid::parse_str(project).unwrap();
    let events = app
        .core
        .stores()
        .items
        .project_events(core_service::domain::ProjectId::from_uuid(project), 0, 10_000)
        .await
        .unwrap();
    events.into_iter().map(|e| e.kind.as_str().to_owned()).collect()
}

fn notes(count: usize, tag: &str) -> Value {
    let items: Vec<Value> = (0..count)
        .map(|i| json!({"ref": format!("n{i}"), "type": "sticky-note", "properties": {"text": format!("{tag} {i}")}}))
        .collect();
    json!({"items": items})
}

fn created_ids(body: &Value) -> Vec<String> {
    body["items"].as_array().expect("items").iter().map(|i| i["itemId"].as_str().unwrap().to_owned()).collect()
}

async fn a_retried_bulk_create_commits_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let body = notes(25, "retried");
    let first = post_keyed(&app, &owner, &bulk_url(&app, &project), Some("bulk-1"), &body).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert!(!first.replayed, "a first answer is not a replay");
    let ids = created_ids(&first.body);
    assert_eq!(ids.len(), 25);

    // The client did not see the answer and sends the same request again.
    let retry = post_keyed(&app, &owner, &bulk_url(&app, &project), Some("bulk-1"), &body).await;
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.body);
    assert!(retry.replayed, "the retry is marked as a replay");
    assert_eq!(retry.body, first.body, "the same answer, the same ids");

    assert_eq!(all_items(&app, &owner, &project).await.len(), 25, "committed once");
    let kinds = event_kinds(&app, &project).await;
    assert_eq!(kinds.iter().filter(|k| *k == "item.created").count(), 25, "one set of events: {kinds:?}");

    // Without a key the same body creates again: keys are what makes a retry safe.
    let unkeyed = post_keyed(&app, &owner, &bulk_url(&app, &project), None, &body).await;
    assert_eq!(unkeyed.status, StatusCode::OK);
    assert!(!unkeyed.replayed);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 50);
}

async fn concurrent_duplicates_run_once_and_share_the_answer(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let body = notes(40, "concurrent");
    let url = bulk_url(&app, &project);
    let calls = (0..8).map(|_| post_keyed(&app, &owner, &url, Some("same-key"), &body));
    let answers = futures::future::join_all(calls).await;
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert_eq!(answer.body, answers[0].body, "every duplicate gets the same answer");
    }
    assert_eq!(answers.iter().filter(|a| !a.replayed).count(), 1, "exactly one ran; the others were replays");
    assert_eq!(all_items(&app, &owner, &project).await.len(), 40, "committed once");
    let kinds = event_kinds(&app, &project).await;
    assert_eq!(kinds.iter().filter(|k| *k == "item.created").count(), 40);
}

async fn the_same_key_for_another_request_is_422_and_writes_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let other_project = app.project(&owner).await;
    let first = post_keyed(&app, &owner, &label_url(&app, &project), Some("k-422"), &json!({"text": "one"})).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);

    let refusals = [
        // Another body.
        (label_url(&app, &project), json!({"text": "two"})),
        // Another endpoint.
        (bulk_url(&app, &project), json!({"items": [{"type": "label", "properties": {"text": "one"}}]})),
        (app.item_url(&project, "/panel/sticky-note?jsonCasing=camel"), json!({"text": "one"})),
        // Another project.
        (label_url(&app, &other_project), json!({"text": "one"})),
    ];
    for (url, body) in refusals {
        let reply = post_keyed(&app, &owner, &url, Some("k-422"), &body).await;
        assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{url}: {}", reply.body);
        assert_eq!(reply.body["reason"], "IDEMPOTENCY_KEY_REUSED", "{}", reply.body);
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains("Idempotency-Key") && detail.contains("another request"), "{detail}");
        assert!(!reply.replayed);
    }
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1, "nothing more written");
    assert_eq!(all_items(&app, &owner, &other_project).await.len(), 0);
    assert_eq!(event_kinds(&app, &project).await.len(), 1);
    // The first request's retry still replays.
    let retry = post_keyed(&app, &owner, &label_url(&app, &project), Some("k-422"), &json!({"text": "one"})).await;
    assert_eq!((retry.status, retry.replayed, &retry.body), (StatusCode::OK, true, &first.body));
}

async fn keys_are_per_user(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let editor = app.user("editor").await;
    app.add_member(&project, &editor, ProjectRole::Editor).await;
    let body = json!({"text": "mine"});
    let mine = post_keyed(&app, &owner, &label_url(&app, &project), Some("shared"), &body).await;
    let theirs = post_keyed(&app, &editor, &label_url(&app, &project), Some("shared"), &body).await;
    assert_eq!((mine.status, theirs.status), (StatusCode::OK, StatusCode::OK), "{} {}", mine.body, theirs.body);
    assert!(!mine.replayed && !theirs.replayed, "another user's key never replays mine");
    assert_ne!(mine.body["itemId"], theirs.body["itemId"]);
    // Another body under the same key is no 422 for the other user either.
    let other = post_keyed(&app, &editor, &bulk_url(&app, &project), Some("mine-only"), &notes(1, "x")).await;
    assert_eq!(other.status, StatusCode::OK);
    let again = post_keyed(&app, &owner, &label_url(&app, &project), Some("mine-only"), &body).await;
    assert_eq!((again.status, again.replayed), (StatusCode::OK, false), "{}", again.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 4);
}

async fn a_retried_label_create_replays_its_id_and_body(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let body = json!({"text": "<b>Once</b>", "fontSize": 20, "position": {"x": 10, "y": 20}});
    let send_once = || async {
        let response = app
            .http
            .post(label_url(&app, &project))
            .header("Authorization", owner.bearer())
            .header("Idempotency-Key", "\"label-7f3a\"")
            .json(&body)
            .send()
            .await
            .unwrap();
        let etag = response.headers().get("etag").cloned();
        (answer(response).await, etag)
    };
    let (first, first_etag) = send_once().await;
    let (retry, retry_etag) = send_once().await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.body);
    assert_eq!(retry.status, StatusCode::OK, "{}", retry.body);
    assert_eq!((first.replayed, retry.replayed), (false, true));
    assert_eq!(retry.body, first.body, "the same item id");
    assert_eq!((first_etag.clone(), retry_etag), (Some(HeaderValue::from_static("\"1\"")), first_etag));
    // A bare key is the same key as its quoted form.
    let bare = post_keyed(&app, &owner, &label_url(&app, &project), Some("label-7f3a"), &body).await;
    assert_eq!((bare.replayed, &bare.body), (true, &first.body));
    let items = all_items(&app, &owner, &project).await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["itemId"], first.body["itemId"]);
    assert_eq!(items[0]["fontSize"], json!(20));
}

async fn a_failed_call_keeps_no_key(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let bad =
        post_keyed(&app, &owner, &label_url(&app, &project), Some("fix-me"), &json!({"text": "x", "fontSize": -4}))
            .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.body);
    assert!(!bad.replayed);
    // The corrected request, with the same key, runs (it is not a 422, nor the 400 again).
    let fixed =
        post_keyed(&app, &owner, &label_url(&app, &project), Some("fix-me"), &json!({"text": "x", "fontSize": 14}))
            .await;
    assert_eq!((fixed.status, fixed.replayed), (StatusCode::OK, false), "{}", fixed.body);
    let retry =
        post_keyed(&app, &owner, &label_url(&app, &project), Some("fix-me"), &json!({"text": "x", "fontSize": 14}))
            .await;
    assert_eq!((retry.status, retry.replayed, &retry.body), (StatusCode::OK, true, &fixed.body));
    // A refusal before the call ran (no role in the project) keeps no key either.
    let stranger = app.user("stranger").await;
    let refused = post_keyed(&app, &stranger, &label_url(&app, &project), Some("k"), &json!({"text": "x"})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN);
    app.add_member(&project, &stranger, ProjectRole::Editor).await;
    let allowed = post_keyed(&app, &stranger, &label_url(&app, &project), Some("k"), &json!({"text": "x"})).await;
    assert_eq!((allowed.status, allowed.replayed), (StatusCode::OK, false), "{}", allowed.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 2);
}

async fn uploads_webhooks_and_diagrams_are_replayed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let png = crate::files::image(image::ImageFormat::Png, 8, 6);
    let upload = || async {
        let form = reqwest::multipart::Form::new()
            .part("binary", reqwest::multipart::Part::bytes(png.clone()).file_name("dot.png"))
            .text("dataobject", json!({"position": {"x": 5, "y": 5}}).to_string());
        let response = app
            .http
            .post(app.item_url(&project, "/panel/image/file?jsonCasing=camel"))
            .header("Authorization", owner.bearer())
            .header("Idempotency-Key", "upload-1")
            .multipart(form)
            .send()
            .await
            .unwrap();
        answer(response).await
    };
    let (first, retry) = (upload().await, upload().await);
    assert_eq!((first.status, first.replayed), (StatusCode::OK, false), "{}", first.body);
    assert_eq!((retry.status, retry.replayed, &retry.body), (StatusCode::OK, true, &first.body));
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1, "one image");

    let hooks = format!("{}/api/v2/projects/{project}/webhooks?jsonCasing=camel", app.base_url);
    let definition = json!({"name": "once", "url": "https://hooks.example.com/canvas", "events": ["item.created"]});
    let first = post_keyed(&app, &owner, &hooks, Some("hook-1"), &definition).await;
    let retry = post_keyed(&app, &owner, &hooks, Some("hook-1"), &definition).await;
    assert_eq!((first.status, first.replayed), (StatusCode::OK, false), "{}", first.body);
    assert_eq!((retry.status, retry.replayed, &retry.body), (StatusCode::OK, true, &first.body));
    let listed = send(&app, Method::GET, &hooks, Some(&owner.bearer()), None).await;
    assert_eq!(listed.body["elements"].as_array().map(Vec::len), Some(1), "one webhook: {}", listed.body);

    let diagrams = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url);
    let source = json!({"format": "mermaid", "source": "flowchart LR\n  a[Start] --> b[End]"});
    let first = post_keyed(&app, &owner, &diagrams, Some("diagram-1"), &source).await;
    let retry = post_keyed(&app, &owner, &diagrams, Some("diagram-1"), &source).await;
    assert_eq!((first.status, first.replayed), (StatusCode::OK, false), "{}", first.body);
    assert_eq!((retry.status, retry.replayed, &retry.body), (StatusCode::OK, true, &first.body));
    let drawn = first.body["itemIds"].as_array().unwrap().len();
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1 + drawn, "the diagram drawn once");
}

fn structured(result: &Value) -> &Value {
    &result["result"]["structuredContent"]
}

async fn mcp_tools_take_an_idempotency_key(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let arguments =
        json!({"projectId": project, "type": "label", "properties": {"text": "agent"}, "idempotencyKey": "mcp-1"});
    let first = call_tool(&app, &owner, "create_item", arguments.clone()).await;
    let retry = call_tool(&app, &owner, "create_item", arguments).await;
    assert_eq!(first["result"]["isError"], json!(false), "{first}");
    assert_eq!(structured(&retry)["itemId"], structured(&first)["itemId"], "{retry}");
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1, "one item");

    // Another call under the same key is refused, naming the argument.
    let other = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label", "properties": {"text": "other"}, "idempotencyKey": "mcp-1"}),
    )
    .await;
    assert_eq!(other["result"]["isError"], json!(true), "{other}");
    assert_eq!(other["result"]["_meta"]["canvas/errorReason"], "IDEMPOTENCY_KEY_REUSED");
    assert!(other["result"]["content"][0]["text"].as_str().unwrap().contains("idempotencyKey"), "{other}");

    let batch = json!({"projectId": project, "items": [{"type": "label", "properties": {"text": "b"}}],
        "idempotencyKey": "mcp-2"});
    let first = call_tool(&app, &owner, "create_items", batch.clone()).await;
    let retry = call_tool(&app, &owner, "create_items", batch).await;
    assert_eq!(structured(&retry)["items"], structured(&first)["items"], "{retry}");
    assert_eq!(all_items(&app, &owner, &project).await.len(), 2);

    let bad = call_tool(
        &app,
        &owner,
        "create_item",
        json!({"projectId": project, "type": "label", "properties": {}, "idempotencyKey": "k".repeat(300)}),
    )
    .await;
    assert_eq!(bad["result"]["isError"], json!(true), "{bad}");
    assert!(bad["result"]["content"][0]["text"].as_str().unwrap().contains("'idempotencyKey'"), "{bad}");
}

async fn keys_are_checked(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let too_long = "k".repeat(256);
    for key in [too_long.as_str(), "\"\"", "\"un\"terminated\""] {
        let reply = post_keyed(&app, &owner, &label_url(&app, &project), Some(key), &json!({"text": "x"})).await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{key}: {}", reply.body);
        assert_eq!(reply.body["errors"][0]["field"], "Idempotency-Key", "{}", reply.body);
    }
    let non_ascii = app
        .http
        .post(label_url(&app, &project))
        .header("Authorization", owner.bearer())
        .header("Idempotency-Key", HeaderValue::from_bytes("clé".as_bytes()).unwrap())
        .json(&json!({"text": "x"}))
        .send()
        .await
        .unwrap();
    let reply = answer(non_ascii).await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.body["errors"][0]["field"], "Idempotency-Key", "{}", reply.body);
    // The longest key is fine.
    let longest = "k".repeat(255);
    let reply = post_keyed(&app, &owner, &label_url(&app, &project), Some(&longest), &json!({"text": "x"})).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1);
}

async fn a_running_call_holds_its_key_until_its_lease_lapses(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut properties = Map::new();
    properties.insert("text".into(), json!("held"));
    let message = pb::CreateItemRequest {
        project_id: project.clone(),
        parent: "panel".into(),
        item_type: "label".into(),
        properties: Some(to_proto_struct(properties)),
        file: None,
    };
    // A call of this request under key "held" is running (on some replica): its claim is stored.
    let retry = Retry::new("held", "/canvas.v1.ItemService/CreateItem", &project, &message.encode_to_vec()).unwrap();
    let scope = format!("user:{}", owner.id);
    let now = chrono::Utc::now();
    let holder = uuid::Uuid::new_v4();
    let claim = IdempotencyClaim {
        scope: &scope,
        key: "held",
        fingerprint: retry.fingerprint(),
        claim: holder,
        now,
        lease_until: now + chrono::Duration::seconds(60),
        expires_at: now + chrono::Duration::hours(24),
    };
    assert!(app.core.stores().items.claim_idempotency_key(&claim).await.unwrap());

    // A retry waits within its deadline (2 s here), then answers "in progress"; nothing is written.
    let channel = tonic::transport::Channel::from_shared(app.grpc_url.clone()).unwrap().connect().await.unwrap();
    let mut items = ItemServiceClient::new(channel);
    let mut request = tonic::Request::new(message.clone());
    request.metadata_mut().insert("authorization", MetadataValue::try_from(owner.bearer()).unwrap());
    request.metadata_mut().insert("idempotency-key", MetadataValue::from_static("held"));
    request.set_timeout(Duration::from_secs(2));
    let started = Instant::now();
    let status = items.create_item(request).await.expect_err("the key is in use");
    let waited = started.elapsed();
    assert_eq!(status.code(), Code::Aborted, "{status:?}");
    assert_eq!(
        status.get_error_details().error_info().map(|i| i.reason.clone()).as_deref(),
        Some("IDEMPOTENCY_KEY_IN_USE")
    );
    assert!(waited >= Duration::from_millis(1500) && waited < Duration::from_secs(2), "answered after {waited:?}");
    assert_eq!(all_items(&app, &owner, &project).await.len(), 0);
    // Over REST the same request with another body is still a 422 at once, not a wait.
    let other = post_keyed(&app, &owner, &label_url(&app, &project), Some("held"), &json!({"text": "other"})).await;
    assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", other.body);

    // The holder's replica died: once its lease lapsed, a retry takes the key over and runs.
    let lapsed = IdempotencyClaim {
        claim: uuid::Uuid::new_v4(),
        lease_until: now - chrono::Duration::seconds(1),
        ..claim.clone()
    };
    assert!(app.core.stores().items.take_over_idempotency_key(&lapsed, holder).await.unwrap());
    let taken = post_keyed(&app, &owner, &label_url(&app, &project), Some("held"), &json!({"text": "held"})).await;
    assert_eq!((taken.status, taken.replayed), (StatusCode::OK, false), "{}", taken.body);
    let again = post_keyed(&app, &owner, &label_url(&app, &project), Some("held"), &json!({"text": "held"})).await;
    assert_eq!((again.status, again.replayed, &again.body), (StatusCode::OK, true, &taken.body));
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1);
}

/// How a property name may be spelled: the rules fold case, `_` and `-` (docs/REST.md).
fn spelled(words: &[&str], style: u8) -> String {
    let capital = |w: &str| w[..1].to_uppercase() + &w[1..];
    match style % 5 {
        0 => words.iter().enumerate().map(|(i, w)| if i == 0 { (*w).to_owned() } else { capital(w) }).collect(),
        1 => words.iter().map(|w| capital(w)).collect(),
        2 => words.join("_"),
        3 => words.join("-").to_uppercase(),
        _ => words.join("").to_uppercase(),
    }
}

/// How a whole number may be written in JSON: all of them are the same number.
fn spelled_number(n: i64, style: u8) -> String {
    match style % 4 {
        0 => n.to_string(),
        1 => format!("{n}.0"),
        2 => format!("{n}e0"),
        _ => format!("{}e-1", n * 10),
    }
}

/// One spelling of a label's body: names, member order, whitespace and numbers as `choices` say.
fn label_body(text: &str, font_size: i64, (x, y): (i64, i64), choices: &[u8]) -> String {
    let pick = |i: usize| choices.get(i).copied().unwrap_or(0);
    let gap = |i: usize| [" ", "", "\n  ", "\t"][usize::from(pick(i)) % 4];
    let member =
        |name: String, value: String, i: usize| format!("{}\"{name}\"{}:{}{value}", gap(i), gap(i + 1), gap(i + 2));
    let mut point = [
        member(spelled(&["x"], pick(0)), spelled_number(x, pick(1)), 2),
        member(spelled(&["y"], pick(3)), spelled_number(y, pick(4)), 5),
    ];
    if pick(6) % 2 == 1 {
        point.reverse();
    }
    let mut members = [
        member(spelled(&["text"], pick(7)), serde_json::to_string(text).unwrap(), 8),
        member(spelled(&["font", "size"], pick(9)), spelled_number(font_size, pick(10)), 11),
        member(spelled(&["position"], pick(12)), format!("{{{}}}", point.join(",")), 13),
    ];
    members.rotate_left(usize::from(pick(14)) % 3);
    format!("{{{}{}}}", members.join(","), gap(15))
}

/// A retry spelled differently (names in any casing, members in any order, any whitespace,
/// numbers as `18`, `18.0`, `18e0` or `180e-1`) is the same request and replays the first answer;
/// one with another value is another request (422), so the check can fail.
async fn retries_are_judged_by_meaning_not_spelling(backend: Backend) {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let url = label_url(&app, &project);
    let cases = proptest::collection::vec(proptest::num::u8::ANY, 16..=16);
    let strategy = ("[a-z]{1,12}", 8i64..=72, (-500i64..500, -500i64..500), cases.clone(), cases);
    // Seeded: the same 40 cases on every run and both backends.
    let mut runner = TestRunner::deterministic();
    let mut created = 0;
    for case in 0..40 {
        let (text, size, point, first_spelling, retry_spelling) = strategy.new_tree(&mut runner).unwrap().current();
        let key = format!("meaning-{case}");
        let post = |body: String| {
            let request = app.http.post(&url).header("Authorization", owner.bearer()).header("Idempotency-Key", &key);
            async move { answer(request.header("Content-Type", "application/json").body(body).send().await.unwrap()).await }
        };
        let first_body = label_body(&text, size, point, &first_spelling);
        let first = post(first_body.clone()).await;
        assert_eq!((first.status, first.replayed), (StatusCode::OK, false), "{first_body}: {}", first.body);
        created += 1;
        let retry_body = label_body(&text, size, point, &retry_spelling);
        let retry = post(retry_body.clone()).await;
        assert_eq!(retry.status, StatusCode::OK, "{first_body} then {retry_body}: {}", retry.body);
        assert!(retry.replayed, "{first_body} then {retry_body} was run again");
        assert_eq!(retry.body["itemId"], first.body["itemId"]);
        let changed = label_body(&text, size + 1, point, &retry_spelling);
        let other = post(changed.clone()).await;
        assert_eq!(other.status, StatusCode::UNPROCESSABLE_ENTITY, "{changed} is another request: {}", other.body);
    }
    assert_eq!(all_items(&app, &owner, &project).await.len(), created, "every retry replayed, none created");
}
