//! webhook-dispatcher: leases due deliveries from core-service over gRPC,
//! sends each over HTTPS through the shared [`webhook_client`], and reports
//! the outcomes back in batches; core-service records them and schedules any retry.
//!
//! Runs as its own binary (`webhook-dispatcher`) or in-process
//! (`canvasctl up`, tests) through [`run`]. Any number may run at once:
//! a leased delivery is invisible to others until its lease expires, and a
//! dispatcher that dies mid-call (or before its report was recorded) simply lets
//! the lease lapse, so the delivery is sent again (at least once; receivers drop
//! repeats by `Webhook-Id`).
//!
//! - [`wake`]: core-service's `WatchDue` stream wakes the lease loop when deliveries are enqueued;
//!   the poll remains for retries coming due and for when the stream is down.
//! - [`destinations`]: at most `--per-destination` calls in flight to one destination.
//! - [`reports`]: outcomes buffered and recorded in batches.

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use canvas_proto::channel::CoreChannel as Channel;
use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_dispatch_service_client::WebhookDispatchServiceClient;
use canvas_runtime::Shutdown;
use clap::Args;
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tokio::task::JoinSet;
use tonic::metadata::MetadataValue;
use tonic::service::interceptor::InterceptedService;
use webhook_client::{Call, ClientSettings, Outcome, WebhookClient};

pub mod cli;
pub mod destinations;
pub mod health;
mod reports;
mod rounds;
mod wake;

use destinations::{Destinations, Turn, Waiting};
use reports::Reporter;

/// Most deliveries one lease returns (core-service's limit).
const MAX_LEASE: usize = canvas_proto::limits::MAX_LEASE_BATCH as usize;
/// Under load a lease starts at most this long after the one before it, so one lease carries the
/// deliveries of several writes: each lease is a write transaction (on SQLite through the one
/// writer the item writes use too). It adds at most this much to a delivery's latency.
const LEASE_GAP: Duration = Duration::from_millis(5);

/// Settings of one dispatcher.
#[derive(Debug, Clone, Args)]
pub struct DispatcherConfig {
    /// gRPC address of core-service, several comma-separated, or `dns:///host:port` (every
    /// address the name resolves to, resolved again every 5 s): calls are balanced over them.
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    pub core_url: String,

    /// The secret core-service expects from dispatchers (CANVAS_DISPATCHER_SECRET there).
    #[arg(long = "dispatcher-secret", env = "CANVAS_DISPATCHER_SECRET", hide_env_values = true)]
    pub dispatcher_secret: Option<String>,

    /// Calls in flight at once. Four times `--per-destination`: three receivers that stopped
    /// answering still leave the others a quarter (an in-flight call costs a socket and a task).
    #[arg(long = "concurrency", env = "CANVAS_DISPATCHER_CONCURRENCY", default_value_t = DEFAULT_CONCURRENCY)]
    pub concurrency: usize,

    /// Calls in flight at once to one destination (scheme, host, port); a slow receiver holds no
    /// more. High enough that a healthy receiver is not held back (a call of 40 ms at 1,500
    /// deliveries a second is 60 in flight), low enough that a dead one cannot take every slot.
    #[arg(long = "per-destination", env = "CANVAS_DISPATCHER_PER_DESTINATION", default_value_t = DEFAULT_PER_DESTINATION)]
    pub per_destination: usize,

    /// Seconds a lease holds; must exceed the call time-out.
    #[arg(long = "lease-secs", env = "CANVAS_DISPATCHER_LEASE_SECS", default_value_t = DEFAULT_LEASE_SECS)]
    pub lease_secs: u32,

    /// Milliseconds between polls while nothing is due; new deliveries wake the dispatcher at once.
    #[arg(long = "poll-interval-ms", env = "CANVAS_DISPATCHER_POLL_INTERVAL_MS", default_value_t = DEFAULT_POLL_INTERVAL_MS)]
    pub poll_interval_ms: u64,

    /// The HTTP client: time-out, allowed internal destinations, extra CAs.
    #[command(flatten)]
    pub client: ClientSettings,
}

/// The defaults, stated once for the flags and for [`DispatcherConfig::new`] (the in-process
/// dispatcher of `canvasctl up`, the tests and the webhook bench), so both run alike.
pub const DEFAULT_CONCURRENCY: usize = 256;
/// See `--per-destination`.
pub const DEFAULT_PER_DESTINATION: usize = 64;
/// See `--lease-secs`.
pub const DEFAULT_LEASE_SECS: u32 = 60;
/// See `--poll-interval-ms`.
pub const DEFAULT_POLL_INTERVAL_MS: u64 = 100;

impl DispatcherConfig {
    /// Defaults for an in-process dispatcher talking to `core_url`.
    pub fn new(core_url: impl Into<String>, client: ClientSettings) -> Self {
        Self {
            core_url: core_url.into(),
            dispatcher_secret: None,
            concurrency: DEFAULT_CONCURRENCY,
            per_destination: DEFAULT_PER_DESTINATION,
            lease_secs: DEFAULT_LEASE_SECS,
            poll_interval_ms: DEFAULT_POLL_INTERVAL_MS,
            client,
        }
    }
}

