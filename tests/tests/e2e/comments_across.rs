//! Comment threads beyond the REST calls (docs/COMMENTS.md): their four event kinds as webhooks
//! deliver them (only to definitions that select them, every body valid against the published
//! catalog) and on the change stream; an item's delete keeping its threads on the point where it
//! was (also for the items a deleted container takes with it, and for threads opened while the
//! delete runs); the gRPC `CommentService`; and the MCP tools an agent reviews a map with.

use std::collections::BTreeSet;
use std::time::Duration;

use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_client::CommentServiceClient;
use canvas_tests::webhook_checks::assert_calls_match_catalog;
use canvas_tests::webhooks::{Receiver, WebhookEnv};
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::comments::MAX_TEXT_CHARS;
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::comments::{
    add_reply, assert_refused, comments_url, listed, member_with_login, open_thread, patch_thread, point, read_thread,
    request, string, UNKNOWN,
};
use crate::mcp::{call_tool, rpc};
use crate::support::{create_label, get_item, owner_with_project, send};
use crate::webhooks_delivery::create_hook;

backend_tests!(
    comment_events_reach_only_the_webhooks_that_select_them,
    the_change_stream_names_comment_changes,
    deleting_an_item_keeps_its_threads_where_it_was,
    a_thread_opened_while_its_item_is_deleted_never_names_a_missing_item,
    comments_over_grpc,
    an_agent_reviews_a_map_over_mcp
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

fn authed<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().unwrap());
    request
}

