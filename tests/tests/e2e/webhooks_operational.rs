//! Operational events (docs/WEBHOOKS.md "Operational events"): a webhook that lists
//! `webhook.disabled` and `webhook.deliveryExhausted` is called when another webhook of the project
//! is disabled (here by a `410 Gone`) or gives a delivery up after every attempt. The calls are
//! signed like every other and validate against the published catalog; a given-up delivery of an
//! operational event raises nothing more (no loop); the change stream never shows them; and a
//! webhook that lists only the spec's kinds is unaffected.

use std::time::{Duration, Instant};

use canvas_tests::webhook_checks::{assert_calls_match_catalog, rust_verifies};
use canvas_tests::webhooks::{Answer, Receiver, WebhookEnv};
use canvas_tests::{backend_tests, Backend};
use core_service::domain::ProjectId;
use reqwest::Method;
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, jwks, record};

backend_tests!(
    disables_and_give_ups_call_the_operational_webhook_once_each_and_never_loop,
    a_webhook_of_the_spec_kinds_gets_no_operational_event_and_the_change_stream_shows_none
);

const OPERATIONAL: [&str; 2] = ["webhook.disabled", "webhook.deliveryExhausted"];

/// Waits until `done` holds for the webhook's record (`GET .../webhooks/{id}`), up to 30 s.
async fn wait_for_record(
    env: &WebhookEnv,
    user: &canvas_tests::TestUser,
    project: &str,
    id: &str,
    done: fn(&Value) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let record = record(env, user, project, id).await;
        if done(&record) {
            return;
        }
        assert!(Instant::now() < deadline, "{record}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn disables_and_give_ups_call_the_operational_webhook_once_each_and_never_loop(backend: Backend) {
    // Four attempts a second apart; failures in a row never disable (only a 410 does).
    let env = WebhookEnv::spawn_with(backend, |c| c.disable_failures = 1_000_000).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;

    let ops = Receiver::start(&env.ca).await;
    let ops_hook = create_hook(&env, &owner, &project, json!({"url": ops.url, "events": OPERATIONAL})).await;
    // A second operational receiver that is down: its own give-ups must raise nothing.
    let ops_down = Receiver::start(&env.ca).await;
    ops_down.set_down(true);
    let ops_down_hook = create_hook(&env, &owner, &project, json!({"url": ops_down.url, "events": OPERATIONAL})).await;
    let gone = Receiver::start(&env.ca).await;
    gone.script([Answer::Status(410)]);
    let gone_hook = create_hook(&env, &owner, &project, json!({"url": gone.url, "events": ["item.created"]})).await;
    env.receiver.set_down(true);
    let down_hook = create_hook(
        &env,
        &owner,
        &project,
        json!({"name": "Billing", "url": env.receiver.url, "events": ["item.created"], "customData": {"team": "ops"}}),
    )
    .await;

    let label = create_label(app, &owner, &project, json!({"text": "one"})).await;
    let project_id = ProjectId::parse(&project).unwrap();
    let map_events = app.core.stores().items.project_events(project_id, 0, 100).await.unwrap();
    assert_eq!(map_events.len(), 1, "only the label's creation is a change of the map");
    let created = &map_events[0];
    assert_eq!(created.subject_id.to_string(), label);

    // The 410 disables its webhook at once and gives its delivery up; the down receiver's delivery
    // is given up after its fourth attempt. Three operational events: one call each.
    let calls = ops.wait_for(3, Duration::from_secs(30)).await;
    let bodies: Vec<Value> = calls.iter().map(|c| c.json()).collect();
    let change = |kind: &str, hook: &str| -> &Value {
        bodies
            .iter()
            .map(|b| &b["changes"][0])
            .find(|c| c["kind"] == kind && c["subject"]["id"] == hook)
            .unwrap_or_else(|| panic!("no {kind} of {hook} in {bodies:#?}"))
    };
    let disabled = change("webhook.disabled", &gone_hook);
    assert_eq!(disabled["subject"]["type"], "webhook");
    assert_eq!(disabled["new"]["lastStatusCode"], 410, "{disabled}");
    assert!(disabled["new"]["reason"].as_str().unwrap().contains("410"), "{disabled}");
    assert_eq!(disabled["new"]["consecutiveFailures"], 1, "{disabled}");
    assert_eq!(disabled["new"]["name"], Value::Null, "the webhook has no name");
    assert!(disabled.get("actorUserId").is_none(), "the service raised it, nobody acted: {disabled}");

    let gave_up = change("webhook.deliveryExhausted", &down_hook);
    assert_eq!(gave_up["new"]["name"], "Billing");
    assert_eq!(gave_up["new"]["eventKind"], "item.created");
    assert_eq!(gave_up["new"]["eventId"], created.id.to_string());
    assert_eq!(gave_up["new"]["attempts"], 4, "{gave_up}");
    assert_eq!(gave_up["new"]["lastStatusCode"], 503, "{gave_up}");
    assert_eq!(gave_up["new"]["lastError"], "HTTP 503", "{gave_up}");
    let occurred = chrono::DateTime::parse_from_rfc3339(gave_up["new"]["eventOccurredAt"].as_str().unwrap()).unwrap();
    assert!((occurred.timestamp_millis() - created.occurred_at.timestamp_millis()).abs() <= 1, "{gave_up}");
    let gone_gave_up = change("webhook.deliveryExhausted", &gone_hook);
    assert_eq!(gone_gave_up["new"]["attempts"], 1, "{gone_gave_up}");
    for body in &bodies {
        assert_eq!(body["projectId"], project);
        assert_eq!(body["webhookId"], ops_hook, "addressed to the operational webhook");
        let text = body.to_string();
        assert!(!text.contains(&env.receiver.url) && !text.contains(&gone.url), "no webhook URL is sent: {text}");
        assert!(body.get("customData").is_none(), "the operational webhook has none of its own");
    }
    let keys = jwks(&env).await;
    assert!(calls.iter().all(|c| rust_verifies(&keys, c)), "signed with the project's keys, as every call");
    assert_calls_match_catalog(&app.http, &app.base_url, &calls).await;

    // The down operational receiver gives up its three deliveries (4 attempts each)…
    wait_for_record(&env, &owner, &project, &ops_down_hook, |r| r["status"]["consecutiveFailures"] == 12).await;
    // …and the report that gave the last one up has committed; none of the three raised anything.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = ops.calls();
    assert_eq!(
        after.len(),
        3,
        "a given-up operational delivery raises nothing: {:#?}",
        after.iter().map(|c| c.json()).collect::<Vec<_>>()
    );
    assert_eq!(ops_down.calls().len(), 12, "each of its three deliveries tried four times");

    // Enabled again, the disabled webhook is not disabled twice by the same failures: a new 410
    // disables it again, and that is a new event.
    let enable =
        send(app, Method::POST, &env.url(&project, &format!("/{gone_hook}/enable")), Some(&owner.bearer()), None).await;
    assert!(enable.status.is_success(), "{}", enable.body);
    gone.script([Answer::Status(410)]);
    create_label(app, &owner, &project, json!({"text": "two"})).await;
    let calls = ops.wait_for(5, Duration::from_secs(30)).await;
    let disables = calls.iter().filter(|c| c.json()["changes"][0]["kind"] == "webhook.disabled").count();
    assert_eq!(disables, 2, "one event per disable");
}

async fn a_webhook_of_the_spec_kinds_gets_no_operational_event_and_the_change_stream_shows_none(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let gone = Receiver::start(&env.ca).await;
    gone.script([Answer::Status(410)]);
    let gone_hook = create_hook(&env, &owner, &project, json!({"url": gone.url, "events": ["item.created"]})).await;
    let every_spec_kind =
        json!(["item.created", "item.updated", "item.deleted", "user.added", "user.roleChanged", "user.removed"]);
    create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": every_spec_kind})).await;
    create_label(app, &owner, &project, json!({"text": "one"})).await;
    wait_for_record(&env, &owner, &project, &gone_hook, |r| r["status"]["disabledAt"].is_string()).await;
    // An event after the operational ones: the stream, in seq order, has passed them when it shows it.
    let last = create_label(app, &owner, &project, json!({"text": "two"})).await;

    let calls = env.receiver.wait_for(2, Duration::from_secs(30)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let kinds: Vec<Value> = env.receiver.calls().iter().map(|c| c.json()["changes"][0]["kind"].clone()).collect();
    assert_eq!(kinds, [json!("item.created"), json!("item.created")], "{calls:?}");

    let url = format!("{}/api/v2/projects/{project}/changes?after=0", app.base_url);
    let mut response = app.http.get(url).header("Authorization", owner.bearer()).send().await.unwrap();
    let mut buffer = String::new();
    let mut streamed = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !streamed.iter().any(|c: &Value| c["itemId"] == last) {
        assert!(Instant::now() < deadline, "the stream showed {streamed:?}");
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk()).await.unwrap().unwrap().unwrap();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data:")) {
                if frame.lines().any(|l| l.trim_start_matches("event:").trim() == "change" && l.starts_with("event:")) {
                    streamed.push(serde_json::from_str(data.trim()).unwrap());
                }
            }
        }
    }
    let kinds: Vec<&str> = streamed.iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["item.created", "item.created"], "the map's changes only: {streamed:?}");
}
