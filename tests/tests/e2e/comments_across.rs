//! Comment threads beyond the REST calls (docs/COMMENTS.md): their four event kinds as webhooks
//! deliver them (only to definitions that select them, every body valid against the published
//! catalog) and on the change stream; an item's delete keeping its threads on the point where it
//! was (also for the items a deleted container takes with it, and for threads opened while the
//! delete runs). The gRPC `CommentService` and the MCP tools are `comments_transports.rs`.

use std::collections::BTreeSet;
use std::time::Duration;

use canvas_tests::webhook_checks::assert_calls_match_catalog;
use canvas_tests::webhooks::{Receiver, WebhookEnv};
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::comments::{
    add_reply, assert_refused, comments_url, listed, member_with_login, open_thread, patch_thread, point, read_thread,
    request, string,
};
use crate::support::{create_label, get_item, owner_with_project, send};
use crate::webhooks_delivery::create_hook;

backend_tests!(
    comment_events_reach_only_the_webhooks_that_select_them,
    the_change_stream_names_comment_changes,
    deleting_an_item_keeps_its_threads_where_it_was,
    a_thread_opened_while_its_item_is_deleted_never_names_a_missing_item
);

const WAIT: Duration = Duration::from_secs(30);
const COMMENT_KINDS: [&str; 4] = ["comment.created", "comment.updated", "comment.resolved", "comment.deleted"];
const SPEC_KINDS: [&str; 6] =
    ["item.created", "item.updated", "item.deleted", "user.added", "user.roleChanged", "user.removed"];

/// The first change of each call, in seq order.
fn changes_in_order(calls: &[canvas_tests::webhooks::Received]) -> Vec<Value> {
    let mut changes: Vec<Value> = calls.iter().map(|c| c.json()["changes"][0].clone()).collect();
    changes.sort_by_key(|c| c["seq"].as_i64().unwrap_or_else(|| panic!("no seq: {c}")));
    changes
}