async fn comments_over_grpc(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let label = create_label(&app, &owner, &project, json!({"text": "gRPC"})).await;
    let mut comments = CommentServiceClient::connect(app.grpc_url.clone()).await.unwrap();
    let create =
        |text: Option<&str>, item_id: Option<&str>, position: Option<pb::CommentPosition>| pb::CreateThreadRequest {
            project_id: project.clone(),
            text: text.map(str::to_owned),
            item_id: item_id.map(str::to_owned),
            position,
        };

    let made = comments
        .create_thread(authed(create(Some("Over gRPC"), Some(label.as_str()), None), &owner.token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((made.project_id.as_str(), made.item_id.as_deref()), (project.as_str(), Some(label.as_str())));
    assert!(made.position.is_none() && made.former_item_id.is_none() && !made.resolved && made.replies.is_empty());
    let opening = made.opening.clone().expect("the opening comment");
    assert_eq!(
        (
            opening.comment_id.as_str(),
            opening.thread_id.as_str(),
            opening.text.as_str(),
            opening.author_user_id.as_str()
        ),
        (made.thread_id.as_str(), made.thread_id.as_str(), "Over gRPC", owner.id.as_str())
    );
    assert!(opening.edited_at.is_none() && made.resolved_at.is_none() && made.resolved_by_user_id.is_none());
    assert!(made.version >= 1 && made.created_at.is_some());
    let spot = comments
        .create_thread(authed(
            create(Some("A point"), None, Some(pb::CommentPosition { x: 7.5, y: -3.0 })),
            &viewer.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((spot.item_id.clone(), spot.position), (None, Some(pb::CommentPosition { x: 7.5, y: -3.0 })));

    // Refusals: InvalidArgument naming the field, NotFound, PermissionDenied, Unauthenticated.
    let at = |x: f64, y: f64| Some(pb::CommentPosition { x, y });
    for (case, message, named) in [
        ("no text", create(None, Some(label.as_str()), None), "text"),
        ("blank text", create(Some("  "), Some(label.as_str()), None), "text"),
        ("active content", create(Some("<script>alert(1)</script>"), Some(label.as_str()), None), "text"),
        ("no anchor", create(Some("x"), None, None), "item"),
        ("both anchors", create(Some("x"), Some(label.as_str()), at(1.0, 1.0)), "item"),
        ("unknown item", create(Some("x"), Some(UNKNOWN), None), "item"),
        ("NaN", create(Some("x"), None, at(f64::NAN, 0.0)), "position"),
        ("infinite", create(Some("x"), None, at(0.0, f64::INFINITY)), "position"),
        ("beyond the bound", create(Some("x"), None, at(2e7, 0.0)), "position"),
    ] {
        let refused = comments.create_thread(authed(message, &owner.token)).await.unwrap_err();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{case}: {refused:?}");
        let message = refused.message().to_lowercase();
        assert!(message.contains(named), "{case}: {refused:?}");
    }
    let thread = |id: &str| pb::ThreadRequest { project_id: project.clone(), thread_id: id.to_owned() };
    let bad = comments.get_thread(authed(thread("x"), &owner.token)).await.unwrap_err();
    assert_eq!(bad.code(), tonic::Code::InvalidArgument, "{bad:?}");
    let missing = comments.get_thread(authed(thread(UNKNOWN), &owner.token)).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound, "{missing:?}");
    let anonymous = comments.get_thread(tonic::Request::new(thread(&made.thread_id))).await.unwrap_err();
    assert_eq!(anonymous.code(), tonic::Code::Unauthenticated, "{anonymous:?}");
    let stranger = app.user("stranger").await;
    let denied = comments.get_thread(authed(thread(&made.thread_id), &stranger.token)).await.unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied, "{denied:?}");

    // A viewer replies and resolves; resolving again changes nothing.
    let reply = comments
        .add_reply(authed(
            pb::AddReplyRequest {
                project_id: project.clone(),
                thread_id: made.thread_id.clone(),
                text: Some("From a viewer".into()),
            },
            &viewer.token,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (reply.thread_id.as_str(), reply.author_user_id.as_str()),
        (made.thread_id.as_str(), viewer.id.as_str())
    );
    let resolve = |resolved: bool| pb::UpdateThreadRequest {
        project_id: project.clone(),
        thread_id: made.thread_id.clone(),
        text: None,
        resolved: Some(resolved),
    };
    let resolved = comments.update_thread(authed(resolve(true), &viewer.token)).await.unwrap().into_inner();
    assert!(resolved.resolved && resolved.resolved_at.is_some(), "{resolved:?}");
    assert_eq!(resolved.resolved_by_user_id.as_deref(), Some(viewer.id.as_str()));
    assert!(resolved.version > made.version);
    assert_eq!(resolved.replies.len(), 1);
    let again = comments.update_thread(authed(resolve(true), &owner.token)).await.unwrap().into_inner();
    assert_eq!(again, resolved, "resolving a resolved thread answers it as it is");
    let hijack = pb::UpdateThreadRequest {
        project_id: project.clone(),
        thread_id: made.thread_id.clone(),
        text: Some("mine now".into()),
        resolved: None,
    };
    let denied = comments.update_thread(authed(hijack, &viewer.token)).await.unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied, "{denied:?}");
    let reply_request = |text: &str| pb::UpdateReplyRequest {
        project_id: project.clone(),
        thread_id: made.thread_id.clone(),
        comment_id: reply.comment_id.clone(),
        text: Some(text.to_owned()),
    };
    let denied = comments.update_reply(authed(reply_request("the owner's words"), &owner.token)).await.unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied, "only its author edits a reply: {denied:?}");
    let reworded = comments
        .update_reply(authed(reply_request("From a viewer, edited"), &viewer.token))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reworded.text, "From a viewer, edited");
    assert!(reworded.edited_at.is_some());

    // The listing and its filters.
    let list = |message: pb::ListThreadsRequest| authed(message, &owner.token);
    let base = pb::ListThreadsRequest { project_id: project.clone(), ..Default::default() };
    let ids = |response: pb::ListThreadsResponse| response.threads.into_iter().map(|t| t.thread_id).collect::<Vec<_>>();
    let all = comments.list_threads(list(base.clone())).await.unwrap().into_inner();
    assert!(all.next_page_token.is_empty());
    assert_eq!(ids(all), [made.thread_id.clone(), spot.thread_id.clone()]);
    let open = pb::ListThreadsRequest { status: Some("open".into()), ..base.clone() };
    assert_eq!(
        ids(comments.list_threads(list(open)).await.unwrap().into_inner()),
        std::slice::from_ref(&spot.thread_id)
    );
    let done = pb::ListThreadsRequest { status: Some("resolved".into()), ..base.clone() };
    assert_eq!(
        ids(comments.list_threads(list(done)).await.unwrap().into_inner()),
        std::slice::from_ref(&made.thread_id)
    );
    let on_item = pb::ListThreadsRequest { item_id: Some(label.clone()), ..base.clone() };
    assert_eq!(
        ids(comments.list_threads(list(on_item)).await.unwrap().into_inner()),
        std::slice::from_ref(&made.thread_id)
    );
    let by_viewer = pb::ListThreadsRequest { author: Some(viewer.id.clone()), ..base.clone() };
    assert_eq!(
        ids(comments.list_threads(list(by_viewer)).await.unwrap().into_inner()),
        [made.thread_id.clone(), spot.thread_id.clone()],
        "a reply makes one an author of the thread"
    );
    let latest = comments.get_thread(authed(thread(&made.thread_id), &owner.token)).await.unwrap().into_inner();
    let since = pb::ListThreadsRequest { changed_since: latest.updated_at, ..base.clone() };
    assert_eq!(
        ids(comments.list_threads(list(since)).await.unwrap().into_inner()),
        std::slice::from_ref(&made.thread_id)
    );
    let above = pb::ListThreadsRequest { page_size: Some(201), ..base.clone() };
    assert_eq!(
        comments.list_threads(list(above)).await.unwrap().into_inner().threads.len(),
        2,
        "above 200 taken as 200"
    );
    let first = comments
        .list_threads(list(pb::ListThreadsRequest { page_size: Some(1), ..base.clone() }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.threads.len(), 1);
    assert!(!first.next_page_token.is_empty());
    let token = first.next_page_token.clone();
    let second = pb::ListThreadsRequest { page_size: Some(1), page_token: token, ..base.clone() };
    let second = comments.list_threads(list(second)).await.unwrap().into_inner();
    assert_eq!(
        second.threads.iter().map(|t| t.thread_id.clone()).collect::<Vec<_>>(),
        std::slice::from_ref(&spot.thread_id)
    );
    assert!(second.next_page_token.is_empty());
    for (case, message) in [
        ("status", pb::ListThreadsRequest { status: Some("closed".into()), ..base.clone() }),
        ("pageSize 0", pb::ListThreadsRequest { page_size: Some(0), ..base.clone() }),
        ("author", pb::ListThreadsRequest { author: Some("nobody".into()), ..base.clone() }),
        ("item", pb::ListThreadsRequest { item_id: Some("x".into()), ..base.clone() }),
    ] {
        let refused = comments.list_threads(list(message)).await.unwrap_err();
        assert_eq!(refused.code(), tonic::Code::InvalidArgument, "{case}: {refused:?}");
    }

    // Deletes: a viewer's own reply; another's thread only by its author or a moderator.
    let denied = comments.delete_thread(authed(thread(&made.thread_id), &viewer.token)).await.unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied, "{denied:?}");
    let reply_of = |id: &str| pb::ReplyRequest {
        project_id: project.clone(),
        thread_id: made.thread_id.clone(),
        comment_id: id.to_owned(),
    };
    let gone = comments.delete_reply(authed(reply_of(&reply.comment_id), &viewer.token)).await.unwrap().into_inner();
    assert_eq!(gone.deleted_comment_ids, std::slice::from_ref(&reply.comment_id));
    let missing = comments.delete_reply(authed(reply_of(&reply.comment_id), &viewer.token)).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound, "{missing:?}");
    let bad = comments.delete_reply(authed(reply_of("nope"), &viewer.token)).await.unwrap_err();
    assert_eq!(bad.code(), tonic::Code::InvalidArgument, "{bad:?}");
    let last = comments
        .add_reply(authed(
            pb::AddReplyRequest {
                project_id: project.clone(),
                thread_id: made.thread_id.clone(),
                text: Some("Last word".into()),
            },
            &owner.token,
        ))
        .await
        .unwrap()
        .into_inner();
    let gone = comments.delete_thread(authed(thread(&made.thread_id), &owner.token)).await.unwrap().into_inner();
    assert_eq!(gone.deleted_comment_ids, [last.comment_id.clone(), made.thread_id.clone()], "its replies, then it");
    let missing = comments.get_thread(authed(thread(&made.thread_id), &owner.token)).await.unwrap_err();
    assert_eq!(missing.code(), tonic::Code::NotFound);
    // What gRPC wrote, REST reads.
    let over_rest = read_thread(&app, &owner, &project, &spot.thread_id).await;
    assert_eq!((over_rest["text"].clone(), point(&over_rest["position"])), (json!("A point"), (7.5, -3.0)));
}

