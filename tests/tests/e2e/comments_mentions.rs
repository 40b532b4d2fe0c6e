//! "Mentions of me" on the account site (docs/COMMENTS.md): the open threads that mention the
//! signed-in person in every project they are a member of, newest first, each with the comment
//! that mentions them, its author, and a link to its place on the map; resolved threads, threads
//! of projects they are not in and mentions of others are not shown; text is shown as text.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::StatusCode;
use serde_json::json;

use crate::comments::{add_reply, open_thread, patch_thread, string};
use crate::frames::made;
use crate::site_client::SiteClient;

backend_tests!(mentions_of_me_lists_open_threads_of_every_project_newest_first);

const PASSWORD: &str = "a long enough passphrase";

/// The `data-thread-id`s of the page's rows, in order.
fn rows(body: &str) -> Vec<String> {
    body.split("data-thread-id=\"").skip(1).map(|v| v[..v.find('"').unwrap()].to_owned()).collect()
}

async fn mentions_of_me_lists_open_threads_of_every_project_newest_first(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ann = app.account_user("Ann", "ann", PASSWORD).await;
    let bo = app.account_user("Bo", "bo", PASSWORD).await;
    let cy = app.account_user("Cy", "cy", PASSWORD).await;
    let first = app.project(&ann).await;
    let second = app.project(&ann).await;
    let elsewhere = app.project(&cy).await;
    app.add_member(&first, &bo, ProjectRole::Viewer).await;
    app.add_member(&second, &bo, ProjectRole::Editor).await;
    app.add_member(&elsewhere, &bo, ProjectRole::Viewer).await;
    app.add_member(&first, &cy, ProjectRole::Viewer).await;

    let note = made(&app, &ann, &first, "panel", "sticky-note", json!({"text": "Budget"})).await;
    let on_item =
        open_thread(&app, &ann, &first, json!({"text": "@bo is <b>this</b> right? 5 < 6 & 7", "itemId": note})).await;
    let on_point =
        open_thread(&app, &ann, &second, json!({"text": "@bo look here", "position": {"x": 10, "y": 20}})).await;
    let resolved = open_thread(&app, &ann, &first, json!({"text": "@bo done already", "itemId": note})).await;
    let reply_mention = open_thread(&app, &ann, &first, json!({"text": "Who owns this?", "itemId": note})).await;
    let not_me = open_thread(&app, &ann, &first, json!({"text": "@cy only", "itemId": note})).await;
    let other_project =
        open_thread(&app, &cy, &elsewhere, json!({"text": "@bo from Cy", "position": {"x": 0, "y": 0}})).await;
    let reply_mention = string(&reply_mention, "threadId");
    add_reply(&app, &cy, &first, &reply_mention, "I think @bo does").await;
    let resolved = string(&resolved, "threadId");
    assert_eq!(patch_thread(&app, &ann, &first, &resolved, json!({"resolved": true})).await.status, StatusCode::OK);

    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("bo", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let page = site.get("/account/mentions").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    // Newest first: the reply (the latest change), then the other project's, the point, the item.
    let expected = [
        reply_mention.clone(),
        string(&other_project, "threadId"),
        string(&on_point, "threadId"),
        string(&on_item, "threadId"),
    ];
    assert_eq!(rows(&page.body), expected, "{}", page.body);
    assert!(!page.body.contains(&resolved) && !page.body.contains(&string(&not_me, "threadId")));
    // The comment that mentions Bo, by its author, as text (HTML reduced to text, then escaped).
    assert!(page.body.contains("I think @bo does") && page.body.contains("@cy</td>"), "{}", page.body);
    assert!(page.body.contains("@bo is this right? 5 &lt; 6 &amp; 7"), "{}", page.body);
    assert!(!page.body.contains("<b>this</b>"), "no markup of a comment reaches the page");
    // Links to the thread's place: the item on the map, or the map for a point.
    assert!(page.body.contains(&format!("href=\"/map/{first}?node={note}\"")), "{}", page.body);
    assert!(page.body.contains(&format!("href=\"/map/{second}\"")), "{}", page.body);
    assert!(page.body.contains("<a href=\"/account/mentions\" aria-current=\"page\">Mentions</a>"), "{}", page.body);

    // Ann is mentioned nowhere; without a session the page sends the browser to sign in.
    let mut ann_site = SiteClient::new(&app);
    assert_eq!(ann_site.sign_in("ann", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let page = ann_site.get("/account/mentions").await;
    assert_eq!(rows(&page.body), Vec::<String>::new());
    assert!(page.body.contains("Nobody mentions you"), "{}", page.body);
    let page = SiteClient::new(&app).get("/account/mentions").await;
    assert_eq!(page.status, StatusCode::SEE_OTHER);

    // Removed from a project, its threads leave the page.
    app.core
        .accounts()
        .remove_member(&app.admin, parse(&elsewhere), core_service::domain::UserId::parse(&bo.id).unwrap())
        .await
        .unwrap();
    let page = site.get("/account/mentions").await;
    assert!(!rows(&page.body).contains(&string(&other_project, "threadId")), "{}", page.body);
}

fn parse(project: &str) -> core_service::domain::ProjectId {
    core_service::domain::ProjectId::parse(project).unwrap()
}