async fn comment_events_reach_only_the_webhooks_that_select_them(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let ann = member_with_login(app, &project, "Ann", "ann", ProjectRole::Viewer).await;

    // The catalog publishes the four kinds.
    let catalog: Value = app
        .http
        .get(format!("{}/api/v2/webhooks/event-types", app.base_url))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let published: BTreeSet<&str> =
        catalog["elements"].as_array().unwrap().iter().filter_map(|e| e["name"].as_str()).collect();
    for kind in COMMENT_KINDS {
        assert!(published.contains(kind), "{kind} is not in the catalog: {published:?}");
    }

    let spec_only = Receiver::start(&env.ca).await;
    create_hook(&env, &owner, &project, json!({"url": spec_only.url, "events": SPEC_KINDS})).await;
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": COMMENT_KINDS})).await;
    let label = create_label(app, &owner, &project, json!({"text": "Invoices"})).await;

    // Every kind: threads opened (on an item, on a point), a reply, edits, a resolve and a
    // reopen, a moderator's delete of a reply, and a thread deleted with its last reply.
    let opened =
        open_thread(app, &owner, &project, json!({"text": "@ann can you rename this?", "itemId": label})).await;
    let t = string(&opened, "threadId");
    let spot = open_thread(app, &ann, &project, json!({"text": "and this spot", "position": {"x": 3, "y": 4}})).await;
    let p = string(&spot, "threadId");
    let r1 = string(&add_reply(app, &ann, &project, &t, "Will do").await, "commentId");
    let edited = patch_thread(app, &owner, &project, &t, json!({"text": "@ann can you rename this to Billing?"})).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.body);
    let resolved = patch_thread(app, &ann, &project, &t, json!({"resolved": true})).await;
    assert_eq!(resolved.status, StatusCode::OK, "{}", resolved.body);
    // Resolving again changes nothing, so it is no event.
    assert_eq!(patch_thread(app, &owner, &project, &t, json!({"resolved": true})).await.status, StatusCode::OK);
    assert_eq!(patch_thread(app, &owner, &project, &t, json!({"resolved": false})).await.status, StatusCode::OK);
    let r1_url = format!("/{t}/replies/{r1}");
    let reworded = request(app, &ann, Method::PATCH, &project, &r1_url, Some(json!({"text": "Will do today"}))).await;
    assert_eq!(reworded.status, StatusCode::OK, "{}", reworded.body);
    let moderated = request(app, &owner, Method::DELETE, &project, &r1_url, None).await;
    assert_eq!((moderated.status, moderated.body.clone()), (StatusCode::OK, json!({"deletedCommentIds": [r1]})));
    let r2 = string(&add_reply(app, &owner, &project, &t, "Thanks").await, "commentId");
    let gone = request(app, &owner, Method::DELETE, &project, &format!("/{t}"), None).await;
    assert_eq!((gone.status, gone.body.clone()), (StatusCode::OK, json!({"deletedCommentIds": [r2, t]})));
    create_label(app, &owner, &project, json!({"text": "marker"})).await;

    let expected = [
        ("comment.created", &t, &owner),
        ("comment.created", &p, &ann),
        ("comment.created", &r1, &ann),
        ("comment.updated", &t, &owner),
        ("comment.resolved", &t, &ann),
        ("comment.updated", &t, &owner),
        ("comment.updated", &r1, &ann),
        ("comment.deleted", &r1, &owner),
        ("comment.created", &r2, &owner),
        ("comment.deleted", &r2, &owner),
        ("comment.deleted", &t, &owner),
    ];
    env.receiver.wait_for(expected.len(), WAIT).await;
    spec_only.wait_for(2, WAIT).await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let calls = env.receiver.calls();
    let changes = changes_in_order(&calls);
    let seen: Vec<(String, String)> = changes
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap_or_default().to_owned(),
                c["subject"]["id"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let wanted: Vec<(String, String)> = expected.iter().map(|(k, id, _)| ((*k).to_owned(), (*id).clone())).collect();
    assert_eq!(seen, wanted, "one call per change, in order, and no more");
    for (change, (kind, subject, actor)) in changes.iter().zip(&expected) {
        assert_eq!(change["subject"], json!({"type": "comment", "id": subject}), "{kind}: {change}");
        assert_eq!(change["actorUserId"], json!(actor.id), "{kind}: {change}");
        assert!(change["eventId"].is_string() && change["occurredAt"].is_string(), "{change}");
        let (thread, item) = if *subject == &p { (&p, Value::Null) } else { (&t, json!(label)) };
        assert_eq!(change["threadId"], json!(thread), "{kind}: {change}");
        assert_eq!(change["itemId"], item, "{kind}: {change}");
    }
    for call in &calls {
        let body = call.json();
        assert_eq!(body["projectId"], json!(project));
        assert_eq!(body["changes"].as_array().map(Vec::len), Some(1));
    }
    // What each kind carries.
    assert_eq!(changes[0]["new"]["text"], "@ann can you rename this?");
    assert_eq!(changes[0]["new"]["mentions"], json!([ann.id]));
    assert_eq!(changes[0]["old"], Value::Null);
    assert_eq!(changes[2]["new"]["text"], "Will do");
    assert_eq!(changes[3]["new"]["text"], "@ann can you rename this to Billing?");
    assert_eq!(changes[3]["old"]["text"], "@ann can you rename this?");
    let resolution = &changes[4]["new"];
    assert_eq!((resolution["resolved"].clone(), resolution["resolvedByUserId"].clone()), (json!(true), json!(ann.id)));
    let instant =
        |v: &Value| chrono::DateTime::parse_from_rfc3339(v.as_str().unwrap_or_else(|| panic!("{v}"))).unwrap();
    assert_eq!(instant(&resolution["resolvedAt"]), instant(&resolved.body["resolvedAt"]));
    assert_eq!(changes[5]["new"]["resolved"], false, "a reopen is an update: {}", changes[5]);
    assert_eq!(
        (changes[6]["new"]["text"].clone(), changes[6]["old"]["text"].clone()),
        (json!("Will do today"), json!("Will do"))
    );
    assert_eq!(changes[7]["old"]["text"], "Will do today", "a delete carries the comment as it was");
    assert_eq!(changes[7]["new"], Value::Null);
    assert_eq!(changes[10]["old"]["text"], "@ann can you rename this to Billing?");
    assert!(changes.windows(2).all(|w| w[0]["seq"].as_i64() < w[1]["seq"].as_i64()));
    assert_calls_match_catalog(&app.http, &app.base_url, &calls).await;

    // A definition of the spec's kinds only got the two item.created and nothing of the comments.
    let spec_calls = spec_only.calls();
    let kinds: Vec<Value> = spec_calls.iter().map(|c| c.json()["changes"][0]["kind"].clone()).collect();
    assert_eq!(kinds, [json!("item.created"), json!("item.created")], "{kinds:?}");
    assert_calls_match_catalog(&app.http, &app.base_url, &spec_calls).await;
}

