//! Recovering failed deliveries by time range (`POST .../webhooks/{webhookId}/recover`,
//! `GET .../recoveries/{recoveryId}`): a receiver down while 2,000 events happen gets every event of
//! the window once recovered, in the order they happened, none twice, nothing from outside the
//! window; a recovery of the same window again sends nothing; given-up deliveries are recovered as
//! failing ones are; the window's rules and the roles.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use canvas_tests::webhooks::{Received, WebhookEnv};
use canvas_tests::{backend_tests, Backend, TestUser};
use core_service::domain::{ProjectId, ProjectRole, UserId};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::bulk::bulk;
use crate::support::{assert_invalid, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, record};

backend_tests!(
    a_receiver_down_during_two_thousand_events_gets_the_window_once_in_order,
    given_up_deliveries_are_recovered_and_the_window_and_roles_are_checked,
    two_recoveries_of_one_window_at_once_send_each_event_once
);

const WAIT: Duration = Duration::from_secs(120);

/// `n` labels in bulk calls of at most 1,000.
async fn labels(env: &WebhookEnv, owner: &TestUser, project: &str, n: usize, tag: &str) {
    for start in (0..n).step_by(1000) {
        let batch: Vec<Value> = (start..n.min(start + 1000))
            .map(|i| json!({"type": "label", "properties": {"text": format!("{tag} {i}")}}))
            .collect();
        let reply = bulk(&env.app, owner, project, Value::Array(batch)).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
}

/// Waits until the webhook counted `failures` failed attempts in a row.
async fn wait_for_failures(env: &WebhookEnv, owner: &TestUser, project: &str, hook: &str, failures: u64) {
    let deadline = Instant::now() + WAIT;
    loop {
        let status = record(env, owner, project, hook).await["status"].clone();
        if status["consecutiveFailures"].as_u64() == Some(failures) {
            return;
        }
        assert!(Instant::now() < deadline, "{failures} failures expected: {status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn recover(
    env: &WebhookEnv,
    user: &TestUser,
    project: &str,
    hook: &str,
    window: Value,
) -> (StatusCode, Value, String) {
    let response = env
        .app
        .http
        .post(env.url(project, &format!("/{hook}/recover?jsonCasing=camel")))
        .header("Authorization", user.bearer())
        .json(&window)
        .send()
        .await
        .unwrap();
    let status = response.status();
    let location = response.headers().get("location").map(|l| l.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, response.json().await.unwrap(), location)
}

/// Follows a recovery until it is finished; returns its last state.
async fn finished(env: &WebhookEnv, user: &TestUser, location: &str) -> Value {
    let deadline = Instant::now() + WAIT;
    loop {
        let url = format!("{}{location}?jsonCasing=camel", env.app.base_url);
        let reply = send(&env.app, Method::GET, &url, Some(&user.bearer()), None).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        if reply.body["state"] == "finished" {
            return reply.body;
        }
        assert!(Instant::now() < deadline, "not finished in {WAIT:?}: {}", reply.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

fn change(call: &Received) -> Value {
    call.json()["changes"][0].clone()
}

async fn a_receiver_down_during_two_thousand_events_gets_the_window_once_in_order(backend: Backend) {
    // A failed attempt waits an hour for its retry: only the recovery can send these events now.
    let env = WebhookEnv::spawn_with(backend, |c| {
        c.retry_schedule = "1h".into();
        c.disable_failures = 1_000_000;
    })
    .await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    env.receiver.set_down(true);
    labels(&env, &owner, &project, 5, "before").await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let since = chrono::Utc::now();
    labels(&env, &owner, &project, 2000, "inside").await;
    let until = chrono::Utc::now();
    tokio::time::sleep(Duration::from_millis(20)).await;
    labels(&env, &owner, &project, 5, "after").await;
    wait_for_failures(&env, &owner, &project, &hook, 2010).await;
    let failed_ids: HashSet<String> = env.receiver.calls().iter().map(|c| c.header("webhook-id").to_owned()).collect();
    assert_eq!(failed_ids.len(), 2010);

    env.receiver.set_down(false);
    let up = Instant::now();
    let window = json!({"since": since.to_rfc3339(), "until": until.to_rfc3339()});
    let (status, started, location) = recover(&env, &owner, &project, &hook, window.clone()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{started}");
    assert_eq!(started["total"], 2000, "{started}");
    assert_eq!(
        location,
        format!("/api/v2/projects/{project}/webhooks/{hook}/recoveries/{}", started["recoveryId"].as_str().unwrap())
    );
    let done = finished(&env, &owner, &location).await;
    assert_eq!(
        (&done["total"], &done["delivered"], &done["failed"], &done["queued"], &done["sending"]),
        (&json!(2000), &json!(2000), &json!(0), &json!(0), &json!(0)),
        "{done}"
    );
    assert!(done["finishedAt"].is_string());

    // What the receiver got since it came back: each event of the window once, in the order they
    // happened (so one call at a time), under new delivery ids, and nothing from outside it.
    let calls: Vec<Received> = env.receiver.calls().into_iter().filter(|c| c.at >= up).collect();
    assert_eq!(calls.len(), 2000);
    let texts: Vec<String> = calls.iter().map(|c| change(c)["new"]["text"].as_str().unwrap().to_owned()).collect();
    assert!(texts.iter().all(|t| t.starts_with("inside ")), "only the window's events");
    let seqs: Vec<i64> = calls.iter().map(|c| change(c)["seq"].as_i64().unwrap()).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "in the order of the events, each once");
    let events: HashSet<String> = calls.iter().map(|c| change(c)["eventId"].as_str().unwrap().to_owned()).collect();
    assert_eq!(events.len(), 2000);
    assert!(calls.iter().all(|c| !failed_ids.contains(c.header("webhook-id"))), "new delivery ids");
    assert_eq!(texts[0], "inside 0");
    assert_eq!(texts[1999], "inside 1999");

    // The same window again: every event has been delivered, so nothing is sent twice.
    let (status, again, location) = recover(&env, &owner, &project, &hook, window).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!((&again["total"], &again["state"]), (&json!(0), &json!("finished")), "{again}");
    assert!(!location.is_empty());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(env.receiver.calls().len(), 2010 + 2000, "nothing more was sent");
}

async fn given_up_deliveries_are_recovered_and_the_window_and_roles_are_checked(backend: Backend) {
    // The test schedule: four attempts a second apart, then the delivery is given up.
    let env = WebhookEnv::spawn_with(backend, |c| c.disable_failures = 1_000_000).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    env.receiver.set_down(true);
    let since = chrono::Utc::now();
    labels(&env, &owner, &project, 3, "lost").await;
    wait_for_failures(&env, &owner, &project, &hook, 12).await;
    // Every attempt was made and reported: the deliveries are given up.
    let history = send(
        &env.app,
        Method::GET,
        &env.url(&project, &format!("/{hook}/deliveries?jsonCasing=camel&limit=100")),
        Some(&owner.bearer()),
        None,
    )
    .await;
    assert_eq!(history.body["elements"].as_array().unwrap().len(), 12, "{}", history.body);
    env.receiver.set_down(false);
    let up = Instant::now();
    let (status, started, location) =
        recover(&env, &owner, &project, &hook, json!({"since": since.to_rfc3339()})).await;
    assert_eq!((status, &started["total"]), (StatusCode::ACCEPTED, &json!(3)), "{started}");
    let done = finished(&env, &owner, &location).await;
    assert_eq!(done["delivered"], 3, "{done}");
    let texts: Vec<String> = env
        .receiver
        .calls()
        .iter()
        .filter(|c| c.at >= up)
        .map(|c| change(c)["new"]["text"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(texts, ["lost 0", "lost 1", "lost 2"]);

    // The window's rules: a 400 naming the field.
    let now = chrono::Utc::now();
    for (window, field) in [
        (json!({}), "since"),
        (json!({"since": ""}), "since"),
        (json!({"since": "yesterday"}), "since"),
        (json!({"since": "2026-12-06T10:00:00"}), "since"),
        (json!({"since": (now + chrono::Duration::hours(1)).to_rfc3339()}), "since"),
        (json!({"since": now.to_rfc3339(), "until": (now - chrono::Duration::hours(1)).to_rfc3339()}), "until"),
        (json!({"since": now.to_rfc3339(), "until": 5}), "until"),
        (json!({"since": now.to_rfc3339(), "everything": true}), "everything"),
    ] {
        let url = env.url(&project, &format!("/{hook}/recover"));
        let reply = send(&env.app, Method::POST, &url, Some(&owner.bearer()), Some(window.clone())).await;
        assert_invalid(&reply, field);
    }
    // Managers and Admins only; an unknown webhook or recovery is a 404.
    let project_id = ProjectId::parse(&project).unwrap();
    for (name, role) in [("viewer", ProjectRole::Viewer), ("editor", ProjectRole::Editor)] {
        let user = env.app.user(name).await;
        let user_id = UserId::parse(&user.id).unwrap();
        env.app.core.accounts().add_member(&env.app.admin, project_id, user_id, role).await.unwrap();
        let (status, body, _) = recover(&env, &user, &project, &hook, json!({"since": since.to_rfc3339()})).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{name}: {body}");
        let url = format!("{}{location}", env.app.base_url);
        assert_eq!(send(&env.app, Method::GET, &url, Some(&user.bearer()), None).await.status, StatusCode::FORBIDDEN);
    }
    let unknown = uuid::Uuid::now_v7();
    let (status, _, _) =
        recover(&env, &owner, &project, &unknown.to_string(), json!({"since": since.to_rfc3339()})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let url = env.url(&project, &format!("/{hook}/recoveries/{unknown}"));
    assert_eq!(send(&env.app, Method::GET, &url, Some(&owner.bearer()), None).await.status, StatusCode::NOT_FOUND);
    let url = env.url(&project, &format!("/{hook}/recoveries/not-an-id"));
    assert_eq!(send(&env.app, Method::GET, &url, Some(&owner.bearer()), None).await.status, StatusCode::NOT_FOUND);

    // With an `Idempotency-Key`, a retry answers the first request's recovery, marked as replayed;
    // the same key with another window is refused.
    let keyed = |window: Value| {
        env.app
            .http
            .post(env.url(&project, &format!("/{hook}/recover?jsonCasing=camel")))
            .header("Authorization", owner.bearer())
            .header("Idempotency-Key", "recover-once-1")
            .json(&window)
            .send()
    };
    let window = json!({"since": since.to_rfc3339()});
    let first = keyed(window.clone()).await.unwrap();
    assert_eq!(first.status(), StatusCode::ACCEPTED);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let first: Value = first.json().await.unwrap();
    let again = keyed(window).await.unwrap();
    assert_eq!(again.status(), StatusCode::ACCEPTED);
    assert_eq!(again.headers().get("idempotent-replayed").map(|v| v.to_str().unwrap()), Some("true"));
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["recoveryId"], first["recoveryId"], "one recovery for both: {first} {again}");
    let other = keyed(json!({"since": (since - chrono::Duration::minutes(1)).to_rfc3339()})).await.unwrap();
    assert_eq!(other.status(), StatusCode::UNPROCESSABLE_ENTITY, "{}", other.text().await.unwrap());
}

async fn two_recoveries_of_one_window_at_once_send_each_event_once(backend: Backend) {
    let env = WebhookEnv::spawn_with(backend, |c| {
        c.retry_schedule = "1h".into();
        c.disable_failures = 1_000_000;
    })
    .await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    env.receiver.set_down(true);
    let since = chrono::Utc::now();
    labels(&env, &owner, &project, 200, "twice").await;
    wait_for_failures(&env, &owner, &project, &hook, 200).await;
    env.receiver.set_down(false);
    let up = Instant::now();
    let window = json!({"since": since.to_rfc3339()});
    let (first, second) = tokio::join!(
        recover(&env, &owner, &project, &hook, window.clone()),
        recover(&env, &owner, &project, &hook, window.clone())
    );
    assert_eq!((first.0, second.0), (StatusCode::ACCEPTED, StatusCode::ACCEPTED), "{} {}", first.1, second.1);
    let totals = first.1["total"].as_u64().unwrap() + second.1["total"].as_u64().unwrap();
    assert_eq!(totals, 200, "the two recoveries share the events: {} and {}", first.1, second.1);
    for (_, _, location) in [&first, &second] {
        let done = finished(&env, &owner, location).await;
        assert_eq!(done["delivered"], done["total"], "{done}");
    }
    let calls: Vec<Received> = env.receiver.calls().into_iter().filter(|c| c.at >= up).collect();
    let events: HashSet<String> = calls.iter().map(|c| change(c)["eventId"].as_str().unwrap().to_owned()).collect();
    assert_eq!((calls.len(), events.len()), (200, 200), "each event once");
}
