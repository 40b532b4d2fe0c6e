//! webhook-dispatcher: leases due deliveries from core-service over gRPC,
//! sends each over HTTPS through the shared [`webhook_client`], and reports
//! the outcome back; core-service records it and schedules any retry.
//!
//! Runs as its own binary (`webhook-dispatcher`) or in-process
//! (`canvasctl up`, tests) through [`run`]. Any number may run at once:
//! a leased delivery is invisible to others until its lease expires, and a
//! dispatcher that dies mid-call simply lets the lease lapse, so the delivery
//! is sent again (at least once; receivers drop repeats by `Webhook-Id`).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use canvas_proto::channel::CoreChannel as Channel;
use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_dispatch_service_client::WebhookDispatchServiceClient;
use canvas_runtime::Shutdown;
use clap::Args;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tonic::metadata::MetadataValue;
use tonic::service::interceptor::InterceptedService;
use webhook_client::{Call, ClientSettings, Outcome, WebhookClient};

pub mod cli;
pub mod health;

/// Settings of one dispatcher.
#[derive(Debug, Clone, Args)]
pub struct DispatcherConfig {
    /// gRPC address of core-service, or several comma-separated (calls are balanced over them).
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    pub core_url: String,

    /// The secret core-service expects from dispatchers (CANVAS_DISPATCHER_SECRET there).
    #[arg(long = "dispatcher-secret", env = "CANVAS_DISPATCHER_SECRET", hide_env_values = true)]
    pub dispatcher_secret: Option<String>,

    /// Calls in flight at once.
    #[arg(long = "concurrency", env = "CANVAS_DISPATCHER_CONCURRENCY", default_value_t = 32)]
    pub concurrency: usize,

    /// Seconds a lease holds; must exceed the call time-out.
    #[arg(long = "lease-secs", env = "CANVAS_DISPATCHER_LEASE_SECS", default_value_t = 60)]
    pub lease_secs: u32,

    /// Milliseconds between polls while nothing is due.
    #[arg(long = "poll-interval-ms", env = "CANVAS_DISPATCHER_POLL_INTERVAL_MS", default_value_t = 100)]
    pub poll_interval_ms: u64,

    /// The HTTP client: time-out, allowed internal destinations, extra CAs.
    #[command(flatten)]
    pub client: ClientSettings,
}

impl DispatcherConfig {
    /// Defaults for an in-process dispatcher talking to `core_url`.
    pub fn new(core_url: impl Into<String>, client: ClientSettings) -> Self {
        Self {
            core_url: core_url.into(),
            dispatcher_secret: None,
            concurrency: 32,
            lease_secs: 60,
            poll_interval_ms: 100,
            client,
        }
    }
}

type Grpc = WebhookDispatchServiceClient<InterceptedService<Channel, Authorize>>;

/// Adds `authorization: Bearer <secret>` to every call when a secret is set.
#[derive(Clone)]
struct Authorize(Option<MetadataValue<tonic::metadata::Ascii>>);

impl tonic::service::Interceptor for Authorize {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(value) = &self.0 {
            request.metadata_mut().insert("authorization", value.clone());
        }
        // With trace export, a report continues the trace of its delivery's span.
        canvas_runtime::trace_context::inject_grpc(request.metadata_mut());
        Ok(request)
    }
}

/// Runs until `shutdown`, then finishes (and reports) the calls in flight within the grace
/// period; calls still running then are cut off and their leases handed back, so another
/// dispatcher sends them at once instead of after the lease.
pub async fn run(config: DispatcherConfig, shutdown: impl Into<Shutdown>) -> anyhow::Result<()> {
    let shutdown: Shutdown = shutdown.into();
    let stopping = shutdown.token.clone();
    let client = WebhookClient::new(&config.client).context("webhook HTTP client")?;
    let channel = canvas_proto::channel::core_channel(&config.core_url).map_err(|e| anyhow::anyhow!(e))?;
    let auth = match &config.dispatcher_secret {
        Some(secret) => Some(format!("Bearer {secret}").parse().context("the dispatcher secret is not valid text")?),
        None => None,
    };
    let grpc = WebhookDispatchServiceClient::with_interceptor(channel, Authorize(auth));
    let dispatcher_id = uuid::Uuid::new_v4().to_string();
    tracing::info!(core = %config.core_url, id = %dispatcher_id, concurrency = config.concurrency, "webhook-dispatcher running");

    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut in_flight = JoinSet::new();
    let leases = Leases::default();
    let poll = Duration::from_millis(config.poll_interval_ms.max(10));
    let mut backoff = poll;
    while !stopping.is_cancelled() {
        while in_flight.try_join_next().is_some() {}
        let free = slots.available_permits();
        if free == 0 {
            tokio::select! {
                _ = in_flight.join_next() => {}
                _ = stopping.cancelled() => break,
            }
            continue;
        }
        let request = pb::LeaseDeliveriesRequest {
            dispatcher_id: dispatcher_id.clone(),
            max_deliveries: free as u32,
            lease_secs: config.lease_secs,
        };
        let wait = match grpc.clone().lease_deliveries(request).await {
            Ok(reply) => {
                let deliveries = reply.into_inner().deliveries;
                backoff = poll;
                if deliveries.is_empty() {
                    poll
                } else {
                    for delivery in deliveries {
                        let permit = slots.clone().acquire_owned().await?;
                        let (client, grpc, leases) = (client.clone(), grpc.clone(), leases.clone());
                        leases.hold(&delivery);
                        in_flight.spawn(async move {
                            let id = delivery.delivery_id.clone();
                            deliver(&client, grpc, delivery).await;
                            leases.done(&id);
                            drop(permit);
                        });
                    }
                    Duration::ZERO
                }
            }
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "cannot lease deliveries; retrying");
                backoff = (backoff * 2).min(Duration::from_secs(5));
                backoff
            }
        };
        if !wait.is_zero() {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = stopping.cancelled() => break,
            }
        }
    }
    if !in_flight.is_empty() {
        tracing::info!(in_flight = in_flight.len(), "finishing the webhook calls in flight");
    }
    let drained =
        shutdown.finish_within("webhook deliveries", async { while in_flight.join_next().await.is_some() {} });
    if drained.await.is_none() {
        in_flight.abort_all();
        while in_flight.join_next().await.is_some() {}
        release(grpc, leases.take()).await;
    }
    tracing::info!("webhook-dispatcher stopped");
    Ok(())
}