/// The `change` events of `GET .../changes?after=0` as `user`, until `done` holds (bounded).
async fn streamed_changes(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let url = format!("{}/api/v2/projects/{project}/changes?after=0", app.base_url);
    let mut response = app.http.get(url).header("Authorization", user.bearer()).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut buffer = String::new();
    let mut changes: Vec<Value> = Vec::new();
    let deadline = tokio::time::Instant::now() + WAIT;
    while !done(&changes) {
        let chunk = tokio::time::timeout_at(deadline, response.chunk())
            .await
            .unwrap_or_else(|_| panic!("the stream showed only {changes:?}"))
            .expect("the stream stays open")
            .expect("the stream does not end");
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            let kind = frame.lines().find_map(|l| l.strip_prefix("event:")).map(str::trim);
            let data = frame.lines().find_map(|l| l.strip_prefix("data:")).map(str::trim);
            if let (Some("change"), Some(data)) = (kind, data) {
                changes.push(serde_json::from_str(data).expect("change data is JSON"));
            }
        }
    }
    changes
}

async fn the_change_stream_names_comment_changes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;
    let t = string(&open_thread(&app, &owner, &project, json!({"text": "look", "itemId": label})).await, "threadId");
    let r = string(&add_reply(&app, &viewer, &project, &t, "looked").await, "commentId");
    assert_eq!(patch_thread(&app, &viewer, &project, &t, json!({"resolved": true})).await.status, StatusCode::OK);
    let r_url = format!("/{t}/replies/{r}");
    assert_eq!(request(&app, &viewer, Method::DELETE, &project, &r_url, None).await.status, StatusCode::OK);
    assert_eq!(request(&app, &owner, Method::DELETE, &project, &format!("/{t}"), None).await.status, StatusCode::OK);
    let last = create_label(&app, &owner, &project, json!({"text": "after"})).await;

    // Any member follows them, a viewer too.
    let streamed =
        streamed_changes(&app, &viewer, &project, |seen| seen.iter().any(|c| c["itemId"] == json!(last))).await;
    let comments: Vec<&Value> = streamed.iter().filter(|c| c["itemType"] == "comment").collect();
    let seen: Vec<(&str, &str)> =
        comments.iter().map(|c| (c["kind"].as_str().unwrap(), c["itemId"].as_str().unwrap())).collect();
    assert_eq!(
        seen,
        [
            ("comment.created", t.as_str()),
            ("comment.created", r.as_str()),
            ("comment.resolved", t.as_str()),
            ("comment.deleted", r.as_str()),
            ("comment.deleted", t.as_str()),
        ],
        "{streamed:?}"
    );
    for change in &comments {
        assert_eq!(change["threadId"], json!(t), "{change}");
        assert!(change["eventId"].is_string() && change["seq"].is_i64(), "{change}");
        assert!(!change["occurredAt"].is_null(), "{change}");
    }
    assert!(comments.windows(2).all(|w| w[0]["seq"].as_i64() < w[1]["seq"].as_i64()), "in seq order");
    // Every other change names no thread.
    assert!(streamed.iter().filter(|c| c["itemType"] != "comment").all(|c| c["threadId"].is_null()), "{streamed:?}");
    let items: Vec<&str> =
        streamed.iter().filter_map(|c| c["kind"].as_str()).filter(|kind| kind.starts_with("item.")).collect();
    assert_eq!(items, ["item.created", "item.created"], "the item changes beside them: {streamed:?}");
}

