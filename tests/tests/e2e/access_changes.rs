//! Tokens and roles are remembered by each core-service replica for a moment
//! (core-service/src/service/access/cache.rs); these tests check that no change of access is ever
//! answered from that memory: on the replica that made it, a revoked token, a removed member or a
//! lowered role is refused on the very next request; on another replica (PostgreSQL) within one
//! second, measured.

use std::time::{Duration, Instant};

use canvas_tests::{backend_tests, keyword_only, Backend, TestApp, TestUser};
use core_service::domain::{ProjectId, ProjectRole, UserId};
use reqwest::{Method, StatusCode};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::support::{create_label, owner_with_project, send};

backend_tests!(
    a_revoked_token_is_refused_on_the_next_request,
    a_removed_or_lowered_member_is_refused_on_the_next_request,
);

/// The bound on how late another replica may see a change of access.
const ACROSS_REPLICAS: Duration = Duration::from_secs(1);

async fn status_of(app: &TestApp, base: &str, user: &TestUser, method: Method, path: &str) -> StatusCode {
    let body = (method == Method::PATCH).then(|| json!({"text": "changed"}));
    send(app, method, &format!("{base}/api/v2/projects/{path}"), Some(&user.bearer()), body).await.status
}

async fn a_revoked_token_is_refused_on_the_next_request(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let bo = app.user("Bo").await;
    app.add_member(&project, &bo, ProjectRole::Editor).await;
    let read = format!("{project}/item/{label}?jsonCasing=camel");
    // Many reads: the token and the role are now remembered.
    for _ in 0..20 {
        assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::OK);
    }
    app.revoke(&bo).await;
    for (n, method) in [Method::GET, Method::GET, Method::PATCH].into_iter().enumerate() {
        let path = if method == Method::PATCH { format!("{project}/item/label/{label}") } else { read.clone() };
        assert_eq!(status_of(&app, &app.base_url, &bo, method, &path).await, StatusCode::UNAUTHORIZED, "request {n}");
    }
    assert_eq!(status_of(&app, &app.base_url, &owner, Method::GET, &read).await, StatusCode::OK, "only Bo's token");
}

async fn a_removed_or_lowered_member_is_refused_on_the_next_request(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let bo = app.user("Bo").await;
    let read = format!("{project}/item/{label}?jsonCasing=camel");
    let write = format!("{project}/item/label/{label}");
    // Not a member yet, and the refusal was read (and could have been remembered).
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::FORBIDDEN);
    app.add_member(&project, &bo, ProjectRole::Editor).await;
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::OK, "added: reads at once");
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::PATCH, &write).await, StatusCode::OK, "and writes");

    let (project_id, bo_id) = (ProjectId::parse(&project).unwrap(), UserId::parse(&bo.id).unwrap());
    app.core.accounts().set_member_role(&app.admin, project_id, bo_id, ProjectRole::Viewer).await.unwrap();
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::PATCH, &write).await, StatusCode::FORBIDDEN, "lowered");
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::OK, "a Viewer still reads");

    for _ in 0..10 {
        assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::OK);
    }
    app.core.accounts().remove_member(&app.admin, project_id, bo_id).await.unwrap();
    assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::FORBIDDEN, "removed");
    let stored =
        send(&app, Method::GET, &format!("{}/api/v2/projects/{read}", app.base_url), Some(&owner.bearer()), None).await;
    assert_eq!(stored.body["text"], "changed", "Bo's one write as an Editor stands, and no other");
}

/// Two core-service replicas on one PostgreSQL database: a token revoked and a member removed
/// through the first are refused by the second within a second (a notification, with the moment
/// an entry is trusted as the bound), after both had remembered them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_change_on_one_replica_is_seen_by_another_within_a_second() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let label = create_label(&app, &owner, &project, json!({"text": "kept"})).await;
    let second = core_service::build(&app.another_core_config(keyword_only())).await.expect("a second replica starts");
    let stop_second = CancellationToken::new();
    let (_, second_gateway) = app.serve_replica(second, &stop_second).await;
    let read = format!("{project}/item/{label}?jsonCasing=camel");

    for change in ["token revoked", "member removed"] {
        let bo = app.user("Bo").await;
        app.add_member(&project, &bo, ProjectRole::Viewer).await;
        // Both replicas answer (and remember) Bo's token and role; the second may need a moment
        // to see the membership just added.
        let warm = Instant::now();
        while status_of(&app, &second_gateway, &bo, Method::GET, &read).await != StatusCode::OK {
            assert!(warm.elapsed() < Duration::from_secs(5), "the second replica never saw Bo added");
        }
        for _ in 0..5 {
            assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, StatusCode::OK);
            assert_eq!(status_of(&app, &second_gateway, &bo, Method::GET, &read).await, StatusCode::OK);
        }
        let refused = if change == "token revoked" {
            app.revoke(&bo).await;
            StatusCode::UNAUTHORIZED
        } else {
            let (project_id, bo_id) = (ProjectId::parse(&project).unwrap(), UserId::parse(&bo.id).unwrap());
            app.core.accounts().remove_member(&app.admin, project_id, bo_id).await.unwrap();
            StatusCode::FORBIDDEN
        };
        let changed = Instant::now();
        assert_eq!(status_of(&app, &app.base_url, &bo, Method::GET, &read).await, refused, "{change}: this replica");
        loop {
            let status = status_of(&app, &second_gateway, &bo, Method::GET, &read).await;
            if status == refused {
                break;
            }
            assert_eq!(status, StatusCode::OK, "{change}: the other replica answers OK until it sees the change");
            assert!(
                changed.elapsed() < ACROSS_REPLICAS,
                "{change}: the other replica still answers after {:?}",
                changed.elapsed()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        println!("{change}: refused by the other replica after {:?}", changed.elapsed());
        // And it stays refused.
        for _ in 0..5 {
            assert_eq!(status_of(&app, &second_gateway, &bo, Method::GET, &read).await, refused, "{change}");
        }
    }
    stop_second.cancel();
}
