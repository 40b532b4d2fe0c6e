//! Comment threads in a project's archive (docs/ARCHIVE.md, version 3 `comments.jsonl`): an export
//! holds every thread with its comments and their authors by login, and an import gives them new
//! ids, remaps their items and finds their authors and mentions by login (the importing person
//! where no account matches), all or nothing; a hostile `comments.jsonl` is refused naming the
//! line and field.

use std::collections::BTreeMap;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::comments::{add_reply, listed, member_with_login, open_thread, patch_thread, read_thread, string};
use crate::project_archive_kit::{archive, entries, export, import, listing};
use crate::support::{create_label, owner_with_project};

backend_tests!(archives_carry_comment_threads_and_their_authors, a_hostile_comments_entry_is_refused);

async fn archives_carry_comment_threads_and_their_authors(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let ann = member_with_login(&app, &project, "Ann", "ann", ProjectRole::Editor).await;
    let bob = member_with_login(&app, &project, "Bob", "bob", ProjectRole::Viewer).await;
    let plan_id = create_label(&app, &owner, &project, json!({"text": "Plan", "position": {"x": 40, "y": 50}})).await;
    let gone_id = create_label(&app, &owner, &project, json!({"text": "Old", "position": {"x": -7, "y": 9}})).await;
    let on_item = open_thread(&app, &ann, &project, json!({"text": "@bob move this?", "itemId": plan_id})).await;
    let on_item_id = string(&on_item, "threadId");
    add_reply(&app, &bob, &project, &on_item_id, "Done, @ann.").await;
    let on_point =
        open_thread(&app, &bob, &project, json!({"text": "<b>here</b>", "position": {"x": 1.5, "y": -2}})).await;
    let resolved =
        patch_thread(&app, &owner, &project, &string(&on_point, "threadId"), json!({"resolved": true})).await;
    assert_eq!(resolved.status, StatusCode::OK, "{}", resolved.body);
    let detached = open_thread(&app, &ann, &project, json!({"text": "why?", "itemId": gone_id})).await;
    let deleted = crate::support::send(
        &app,
        reqwest::Method::DELETE,
        &app.item_url(&project, &format!("/{gone_id}")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);

    let (status, bytes) = export(&app, &owner, &project).await;
    assert_eq!(status, StatusCode::OK);
    let named = entries(&bytes);
    let manifest: Value = serde_json::from_slice(&named["manifest.json"]).unwrap();
    assert_eq!((manifest["version"].clone(), manifest["counts"]["threads"].clone()), (json!(3), json!(3)));
    let lines: Vec<Value> = String::from_utf8(named["comments.jsonl"].clone())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["threadId"], json!(on_item_id));
    assert_eq!(lines[0]["itemId"], json!(plan_id));
    assert_eq!(lines[0]["comments"][0]["author"], "ann");
    assert_eq!(lines[0]["comments"][1]["author"], "bob");
    assert_eq!(lines[0]["comments"][1]["text"], "Done, @ann.");
    assert_eq!(
        (lines[1]["resolved"].clone(), lines[1]["position"].clone()),
        (json!(true), json!({"x": 1.5, "y": -2.0}))
    );
    // The detached thread is on the point where its item was; the item is not in the archive.
    assert_eq!((lines[2]["itemId"].clone(), lines[2]["position"].clone()), (Value::Null, json!({"x": -7.0, "y": 9.0})));

    let reply = import(&app, &format!("Bearer {}", app.admin_token), bytes, &format!("&owner={}", owner.id)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let new = string(&reply.body, "projectId");
    let items = listing(&app, &owner, &new).await;
    let new_plan = items.iter().find(|i| i["text"] == "Plan").map(|i| string(i, "itemId")).unwrap();
    let threads = listed(&app, &owner, &new, "").await;
    assert_eq!(threads.len(), 3, "{threads:?}");
    let old_ids = [on_item_id.clone(), string(&on_point, "threadId"), string(&detached, "threadId")];
    assert!(threads.iter().all(|t| !old_ids.contains(t)), "new thread ids");
    // Each thread by its first comment's text.
    let mut read: BTreeMap<String, Value> = BTreeMap::new();
    for t in &threads {
        let thread = read_thread(&app, &owner, &new, t).await;
        read.insert(string(&thread, "text"), thread);
    }
    let first = &read["@bob move this?"];
    assert_eq!((first["itemId"].clone(), first["text"].clone()), (json!(new_plan), json!("@bob move this?")));
    assert_eq!(first["authorUserId"], json!(ann.id), "the author found by login");
    assert_eq!(first["mentions"], json!([bob.id]), "mentions read again by login");
    assert_eq!(first["replies"][0]["authorUserId"], json!(bob.id));
    assert_eq!(first["replies"][0]["mentions"], json!([ann.id]));
    let point = &read["<b>here</b>"];
    assert_eq!((point["resolved"].clone(), point["position"].clone()), (json!(true), json!({"x": 1.5, "y": -2.0})));
    assert_eq!(point["authorUserId"], json!(bob.id));
    assert_eq!(read["why?"]["position"], json!({"x": -7.0, "y": 9.0}));
    assert_eq!(listed(&app, &owner, &new, "status=open").await.len(), 2);
}

async fn a_hostile_comments_entry_is_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "x"})).await;
    open_thread(&app, &owner, &project, json!({"text": "fine", "itemId": label})).await;
    let (_, bytes) = export(&app, &owner, &project).await;
    let good = entries(&bytes);
    let admin = format!("Bearer {}", app.admin_token);
    let line = |comments: Value, extra: Value| {
        let mut line = json!({"threadId": "0195f0c0-0000-7000-8000-00000000000a", "position": {"x": 0, "y": 0},
            "comments": comments});
        for (k, v) in extra.as_object().unwrap() {
            line[k] = v.clone();
        }
        line
    };
    let cases = [
        (line(json!([{"text": "<script>x</script>"}]), json!({})), "comments.jsonl:1.comments[0].text"),
        (line(json!([]), json!({})), "comments.jsonl:1.comments"),
        (
            line(json!([{"text": "ok"}]), json!({"itemId": "0195f0c0-0000-7000-8000-00000000000b", "position": null})),
            "comments.jsonl:1.itemId",
        ),
        (line(json!([{"text": "ok"}]), json!({"position": {"x": 1e9, "y": 0}})), "comments.jsonl:1.position"),
        (line(json!([{"text": "ok", "votes": 3}]), json!({})), "comments.jsonl:1.comments[0].votes"),
        (line(json!([{"text": "ok"}]), json!({"threadId": "nope"})), "comments.jsonl:1.threadId"),
        (line(json!([{"text": "ok"}]), json!({"createdAt": "yesterday"})), "comments.jsonl:1.createdAt"),
    ];
    for (bad, field) in cases {
        let mut broken = good.clone();
        broken.insert("comments.jsonl".into(), format!("{bad}\n").into_bytes());
        let reply = import(&app, &admin, archive(&broken), "").await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{field}: {}", reply.body);
        let named: Vec<String> = reply.fields();
        assert!(named.iter().any(|f| f == field), "{field} not in {named:?}: {}", reply.body);
    }
    // A version 2 archive holds no comments.jsonl.
    let mut old = good.clone();
    let mut manifest: Value = serde_json::from_slice(&good["manifest.json"]).unwrap();
    manifest["version"] = json!(2);
    manifest["counts"].as_object_mut().unwrap().remove("threads");
    old.insert("manifest.json".into(), manifest.to_string().into_bytes());
    let reply = import(&app, &admin, archive(&old), "").await;
    assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{}", reply.body);
    assert_eq!(reply.fields(), ["comments.jsonl"], "{}", reply.body);
    // Without it, the same archive is a version 2 one.
    old.remove("comments.jsonl");
    let reply = import(&app, &admin, archive(&old), "").await;
    assert_eq!(reply.status, StatusCode::OK, "a version 2 archive without comments: {}", reply.body);
}