async fn deleting_an_item_keeps_its_threads_where_it_was(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let editor = app.user("editor").await;
    app.add_member(&project, &editor, ProjectRole::Editor).await;
    let label =
        create_label(app, &owner, &project, json!({"text": "Invoices", "position": {"x": 120.5, "y": -40.25}})).await;
    let shape_url = app.item_url(&project, "/panel/shape?jsonCasing=camel");
    let body = json!({"size": {"width": 400, "height": 300}, "position": {"x": 1000, "y": 1000}});
    let shape = send(app, Method::POST, &shape_url, Some(&owner.bearer()), Some(body)).await;
    assert_eq!(shape.status, StatusCode::OK, "{}", shape.body);
    let shape = string(&shape.body, "itemId");
    let child_url = app.item_url(&project, &format!("/{shape}/label?jsonCasing=camel"));
    let body = json!({"text": "inside", "position": {"x": 1010.5, "y": 990}});
    let child = send(app, Method::POST, &child_url, Some(&owner.bearer()), Some(body)).await;
    assert_eq!(child.status, StatusCode::OK, "{}", child.body);
    let child = string(&child.body, "itemId");
    let label_at = point(&get_item(app, &owner, &project, &label).await["position"]);
    let child_at = point(&get_item(app, &owner, &project, &child).await["position"]);
    assert_eq!(label_at, (120.5, -40.25));

    let resolved = open_thread(app, &owner, &project, json!({"text": "Why is this here?", "itemId": label})).await;
    let resolved = string(&resolved, "threadId");
    add_reply(app, &editor, &project, &resolved, "History.").await;
    assert_eq!(patch_thread(app, &editor, &project, &resolved, json!({"resolved": true})).await.status, StatusCode::OK);
    let open =
        string(&open_thread(app, &editor, &project, json!({"text": "Rename?", "itemId": label})).await, "threadId");
    let inside =
        string(&open_thread(app, &owner, &project, json!({"text": "inner", "itemId": child})).await, "threadId");
    let on_shape =
        string(&open_thread(app, &owner, &project, json!({"text": "box", "itemId": shape})).await, "threadId");
    let spot = string(
        &open_thread(app, &owner, &project, json!({"text": "spot", "position": {"x": 5, "y": 5}})).await,
        "threadId",
    );
    let mut before = std::collections::BTreeMap::new();
    for id in [&resolved, &open, &inside, &on_shape, &spot] {
        before.insert(id.clone(), read_thread(app, &owner, &project, id).await);
    }
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["comment.updated"]})).await;

    // The editor deletes the label, the owner the shape (and with it the label inside).
    let deleted =
        send(app, Method::DELETE, &app.item_url(&project, &format!("/{label}")), Some(&editor.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    let deleted =
        send(app, Method::DELETE, &app.item_url(&project, &format!("/{shape}")), Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);

    for (id, former, at) in [(&resolved, &label, label_at), (&open, &label, label_at), (&inside, &child, child_at)] {
        let was = &before[id];
        let now = read_thread(app, &owner, &project, id).await;
        assert_eq!(now["itemId"], Value::Null, "{now}");
        assert_eq!(now["formerItemId"], json!(former), "{now}");
        assert_eq!(point(&now["position"]), at, "on the point where its item was: {now}");
        for kept in [
            "text",
            "authorUserId",
            "mentions",
            "resolved",
            "resolvedAt",
            "resolvedByUserId",
            "replies",
            "replyCount",
            "createdAt",
        ] {
            assert_eq!(now[kept], was[kept], "{kept} is kept: {now}");
        }
        assert!(now["version"].as_i64() > was["version"].as_i64(), "its item's delete is a change: {now}");
    }
    let on_shape_now = read_thread(app, &owner, &project, &on_shape).await;
    assert_eq!((on_shape_now["itemId"].clone(), on_shape_now["formerItemId"].clone()), (Value::Null, json!(shape)));
    assert!(on_shape_now["position"].is_object(), "{on_shape_now}");
    assert_eq!(read_thread(app, &owner, &project, &spot).await, before[&spot], "a thread on a point is untouched");
    assert_eq!(
        listed(app, &owner, &project, "status=resolved").await,
        std::slice::from_ref(&resolved),
        "still resolved"
    );
    assert_eq!(listed(app, &owner, &project, "").await.len(), 5, "no thread was deleted");
    let by_item = request(app, &owner, Method::GET, &project, &format!("?item={label}"), None).await;
    if by_item.status == StatusCode::OK {
        assert_eq!(by_item.body["threads"], json!([]), "no thread is on a deleted item");
    } else {
        assert_refused(&by_item, &["item"], "a deleted item");
    }

    // One comment.updated per detached thread, by the one who deleted the item.
    env.receiver.wait_for(4, WAIT).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let calls = env.receiver.calls();
    assert_eq!(calls.len(), 4, "{:?}", calls.iter().map(|c| c.json()).collect::<Vec<_>>());
    for change in changes_in_order(&calls) {
        assert_eq!(change["kind"], "comment.updated", "{change}");
        let subject = change["subject"]["id"].as_str().unwrap().to_owned();
        let (former, actor) = match subject.as_str() {
            s if s == resolved || s == open => (&label, &editor),
            s if s == inside => (&child, &owner),
            s if s == on_shape => (&shape, &owner),
            other => panic!("a change of {other}: {change}"),
        };
        assert_eq!(change["subject"]["type"], "comment");
        assert_eq!(change["threadId"], json!(subject));
        assert_eq!(change["actorUserId"], json!(actor.id), "{change}");
        let old = &change["old"];
        assert_eq!(old["itemId"], json!(former), "{change}");
        assert_eq!((old["formerItemId"].clone(), old["position"].clone()), (Value::Null, Value::Null), "{change}");
        let new = &change["new"];
        assert_eq!((new["itemId"].clone(), new["formerItemId"].clone()), (Value::Null, json!(former)), "{change}");
        let now = read_thread(app, &owner, &project, &subject).await;
        assert_eq!(point(&new["position"]), point(&now["position"]), "{change}");
        assert_eq!(new.as_object().map(|o| o.len()), Some(3), "only the changed fields: {change}");
    }
    assert_calls_match_catalog(&app.http, &app.base_url, &calls).await;

    // A detached thread is an ordinary thread on a point; its item stays gone.
    let answer = add_reply(app, &editor, &project, &open, "Renamed it elsewhere.").await;
    assert_eq!(answer["threadId"], json!(open));
    let read = read_thread(app, &owner, &project, &open).await;
    assert_eq!((read["itemId"].clone(), read["formerItemId"].clone()), (Value::Null, json!(label)));
    let refused =
        request(app, &owner, Method::POST, &project, "", Some(json!({"text": "too late", "itemId": label}))).await;
    assert_refused(&refused, &["itemId"], "a thread on a deleted item");
}

async fn a_thread_opened_while_its_item_is_deleted_never_names_a_missing_item(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (url, bearer) = (comments_url(&app, &project, ""), owner.bearer());
    for round in 0..4 {
        let label = create_label(&app, &owner, &project, json!({"text": format!("round {round}")})).await;
        let opens: Vec<_> = (0..8)
            .map(|n| {
                let body = json!({"text": format!("{round}.{n}"), "itemId": label});
                send(&app, Method::POST, &url, Some(&bearer), Some(body))
            })
            .collect();
        let item_url = app.item_url(&project, &format!("/{label}"));
        let delete = send(&app, Method::DELETE, &item_url, Some(&bearer), None);
        let (opens, deleted) = tokio::join!(futures::future::join_all(opens), delete);
        assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
        for reply in &opens {
            if reply.status == StatusCode::CREATED {
                // Committed first, then detached by the delete.
                let id = string(&reply.body, "threadId");
                let now = read_thread(&app, &owner, &project, &id).await;
                assert_eq!((now["itemId"].clone(), now["formerItemId"].clone()), (Value::Null, json!(label)), "{now}");
                assert!(now["position"].is_object(), "{now}");
            } else {
                assert_refused(reply, &["itemId"], &format!("round {round}"));
            }
        }
        let page = request(&app, &owner, Method::GET, &project, "?limit=200", None).await;
        let on_missing: Vec<&Value> =
            page.body["threads"].as_array().unwrap().iter().filter(|t| t["itemId"] == json!(label)).collect();
        assert!(on_missing.is_empty(), "round {round}: threads on a deleted item: {on_missing:?}");
    }
}
