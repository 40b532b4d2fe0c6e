//! A receiver that answers 429 Too Many Requests with `Retry-After` is asking to be called more
//! slowly (core-service `webhooks/retry.rs`): its webhook gets no call before then, and the answer
//! is neither a counted attempt nor a failure in a row, for as long as the retry schedule lasts
//! from the delivery's creation; after that a 429 is an ordinary failure, so a receiver that only
//! ever answers 429 cannot hold a delivery for ever. The test schedule is 1 s, 1 s, 1 s: four
//! attempts, disabled after 3 failures in a row over at least 1 s.

use std::time::Duration;

use canvas_tests::webhooks::{Answer, WebhookEnv};
use canvas_tests::{backend_tests, Backend, TestUser};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, record};

backend_tests!(
    a_429_with_retry_after_slows_the_webhook_down_and_is_not_a_failure,
    a_receiver_answering_only_429_is_disabled_once_the_schedule_has_passed
);

const WAIT: Duration = Duration::from_secs(30);

/// The webhook's attempts, newest first, as `(attempt, status)`.
async fn attempts(env: &WebhookEnv, owner: &TestUser, project: &str, hook: &str) -> Vec<(u64, Value)> {
    let url = env.url(project, &format!("/{hook}/deliveries?jsonCasing=camel"));
    let listed = send(&env.app, Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(listed.status, StatusCode::OK, "{}", listed.body);
    listed.body["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["attempt"].as_u64().unwrap(), a["statusCode"].clone()))
        .collect()
}

/// The webhook's status once `done` holds for it (reports arrive just after the calls).
async fn status_once(
    env: &WebhookEnv,
    owner: &TestUser,
    project: &str,
    hook: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let mut status = Value::Null;
    for _ in 0..100 {
        status = record(env, owner, project, hook).await["status"].clone();
        if done(&status) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    status
}

async fn a_429_with_retry_after_slows_the_webhook_down_and_is_not_a_failure(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;

    // Three 429s, a second apart (within the schedule's 3.6 s): counted, they would be three
    // failures in a row over more than 1 s, which disables the webhook before a fourth call.
    env.receiver.script([Answer::RetryAfter(429, 1); 3]);
    create_label(&env.app, &owner, &project, json!({"text": "patience"})).await;
    let calls = env.receiver.wait_for(4, WAIT).await;
    let ids: Vec<&str> = calls.iter().map(|c| c.header("webhook-id")).collect();
    assert!(ids.iter().all(|id| *id == ids[0]), "one delivery, called until it succeeds: {ids:?}");
    for pair in calls.windows(2) {
        let gap = pair[1].at - pair[0].at;
        assert!(gap >= Duration::from_millis(950), "Retry-After: 1 was not waited for: {gap:?}");
    }
    let status = status_once(&env, &owner, &project, &hook, |s| s["lastStatusCode"] == 200).await;
    assert_eq!(status["lastStatusCode"], 200, "{status}");
    assert_eq!(status["consecutiveFailures"], 0, "a slow-down is no failure: {status}");
    assert_eq!(status["disabledAt"], Value::Null, "{status}");
    // Every call is in the history; none used up an attempt.
    let history = attempts(&env, &owner, &project, &hook).await;
    let mut expected = vec![(1, json!(200))];
    expected.extend(std::iter::repeat_n((1, json!(429)), 3));
    assert_eq!(history, expected, "newest first");

    // While slowed down, the webhook gets no call at all, for any delivery: a second event's
    // delivery waits for the time the receiver named.
    env.receiver.script([Answer::RetryAfter(429, 2)]);
    create_label(&env.app, &owner, &project, json!({"text": "first"})).await;
    let asked = env.receiver.wait_for(5, WAIT).await[4].at;
    let status = status_once(&env, &owner, &project, &hook, |s| s["lastStatusCode"] == 429).await;
    let until = status["slowDownUntil"].as_str().unwrap_or_else(|| panic!("the slow-down is shown: {status}"));
    let until = chrono::DateTime::parse_from_rfc3339(until).unwrap();
    let ahead = until.signed_duration_since(chrono::Utc::now()).num_milliseconds();
    assert!((0..=2100).contains(&ahead), "slowDownUntil {until} is the time asked for, {ahead} ms ahead");
    assert_eq!(status["consecutiveFailures"], 0, "{status}");
    create_label(&env.app, &owner, &project, json!({"text": "second"})).await;
    let calls = env.receiver.wait_for(7, WAIT).await;
    let next = calls[5].at - asked;
    assert!(next >= Duration::from_millis(1900), "a call {next:?} after Retry-After: 2");
    let texts: Vec<Value> = calls[5..].iter().map(|c| c.json()["changes"][0]["new"]["text"].clone()).collect();
    assert!(texts.contains(&json!("first")) && texts.contains(&json!("second")), "{texts:?}");
    let status = status_once(&env, &owner, &project, &hook, |s| s["lastStatusCode"] == 200).await;
    assert_eq!(status["slowDownUntil"], Value::Null, "a slow-down that has passed is not shown: {status}");
}

async fn a_receiver_answering_only_429_is_disabled_once_the_schedule_has_passed(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    env.receiver.script([Answer::RetryAfter(429, 1); 40]);
    create_label(&env.app, &owner, &project, json!({"text": "never"})).await;
    // The schedule lasts at most 3.6 s (1 s × 3 + 20 %): 429s after that count as failed attempts,
    // and the third in a row (over more than 1 s) disables the webhook.
    let status = status_once(&env, &owner, &project, &hook, |s| s["disabledAt"].is_string()).await;
    assert!(status["disabledAt"].is_string(), "{status}");
    assert_eq!(status["lastStatusCode"], 429, "{status}");
    let history = attempts(&env, &owner, &project, &hook).await;
    let counted: Vec<u64> = history.iter().map(|(attempt, _)| *attempt).filter(|a| *a > 1).collect();
    assert_eq!(counted, [3, 2], "counted attempts after the schedule's span: {history:?}");
    assert!((5..=12).contains(&history.len()), "slowed calls, then three counted ones: {history:?}");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let calls = env.receiver.calls().len();
    assert_eq!(calls, history.len(), "nothing is called after the delivery ended");
}
