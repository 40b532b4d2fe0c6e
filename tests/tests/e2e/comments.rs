//! Comment threads over REST (docs/COMMENTS.md), and the helpers the other comment tests share: a
//! thread opened on an item or a point, read, edited, answered, resolved, reopened and deleted (a
//! delete answers what it removed); each role's access (viewers comment, only authors edit,
//! Managers and Admins moderate); and the reply bound held under concurrent writers on one thread.
//! The rules' refusals are `comments_rules.rs`, the listing's filters and pages `comments_listing.rs`.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::comments::{MAX_REPLIES, MAX_TEXT_CHARS};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send, Reply};

backend_tests!(
    a_thread_is_opened_read_edited_answered_and_deleted,
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

pub fn encode(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// `comments?{query}` with `cursor` when there is one.
pub fn listing_rest(query: &str, token: Option<&str>) -> String {
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

pub fn time(value: &Value) -> chrono::DateTime<chrono::FixedOffset> {
    let text = value.as_str().unwrap_or_else(|| panic!("not a time: {value}"));
    chrono::DateTime::parse_from_rfc3339(text).unwrap_or_else(|e| panic!("{text} is not RFC 3339: {e}"))
}

pub fn version(thread: &Value) -> i64 {
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
