//! Open comment threads in knowledge retrieval (docs/COMMENTS.md "Knowledge"): a thread's comments
//! are found like an item's text, cited as the thread (`threadId`) on its item (`id`), or by the
//! thread's own id when it is on a point; resolving or deleting a thread takes it out of the
//! answers, reopening brings it back. Keyword retrieval (no model needed), on both backends.

use std::time::{Duration, Instant};

use canvas_tests::{backend_tests, keyword_only, Backend, TestApp, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::comments::{add_reply, comments_url, open_thread, patch_thread, string};
use crate::knowledge::retrieve;
use crate::support::{create_label, owner_with_project, send};

backend_tests!(open_threads_are_retrieved_and_cited_with_their_item);

/// Waits (bounded) until a retrieval of `query` answers what `done` accepts; answers its citations.
async fn until(
    app: &TestApp,
    user: &TestUser,
    project: &str,
    query: &str,
    done: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let reply = retrieve(app, user, json!({"projectId": project, "query": query})).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        let citations = reply.body["citations"].as_array().cloned().unwrap_or_default();
        if done(&citations) {
            return citations;
        }
        assert!(Instant::now() < deadline, "{query}: the index did not catch up: {}", reply.body);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn open_threads_are_retrieved_and_cited_with_their_item(backend: Backend) {
    let app = TestApp::spawn_with(backend, "development", keyword_only()).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "Invoice service"})).await;
    let thread =
        open_thread(&app, &owner, &project, json!({"text": "Rename this to Billing gateway", "itemId": label})).await;
    let thread_id = string(&thread, "threadId");
    add_reply(&app, &owner, &project, &thread_id, "<p>Agreed, <b>quasar</b> naming</p>").await;
    let spot =
        open_thread(&app, &owner, &project, json!({"text": "A zeppelin hangar here", "position": {"x": 3, "y": 4}}))
            .await;
    let spot_id = string(&spot, "threadId");

    // The thread's comments, HTML as its words, are one indexed text cited as the thread on its item.
    // (Waiting for the reply's words: the thread may be indexed once before its reply is.)
    let has_reply = |c: &[Value]| c.iter().any(|c| c["chunk"].as_str().is_some_and(|t| t.contains("quasar")));
    let cited = until(&app, &owner, &project, "quasar billing", has_reply).await;
    assert_eq!(cited[0]["id"], json!(label), "{cited:?}");
    assert_eq!(cited[0]["threadId"], json!(thread_id), "{cited:?}");
    assert_eq!(cited[0]["chunk"], "Rename this to Billing gateway\nAgreed, quasar naming", "{cited:?}");
    // The item itself is cited as an item: no threadId.
    let item = until(&app, &owner, &project, "invoice", |c| !c.is_empty()).await;
    assert_eq!((item[0]["id"].clone(), item[0].get("threadId")), (json!(label), None), "{item:?}");
    // A thread on a point has no item: it is cited by its own id.
    let on_point = until(&app, &owner, &project, "zeppelin", |c| !c.is_empty()).await;
    assert_eq!((on_point[0]["id"].clone(), on_point[0]["threadId"].clone()), (json!(spot_id), json!(spot_id)));

    // Resolved, a thread leaves the answers; reopened, it comes back.
    let resolved = patch_thread(&app, &owner, &project, &thread_id, json!({"resolved": true})).await;
    assert_eq!(resolved.status, StatusCode::OK, "{}", resolved.body);
    until(&app, &owner, &project, "quasar", |c| c.is_empty()).await;
    let reopened = patch_thread(&app, &owner, &project, &thread_id, json!({"resolved": false})).await;
    assert_eq!(reopened.status, StatusCode::OK, "{}", reopened.body);
    until(&app, &owner, &project, "quasar", |c| c.iter().any(|c| c["threadId"] == json!(thread_id))).await;

    // Deleted, it leaves them too.
    let url = comments_url(&app, &project, &format!("/{spot_id}"));
    let deleted = send(&app, Method::DELETE, &url, Some(&owner.bearer()), None).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.body);
    until(&app, &owner, &project, "zeppelin", |c| c.is_empty()).await;
}
