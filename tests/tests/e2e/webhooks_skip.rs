//! Leases beside a slow webhook's backlog: with the slow webhook skipped (its destination busy),
//! leases take every other webhook's deliveries, each once, past the slow one's older waiting
//! deliveries; a delivery handed back is leased again at once; and the slow webhook's own are
//! leased, each once, as soon as it is no longer skipped. Driven through the dispatcher's gRPC
//! service itself, so each lease is seen.

use std::collections::HashSet;

use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_dispatch_service_client::WebhookDispatchServiceClient;
use canvas_tests::webhooks::{Receiver, WebhookEnv};
use canvas_tests::{backend_tests, Backend};
use serde_json::{json, Value};

use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::{create_hook, record};

backend_tests!(
    leases_pass_a_slow_webhooks_backlog_and_miss_nothing,
    a_limited_webhook_gets_at_most_its_allowance_oldest_first,
    a_batch_of_reports_leaves_each_webhook_status_as_one_by_one_would,
    a_report_repeated_or_under_another_lease_is_not_recorded_again_and_the_history_keeps_the_order
);

/// Labels written: each makes one delivery per webhook.
const WRITES: usize = 30;

type Core = WebhookDispatchServiceClient<tonic::transport::Channel>;

async fn lease(core: &mut Core, max: u32, skip: &[&str]) -> Vec<pb::LeasedDelivery> {
    lease_limited(core, max, skip, &[]).await
}

async fn lease_limited(core: &mut Core, max: u32, skip: &[&str], limited: &[(&str, u32)]) -> Vec<pb::LeasedDelivery> {
    let request = pb::LeaseDeliveriesRequest {
        dispatcher_id: "test".into(),
        max_deliveries: max,
        lease_secs: 60,
        skip_webhook_ids: skip.iter().map(|s| s.to_string()).collect(),
        limited_webhooks: limited
            .iter()
            .map(|(id, max)| pb::WebhookAllowance { webhook_id: id.to_string(), max_deliveries: *max })
            .collect(),
    };
    core.lease_deliveries(request).await.expect("lease").into_inner().deliveries
}

/// The label text a leased delivery is about.
fn text_of(delivery: &pb::LeasedDelivery) -> String {
    let body: serde_json::Value = serde_json::from_slice(&delivery.body).unwrap();
    body["changes"][0]["new"]["text"].as_str().unwrap_or_default().to_owned()
}

