//! Following a person on the live map (docs/MAP.md "Following a person"): each announcement
//! carries the part of the map the client shows (`viewport`), which followers of the project's
//! presence receive; `summon: true` ("bring everyone here") reaches those following at that moment
//! once and is never part of the state a later follower is sent; bad viewports are a 400 naming the
//! field. On PostgreSQL every announcement crosses `NOTIFY` even with one replica, so both fields
//! are checked through it there. The browser side is `tests/browser/editor_test.mjs` ("follow",
//! "bring everyone here").

use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::presence::{announce, Follower};
use crate::support::assert_invalid;

backend_tests!(a_viewport_reaches_followers_and_a_summons_only_those_following_then, viewports_are_checked_by_field);

const WITHIN: Duration = Duration::from_secs(1);

async fn a_viewport_reaches_followers_and_a_summons_only_those_following_then(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let bo = app.user("Bo").await;
    app.add_member(&project, &bo, ProjectRole::Viewer).await;
    let mut bo_follows = Follower::open(&app, &app.base_url, &bo, &project).await;

    let view = json!({"x": -120.5, "y": 40.0, "width": 1280.0, "height": 720.25});
    let reply = announce(&app, &app.base_url, &ada, &project, json!({"clientId": "ada-1", "viewport": view})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
    let (kind, data) = bo_follows.next(WITHIN).await.expect("the announcement arrives");
    assert_eq!(kind, "presence");
    assert_eq!(data["viewport"], view);
    assert_eq!(data["summons"], false);

    // Ada brings everyone here: Bo, following now, is told once.
    let there = json!({"x": 5000.0, "y": -300.0, "width": 640.0, "height": 360.0});
    let body = json!({"clientId": "ada-1", "viewport": there, "summon": true});
    let reply = announce(&app, &app.base_url, &ada, &project, body).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
    let (_, data) = bo_follows.next(WITHIN).await.expect("the summons arrives");
    assert_eq!((&data["summons"], &data["viewport"], &data["clientId"]), (&json!(true), &there, &json!("ada-1")));

    // Someone who opens the map afterwards gets Ada's state: her view, and no summons.
    let mut late = Follower::open(&app, &app.base_url, &ada, &project).await;
    let (_, data) = late.next(WITHIN).await.expect("the present client");
    assert_eq!((&data["summons"], &data["viewport"]), (&json!(false), &there));
    assert!(late.next(Duration::from_millis(300)).await.is_none(), "nothing more");

    // The next ordinary announcement is no summons either; a client that never says its view has none.
    let reply = announce(&app, &app.base_url, &ada, &project, json!({"clientId": "ada-1", "viewport": there})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    for follower in [&mut bo_follows, &mut late] {
        let (_, data) = follower.next(WITHIN).await.expect("the announcement arrives");
        assert_eq!((&data["summons"], &data["viewport"]), (&json!(false), &there));
    }
    let reply = announce(&app, &app.base_url, &bo, &project, json!({"clientId": "bo-1"})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    let (_, data): (String, Value) = late.next(WITHIN).await.expect("Bo's announcement");
    assert_eq!((&data["clientId"], &data["viewport"]), (&json!("bo-1"), &Value::Null));
}

async fn viewports_are_checked_by_field(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let view = |patch: Value| {
        let mut v = json!({"x": 0, "y": 0, "width": 100, "height": 100});
        for (k, value) in patch.as_object().unwrap() {
            v[k] = value.clone();
        }
        json!({"clientId": "c1", "viewport": v})
    };
    let cases = [
        (view(json!({"width": 0})), "viewport.width"),
        (view(json!({"width": -5})), "viewport.width"),
        (view(json!({"height": 1e8})), "viewport.height"),
        (view(json!({"x": "left"})), "viewport.x"),
        (json!({"clientId": "c1", "viewport": {"x": 0, "y": 0, "width": 10}}), "viewport.height"),
        (json!({"clientId": "c1", "summon": true}), "summon"),
        (json!({"clientId": "c1", "summon": "yes"}), "summon"),
    ];
    for (body, field) in cases {
        let reply = announce(&app, &app.base_url, &ada, &project, body.clone()).await;
        assert_invalid(&reply, field);
    }
    // The bounds themselves are accepted.
    let edge = view(json!({"x": -1e9, "y": 1e9, "width": 1e7, "height": 0.01}));
    let reply = announce(&app, &app.base_url, &ada, &project, edge).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
}
