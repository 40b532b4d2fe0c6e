//! `maxDeliveriesPerSecond`: a webhook whose receiver takes at most so many calls a second gets
//! them at that pace (a burst of one second's calls, then the rate; core-service
//! `storage/webhooks/pace.rs`), the definition's rule is refused by name, and the limit is kept,
//! shown and removed like any other property.

use std::time::Duration;

use canvas_tests::webhooks::{Answer, WebhookEnv};
use canvas_tests::{backend_tests, Backend};
use futures::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, record};

backend_tests!(
    a_paced_webhook_is_called_at_its_pace,
    two_dispatchers_draw_from_one_pace,
    the_pace_is_a_property_with_its_rule
);

const WAIT: Duration = Duration::from_secs(30);

async fn a_paced_webhook_is_called_at_its_pace(backend: Backend) {
    paced(WebhookEnv::spawn(backend).await).await;
}

/// A second dispatcher replica beside the environment's: both lease from the one webhook row, so
/// they share its bucket (the pace is per webhook, not per dispatcher).
async fn two_dispatchers_draw_from_one_pace(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let second = env.another_dispatcher();
    paced(env).await;
    second.cancel();
}

async fn paced(env: WebhookEnv) {
    let (owner, project) = owner_with_project(&env.app).await;
    let paced = json!({"url": env.receiver.url, "events": ["item.created"], "maxDeliveriesPerSecond": 4});
    let hook = create_hook(&env, &owner, &project, paced).await;
    // The receiver first asks for a 4 s pause, during which eleven more events are written, so
    // twelve deliveries are due at once when it ends (however long the writes took): then four
    // calls at once (the bucket's second) and four a second after them.
    env.receiver.script([Answer::RetryAfter(429, 4)]);
    create_label(&env.app, &owner, &project, json!({"text": "n0"})).await;
    let paused = env.receiver.wait_for(1, WAIT).await[0].at;
    // The 429 is reported just after the call: the events go in once the pause is recorded.
    for _ in 0..100 {
        if record(&env, &owner, &project, &hook).await["status"]["slowDownUntil"].is_string() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    join_all((1..12).map(|n| create_label(&env.app, &owner, &project, json!({"text": format!("n{n}")})))).await;
    assert!(paused.elapsed() < Duration::from_secs(4), "the writes outlasted the pause; the test proves nothing");
    let calls = env.receiver.wait_for(13, WAIT).await;
    let calls = &calls[1..];
    assert!(calls[0].at - paused >= Duration::from_millis(3900), "nothing before the pause ended");
    let spread = calls[11].at - calls[0].at;
    assert!(spread >= Duration::from_millis(1800), "12 calls at 4 a second took only {spread:?}");
    for (i, first) in calls.iter().enumerate() {
        let within = calls[i..].iter().take_while(|c| c.at - first.at < Duration::from_secs(1)).count();
        assert!(within <= 8, "{within} calls within a second of call {i}: more than a burst and a second's pace");
    }
    let mut texts: Vec<String> =
        calls.iter().map(|c| c.json()["changes"][0]["new"]["text"].as_str().unwrap().to_owned()).collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), 12, "every event once: {texts:?}");
}

async fn the_pace_is_a_property_with_its_rule(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    for refused in [json!(0), json!(1001), json!(2.5), json!("5"), json!(-1)] {
        let definition =
            json!({"url": env.receiver.url, "events": ["item.created"], "maxDeliveriesPerSecond": refused});
        let reply = send(
            &env.app,
            Method::POST,
            &env.url(&project, "?jsonCasing=camel"),
            Some(&owner.bearer()),
            Some(definition),
        )
        .await;
        assert_eq!(reply.status, StatusCode::BAD_REQUEST, "{refused}: {}", reply.body);
        assert_eq!(reply.content_type, "application/problem+json", "{refused}");
        assert_eq!(reply.body["reason"], "VALIDATION_FAILED", "{refused}: {}", reply.body);
        let errors = reply.body["errors"].as_array().unwrap();
        assert_eq!(errors.len(), 1, "{refused}: only the pace is wrong: {}", reply.body);
        assert_eq!(errors[0]["field"], "maxDeliveriesPerSecond", "{refused}: {}", reply.body);
        let message = errors[0]["message"].as_str().unwrap();
        assert!(message.contains("1 to 1000"), "{refused}: the rule is named: {message}");
    }
    let listed =
        send(&env.app, Method::GET, &env.url(&project, "?jsonCasing=camel"), Some(&owner.bearer()), None).await;
    assert_eq!(listed.body["elements"], json!([]), "a refused definition writes nothing");
    let hook = create_hook(
        &env,
        &owner,
        &project,
        json!({"url": env.receiver.url, "events": ["item.created"], "maxDeliveriesPerSecond": 1000}),
    )
    .await;
    assert_eq!(record(&env, &owner, &project, &hook).await["maxDeliveriesPerSecond"], 1000);
    // A PUT is the whole definition: without the property, the limit is gone.
    let put = send(
        &env.app,
        Method::PUT,
        &env.url(&project, &format!("/{hook}?jsonCasing=camel")),
        Some(&owner.bearer()),
        Some(json!({"url": env.receiver.url, "events": ["item.created"]})),
    )
    .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    assert_eq!(put.body.get("maxDeliveriesPerSecond"), None, "{}", put.body);
    // A record read back can be PUT back as it is, the limit with it.
    let mut again = record(&env, &owner, &project, &hook).await;
    again["maxDeliveriesPerSecond"] = json!(2);
    let put = send(
        &env.app,
        Method::PUT,
        &env.url(&project, &format!("/{hook}?jsonCasing=camel")),
        Some(&owner.bearer()),
        Some(again),
    )
    .await;
    assert_eq!(put.status, StatusCode::OK, "{}", put.body);
    assert_eq!(put.body["maxDeliveriesPerSecond"], 2);
    assert_eq!(record(&env, &owner, &project, &hook).await["maxDeliveriesPerSecond"], Value::from(2));
}
