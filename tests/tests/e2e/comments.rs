//! Comment threads over REST (docs/COMMENTS.md): a thread opened on an item or a point, read,
//! edited, answered, resolved, reopened and deleted (a delete answers what it removed); every
//! rule's refusal naming its field (the
//! label rule's active content, the bounds of text and position, exactly one anchor, ids that are
//! not GUIDs); mentions by login as the doc reads them (an e-mail address mentions nobody); the
//! listing's filters combined and its pages each holding every thread once while threads come and
//! go; each role's access (viewers comment, only authors edit, Managers and Admins moderate); and
//! the reply bound held under concurrent writers on one thread.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::comments::{MAX_COORDINATE, MAX_MENTIONS, MAX_REPLIES, MAX_TEXT_CHARS};
use canvas_vocabulary::limits::COMMENTS_PAGE;
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send, Reply};

backend_tests!(
    a_thread_is_opened_read_edited_answered_and_deleted,
    every_rule_refuses_naming_its_field,
    ids_that_are_malformed_unknown_or_of_another_project,
    resolving_twice_changes_nothing_and_reopening_clears,
    mentions_name_members_by_login_and_nothing_else,
    the_listing_filters_combine,
    pages_hold_every_thread_once_while_threads_come_and_go,
    filter_values_that_are_not_values_are_refused,
    each_role_comments_and_only_authors_edit,
    a_thread_holds_at_most_its_replies_under_concurrent_writers
);

/// A well-formed GUID that names nothing.
pub const UNKNOWN: &str = "0195f0c0-0000-7000-8000-000000000000";

/// `{base}/api/v2/projects/{project}/comments{rest}`, answered in camelCase.
pub fn comments_url(app: &TestApp, project: &str, rest: &str) -> String {
    let joiner = if rest.contains('?') { '&' } else { '?' };
    format!("{}/api/v2/projects/{project}/comments{rest}{joiner}jsonCasing=camel", app.base_url)
}

/// A request to `comments{rest}` as `user`.
pub async fn request(
    app: &TestApp,
    user: &TestUser,
    method: Method,
    project: &str,
    rest: &str,
    body: Option<Value>,
) -> Reply {
    send(app, method, &comments_url(app, project, rest), Some(&user.bearer()), body).await
}

/// Opens a thread (asserting the 201) and returns it.
pub async fn open_thread(app: &TestApp, user: &TestUser, project: &str, body: Value) -> Value {
    let reply = request(app, user, Method::POST, project, "", Some(body.clone())).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{body}: {}", reply.body);
    reply.body
}

/// Writes a reply (asserting the 201) and returns it.
pub async fn add_reply(app: &TestApp, user: &TestUser, project: &str, thread: &str, text: &str) -> Value {
    let reply =
        request(app, user, Method::POST, project, &format!("/{thread}/replies"), Some(json!({"text": text}))).await;
    assert_eq!(reply.status, StatusCode::CREATED, "{text}: {}", reply.body);
    reply.body
}

/// A thread as `GET comments/{thread}` answers it (asserting the 200).
pub async fn read_thread(app: &TestApp, user: &TestUser, project: &str, thread: &str) -> Value {
    let reply = request(app, user, Method::GET, project, &format!("/{thread}"), None).await;
    assert_eq!(reply.status, StatusCode::OK, "GET {thread}: {}", reply.body);
    reply.body
}

pub async fn patch_thread(app: &TestApp, user: &TestUser, project: &str, thread: &str, body: Value) -> Reply {
    request(app, user, Method::PATCH, project, &format!("/{thread}"), Some(body)).await
}

/// A string field of an answer.
pub fn string(value: &Value, key: &str) -> String {
    value[key].as_str().unwrap_or_else(|| panic!("no string {key} in {value}")).to_owned()
}

/// A point `{x, y}` as numbers (JSON may spell `120` or `120.0`).
pub fn point(value: &Value) -> (f64, f64) {
    let coordinate = |key: &str| value[key].as_f64().unwrap_or_else(|| panic!("no number {key} in {value}"));
    (coordinate("x"), coordinate("y"))
}

/// The thread ids of one listing page.
pub fn thread_ids(reply: &Reply) -> Vec<String> {
    let threads = reply.body["threads"].as_array().unwrap_or_else(|| panic!("no threads: {}", reply.body));
    threads.iter().map(|t| t["threadId"].as_str().expect("threadId").to_owned()).collect()
}

/// The next page's cursor, when there is one (`nextCursor` is null on the last page).
pub fn next_token(reply: &Reply) -> Option<String> {
    assert!(reply.body.as_object().is_some_and(|o| o.contains_key("nextCursor")), "no nextCursor: {}", reply.body);
    reply.body["nextCursor"].as_str().filter(|t| !t.is_empty()).map(str::to_owned)
}

fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// `comments?{query}` with `cursor` when there is one.
fn listing_rest(query: &str, token: Option<&str>) -> String {
    let mut parts: Vec<String> = Vec::new();
    if !query.is_empty() {
        parts.push(query.to_owned());
    }
    if let Some(token) = token {
        parts.push(format!("cursor={}", encode(token)));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// The ids of every thread `comments?{query}` lists, following every page.
pub async fn listed(app: &TestApp, user: &TestUser, project: &str, query: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut token: Option<String> = None;
    for _ in 0..1000 {
        let reply = request(app, user, Method::GET, project, &listing_rest(query, token.as_deref()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.body);
        ids.extend(thread_ids(&reply));
        match next_token(&reply) {
            Some(next) => token = Some(next),
            None => return ids,
        }
    }
    panic!("the pages of {query} never ended");
}

/// A problem+json 400 naming one of `fields`.
pub fn assert_refused(reply: &Reply, fields: &[&str], case: &str) {
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{case}: expected 400 naming {fields:?}, got {}", reply.body);
    assert_eq!(reply.content_type, "application/problem+json", "{case}");
    let named = reply.fields();
    assert!(fields.iter().any(|f| named.iter().any(|n| n == f)), "{case}: {fields:?} not named: {}", reply.body);
}

/// A member of `project` in `role` who signs in (and is mentioned) as `login`.
pub async fn member_with_login(app: &TestApp, project: &str, name: &str, login: &str, role: ProjectRole) -> TestUser {
    let user = app.account_user(name, login, "").await;
    app.add_member(project, &user, role).await;
    user
}

fn time(value: &Value) -> chrono::DateTime<chrono::FixedOffset> {
    let text = value.as_str().unwrap_or_else(|| panic!("not a time: {value}"));
    chrono::DateTime::parse_from_rfc3339(text).unwrap_or_else(|e| panic!("{text} is not RFC 3339: {e}"))
}

fn version(thread: &Value) -> i64 {
    thread["version"].as_i64().unwrap_or_else(|| panic!("no version: {thread}"))
}

async fn a_thread_is_opened_read_edited_answered_and_deleted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "Invoices"})).await;

    let on_item =
        open_thread(&app, &owner, &project, json!({"text": "Rename this to Billing?", "itemId": label})).await;
    let thread = string(&on_item, "threadId");
    assert!(uuid::Uuid::parse_str(&thread).is_ok(), "{on_item}");
    for (key, expected) in [
        ("itemId", json!(label)),
        ("formerItemId", Value::Null),
        ("position", Value::Null),
        ("text", json!("Rename this to Billing?")),
        ("mentions", json!([])),
        ("authorUserId", json!(owner.id)),
        ("resolved", json!(false)),
        ("resolvedAt", Value::Null),
        ("resolvedByUserId", Value::Null),
        ("replies", json!([])),
        ("replyCount", json!(0)),
        ("editedAt", Value::Null),
    ] {
        assert!(on_item.as_object().unwrap().contains_key(key), "{key} is always present: {on_item}");
        assert_eq!(on_item[key], expected, "{key}: {on_item}");
    }
    let first_version = version(&on_item);
    assert!(first_version >= 1, "{on_item}");
    assert_eq!(time(&on_item["createdAt"]), time(&on_item["updatedAt"]));

    // A thread on a point of the map.
    let on_point =
        open_thread(&app, &owner, &project, json!({"text": "Room here", "position": {"x": -250.5, "y": 1e6}})).await;
    let spot = string(&on_point, "threadId");
    assert_eq!(on_point["itemId"], Value::Null, "{on_point}");
    assert_eq!(point(&on_point["position"]), (-250.5, 1e6));

    // Read back as written; listed in the order opened, on one page.
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, on_item);
    let listing = request(&app, &owner, Method::GET, &project, "", None).await;
    assert_eq!(listing.status, StatusCode::OK, "{}", listing.body);
    assert_eq!(thread_ids(&listing), [thread.clone(), spot.clone()]);
    assert_eq!(next_token(&listing), None, "{}", listing.body);
    assert_eq!(listing.body["threads"][0], on_item, "each listed thread as its own read answers it");

    // Its author edits its text: shown as edited, the version rises, where it is stays.
    let edited = patch_thread(&app, &owner, &project, &thread, json!({"text": "Rename this to Billing, please"})).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let edited = edited.body;
    assert_eq!(edited["text"], "Rename this to Billing, please");
    assert!(edited["editedAt"].is_string(), "{edited}");
    assert!(version(&edited) > first_version, "{edited}");
    assert_eq!(edited["createdAt"], on_item["createdAt"]);
    assert!(time(&edited["updatedAt"]) >= time(&on_item["updatedAt"]));
    assert_eq!((edited["itemId"].clone(), edited["resolved"].clone()), (json!(label), json!(false)));

    // Replies, oldest first.
    let answer = add_reply(&app, &owner, &project, &thread, "On it.").await;
    let first_reply = string(&answer, "commentId");
    assert!(uuid::Uuid::parse_str(&first_reply).is_ok() && first_reply != thread, "{answer}");
    for (key, expected) in [
        ("threadId", json!(thread)),
        ("text", json!("On it.")),
        ("mentions", json!([])),
        ("authorUserId", json!(owner.id)),
        ("editedAt", Value::Null),
    ] {
        assert!(answer.as_object().unwrap().contains_key(key), "{key}: {answer}");
        assert_eq!(answer[key], expected, "{key}: {answer}");
    }
    assert!(answer["createdAt"].is_string() && answer["updatedAt"].is_string(), "{answer}");
    let with_reply = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!(with_reply["replies"], json!([answer]));
    assert_eq!(with_reply["replyCount"], 1);
    assert!(version(&with_reply) > version(&edited), "a reply is a change of its thread");
    let second = add_reply(&app, &owner, &project, &thread, "Done.").await;
    let second_reply = string(&second, "commentId");

    let url = format!("/{thread}/replies/{first_reply}");
    let reworded = request(&app, &owner, Method::PATCH, &project, &url, Some(json!({"text": "On it now."}))).await;
    assert_eq!(reworded.status, StatusCode::OK, "{}", reworded.body);
    assert_eq!(
        (reworded.body["text"].clone(), reworded.body["commentId"].clone()),
        (json!("On it now."), json!(first_reply))
    );
    assert!(reworded.body["editedAt"].is_string(), "{}", reworded.body);
    let read = read_thread(&app, &owner, &project, &thread).await;
    let texts: Vec<&str> = read["replies"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["On it now.", "Done."], "in the order written, the edit in place");
    assert_eq!(read["editedAt"], edited["editedAt"], "a reply's edit is not the thread's text edit");

    let deleted = request(&app, &owner, Method::DELETE, &project, &url, None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    assert_eq!(deleted.body, json!({"deletedCommentIds": [first_reply]}), "a reply's delete names the reply");
    let read = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!(read["replyCount"], 1);
    assert_eq!(read["replies"][0]["commentId"], json!(second_reply));
    assert_eq!(request(&app, &owner, Method::DELETE, &project, &url, None).await.status, StatusCode::NOT_FOUND);

    // Text is stored exactly as written: HTML under the label rule, plain text with `<`, other
    // scripts, lines, and the longest text in characters (not bytes).
    for text in [
        r#"<p>Rename to <b>Billing</b> &amp; see <a href="https://example.org/x?a=1&amp;b=2">this</a></p>"#.to_owned(),
        "if a < b then swap".to_owned(),
        "AT&amp;T <3".to_owned(),
        "line one\nline two\n\n  indented".to_owned(),
        "срочно 🔥 — 注意".to_owned(),
        "x".repeat(MAX_TEXT_CHARS),
        "é".repeat(MAX_TEXT_CHARS),
        "🙂".repeat(MAX_TEXT_CHARS),
    ] {
        let made = open_thread(&app, &owner, &project, json!({"text": text, "itemId": label})).await;
        assert_eq!(made["text"], json!(text), "stored as written");
        let id = string(&made, "threadId");
        assert_eq!(read_thread(&app, &owner, &project, &id).await["text"], json!(text));
        let reply = add_reply(&app, &owner, &project, &id, &text).await;
        assert_eq!(reply["text"], json!(text));
    }

    // Deleting the thread deletes its replies: it answers them newest first, then the thread.
    let third_reply = string(&add_reply(&app, &owner, &project, &thread, "And another.").await, "commentId");
    let gone = request(&app, &owner, Method::DELETE, &project, &format!("/{thread}"), None).await;
    assert_eq!(gone.status, StatusCode::OK, "{}", gone.body);
    assert_eq!(gone.body, json!({"deletedCommentIds": [third_reply, second_reply, thread]}));
    assert_eq!(
        request(&app, &owner, Method::GET, &project, &format!("/{thread}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    let orphan = format!("/{thread}/replies/{second_reply}");
    let patched = request(&app, &owner, Method::PATCH, &project, &orphan, Some(json!({"text": "still here?"}))).await;
    assert_eq!(patched.status, StatusCode::NOT_FOUND, "{}", patched.body);
    assert_eq!(
        request(&app, &owner, Method::DELETE, &project, &format!("/{thread}"), None).await.status,
        StatusCode::NOT_FOUND
    );
    let ids = listed(&app, &owner, &project, "").await;
    assert!(!ids.contains(&thread) && ids.contains(&spot), "{ids:?}");
}

async fn every_rule_refuses_naming_its_field(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "target"})).await;
    let gone = create_label(&app, &owner, &project, json!({"text": "gone"})).await;
    let deleted =
        send(&app, Method::DELETE, &app.item_url(&project, &format!("/{gone}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let (other, elsewhere) = owner_with_project(&app).await;
    let foreign = create_label(&app, &other, &elsewhere, json!({"text": "not yours"})).await;
    // The owner is a member there too: an item of a project one may read is still no item of this one.
    app.add_member(&elsewhere, &owner, ProjectRole::Admin).await;

    let on = |text: Value| json!({"text": text, "itemId": label});
    let at = |position: Value| json!({"text": "here", "position": position});
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    let beyond = MAX_COORDINATE + 1.0;
    let cases: Vec<(&str, Value, Vec<&str>)> = vec![
        ("no text", json!({"itemId": label}), vec!["text"]),
        ("empty text", on(json!("")), vec!["text"]),
        ("blank text", on(json!("   ")), vec!["text"]),
        ("blank lines", on(json!("\n\t \r\n")), vec!["text"]),
        ("unicode spaces only", on(json!("\u{00A0}\u{3000}")), vec!["text"]),
        ("text a number", on(json!(5)), vec!["text"]),
        ("text null", on(Value::Null), vec!["text"]),
        ("text an object", on(json!({"text": "x"})), vec!["text"]),
        ("one character too long", on(json!(long)), vec!["text"]),
        ("U+0000", on(json!("a\u{0}b")), vec!["text"]),
        ("script", on(json!("<script>alert(1)</script>")), vec!["text"]),
        ("script in a sentence", on(json!("see <script>fetch('/steal')</script> here")), vec!["text"]),
        ("event handler", on(json!("<img src=x onerror=alert(1)>")), vec!["text"]),
        ("javascript link", on(json!(r#"<a href="javascript:alert(1)">x</a>"#)), vec!["text"]),
        ("encoded javascript link", on(json!(r#"<a href="&#106;avascript:alert(1)">x</a>"#)), vec!["text"]),
        ("iframe", on(json!(r#"<iframe src="https://example.org/"></iframe>"#)), vec!["text"]),
        ("style url", on(json!(r#"<span style="background:url(https://example.org/x)">x</span>"#)), vec!["text"]),
        ("malformed HTML", on(json!("<b>open</i>")), vec!["text"]),
        ("no anchor", json!({"text": "floating"}), vec!["itemId"]),
        ("both anchors", json!({"text": "x", "itemId": label, "position": {"x": 1, "y": 2}}), vec!["itemId"]),
        ("itemId not a GUID", json!({"text": "x", "itemId": "label-1"}), vec!["itemId"]),
        ("itemId empty", json!({"text": "x", "itemId": ""}), vec!["itemId"]),
        ("itemId a number", json!({"text": "x", "itemId": 7}), vec!["itemId"]),
        ("itemId unknown", json!({"text": "x", "itemId": UNKNOWN}), vec!["itemId"]),
        ("itemId deleted", json!({"text": "x", "itemId": gone}), vec!["itemId"]),
        ("itemId of another project", json!({"text": "x", "itemId": foreign}), vec!["itemId"]),
        ("x beyond the bound", at(json!({"x": beyond, "y": 0})), vec!["position.x"]),
        ("y beyond the bound", at(json!({"x": 0, "y": -beyond})), vec!["position.y"]),
        ("x far beyond", at(json!({"x": 1e300, "y": 0})), vec!["position.x"]),
        ("x a string", at(json!({"x": "1", "y": 2})), vec!["position.x"]),
        ("y null", at(json!({"x": 1, "y": null})), vec!["position.y"]),
        ("y missing", at(json!({"x": 1})), vec!["position.y", "position"]),
        ("position a string", at(json!("here")), vec!["position"]),
        ("position a list", at(json!([1, 2])), vec!["position"]),
        ("an unknown property", json!({"text": "x", "itemId": label, "colour": "red"}), vec!["colour"]),
    ];
    for (case, body, fields) in &cases {
        let reply = request(&app, &owner, Method::POST, &project, "", Some(body.clone())).await;
        assert_refused(&reply, fields, case);
        if case.contains("script") {
            assert!(reply.body.to_string().contains("active content"), "{case}: {}", reply.body);
        }
    }
    // A number beyond a double is no number.
    let raw = app
        .http
        .post(comments_url(&app, &project, ""))
        .header("Authorization", owner.bearer())
        .header("Content-Type", "application/json")
        .body(r#"{"text": "x", "position": {"x": 1e400, "y": 0}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), StatusCode::BAD_REQUEST);
    assert_eq!(listed(&app, &owner, &project, "").await, Vec::<String>::new(), "no refusal wrote a thread");

    // The bounds themselves are accepted.
    let edge = open_thread(&app, &owner, &project, at(json!({"x": MAX_COORDINATE, "y": -MAX_COORDINATE}))).await;
    assert_eq!(point(&edge["position"]), (MAX_COORDINATE, -MAX_COORDINATE));
    let origin = open_thread(&app, &owner, &project, at(json!({"x": 0, "y": 0}))).await;
    assert_eq!(point(&origin["position"]), (0.0, 0.0));

    // A thread's PATCH and a reply refuse by the same rules, and a refusal changes nothing.
    let thread = open_thread(&app, &owner, &project, on(json!("before"))).await;
    let id = string(&thread, "threadId");
    for (case, body, field) in [
        ("empty text", json!({"text": ""}), "text"),
        ("blank text", json!({"text": " \n "}), "text"),
        ("too long", json!({"text": long}), "text"),
        ("script", json!({"text": "<script>alert(1)</script>"}), "text"),
        ("U+0000", json!({"text": "\u{0}"}), "text"),
        ("text a number", json!({"text": 5}), "text"),
        ("resolved a string", json!({"resolved": "yes"}), "resolved"),
        ("resolved a number", json!({"resolved": 1}), "resolved"),
        ("a script beside a resolve", json!({"text": "<script>x</script>", "resolved": true}), "text"),
        ("moving to an item", json!({"itemId": label}), "itemId"),
        ("an empty PATCH", json!({}), "text"),
        ("only nulls", json!({"text": null, "resolved": null}), "text"),
    ] {
        assert_refused(&patch_thread(&app, &owner, &project, &id, body).await, &[field], case);
    }
    assert_eq!(read_thread(&app, &owner, &project, &id).await, thread, "the refused PATCHes changed nothing");
    let reply = add_reply(&app, &owner, &project, &id, "a reply").await;
    let answered = read_thread(&app, &owner, &project, &id).await;
    let reply_url = format!("/{id}/replies/{}", string(&reply, "commentId"));
    let replies = format!("/{id}/replies");
    for (case, body, field) in [
        ("no text", json!({}), "text"),
        ("blank", json!({"text": "\t"}), "text"),
        ("too long", json!({"text": long}), "text"),
        ("script", json!({"text": "<p onclick=\"x()\">hi</p>"}), "text"),
        ("U+0000", json!({"text": "a\u{0}"}), "text"),
        ("an anchor", json!({"text": "x", "position": {"x": 1, "y": 1}}), "position"),
    ] {
        let added = request(&app, &owner, Method::POST, &project, &replies, Some(body.clone())).await;
        assert_refused(&added, &[field], &format!("reply: {case}"));
        let edited = request(&app, &owner, Method::PATCH, &project, &reply_url, Some(body)).await;
        if field == "text" && case != "no text" {
            assert_refused(&edited, &[field], &format!("reply edit: {case}"));
        } else {
            assert_eq!(edited.status, StatusCode::BAD_REQUEST, "reply edit: {case}: {}", edited.body);
        }
    }
    let unchanged = read_thread(&app, &owner, &project, &id).await;
    assert_eq!(unchanged, answered, "the refused replies and edits changed nothing");
    assert_eq!(unchanged["text"], "before");
    assert_eq!(unchanged["resolved"], false, "the refused PATCH resolved nothing");
    assert_eq!(unchanged["replies"], json!([reply]));
    assert_eq!(unchanged["editedAt"], Value::Null);
}

async fn ids_that_are_malformed_unknown_or_of_another_project(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let thread = string(
        &open_thread(&app, &owner, &project, json!({"text": "t", "position": {"x": 0, "y": 0}})).await,
        "threadId",
    );
    let reply = string(&add_reply(&app, &owner, &project, &thread, "r").await, "commentId");
    let other = string(
        &open_thread(&app, &owner, &project, json!({"text": "u", "position": {"x": 1, "y": 1}})).await,
        "threadId",
    );
    let others_reply = string(&add_reply(&app, &owner, &project, &other, "s").await, "commentId");
    // The same owner's other project.
    let elsewhere = app.project(&owner).await;
    let far = string(
        &open_thread(&app, &owner, &elsewhere, json!({"text": "far", "position": {"x": 0, "y": 0}})).await,
        "threadId",
    );
    let far_reply = string(&add_reply(&app, &owner, &elsewhere, &far, "far reply").await, "commentId");
    let text = || Some(json!({"text": "x"}));

    for (method, rest, body, field) in [
        (Method::GET, "/not-a-guid".to_owned(), None, "threadId"),
        (Method::GET, "/12345".to_owned(), None, "threadId"),
        (Method::PATCH, "/not-a-guid".to_owned(), text(), "threadId"),
        (Method::DELETE, "/not-a-guid".to_owned(), None, "threadId"),
        (Method::POST, "/not-a-guid/replies".to_owned(), text(), "threadId"),
        (Method::PATCH, "/not-a-guid/replies/{reply}".replace("{reply}", &reply), text(), "threadId"),
        (Method::PATCH, format!("/{thread}/replies/not-a-guid"), text(), "commentId"),
        (Method::DELETE, format!("/{thread}/replies/not-a-guid"), None, "commentId"),
        (Method::DELETE, format!("/{thread}/replies/{}", &reply[..30]), None, "commentId"),
    ] {
        let answer = request(&app, &owner, method.clone(), &project, &rest, body).await;
        assert_refused(&answer, &[field], &format!("{method} {rest}"));
    }

    for (method, rest, body) in [
        (Method::GET, format!("/{UNKNOWN}"), None),
        (Method::PATCH, format!("/{UNKNOWN}"), text()),
        (Method::PATCH, format!("/{UNKNOWN}"), Some(json!({"resolved": true}))),
        (Method::DELETE, format!("/{UNKNOWN}"), None),
        (Method::POST, format!("/{UNKNOWN}/replies"), text()),
        (Method::PATCH, format!("/{thread}/replies/{UNKNOWN}"), text()),
        (Method::DELETE, format!("/{thread}/replies/{UNKNOWN}"), None),
        // A reply of another thread is no reply of this one.
        (Method::PATCH, format!("/{thread}/replies/{others_reply}"), text()),
        (Method::DELETE, format!("/{thread}/replies/{others_reply}"), None),
        // A thread of another project is no thread of this one, even to a member of both.
        (Method::GET, format!("/{far}"), None),
        (Method::PATCH, format!("/{far}"), Some(json!({"resolved": true}))),
        (Method::DELETE, format!("/{far}"), None),
        (Method::POST, format!("/{far}/replies"), text()),
        (Method::DELETE, format!("/{far}/replies/{far_reply}"), None),
        (Method::DELETE, format!("/{thread}/replies/{far_reply}"), None),
    ] {
        let answer = request(&app, &owner, method.clone(), &project, &rest, body).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{method} {rest}: {}", answer.body);
        assert_eq!(answer.content_type, "application/problem+json", "{method} {rest}");
    }
    // The thread's own first comment is not one of its replies: the reply paths refuse it.
    let opening = request(&app, &owner, Method::DELETE, &project, &format!("/{thread}/replies/{thread}"), None).await;
    assert_refused(&opening, &["commentId"], "deleting the first comment as a reply");
    let edit = request(&app, &owner, Method::PATCH, &project, &format!("/{thread}/replies/{thread}"), text()).await;
    assert_refused(&edit, &["commentId"], "editing the first comment as a reply");
    let kept = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!((kept["text"].clone(), kept["replyCount"].clone()), (json!("t"), json!(1)));
    let far_kept = read_thread(&app, &owner, &elsewhere, &far).await;
    assert_eq!((far_kept["resolved"].clone(), far_kept["replyCount"].clone()), (json!(false), json!(1)));
    // Upper-case GUIDs name the same thread.
    let upper = read_thread(&app, &owner, &project, &thread.to_uppercase()).await;
    assert_eq!(upper["threadId"], json!(thread));
}

async fn resolving_twice_changes_nothing_and_reopening_clears(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let opened =
        open_thread(&app, &owner, &project, json!({"text": "Is this right?", "position": {"x": 5, "y": 5}})).await;
    let thread = string(&opened, "threadId");

    let resolved = patch_thread(&app, &viewer, &project, &thread, json!({"resolved": true})).await;
    assert_eq!(resolved.status, StatusCode::OK, "{}", resolved.body);
    let resolved = resolved.body;
    assert_eq!(resolved["resolved"], true);
    assert_eq!(resolved["resolvedByUserId"], json!(viewer.id), "a viewer resolves");
    assert!(time(&resolved["resolvedAt"]) >= time(&opened["createdAt"]), "{resolved}");
    assert!(version(&resolved) > version(&opened));
    assert_eq!(resolved["text"], opened["text"]);
    assert_eq!(resolved["editedAt"], Value::Null, "resolving edits no text");

    // Again, by someone else: 200 and the thread as it is, nothing changed.
    let again = patch_thread(&app, &owner, &project, &thread, json!({"resolved": true})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!(again.body, resolved, "a second resolve changes nothing, not even who resolved it");
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, resolved);

    // Reopened: the resolution is cleared; reopening an open thread changes nothing.
    let reopened = patch_thread(&app, &owner, &project, &thread, json!({"resolved": false})).await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.body);
    let reopened = reopened.body;
    assert_eq!(
        (reopened["resolved"].clone(), reopened["resolvedAt"].clone(), reopened["resolvedByUserId"].clone()),
        (json!(false), Value::Null, Value::Null)
    );
    assert!(version(&reopened) > version(&resolved));
    let still = patch_thread(&app, &viewer, &project, &thread, json!({"resolved": false})).await;
    assert_eq!(still.status, StatusCode::OK, "{}", still.body);
    assert_eq!(still.body, reopened);

    // Text and resolution in one PATCH, by the author.
    let both =
        patch_thread(&app, &owner, &project, &thread, json!({"text": "Is this right? (fixed)", "resolved": true}))
            .await;
    assert_eq!(both.status, StatusCode::OK, "{}", both.body);
    assert_eq!(
        (both.body["text"].clone(), both.body["resolved"].clone()),
        (json!("Is this right? (fixed)"), json!(true))
    );
    assert_eq!(both.body["resolvedByUserId"], json!(owner.id));
    assert!(both.body["editedAt"].is_string());
    // A resolved thread takes replies and stays resolved.
    add_reply(&app, &viewer, &project, &thread, "Looks right now.").await;
    let after = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!((after["resolved"].clone(), after["replyCount"].clone()), (json!(true), json!(1)));
    // Someone else's text with a reopen is refused whole: the thread is not reopened.
    let refused = patch_thread(&app, &viewer, &project, &thread, json!({"text": "mine now", "resolved": false})).await;
    assert_eq!(refused.status, StatusCode::FORBIDDEN, "{}", refused.body);
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, after, "a refusal changes nothing");

    // Eight people resolving one open thread at once: one resolution, and every answer shows it.
    let people = {
        let mut people = vec![owner.clone(), viewer.clone()];
        for n in 0..6 {
            let user = app.user(&format!("reviewer {n}")).await;
            app.add_member(&project, &user, if n % 2 == 0 { ProjectRole::Viewer } else { ProjectRole::Editor }).await;
            people.push(user);
        }
        people
    };
    let fresh = open_thread(&app, &owner, &project, json!({"text": "race", "position": {"x": 9, "y": 9}})).await;
    let fresh_id = string(&fresh, "threadId");
    let racing = people.iter().map(|user| patch_thread(&app, user, &project, &fresh_id, json!({"resolved": true})));
    let answers = futures::future::join_all(racing).await;
    let settled = read_thread(&app, &owner, &project, &fresh_id).await;
    for answer in &answers {
        assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
        assert_eq!(answer.body, settled, "every resolve answers the one resolution");
    }
    assert!(version(&settled) > version(&fresh));
    assert!(people.iter().any(|p| settled["resolvedByUserId"] == json!(p.id)), "{settled}");
}

async fn mentions_name_members_by_login_and_nothing_else(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let ann = member_with_login(&app, &project, "Ann", "ann", ProjectRole::Editor).await;
    let ann_lee = member_with_login(&app, &project, "Ann Lee", "ann.lee", ProjectRole::Viewer).await;
    let dee = member_with_login(&app, &project, "Dee", "dee@studio", ProjectRole::Viewer).await;
    let ola = member_with_login(&app, &project, "Ola", "Ola", ProjectRole::Manager).await;
    // A member whose login is a domain: an e-mail address at it still mentions nobody.
    member_with_login(&app, &project, "Example", "example.com", ProjectRole::Viewer).await;
    // A member without a login, and a person with a login who is no member.
    let zed = app.user("zed").await;
    app.add_member(&project, &zed, ProjectRole::Editor).await;
    app.account_user("Stranger", "stranger", "").await;
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;

    let (a, l, d, o) = (ann.id.as_str(), ann_lee.id.as_str(), dee.id.as_str(), ola.id.as_str());
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("@ann please look", vec![a]),
        ("@ANN and @Ann again, @ann", vec![a]),
        ("(@ann.lee) then @ann", vec![l, a]),
        ("thanks @ann.", vec![a]),
        ("thanks @ann...", vec![a]),
        ("cc @ann.lee, @ann_", vec![l, a]),
        ("ping @ann-", vec![a]),
        ("@dee@studio can you review?", vec![d]),
        ("line one\n@OLA line two", vec![o]),
        ("@ola: @dee@studio; @ann!", vec![o, d, a]),
        ("<p>Hi <b>@ann</b>, see <i>this</i></p>", vec![a]),
        ("write to bob@example.com", vec![]),
        ("mail ann@ann.lee about it", vec![]),
        ("é@ann is no mention", vec![]),
        ("@ann.lee.ann names nobody", vec![]),
        ("ping @ann@example.com", vec![]),
        ("@stranger is no member", vec![]),
        ("@zed has no login", vec![]),
        ("@Zed neither", vec![]),
        ("@nobody hello", vec![]),
        ("just an @ sign", vec![]),
        ("@", vec![]),
    ];
    let mut threads = Vec::new();
    for (text, expected) in &cases {
        let made = open_thread(&app, &owner, &project, json!({"text": text, "itemId": label})).await;
        assert_eq!(made["mentions"], json!(expected), "{text:?}");
        assert_eq!(made["text"], json!(text), "an @word that names nobody is plain text: {text:?}");
        threads.push(string(&made, "threadId"));
    }
    // The same rule for replies; an edit reads its mentions again.
    let thread = threads[0].clone();
    let answer = add_reply(&app, &ann, &project, &thread, "@ann.lee done, and @dee@studio.").await;
    assert_eq!(answer["mentions"], json!([l, d]));
    let reply_url = format!("/{thread}/replies/{}", string(&answer, "commentId"));
    let edited = request(&app, &ann, Method::PATCH, &project, &reply_url, Some(json!({"text": "@ola only"}))).await;
    assert_eq!(edited.body["mentions"], json!([o]), "{}", edited.body);
    let retargeted = patch_thread(&app, &owner, &project, &thread, json!({"text": "now @dee@studio"})).await;
    assert_eq!(retargeted.body["mentions"], json!([d]), "{}", retargeted.body);
    // The filter reads the current texts: threads 0 (ola in the edited reply), 8 and 9.
    let mentioning_ola = listed(&app, &owner, &project, &format!("mentions={o}")).await;
    assert_eq!(mentioning_ola, [threads[0].clone(), threads[8].clone(), threads[9].clone()]);
    assert_eq!(listed(&app, &ola, &project, "mentions=me").await, mentioning_ola);
    let mentioning_ann = listed(&app, &ann, &project, "mentions=me").await;
    let expected: Vec<String> =
        cases.iter().zip(&threads).skip(1).filter(|((_, m), _)| m.contains(&a)).map(|(_, t)| t.clone()).collect();
    assert_eq!(mentioning_ann, expected, "thread 0 no longer mentions ann");
    assert_eq!(listed(&app, &zed, &project, "mentions=me").await, Vec::<String>::new());

    // Each person once however often named; at most MAX_MENTIONS people in one comment.
    let repeated = ["@ann"; 200].join(" ");
    let made = open_thread(&app, &owner, &project, json!({"text": repeated, "itemId": label})).await;
    assert_eq!(made["mentions"], json!([a]));
    let mut many = Vec::new();
    for n in 0..=MAX_MENTIONS {
        many.push(member_with_login(&app, &project, &format!("M{n}"), &format!("m{n:02}"), ProjectRole::Viewer).await);
    }
    let names = |count: usize| (0..count).map(|n| format!("@m{n:02}")).collect::<Vec<_>>().join(" ");
    let most = open_thread(&app, &owner, &project, json!({"text": names(MAX_MENTIONS), "itemId": label})).await;
    let ids: Vec<Value> = many[..MAX_MENTIONS].iter().map(|u| json!(u.id)).collect();
    assert_eq!(most["mentions"], Value::Array(ids), "every one, in the order named");
    let too_many = request(
        &app,
        &owner,
        Method::POST,
        &project,
        "",
        Some(json!({"text": names(MAX_MENTIONS + 1), "itemId": label})),
    )
    .await;
    assert_refused(&too_many, &["text"], "one person too many");
    let replies = format!("/{}/replies", string(&most, "threadId"));
    let too_many =
        request(&app, &owner, Method::POST, &project, &replies, Some(json!({"text": names(MAX_MENTIONS + 1)}))).await;
    assert_refused(&too_many, &["text"], "one person too many in a reply");
    // Unknown words do not count towards the bound.
    let noisy =
        format!("{} {}", names(MAX_MENTIONS), (0..100).map(|n| format!("@nobody{n}")).collect::<Vec<_>>().join(" "));
    let made = open_thread(&app, &owner, &project, json!({"text": noisy, "itemId": label})).await;
    assert_eq!(made["mentions"].as_array().unwrap().len(), MAX_MENTIONS);
}

async fn the_listing_filters_combine(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let owner = app.account_user("Olga", "olga", "").await;
    let project = app.project(&owner).await;
    let ann = member_with_login(&app, &project, "Ann", "ann", ProjectRole::Editor).await;
    let bob = member_with_login(&app, &project, "Bob", "bob", ProjectRole::Viewer).await;
    let a = create_label(&app, &owner, &project, json!({"text": "A"})).await;
    let b = create_label(&app, &owner, &project, json!({"text": "B"})).await;

    let open = |user: &TestUser, body: Value| {
        let (app, project, user) = (&app, project.clone(), user.clone());
        async move { string(&open_thread(app, &user, &project, body).await, "threadId") }
    };
    let t1 = open(&owner, json!({"text": "first look", "itemId": a})).await;
    let t2 = open(&ann, json!({"text": "@bob can you check?", "itemId": b})).await;
    let t3 = open(&bob, json!({"text": "hello @ann", "position": {"x": 10, "y": 10}})).await;
    let t4 = open(&owner, json!({"text": "second", "itemId": a})).await;
    add_reply(&app, &ann, &project, &t4, "@olga done").await;
    let t5 = open(&bob, json!({"text": "nothing to see", "itemId": b})).await;
    for t in [&t1, &t5] {
        assert_eq!(patch_thread(&app, &ann, &project, t, json!({"resolved": true})).await.status, StatusCode::OK);
    }
    let ids = |list: &[&String]| list.iter().map(|s| (*s).clone()).collect::<Vec<String>>();
    let (ann_id, bob_id, olga_id) = (ann.id.clone(), bob.id.clone(), owner.id.clone());

    for (user, query, expected) in [
        (&owner, String::new(), ids(&[&t1, &t2, &t3, &t4, &t5])),
        (&owner, "status=all".to_owned(), ids(&[&t1, &t2, &t3, &t4, &t5])),
        (&owner, "status=open".to_owned(), ids(&[&t2, &t3, &t4])),
        (&owner, "status=resolved".to_owned(), ids(&[&t1, &t5])),
        (&owner, format!("item={a}"), ids(&[&t1, &t4])),
        (&owner, format!("item={}", a.to_uppercase()), ids(&[&t1, &t4])),
        (&owner, format!("item={b}&status=open"), ids(&[&t2])),
        (&owner, format!("item={b}&status=resolved"), ids(&[&t5])),
        (&ann, "author=me".to_owned(), ids(&[&t2, &t4])),
        (&owner, "author=me".to_owned(), ids(&[&t1, &t4])),
        (&owner, format!("author={bob_id}"), ids(&[&t3, &t5])),
        (&owner, format!("author={ann_id}&item={a}"), ids(&[&t4])),
        (&owner, format!("author={ann_id}&status=resolved"), ids(&[])),
        (&bob, "mentions=me".to_owned(), ids(&[&t2])),
        (&owner, format!("mentions={ann_id}"), ids(&[&t3])),
        (&owner, "mentions=me".to_owned(), ids(&[&t4])),
        (&ann, format!("mentions={olga_id}&author=me"), ids(&[&t4])),
        (&bob, "mentions=me&status=resolved".to_owned(), ids(&[])),
        (&owner, format!("item={a}&status=open&author=me&mentions={olga_id}"), ids(&[&t4])),
        (&owner, format!("item={UNKNOWN}"), ids(&[])),
        (&owner, format!("author={UNKNOWN}"), ids(&[])),
    ] {
        assert_eq!(listed(&app, user, &project, &query).await, expected, "{query}");
    }

    // changedSince compares updatedAt, at or after; any RFC 3339 spelling of the same instant.
    let edited = patch_thread(&app, &bob, &project, &t3, json!({"text": "hello again @ann"})).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let at = time(&edited.body["updatedAt"]);
    let since = |instant: String| format!("changedSince={}", encode(&instant));
    assert_eq!(listed(&app, &owner, &project, &since(at.to_rfc3339())).await, ids(&[&t3]));
    let shifted = at.with_timezone(&chrono::FixedOffset::east_opt(2 * 3600).unwrap()).to_rfc3339();
    assert_eq!(listed(&app, &owner, &project, &since(shifted)).await, ids(&[&t3]), "+02:00");
    let all = ids(&[&t1, &t2, &t3, &t4, &t5]);
    assert_eq!(listed(&app, &owner, &project, &since("2000-01-01T00:00:00Z".into())).await, all);
    assert_eq!(listed(&app, &owner, &project, &since("2999-01-01T00:00:00Z".into())).await, ids(&[]));
    // A reply moves its thread's updatedAt; a thread listed again keeps its place in creation order.
    add_reply(&app, &bob, &project, &t2, "checked").await;
    assert_eq!(listed(&app, &owner, &project, &since(at.to_rfc3339())).await, ids(&[&t2, &t3]));
    assert_eq!(
        listed(&app, &owner, &project, &format!("{}&status=open&author=me", since(at.to_rfc3339()))).await,
        ids(&[]),
        "filters combine with changedSince"
    );
    // Each listed thread comes with all its replies.
    let page = request(&app, &owner, Method::GET, &project, &format!("?item={a}"), None).await;
    let replies = &page.body["threads"][1]["replies"];
    assert_eq!((replies[0]["text"].clone(), replies.as_array().map(Vec::len)), (json!("@olga done"), Some(1)));
}

async fn pages_hold_every_thread_once_while_threads_come_and_go(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let mut made = Vec::new();
    for n in 0..7 {
        let body = json!({"text": format!("t{n}"), "position": {"x": n, "y": 0}});
        made.push(string(&open_thread(&app, &owner, &project, body).await, "threadId"));
    }
    let page = |token: Option<String>| {
        let (app, owner, project) = (&app, &owner, &project);
        async move {
            let reply =
                request(app, owner, Method::GET, project, &listing_rest("limit=3", token.as_deref()), None).await;
            assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
            reply
        }
    };
    let first = page(None).await;
    assert_eq!(thread_ids(&first), made[..3]);
    let token = next_token(&first).expect("a next page");
    // Between pages: the last thread listed and one before it are deleted, and a new one opened.
    for gone in [&made[2], &made[1]] {
        let deleted = request(&app, &owner, Method::DELETE, &project, &format!("/{gone}"), None).await;
        assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    }
    let late = string(
        &open_thread(&app, &owner, &project, json!({"text": "late", "position": {"x": 9, "y": 9}})).await,
        "threadId",
    );
    let second = page(Some(token)).await;
    assert_eq!(thread_ids(&second), made[3..6], "the page after a deleted last thread goes on after it");
    let third = page(next_token(&second)).await;
    assert_eq!(thread_ids(&third), [made[6].clone(), late.clone()]);
    assert_eq!(next_token(&third), None, "{}", third.body);

    // The default page and the largest (a larger limit is taken as the largest).
    for n in 0..(COMMENTS_PAGE.default as usize + 3 - 6) {
        let body = json!({"text": format!("more {n}"), "position": {"x": n, "y": 1}});
        open_thread(&app, &owner, &project, body).await;
    }
    let everything = listed(&app, &owner, &project, "").await;
    assert_eq!(everything.len(), COMMENTS_PAGE.default as usize + 3);
    let mut unique = everything.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), everything.len(), "each thread once");
    let default = request(&app, &owner, Method::GET, &project, "", None).await;
    assert_eq!(thread_ids(&default).len(), COMMENTS_PAGE.default as usize);
    assert!(next_token(&default).is_some());
    for limit in [COMMENTS_PAGE.max, COMMENTS_PAGE.max + 1, 100_000] {
        let largest = request(&app, &owner, Method::GET, &project, &format!("?limit={limit}"), None).await;
        assert_eq!(largest.status, StatusCode::OK, "limit={limit}: {}", largest.body);
        assert_eq!(thread_ids(&largest), everything, "limit={limit}");
        assert_eq!(next_token(&largest), None);
    }
    let ones = listed(&app, &owner, &project, "limit=1").await;
    assert_eq!(ones, everything, "pages of one");

    // Pages of a filter: every third thread resolved, the open ones paged two at a time.
    for (n, id) in everything.iter().enumerate() {
        if n % 3 == 0 {
            assert_eq!(
                patch_thread(&app, &owner, &project, id, json!({"resolved": true})).await.status,
                StatusCode::OK
            );
        }
    }
    let open: Vec<String> =
        everything.iter().enumerate().filter(|(n, _)| n % 3 != 0).map(|(_, id)| id.clone()).collect();
    assert_eq!(listed(&app, &owner, &project, "status=open&limit=2").await, open);
    let resolved: Vec<String> =
        everything.iter().enumerate().filter(|(n, _)| n % 3 == 0).map(|(_, id)| id.clone()).collect();
    assert_eq!(listed(&app, &owner, &project, "status=resolved&limit=4").await, resolved);
}

async fn filter_values_that_are_not_values_are_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    open_thread(&app, &owner, &project, json!({"text": "t", "position": {"x": 0, "y": 0}})).await;
    for (query, field) in [
        ("status=bogus", "status"),
        ("status=closed", "status"),
        ("item=not-a-guid", "item"),
        ("item=12345", "item"),
        ("author=nobody", "author"),
        ("author=meself", "author"),
        ("mentions=42", "mentions"),
        ("mentions=you", "mentions"),
        ("changedSince=yesterday", "changedSince"),
        ("changedSince=2026-13-01T00:00:00Z", "changedSince"),
        ("changedSince=2026-02-30T00:00:00Z", "changedSince"),
        ("changedSince=2026-01-01", "changedSince"),
        ("limit=0", "limit"),
        ("limit=-1", "limit"),
        ("limit=abc", "limit"),
        ("limit=1.5", "limit"),
        ("cursor=not-a-cursor", "cursor"),
        ("status=open&item=bad", "item"),
    ] {
        let reply = request(&app, &owner, Method::GET, &project, &format!("?{query}"), None).await;
        assert_refused(&reply, &[field], query);
    }
    for query in [
        "limit=1",
        "limit=200",
        "limit=201",
        "status=open",
        "status=resolved",
        "status=all",
        "author=me",
        "mentions=me",
    ] {
        let reply = request(&app, &owner, Method::GET, &project, &format!("?{query}"), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{query}: {}", reply.body);
    }
}

async fn each_role_comments_and_only_authors_edit(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;
    let owners = open_thread(&app, &owner, &project, json!({"text": "owner's", "itemId": label})).await;
    let thread = string(&owners, "threadId");
    add_reply(&app, &owner, &project, &thread, "owner's reply").await;

    for (role, moderates) in [
        (ProjectRole::Viewer, false),
        (ProjectRole::Editor, false),
        (ProjectRole::Manager, true),
        (ProjectRole::Admin, true),
    ] {
        let user = app.user(&format!("{role:?}")).await;
        app.add_member(&project, &user, role).await;
        assert_eq!(request(&app, &user, Method::GET, &project, "", None).await.status, StatusCode::OK, "{role:?}");
        read_thread(&app, &user, &project, &thread).await;

        // Any member opens, replies, resolves and reopens.
        let body = json!({"text": format!("{role:?}'s"), "position": {"x": 1, "y": 2}});
        let mine = string(&open_thread(&app, &user, &project, body).await, "threadId");
        let on_item =
            string(&open_thread(&app, &user, &project, json!({"text": "on it", "itemId": label})).await, "threadId");
        let answer = add_reply(&app, &user, &project, &thread, &format!("{role:?} answers")).await;
        assert_eq!(answer["authorUserId"], json!(user.id));
        let my_reply = format!("/{thread}/replies/{}", string(&answer, "commentId"));
        let resolved = patch_thread(&app, &user, &project, &thread, json!({"resolved": true})).await;
        assert_eq!(resolved.status, StatusCode::OK, "{role:?}: {}", resolved.body);
        assert_eq!(resolved.body["resolvedByUserId"], json!(user.id));
        let reopened = patch_thread(&app, &user, &project, &thread, json!({"resolved": false})).await;
        assert_eq!(reopened.status, StatusCode::OK, "{role:?}: {}", reopened.body);

        // Its author edits a comment's text; nobody else does, whatever their role.
        let edited = patch_thread(&app, &user, &project, &mine, json!({"text": "edited"})).await;
        assert_eq!(edited.status, StatusCode::OK, "{role:?}: {}", edited.body);
        let edited = request(&app, &user, Method::PATCH, &project, &my_reply, Some(json!({"text": "edited"}))).await;
        assert_eq!(edited.status, StatusCode::OK, "{role:?}: {}", edited.body);
        let hijack = patch_thread(&app, &user, &project, &thread, json!({"text": "hijacked"})).await;
        assert_eq!(hijack.status, StatusCode::FORBIDDEN, "{role:?}: {}", hijack.body);
        assert_eq!(hijack.content_type, "application/problem+json");
        let owners_reply = string(&read_thread(&app, &owner, &project, &thread).await["replies"][0], "commentId");
        let hijack = request(
            &app,
            &user,
            Method::PATCH,
            &project,
            &format!("/{thread}/replies/{owners_reply}"),
            Some(json!({"text": "hijacked"})),
        )
        .await;
        assert_eq!(hijack.status, StatusCode::FORBIDDEN, "{role:?}: {}", hijack.body);
        let by_owner = patch_thread(&app, &owner, &project, &mine, json!({"text": "the owner's words"})).await;
        assert_eq!(by_owner.status, StatusCode::FORBIDDEN, "not even the project's Admin: {}", by_owner.body);

        // Another's comment is deleted by a Manager or an Admin only.
        let target = add_reply(&app, &owner, &project, &thread, &format!("for {role:?} to moderate")).await;
        let target = format!("/{thread}/replies/{}", string(&target, "commentId"));
        let expected = if moderates { StatusCode::OK } else { StatusCode::FORBIDDEN };
        assert_eq!(request(&app, &user, Method::DELETE, &project, &target, None).await.status, expected, "{role:?}");
        let someone_elses = string(
            &open_thread(&app, &owner, &project, json!({"text": "owner again", "itemId": label})).await,
            "threadId",
        );
        add_reply(&app, &user, &project, &someone_elses, "an answer inside").await;
        let deleted = request(&app, &user, Method::DELETE, &project, &format!("/{someone_elses}"), None).await;
        assert_eq!(deleted.status, expected, "{role:?}: {}", deleted.body);
        let after = request(&app, &owner, Method::GET, &project, &format!("/{someone_elses}"), None).await;
        if moderates {
            assert_eq!(after.status, StatusCode::NOT_FOUND, "deleted with its replies: {}", after.body);
        } else {
            assert_eq!((after.status, after.body["replyCount"].clone()), (StatusCode::OK, json!(1)), "{role:?}");
        }
        // Its own: deleted by its author whatever the role.
        assert_eq!(request(&app, &user, Method::DELETE, &project, &my_reply, None).await.status, StatusCode::OK);
        assert_eq!(
            request(&app, &user, Method::DELETE, &project, &format!("/{mine}"), None).await.status,
            StatusCode::OK
        );
        assert_eq!(
            request(&app, &user, Method::DELETE, &project, &format!("/{on_item}"), None).await.status,
            StatusCode::OK
        );
    }

    // What nobody could do is undone by nobody: the owner's thread and the replies left to it.
    let kept = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!((kept["text"].clone(), kept["resolved"].clone()), (json!("owner's"), json!(false)));
    let texts: Vec<&str> = kept["replies"].as_array().unwrap().iter().map(|r| r["text"].as_str().unwrap()).collect();
    assert_eq!(texts, ["owner's reply", "for Viewer to moderate", "for Editor to moderate"]);

    // No member, no token, no project.
    let stranger = app.user("stranger").await;
    for (method, rest, body) in [
        (Method::GET, String::new(), None),
        (Method::GET, format!("/{thread}"), None),
        (Method::POST, String::new(), Some(json!({"text": "let me in", "itemId": label}))),
        (Method::POST, format!("/{thread}/replies"), Some(json!({"text": "let me in"}))),
        (Method::PATCH, format!("/{thread}"), Some(json!({"resolved": true}))),
        (Method::DELETE, format!("/{thread}"), None),
    ] {
        let denied = request(&app, &stranger, method.clone(), &project, &rest, body.clone()).await;
        assert_eq!(denied.status, StatusCode::FORBIDDEN, "{method} {rest}: {}", denied.body);
        assert_eq!(denied.content_type, "application/problem+json");
        let anonymous = send(&app, method.clone(), &comments_url(&app, &project, &rest), None, body).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{method} {rest}");
    }
    let revoked = app.user("revoked").await;
    app.add_member(&project, &revoked, ProjectRole::Editor).await;
    app.revoke(&revoked).await;
    assert_eq!(request(&app, &revoked, Method::GET, &project, "", None).await.status, StatusCode::UNAUTHORIZED);
    let nowhere = request(&app, &owner, Method::GET, UNKNOWN, "", None).await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND, "{}", nowhere.body);
    let nowhere =
        request(&app, &owner, Method::POST, UNKNOWN, "", Some(json!({"text": "x", "position": {"x": 0, "y": 0}})))
            .await;
    assert_eq!(nowhere.status, StatusCode::NOT_FOUND, "{}", nowhere.body);
    assert_eq!(read_thread(&app, &owner, &project, &thread).await, kept, "the refusals changed nothing");
}

async fn a_thread_holds_at_most_its_replies_under_concurrent_writers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let opened =
        open_thread(&app, &owner, &project, json!({"text": "a long talk", "position": {"x": 0, "y": 0}})).await;
    let thread = string(&opened, "threadId");
    let replies = comments_url(&app, &project, &format!("/{thread}/replies"));
    let mut writers = Vec::new();
    for n in 0..8 {
        let user = app.user(&format!("writer {n}")).await;
        app.add_member(&project, &user, ProjectRole::Viewer).await;
        writers.push(user);
    }

    // All but the last ten places, ten at a time.
    let (free, bearer) = (10, owner.bearer());
    let mut made = 0;
    while made < MAX_REPLIES - free {
        let batch: Vec<_> = (made..(made + 10).min(MAX_REPLIES - free))
            .map(|n| send(&app, Method::POST, &replies, Some(&bearer), Some(json!({"text": format!("r{n}")}))))
            .collect();
        for reply in futures::future::join_all(batch).await {
            assert_eq!(reply.status, StatusCode::CREATED, "{}", reply.body);
            made += 1;
        }
    }
    // Eight writers race for the last ten places, four attempts each.
    let racing = writers.iter().enumerate().map(|(w, user)| {
        let (app, replies) = (&app, &replies);
        async move {
            let mut answers = Vec::new();
            for n in 0..4 {
                let body = json!({"text": format!("writer {w}, attempt {n}")});
                answers.push(send(app, Method::POST, replies, Some(&user.bearer()), Some(body)).await);
            }
            answers
        }
    });
    let answers: Vec<Reply> = futures::future::join_all(racing).await.into_iter().flatten().collect();
    let created = answers.iter().filter(|a| a.status == StatusCode::CREATED).count();
    for answer in answers.iter().filter(|a| a.status != StatusCode::CREATED) {
        assert_eq!(answer.status, StatusCode::CONFLICT, "{}", answer.body);
        assert_eq!(answer.content_type, "application/problem+json");
        assert!(answer.body.to_string().contains(&MAX_REPLIES.to_string()), "names the bound: {}", answer.body);
    }
    assert_eq!(created, free, "exactly the free places were taken");
    assert_eq!(answers.len() - created, 32 - free, "every attempt past the bound refused");

    let full = read_thread(&app, &owner, &project, &thread).await;
    let listed_replies = full["replies"].as_array().unwrap();
    assert_eq!((full["replyCount"].clone(), listed_replies.len()), (json!(MAX_REPLIES), MAX_REPLIES));
    let mut ids: Vec<&str> = listed_replies.iter().map(|r| r["commentId"].as_str().unwrap()).collect();
    let times: Vec<_> = listed_replies.iter().map(|r| time(&r["createdAt"])).collect();
    assert!(times.windows(2).all(|w| w[0] <= w[1]), "oldest first");
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), MAX_REPLIES, "each reply once");

    // Full stays full; a place freed is a place taken once.
    let over = send(&app, Method::POST, &replies, Some(&bearer), Some(json!({"text": "one more"}))).await;
    assert_eq!(over.status, StatusCode::CONFLICT, "{}", over.body);
    let first = string(&listed_replies[0], "commentId");
    let freed = request(&app, &owner, Method::DELETE, &project, &format!("/{thread}/replies/{first}"), None).await;
    assert_eq!(freed.status, StatusCode::OK, "{}", freed.body);
    let bearers: Vec<String> = writers.iter().map(TestUser::bearer).collect();
    let again: Vec<_> = bearers
        .iter()
        .map(|b| send(&app, Method::POST, &replies, Some(b.as_str()), Some(json!({"text": "the freed place"}))))
        .collect();
    let again = futures::future::join_all(again).await;
    assert_eq!(again.iter().filter(|a| a.status == StatusCode::CREATED).count(), 1);
    assert!(again.iter().all(|a| a.status == StatusCode::CREATED || a.status == StatusCode::CONFLICT));
    let full = read_thread(&app, &owner, &project, &thread).await;
    assert_eq!(full["replyCount"], json!(MAX_REPLIES));
    // The full thread is still an ordinary thread: resolved and listed.
    assert_eq!(patch_thread(&app, &owner, &project, &thread, json!({"resolved": true})).await.status, StatusCode::OK);
    assert_eq!(listed(&app, &owner, &project, "status=resolved").await, [thread]);
}
