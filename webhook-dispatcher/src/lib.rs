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
use clap::Args;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tonic::metadata::MetadataValue;
use tonic::service::interceptor::InterceptedService;
use webhook_client::{Call, ClientSettings, Outcome, WebhookClient};

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
        Ok(request)
    }
}

/// Runs until `shutdown`, then finishes (and reports) the calls in flight.
pub async fn run(config: DispatcherConfig, shutdown: CancellationToken) -> anyhow::Result<()> {
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
    let poll = Duration::from_millis(config.poll_interval_ms.max(10));
    let mut backoff = poll;
    while !shutdown.is_cancelled() {
        while in_flight.try_join_next().is_some() {}
        let free = slots.available_permits();
        if free == 0 {
            tokio::select! {
                _ = in_flight.join_next() => {}
                _ = shutdown.cancelled() => break,
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
                        let (client, grpc) = (client.clone(), grpc.clone());
                        in_flight.spawn(async move {
                            deliver(&client, grpc, delivery).await;
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
                _ = shutdown.cancelled() => break,
            }
        }
    }
    // Calls in flight end within the client's time-out; their reports follow.
    while in_flight.join_next().await.is_some() {}
    tracing::info!("webhook-dispatcher stopped");
    Ok(())
}

/// Sends one delivery and reports the outcome, retrying the report a few
/// times; if it still fails the lease lapses and the delivery is sent again.
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
