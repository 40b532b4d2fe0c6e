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
use serde_json::json;

use crate::support::{create_label, owner_with_project};
use crate::webhooks_delivery::create_hook;

backend_tests!(leases_pass_a_slow_webhooks_backlog_and_miss_nothing);

/// Labels written: each makes one delivery per webhook.
const WRITES: usize = 30;

async fn lease(
    core: &mut WebhookDispatchServiceClient<tonic::transport::Channel>,
    max: u32,
    skip: &[&str],
) -> Vec<pb::LeasedDelivery> {
    let request = pb::LeaseDeliveriesRequest {
        dispatcher_id: "test".into(),
        max_deliveries: max,
        lease_secs: 60,
        skip_webhook_ids: skip.iter().map(|s| s.to_string()).collect(),
    };
    core.lease_deliveries(request).await.expect("lease").into_inner().deliveries
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