async fn leases_pass_a_slow_webhooks_backlog_and_miss_nothing(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let slow_receiver = Receiver::start(&env.ca).await;
    // The slow webhook is made first, so its deliveries come first in each write.
    let slow = create_hook(&env, &owner, &project, json!({"url": slow_receiver.url, "events": ["item.created"]})).await;
    let fast = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    for n in 0..WRITES {
        create_label(&env.app, &owner, &project, json!({"text": format!("w{n}")})).await;
    }
    let mut core = WebhookDispatchServiceClient::connect(env.app.grpc_url.clone()).await.expect("core");

    // The slow webhook skipped: only the fast one's deliveries, each once, in small leases.
    let mut fast_leased = Vec::new();
    loop {
        let got = lease(&mut core, 7, &[&slow]).await;
        assert!(got.iter().all(|d| d.webhook_id == fast), "a skipped webhook's delivery was leased");
        let done = got.len() < 7;
        fast_leased.extend(got);
        if done {
            break;
        }
    }
    let ids: HashSet<&str> = fast_leased.iter().map(|d| d.delivery_id.as_str()).collect();
    assert_eq!((fast_leased.len(), ids.len()), (WRITES, WRITES), "every fast delivery leased once");
    assert!(lease(&mut core, 7, &[&slow]).await.is_empty(), "nothing else is due but the slow webhook's");

    // Three handed back: they are older than the slow backlog's end, and leased again at once.
    let back: Vec<pb::DeliveryLease> = fast_leased[..3]
        .iter()
        .map(|d| pb::DeliveryLease { delivery_id: d.delivery_id.clone(), lease_token: d.lease_token.clone() })
        .collect();
    let released = core.release_deliveries(pb::ReleaseDeliveriesRequest { leases: back.clone() }).await.unwrap();
    assert_eq!(released.into_inner().released, 3);
    let again = lease(&mut core, 7, &[&slow]).await;
    let again_ids: HashSet<String> = again.iter().map(|d| d.delivery_id.clone()).collect();
    let back_ids: HashSet<String> = back.iter().map(|l| l.delivery_id.clone()).collect();
    assert_eq!(again_ids, back_ids, "the handed-back deliveries, and only they");

    // No longer skipped: the slow webhook's deliveries, all of them.
    let mut slow_leased = Vec::new();
    loop {
        let got = lease(&mut core, 8, &[]).await;
        let done = got.len() < 8;
        slow_leased.extend(got);
        if done {
            break;
        }
    }
    assert!(slow_leased.iter().all(|d| d.webhook_id == slow));
    let texts: Vec<String> = slow_leased
        .iter()
        .map(|d| {
            let body: serde_json::Value = serde_json::from_slice(&d.body).unwrap();
            body["changes"][0]["subject"]["id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(texts.iter().collect::<HashSet<_>>().len(), WRITES, "one per write");
}

async fn a_limited_webhook_gets_at_most_its_allowance_oldest_first(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let other_receiver = Receiver::start(&env.ca).await;
    let limited =
        create_hook(&env, &owner, &project, json!({"url": other_receiver.url, "events": ["item.created"]})).await;
    let free = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    for n in 0..10 {
        create_label(&env.app, &owner, &project, json!({"text": format!("w{n}")})).await;
    }
    let mut core = WebhookDispatchServiceClient::connect(env.app.grpc_url.clone()).await.expect("core");

    // Three of the limited webhook's, the oldest; every one of the other's.
    let got = lease_limited(&mut core, 50, &[], &[(&limited, 3)]).await;
    let of = |webhook: &str| got.iter().filter(|d| d.webhook_id == webhook).map(text_of).collect::<Vec<_>>();
    assert_eq!(of(&limited), ["w0", "w1", "w2"], "at most the allowance, oldest first");
    assert_eq!(of(&free).len(), 10, "the other webhook is not limited");

    // The lease's limit counts the limited ones too; an allowance of 0 is a skip.
    assert!(lease_limited(&mut core, 50, &[], &[(&limited, 0)]).await.is_empty());
    let got = lease_limited(&mut core, 2, &[], &[(&limited, 5)]).await;
    assert_eq!(got.iter().map(text_of).collect::<Vec<_>>(), ["w3", "w4"]);
    let got = lease_limited(&mut core, 50, &[&limited], &[]).await;
    assert!(got.is_empty(), "skipped, and nothing else is due");
    let got = lease_limited(&mut core, 50, &[], &[(&limited, 50)]).await;
    assert_eq!(got.iter().map(text_of).collect::<Vec<_>>(), ["w5", "w6", "w7", "w8", "w9"], "each once");

    // A webhook id that is not a UUID is refused, naming the field.
    let request = pb::LeaseDeliveriesRequest {
        max_deliveries: 5,
        limited_webhooks: vec![pb::WebhookAllowance { webhook_id: "nope".into(), max_deliveries: 1 }],
        ..Default::default()
    };
    let refused = core.lease_deliveries(request).await.expect_err("refused");
    assert_eq!(refused.code(), tonic::Code::InvalidArgument);
    assert!(refused.message().contains("limitedWebhooks[0].webhookId"), "{}", refused.message());
}

fn outcome(delivery: &pb::LeasedDelivery, status: i32) -> pb::ReportDeliveryRequest {
    let failed = status >= 400;
    pb::ReportDeliveryRequest {
        delivery_id: delivery.delivery_id.clone(),
        lease_token: delivery.lease_token.clone(),
        status_code: Some(status),
        duration_ms: 3,
        error: failed.then(|| format!("HTTP {status}")),
        retry_after_secs: None,
        attempt: delivery.attempt,
    }
}

async fn a_batch_of_reports_leaves_each_webhook_status_as_one_by_one_would(backend: Backend) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let other_receiver = Receiver::start(&env.ca).await;
    let steady =
        create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let flaky =
        create_hook(&env, &owner, &project, json!({"url": other_receiver.url, "events": ["item.created"]})).await;
    for n in 0..6 {
        create_label(&env.app, &owner, &project, json!({"text": format!("w{n}")})).await;
    }
    let mut core = WebhookDispatchServiceClient::connect(env.app.grpc_url.clone()).await.expect("core");
    let leased = lease(&mut core, 50, &[]).await;
    let of = |webhook: &str| {
        let mut mine: Vec<pb::LeasedDelivery> = leased.iter().filter(|d| d.webhook_id == webhook).cloned().collect();
        mine.sort_by_key(text_of);
        mine
    };
    let (steady_calls, flaky_calls) = (of(&steady), of(&flaky));
    assert_eq!((steady_calls.len(), flaky_calls.len()), (6, 6));

    // One batch, the two webhooks' outcomes interleaved: the steady one succeeds six times (the
    // last with 202); the flaky one fails, succeeds, then fails twice.
    let flaky_codes = [500, 200, 503, 500, 0, 0];
    let mut reports = Vec::new();
    for (n, (steady_call, flaky_call)) in steady_calls.iter().zip(&flaky_calls).enumerate() {
        reports.push(outcome(steady_call, if n == 5 { 202 } else { 200 }));
        if flaky_codes[n] != 0 {
            reports.push(outcome(flaky_call, flaky_codes[n]));
        }
    }
    let recorded = core.report_outcomes(pb::ReportOutcomesRequest { reports }).await.unwrap().into_inner();
    assert_eq!(recorded.recorded, 10);

    let steady_status = &record(&env, &owner, &project, &steady).await["status"];
    assert_eq!(steady_status["lastStatusCode"], 202, "the last outcome shows: {steady_status}");
    assert_eq!(steady_status["consecutiveFailures"], 0);
    assert!(steady_status["lastError"].is_null(), "{steady_status}");
    let flaky_status = &record(&env, &owner, &project, &flaky).await["status"];
    assert_eq!(flaky_status["consecutiveFailures"], 2, "two failures since its success: {flaky_status}");
    assert_eq!(flaky_status["lastStatusCode"], 500, "{flaky_status}");
    assert!(!flaky_status["lastSuccessAt"].is_null(), "{flaky_status}");
}

/// The batch of reports as storage records it in one statement per table (PostgreSQL) or one
/// outcome after the other (SQLite): a report sent twice counts once, a report naming another
/// lease changes nothing, and the attempts are listed newest first in the order reported. The
/// deliveries' ids are version 7 UUIDs of the time they were written (PostgreSQL makes them in SQL).
async fn a_report_repeated_or_under_another_lease_is_not_recorded_again_and_the_history_keeps_the_order(
    backend: Backend,
) {
    let env = WebhookEnv::spawn_parts(backend, |_| {}, false).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": ["item.created"]})).await;
    let before = std::time::SystemTime::now();
    for n in 0..4 {
        create_label(&env.app, &owner, &project, json!({"text": format!("w{n}")})).await;
    }
    let after = std::time::SystemTime::now();
    let mut core = WebhookDispatchServiceClient::connect(env.app.grpc_url.clone()).await.expect("core");
    let mut leased = lease(&mut core, 50, &[]).await;
    leased.sort_by_key(text_of);
    assert_eq!(leased.len(), 4);
    let millis = |at: std::time::SystemTime| at.duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    for delivery in &leased {
        let id = uuid::Uuid::parse_str(&delivery.delivery_id).expect("a UUID");
        assert_eq!(id.get_version_num(), 7, "{id}");
        assert_eq!(id.get_variant(), uuid::Variant::RFC4122, "{id}");
        let (seconds, nanos) = id.get_timestamp().expect("v7 has a time").to_unix();
        let at = seconds * 1000 + u64::from(nanos) / 1_000_000;
        assert!((millis(before)..=millis(after)).contains(&at), "{id} made at {at}, not while the labels were written");
    }
    let [a, b, c, d] = [&leased[0], &leased[1], &leased[2], &leased[3]];
    let mut under_another_lease = outcome(b, 200);
    under_another_lease.lease_token = uuid::Uuid::new_v4().to_string();
    let reports = vec![outcome(a, 200), outcome(a, 200), under_another_lease, outcome(c, 500), outcome(d, 201)];
    let recorded = core.report_outcomes(pb::ReportOutcomesRequest { reports }).await.unwrap().into_inner();
    assert_eq!(recorded.recorded, 3, "a once, c and d; b's report named another lease");

    let url = env.url(&project, &format!("/{hook}/deliveries?jsonCasing=camel&limit=100"));
    let listed = send(&env.app, reqwest::Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(listed.status, reqwest::StatusCode::OK, "{}", listed.body);
    let history: Vec<(String, Value)> = listed.body["elements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|attempt| (attempt["deliveryId"].as_str().unwrap().to_owned(), attempt["statusCode"].clone()))
        .collect();
    let expected =
        [(d.delivery_id.clone(), json!(201)), (c.delivery_id.clone(), json!(500)), (a.delivery_id.clone(), json!(200))];
    assert_eq!(history, expected, "newest first, each recorded once");

    // b is still leased (its report changed nothing), so no lease takes it; a and d are delivered;
    // only c comes back, once its retry is due (1 s in tests, so possibly already).
    let due: Vec<String> = lease(&mut core, 50, &[]).await.into_iter().map(|d| d.delivery_id).collect();
    assert!(due.iter().all(|id| *id == c.delivery_id), "only c may be due again: {due:?}");
    let recorded = core.report_outcomes(pb::ReportOutcomesRequest { reports: vec![outcome(b, 200)] }).await.unwrap();
    assert_eq!(recorded.into_inner().recorded, 1, "b under its own lease");
    let again = core.report_outcomes(pb::ReportOutcomesRequest { reports: vec![outcome(b, 200)] }).await.unwrap();
    assert_eq!(again.into_inner().recorded, 0, "b's lease is spent");
}