pub(crate) type Grpc = WebhookDispatchServiceClient<InterceptedService<Channel, Authorize>>;

/// Adds `authorization: Bearer <secret>` to every call when a secret is set.
#[derive(Clone)]
pub(crate) struct Authorize(Option<MetadataValue<tonic::metadata::Ascii>>);

impl tonic::service::Interceptor for Authorize {
    fn call(&mut self, mut request: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
        if let Some(value) = &self.0 {
            request.metadata_mut().insert("authorization", value.clone());
        }
        // With trace export, a call continues the trace of the span it is made in.
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
    tracing::info!(core = %config.core_url, id = %dispatcher_id, concurrency = config.concurrency,
        per_destination = config.per_destination, "webhook-dispatcher running");

    let wake = Arc::new(Notify::new());
    let follower = tokio::spawn(wake::follow(grpc.clone(), dispatcher_id.clone(), wake.clone(), stopping.clone()));
    let (reporter, reports_sent) = Reporter::start(grpc.clone());
    let destinations = Destinations::new(config.per_destination, wake.clone());
    let mut waiting = Waiting::default();
    let slots = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut in_flight = JoinSet::new();
    let leases = Leases::default();
    let calls = Calls { client, reporter, leases: leases.clone() };
    let poll = Duration::from_millis(config.poll_interval_ms.max(10));
    let mut backoff = poll;
    let mut last_partial_lease: Option<Instant> = None;
    let mut rounds = rounds::Rounds::default();
    while !stopping.is_cancelled() {
        rounds.maybe_log();
        while in_flight.try_join_next().is_some() {}
        // Deliveries that waited for their destination go before new ones.
        let startable = waiting.startable(&destinations, slots.available_permits());
        rounds.started_from_waiting(startable.len());
        for (turn, delivery) in startable {
            let permit = slots.clone().acquire_owned().await?;
            calls.start(&mut in_flight, turn, permit, delivery);
        }
        let free = slots.available_permits();
        if free == 0 {
            tokio::select! {
                _ = in_flight.join_next() => {}
                _ = stopping.cancelled() => break,
            }
            continue;
        }
        if last_partial_lease.is_some_and(|last: Instant| last.elapsed() < LEASE_GAP) {
            let resume = last_partial_lease.map(|last| last + LEASE_GAP).unwrap_or_else(Instant::now);
            tokio::select! {
                _ = tokio::time::sleep_until(resume.into()) => {}
                _ = stopping.cancelled() => break,
            }
        }
        let asked = free.min(MAX_LEASE);
        let allowances = destinations.allowances(&waiting);
        let (skipped, limited) = (allowances.skip.len(), allowances.limited.len());
        let request = pb::LeaseDeliveriesRequest {
            dispatcher_id: dispatcher_id.clone(),
            max_deliveries: asked as u32,
            lease_secs: config.lease_secs,
            skip_webhook_ids: allowances.skip,
            limited_webhooks: allowances.limited,
        };
        let leased_at = Instant::now();
        let wait = match grpc.clone().lease_deliveries(request).await {
            Ok(reply) => {
                let deliveries = reply.into_inner().deliveries;
                rounds.lease(leased_at.elapsed(), asked, deliveries.len(), skipped, limited);
                // A lease that found something, but not a full batch: the next keeps the gap.
                last_partial_lease = (!deliveries.is_empty() && deliveries.len() < asked).then_some(leased_at);
                backoff = poll;
                // A full batch may have left more due; a short one took all there were, so the
                // next lease waits for a wake-up (or the poll) rather than finding nothing.
                let wait = if deliveries.len() < asked { poll } else { Duration::ZERO };
                if deliveries.is_empty() {
                    poll
                } else {
                    let mut busy = Vec::new();
                    for delivery in deliveries {
                        leases.hold(&delivery);
                        match destinations.try_start(&delivery.webhook_id, &delivery.url) {
                            Some(turn) => {
                                let permit = slots.clone().acquire_owned().await?;
                                calls.start(&mut in_flight, turn, permit, delivery);
                            }
                            None => busy.extend(waiting.keep(delivery, &destinations)),
                        }
                    }
                    if !busy.is_empty() {
                        // More than may wait for their destination: handed back at once, since
                        // waiting here could outlast the lease.
                        rounds.handed_back(busy.len());
                        let busy = busy.iter().map(|d| leases.give_back(&d.delivery_id)).collect();
                        tokio::spawn(release(grpc.clone(), busy, false));
                        // The next lease skips them, and may find other destinations' deliveries.
                        Duration::ZERO
                    } else {
                        wait
                    }
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
                _ = wake.notified() => {}
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
    let cut_off = drained.await.is_none();
    if cut_off {
        in_flight.abort_all();
        while in_flight.join_next().await.is_some() {}
    }
    // Deliveries still waiting for their destination were never sent: due again at once.
    let unsent: Vec<_> = waiting.take_all().iter().map(|d| leases.give_back(&d.delivery_id)).collect();
    release(grpc.clone(), unsent, true).await;
    // The reports of finished calls are recorded before the cut-off ones are handed back.
    drop(calls);
    if tokio::time::timeout(Duration::from_secs(10), reports_sent).await.is_err() {
        tracing::warn!(
            "the last reports were not recorded in time; those deliveries are sent again after their leases"
        );
    }
    if cut_off {
        release(grpc, leases.take(), true).await;
    }
    follower.abort();
    tracing::info!("webhook-dispatcher stopped");
    Ok(())
}

/// Leases of the deliveries this dispatcher is sending, by delivery id.
#[derive(Clone, Default)]
struct Leases(Arc<std::sync::Mutex<std::collections::HashMap<String, String>>>);

impl Leases {
    fn hold(&self, delivery: &pb::LeasedDelivery) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(delivery.delivery_id.clone(), delivery.lease_token.clone());
    }

    fn done(&self, delivery_id: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(delivery_id);
    }

    /// Stops holding a delivery that is handed back unsent, returning its lease.
    fn give_back(&self, delivery_id: &str) -> pb::DeliveryLease {
        let lease_token = self.0.lock().unwrap_or_else(|e| e.into_inner()).remove(delivery_id).unwrap_or_default();
        pb::DeliveryLease { delivery_id: delivery_id.to_owned(), lease_token }
    }

    fn take(&self) -> Vec<pb::DeliveryLease> {
        let held = std::mem::take(&mut *self.0.lock().unwrap_or_else(|e| e.into_inner()));
        held.into_iter().map(|(delivery_id, lease_token)| pb::DeliveryLease { delivery_id, lease_token }).collect()
    }
}

/// What every call needs: the HTTP client, where its report goes, the leases held.
struct Calls {
    client: WebhookClient,
    reporter: Reporter,
    leases: Leases,
}

impl Calls {
    /// Sends `delivery` in its own task, which ends the turn and frees the slot once the receiver
    /// has answered, then queues the report.
    fn start(
        &self,
        in_flight: &mut JoinSet<()>,
        turn: Turn,
        permit: OwnedSemaphorePermit,
        delivery: pb::LeasedDelivery,
    ) {
        let (client, reporter, leases) = (self.client.clone(), self.reporter.clone(), self.leases.clone());
        in_flight.spawn(async move {
            let id = delivery.delivery_id.clone();
            let report = deliver(&client, delivery).await;
            drop(turn);
            drop(permit);
            reporter.queue(report).await;
            leases.done(&id);
        });
    }
}

/// Hands deliveries back to core-service (cut off, or their destination busy); if that fails
/// too, their leases lapse.
async fn release(mut grpc: Grpc, leases: Vec<pb::DeliveryLease>, cut_off: bool) {
    if leases.is_empty() {
        return;
    }
    let asked = leases.len();
    let call = grpc.release_deliveries(pb::ReleaseDeliveriesRequest { leases });
    match tokio::time::timeout(Duration::from_secs(5), call).await {
        Ok(Ok(reply)) if cut_off => {
            tracing::info!(asked, released = reply.into_inner().released, "released cut-off deliveries")
        }
        Ok(Ok(reply)) => {
            tracing::debug!(asked, released = reply.into_inner().released, "handed back, destination busy")
        }
        Ok(Err(status)) => {
            tracing::warn!(asked, message = status.message(), "could not release leases; they lapse instead")
        }
        Err(_) => tracing::warn!(asked, "releasing leases timed out; they lapse instead"),
    }
}

/// Sends one delivery and returns its outcome report.
#[tracing::instrument(name = "webhook_delivery", skip_all,
    fields(delivery = %delivery.delivery_id, attempt = delivery.attempt))]
async fn deliver(client: &WebhookClient, delivery: pb::LeasedDelivery) -> pb::ReportDeliveryRequest {
    let call = Call {
        url: delivery.url,
        headers: delivery.headers.into_iter().map(|h| (h.name, h.value)).collect(),
        body: delivery.body,
    };
    let outcome: Outcome = client.send(&call).await;
    health::record_attempt(outcome.status_code, delivery.attempt, outcome.duration);
    tracing::debug!(delivery = %delivery.delivery_id, status = ?outcome.status_code, error = ?outcome.error, "attempt done");
    pb::ReportDeliveryRequest {
        delivery_id: delivery.delivery_id,
        lease_token: delivery.lease_token,
        status_code: outcome.status_code.map(i32::from),
        duration_ms: outcome.duration.as_millis() as u64,
        error: outcome.error,
        retry_after_secs: outcome.retry_after.map(|d| d.as_secs()),
        attempt: delivery.attempt,
    }
}
