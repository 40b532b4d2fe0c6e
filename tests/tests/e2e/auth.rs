//! 401, 403 and 404 exactly as the spec and the issue say.

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::support::{create_label, owner_with_project, send, Reply};

backend_tests!(
    unauthenticated_requests_get_401,
    foreign_environment_token_gets_401,
    access_is_checked_per_project,
    unknown_project_and_item_get_404
);

fn assert_problem(reply: &Reply, status: StatusCode) {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.content_type, "application/problem+json");
    assert_eq!(reply.body["Status"], json!(status.as_u16()));
    assert!(reply.body["Detail"].as_str().is_some_and(|d| !d.is_empty()));
}

async fn unauthenticated_requests_get_401(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "secret"})).await;
    let url = app.item_url(&project, &format!("/{id}"));

    let missing = send(&app, Method::GET, &url, None, None).await;
    assert_problem(&missing, StatusCode::UNAUTHORIZED);
    assert!(missing.body["Detail"].as_str().unwrap().contains("API token is required"));

    for bad in ["Bearer svc_tk_notarealtoken", "Bearer nonsense", "Basic dXNlcjpwYXNz", "Bearer", "svc_tk_x"] {
        let reply = send(&app, Method::GET, &url, Some(bad), None).await;
        assert_problem(&reply, StatusCode::UNAUTHORIZED);
    }
    // Both schemes work with a valid token; the scheme is case-insensitive.
    for scheme in ["Bearer", "bearer", "ServiceApiKey"] {
        let reply = send(&app, Method::GET, &url, Some(&format!("{scheme} {}", owner.token)), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{scheme}");
    }

    app.revoke(&owner).await;
    let revoked = send(&app, Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_problem(&revoked, StatusCode::UNAUTHORIZED);
    let revoked_write = send(
        &app,
        Method::POST,
        &app.item_url(&project, "/panel/label"),
        Some(&owner.bearer()),
        Some(json!({"text": "x"})),
    )
    .await;
    assert_problem(&revoked_write, StatusCode::UNAUTHORIZED);
}

async fn foreign_environment_token_gets_401(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let user = core_service::domain::UserId::parse(&owner.id).unwrap();
    for env in [core_service::domain::Environment::Production, core_service::domain::Environment::Staging] {
        let token = app.core.accounts().create_token(&app.admin, user, Some(env), "other env").await.unwrap();
        let reply = send(
            &app,
            Method::GET,
            &format!("{}/api/v2/projects/{project}/items", app.base_url),
            Some(&format!("Bearer {}", token.secret)),
            None,
        )
        .await;
        assert_problem(&reply, StatusCode::UNAUTHORIZED);
    }
    let ok = send(
        &app,
        Method::GET,
        &format!("{}/api/v2/projects/{project}/items", app.base_url),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(ok.status, StatusCode::OK);
}

async fn access_is_checked_per_project(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let id = create_label(&app, &owner, &project, json!({"text": "mine"})).await;
    let stranger = app.user("stranger").await;
    let viewer = app.user("viewer").await;
    let editor = app.user("editor").await;
    app.add_member(&project, &viewer, ProjectRole::Viewer).await;
    app.add_member(&project, &editor, ProjectRole::Editor).await;

    let get = app.item_url(&project, &format!("/{id}"));
    let prop = app.item_url(&project, &format!("/{id}/text"));
    let create = app.item_url(&project, "/panel/label");
    let patch = app.item_url(&project, &format!("/label/{id}"));
    let list = format!("{}/api/v2/projects/{project}/items", app.base_url);

    // A user without membership gets 403 on everything in the project.
    for (method, url, body) in [
        (Method::GET, &get, None),
        (Method::GET, &prop, None),
        (Method::GET, &list, None),
        (Method::POST, &create, Some(json!({"text": "x"}))),
        (Method::PATCH, &patch, Some(json!({"text": "x"}))),
        (Method::DELETE, &get, None),
    ] {
        let reply = send(&app, method.clone(), url, Some(&stranger.bearer()), body).await;
        assert_problem(&reply, StatusCode::FORBIDDEN);
    }

    // A Viewer reads but does not write.
    assert_eq!(send(&app, Method::GET, &get, Some(&viewer.bearer()), None).await.status, StatusCode::OK);
    assert_eq!(send(&app, Method::GET, &list, Some(&viewer.bearer()), None).await.status, StatusCode::OK);
    for (method, url, body) in [
        (Method::POST, &create, Some(json!({"text": "x"}))),
        (Method::PATCH, &patch, Some(json!({"text": "x"}))),
        (Method::DELETE, &get, None),
    ] {
        let reply = send(&app, method, url, Some(&viewer.bearer()), body).await;
        assert_problem(&reply, StatusCode::FORBIDDEN);
        assert!(reply.body["Detail"].as_str().unwrap().contains("Editor"), "{}", reply.body);
    }
    let unchanged = send(&app, Method::GET, &get, Some(&owner.bearer()), None).await;
    assert_eq!(unchanged.body["Text"], "mine");

    // An Editor writes.
    let edited = send(&app, Method::PATCH, &patch, Some(&editor.bearer()), Some(json!({"text": "edited"}))).await;
    assert_eq!(edited.status, StatusCode::OK);
    let made = send(&app, Method::POST, &create, Some(&editor.bearer()), Some(json!({"text": "new"}))).await;
    assert_eq!(made.status, StatusCode::OK);
}

async fn unknown_project_and_item_get_404(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let nobody = uuid::Uuid::new_v4();
    let auth = owner.bearer();
    let cases = [
        (Method::GET, app.item_url(&nobody.to_string(), &format!("/{nobody}"))),
        (Method::POST, app.item_url(&nobody.to_string(), "/panel/label")),
        (Method::GET, app.item_url(&project, &format!("/{nobody}"))),
        (Method::GET, app.item_url(&project, &format!("/{nobody}/text"))),
        (Method::PATCH, app.item_url(&project, &format!("/label/{nobody}"))),
        (Method::DELETE, app.item_url(&project, &format!("/{nobody}"))),
    ];
    for (method, url) in cases {
        let body = matches!(method, Method::POST | Method::PATCH).then(|| json!({"text": "x"}));
        let reply = send(&app, method, &url, Some(&auth), body).await;
        assert_problem(&reply, StatusCode::NOT_FOUND);
    }
    // An item of another project is not found through this one.
    let (other_owner, other_project) = owner_with_project(&app).await;
    let theirs = create_label(&app, &other_owner, &other_project, json!({"text": "theirs"})).await;
    app.add_member(&other_project, &owner, ProjectRole::Viewer).await;
    let cross = send(&app, Method::GET, &app.item_url(&project, &format!("/{theirs}")), Some(&auth), None).await;
    assert_problem(&cross, StatusCode::NOT_FOUND);

    let no_route = send(&app, Method::GET, &format!("{}/api/v2/nothing", app.base_url), Some(&auth), None).await;
    assert_problem(&no_route, StatusCode::NOT_FOUND);
}
