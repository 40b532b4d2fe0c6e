//! The comment listing over REST (docs/COMMENTS.md "The listing's filters"): filters combined,
//! pages each holding every thread once while threads come and go, and values that are not values
//! refused naming their parameter.

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::COMMENTS_PAGE;
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::comments::{
    add_reply, assert_refused, encode, listed, listing_rest, member_with_login, next_token, open_thread, patch_thread,
    request, string, thread_ids, time, UNKNOWN,
};
use crate::support::{create_label, owner_with_project};

backend_tests!(
    the_listing_filters_combine,
    pages_hold_every_thread_once_while_threads_come_and_go,
    filter_values_that_are_not_values_are_refused
);

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
