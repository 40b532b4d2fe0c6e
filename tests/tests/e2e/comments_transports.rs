//! Comment threads through gRPC and MCP (docs/COMMENTS.md): every `CommentService` call with its
//! refusals' codes, and the MCP tools an agent reviews a map with.

use canvas_proto::v1 as pb;
use canvas_proto::v1::comment_service_client::CommentServiceClient;
use canvas_tests::{backend_tests, Backend, TestApp};
use canvas_vocabulary::limits::comments::MAX_TEXT_CHARS;
use core_service::domain::ProjectRole;
use serde_json::{json, Value};

use crate::comments::{listed, member_with_login, open_thread, point, read_thread, string, UNKNOWN};
use crate::mcp::{call_tool, rpc};
use crate::support::{create_label, get_item, owner_with_project};

backend_tests!(comments_over_grpc, an_agent_reviews_a_map_over_mcp);

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