/// Leases of the deliveries this dispatcher is sending, by delivery id.
#[derive(Clone, Default)]
struct Leases(Arc<std::sync::Mutex<std::collections::HashMap<String, String>>>);

impl Leases {
    fn hold(&self, delivery: &pb::LeasedDelivery) {
        self.0.lock().expect("lease map").insert(delivery.delivery_id.clone(), delivery.lease_token.clone());
    }

    fn done(&self, delivery_id: &str) {
        self.0.lock().expect("lease map").remove(delivery_id);
    }

    fn take(&self) -> Vec<pb::DeliveryLease> {
        let held = std::mem::take(&mut *self.0.lock().expect("lease map"));
        held.into_iter().map(|(delivery_id, lease_token)| pb::DeliveryLease { delivery_id, lease_token }).collect()
    }
}

/// Hands cut-off deliveries back to core-service; if that fails too, their leases lapse.
async fn release(mut grpc: Grpc, leases: Vec<pb::DeliveryLease>) {
    if leases.is_empty() {
        return;
    }
    let asked = leases.len();
    let call = grpc.release_deliveries(pb::ReleaseDeliveriesRequest { leases });
    match tokio::time::timeout(Duration::from_secs(5), call).await {
        Ok(Ok(reply)) => tracing::info!(asked, released = reply.into_inner().released, "released cut-off deliveries"),
        Ok(Err(status)) => {
            tracing::warn!(asked, message = status.message(), "could not release leases; they lapse instead")
        }
        Err(_) => tracing::warn!(asked, "releasing leases timed out; they lapse instead"),
    }
}

/// Sends one delivery and reports the outcome, retrying the report a few
/// times; if it still fails the lease lapses and the delivery is sent again.
#[tracing::instrument(name = "webhook_delivery", skip_all,
    fields(delivery = %delivery.delivery_id, attempt = delivery.attempt))]
async fn deliver(client: &WebhookClient, mut grpc: Grpc, delivery: pb::LeasedDelivery) {
    let call = Call {
        url: delivery.url,
        headers: delivery.headers.into_iter().map(|h| (h.name, h.value)).collect(),
        body: delivery.body,
    };
    let outcome: Outcome = client.send(&call).await;
    health::record_attempt(outcome.status_code, delivery.attempt, outcome.duration);
    tracing::debug!(delivery = %delivery.delivery_id, status = ?outcome.status_code, error = ?outcome.error, "attempt done");
    let report = pb::ReportDeliveryRequest {
        delivery_id: delivery.delivery_id.clone(),
        lease_token: delivery.lease_token,
        status_code: outcome.status_code.map(i32::from),
        duration_ms: outcome.duration.as_millis() as u64,
        error: outcome.error,
        retry_after_secs: outcome.retry_after.map(|d| d.as_secs()),
        attempt: delivery.attempt,
    };
    for pause_ms in [0u64, 200, 1000, 3000] {
        tokio::time::sleep(Duration::from_millis(pause_ms)).await;
        match grpc.report_delivery(report.clone()).await {
            Ok(_) => return,
            Err(status) => {
                tracing::warn!(delivery = %delivery.delivery_id, message = status.message(), "report failed")
            }
        }
    }
    tracing::error!(delivery = %delivery.delivery_id, "could not report; the delivery will be sent again after its lease");
}