/// A thread as a tool answers it, read the same whether the tool flattens the first comment into
/// the thread (`text`, `mentions`, `authorUserId`, `replies`) or lists every comment (`comments`).
struct ToolThread<'a>(&'a Value);

impl ToolThread<'_> {
    fn id(&self) -> String {
        string(self.0, "threadId")
    }

    /// The first comment's field `key`.
    fn opening(&self, key: &str) -> Value {
        match self.0.get(key) {
            Some(value) if !value.is_null() => value.clone(),
            _ => self.0["comments"][0][key].clone(),
        }
    }

    fn reply_texts(&self) -> Vec<String> {
        let replies = match self.0["replies"].as_array() {
            Some(replies) => replies.clone(),
            None => self.0["comments"].as_array().map(|all| all[1..].to_vec()).unwrap_or_default(),
        };
        replies.iter().map(|r| r["text"].as_str().unwrap_or_default().to_owned()).collect()
    }
}

async fn an_agent_reviews_a_map_over_mcp(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    // The agent acts as ann, who is mentioned by login.
    let ann = member_with_login(&app, &project, "Ann", "ann", ProjectRole::Editor).await;
    let viewer = app.user("viewer").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    let label = create_label(&app, &owner, &project, json!({"text": "Invoices"})).await;
    let ok = |reply: Value| {
        assert_eq!(reply["result"]["isError"], false, "{reply}");
        let structured = reply["result"]["structuredContent"].clone();
        let text: Value =
            serde_json::from_str(reply["result"]["content"][0]["text"].as_str().unwrap_or("null")).unwrap();
        assert_eq!(text, structured, "the text block repeats the structured result");
        structured
    };
    let error_text = |reply: Value| -> String {
        assert_eq!(reply["result"]["isError"], true, "{reply}");
        reply["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned()
    };
    // The listing's threads: their ids, and the listing's count if it gives one.
    let threads = |listing: &Value| -> Vec<String> {
        let list = listing["threads"].as_array().unwrap_or_else(|| panic!("no threads in {listing}"));
        if let Some(count) = listing.get("count") {
            assert_eq!(count, &json!(list.len()), "{listing}");
        }
        list.iter().map(|t| ToolThread(t).id()).collect()
    };

    // A person asks on the map.
    let asked =
        open_thread(&app, &owner, &project, json!({"text": "@ann please rename this to Billing", "itemId": label}))
            .await;
    let t = string(&asked, "threadId");
    // The agent opens one on a point, and lists: open threads by default, each with its comments.
    let spot = ok(call_tool(
        &app,
        &ann,
        "add_comment",
        json!({"projectId": project, "text": "Is this spot free?", "x": 40.5, "y": -12}),
    )
    .await);
    let spot = ToolThread(&spot);
    let s = spot.id();
    assert_eq!(point(&spot.0["position"]), (40.5, -12.0));
    assert_eq!((spot.0["itemId"].clone(), spot.0["resolved"].clone()), (Value::Null, json!(false)));
    assert_eq!((spot.opening("text"), spot.opening("authorUserId")), (json!("Is this spot free?"), json!(ann.id)));
    let over_rest = read_thread(&app, &owner, &project, &s).await;
    assert_eq!((over_rest["authorUserId"].clone(), point(&over_rest["position"])), (json!(ann.id), (40.5, -12.0)));

    let listed_open = ok(call_tool(&app, &ann, "list_comments", json!({"projectId": project})).await);
    assert_eq!(threads(&listed_open), [t.clone(), s.clone()]);
    let mine = ok(call_tool(&app, &ann, "list_comments", json!({"projectId": project, "mentionsMe": true})).await);
    assert_eq!(threads(&mine), std::slice::from_ref(&t));
    let first = ToolThread(&mine["threads"][0]);
    assert_eq!(first.opening("text"), json!("@ann please rename this to Billing"));
    assert_eq!(first.opening("mentions"), json!([ann.id]));
    assert_eq!(first.0["itemId"], json!(label));
    let on_item = ok(call_tool(&app, &ann, "list_comments", json!({"projectId": project, "itemId": label})).await);
    assert_eq!(threads(&on_item), std::slice::from_ref(&t));
    let nobody = ok(call_tool(&app, &viewer, "list_comments", json!({"projectId": project, "mentionsMe": true})).await);
    assert_eq!(threads(&nobody), Vec::<String>::new());

    // It answers, does what was asked, and resolves.
    let answer = ok(call_tool(
        &app,
        &ann,
        "reply_comment",
        json!({"projectId": project, "threadId": t, "text": "Renaming it now."}),
    )
    .await);
    assert_eq!((answer["text"].clone(), answer["authorUserId"].clone()), (json!("Renaming it now."), json!(ann.id)));
    let reply_id = string(&answer, "commentId");
    assert!(uuid::Uuid::parse_str(&reply_id).is_ok(), "{answer}");
    let read = read_thread(&app, &owner, &project, &t).await;
    assert_eq!(read["replies"][0]["commentId"], json!(reply_id), "the reply is on the thread named: {read}");
    ok(call_tool(
        &app,
        &ann,
        "update_item_property",
        json!({"projectId": project, "itemId": label, "property": "text", "value": "Billing"}),
    )
    .await);
    assert_eq!(get_item(&app, &owner, &project, &label).await["text"], "Billing");
    let resolved = ok(call_tool(&app, &ann, "resolve_comment", json!({"projectId": project, "threadId": t})).await);
    assert_eq!((resolved["threadId"].clone(), resolved["resolved"].clone()), (json!(t), json!(true)));
    assert_eq!(ToolThread(&resolved).reply_texts(), ["Renaming it now."]);
    let read = read_thread(&app, &owner, &project, &t).await;
    assert_eq!((read["resolved"].clone(), read["resolvedByUserId"].clone()), (json!(true), json!(ann.id)));
    let again = ok(call_tool(&app, &ann, "resolve_comment", json!({"projectId": project, "threadId": t})).await);
    assert_eq!(again["version"], resolved["version"], "resolving twice changes nothing");
    assert_eq!(
        threads(&ok(call_tool(&app, &ann, "list_comments", json!({"projectId": project})).await)),
        std::slice::from_ref(&s)
    );
    let status = |value: &str| json!({"projectId": project, "status": value});
    assert_eq!(threads(&ok(call_tool(&app, &ann, "list_comments", status("open")).await)), std::slice::from_ref(&s));
    assert_eq!(
        threads(&ok(call_tool(&app, &ann, "list_comments", status("resolved")).await)),
        std::slice::from_ref(&t)
    );
    assert_eq!(threads(&ok(call_tool(&app, &ann, "list_comments", status("all")).await)), [t.clone(), s.clone()]);
    // Reopened, by someone else.
    let reopened =
        ok(call_tool(&app, &owner, "resolve_comment", json!({"projectId": project, "threadId": t, "reopen": true}))
            .await);
    assert_eq!(reopened["resolved"], false);
    assert!(reopened["version"].as_i64() > resolved["version"].as_i64());
    assert_eq!(threads(&ok(call_tool(&app, &ann, "list_comments", status("open")).await)), [t.clone(), s.clone()]);
    // A viewer's agent comments too.
    let from_viewer = ok(call_tool(
        &app,
        &viewer,
        "add_comment",
        json!({"projectId": project, "text": "Viewer here", "itemId": label}),
    )
    .await);
    assert_eq!(ToolThread(&from_viewer).opening("authorUserId"), json!(viewer.id));
    ok(call_tool(&app, &viewer, "reply_comment", json!({"projectId": project, "threadId": s, "text": "Yes"})).await);
    assert_eq!(read_thread(&app, &owner, &project, &s).await["replyCount"], 1);

    // Tool errors name the argument.
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    for (tool, arguments, named) in [
        ("add_comment", json!({"projectId": project, "text": "floating"}), "'itemId'"),
        ("add_comment", json!({"projectId": project, "text": "x", "itemId": label, "x": 1, "y": 2}), "'itemId'"),
        ("add_comment", json!({"projectId": project, "text": "x", "itemId": UNKNOWN}), "'itemId'"),
        ("add_comment", json!({"projectId": project, "text": "   ", "itemId": label}), "'text'"),
        ("add_comment", json!({"projectId": project, "text": "<script>alert(1)</script>", "itemId": label}), "'text'"),
        ("add_comment", json!({"projectId": project, "text": long, "itemId": label}), "'text'"),
        // (The argument `x`, whatever the tool calls the point.)
        ("add_comment", json!({"projectId": project, "text": "x", "x": 2e7, "y": 0}), "x'"),
        ("add_comment", json!({"projectId": project, "text": "x", "x": 1}), "y'"),
        ("list_comments", json!({"projectId": project, "status": "closed"}), "'status'"),
        ("list_comments", json!({"projectId": project, "itemId": "not-a-guid"}), "item"),
        ("reply_comment", json!({"projectId": project, "threadId": "not-a-guid", "text": "x"}), "'threadId'"),
        ("reply_comment", json!({"projectId": project, "threadId": UNKNOWN, "text": "x"}), "'threadId'"),
        ("reply_comment", json!({"projectId": project, "threadId": t, "text": ""}), "'text'"),
        ("resolve_comment", json!({"projectId": project, "threadId": UNKNOWN}), "'threadId'"),
        ("resolve_comment", json!({"projectId": project, "threadId": "nope"}), "'threadId'"),
    ] {
        let text = error_text(call_tool(&app, &ann, tool, arguments.clone()).await);
        assert!(text.contains(named), "{tool} {arguments}: {text}");
    }
    let (_, elsewhere) = owner_with_project(&app).await;
    let denied = error_text(call_tool(&app, &ann, "list_comments", json!({"projectId": elsewhere})).await);
    assert!(denied.contains("'projectId'"), "{denied}");
    // Missing and mistyped arguments are protocol errors.
    for (arguments, named) in [
        (json!({"name": "add_comment", "arguments": {"projectId": project, "itemId": label}}), "text"),
        (json!({"name": "reply_comment", "arguments": {"projectId": project, "text": "x"}}), "threadId"),
        (json!({"name": "list_comments", "arguments": {"projectId": project, "mentionsMe": "yes"}}), "mentionsMe"),
        (
            json!({"name": "resolve_comment", "arguments": {"projectId": project, "threadId": t, "reopen": "no"}}),
            "reopen",
        ),
        (json!({"name": "add_comment", "arguments": {"projectId": project, "text": "x", "colour": 1}}), "colour"),
    ] {
        let reply = rpc(&app, &ann, "tools/call", arguments).await;
        assert_eq!(reply["error"]["code"], -32602, "{reply}");
        assert!(reply["error"]["message"].as_str().unwrap_or("").contains(named), "{reply}");
    }
    // The refusals wrote nothing: the three threads, t with its one reply, open.
    assert_eq!(listed(&app, &owner, &project, "").await.len(), 3);
    let read = read_thread(&app, &owner, &project, &t).await;
    assert_eq!((read["replyCount"].clone(), read["resolved"].clone()), (json!(1), json!(false)));
}
