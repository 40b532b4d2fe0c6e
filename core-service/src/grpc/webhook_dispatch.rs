//! `canvas.v1.WebhookDispatchService`: webhook-dispatcher's leases, reports (one at a time or in
//! batches), released leases and its wake-up stream. Every call carries the dispatcher secret.

use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_dispatch_service_server::WebhookDispatchService;
use futures::Stream;
use tokio_util::sync::CancellationToken;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use crate::error::CoreError;
use crate::service::Core;
use crate::webhooks::runtime::DeliveryReport;

/// gRPC face of the dispatcher's work queue.
pub struct DispatchGrpc {
    pub core: Arc<Core>,
    /// Cancelled when the server shuts down; every `WatchDue` stream ends then.
    pub shutdown: CancellationToken,
}

type Reply<T> = Result<Response<T>, Status>;
type DueStream = Pin<Box<dyn Stream<Item = Result<pb::DueNotice, Status>> + Send>>;

impl DispatchGrpc {
    fn authorize<T>(&self, request: &Request<T>) -> Result<(), CoreError> {
        let header = request.metadata().get("authorization").and_then(|v| v.to_str().ok());
        self.core.webhooks().authorize_dispatcher(header)
    }
}

/// Parses a UUID field, naming it (with its place in a batch) when it is not one.
fn uuid(field: impl Into<String>, raw: &str) -> Result<Uuid, CoreError> {
    Uuid::parse_str(raw).map_err(|_| CoreError::invalid(field.into(), "must be a UUID"))
}

/// A report as the service takes it; `at` names its place in a batch (`reports[3].`) or is empty.
fn report(at: &str, req: pb::ReportDeliveryRequest) -> Result<DeliveryReport, CoreError> {
    Ok(DeliveryReport {
        delivery_id: uuid(format!("{at}deliveryId"), &req.delivery_id)?,
        lease_token: uuid(format!("{at}leaseToken"), &req.lease_token)?,
        attempt: req.attempt.max(1),
        outcome: webhook_client::Outcome {
            status_code: req.status_code.and_then(|c| u16::try_from(c).ok()),
            duration: Duration::from_millis(req.duration_ms),
            error: req.error,
            retry_after: req.retry_after_secs.map(Duration::from_secs),
            refused: None,
        },
    })
}

#[tonic::async_trait]
impl WebhookDispatchService for DispatchGrpc {
    type WatchDueStream = DueStream;

    async fn lease_deliveries(
        &self,
        request: Request<pb::LeaseDeliveriesRequest>,
    ) -> Reply<pb::LeaseDeliveriesResponse> {
        self.authorize(&request)?;
        let req = request.get_ref();
        let lease = Some(req.lease_secs).filter(|s| *s > 0).map(|s| Duration::from_secs(u64::from(s)));
        let skip = req
            .skip_webhook_ids
            .iter()
            .enumerate()
            .map(|(i, id)| uuid(format!("skipWebhookIds[{i}]"), id))
            .collect::<Result<Vec<_>, _>>()?;
        let limited = req
            .limited_webhooks
            .iter()
            .enumerate()
            .map(|(i, allowance)| {
                Ok((uuid(format!("limitedWebhooks[{i}].webhookId"), &allowance.webhook_id)?, allowance.max_deliveries))
            })
            .collect::<Result<Vec<_>, CoreError>>()?;
        let leased = self.core.webhooks().lease_deliveries(req.max_deliveries, lease, &skip, &limited).await?;
        let deliveries = leased
            .into_iter()
            .map(|d| pb::LeasedDelivery {
                delivery_id: d.delivery_id.to_string(),
                webhook_id: d.webhook_id.to_string(),
                url: d.call.url,
                body: d.call.body,
                headers: d.call.headers.into_iter().map(|(name, value)| pb::HttpHeader { name, value }).collect(),
                attempt: d.attempt,
                lease_token: d.lease_token.to_string(),
            })
            .collect();
        Ok(Response::new(pb::LeaseDeliveriesResponse { deliveries }))
    }

    async fn report_delivery(&self, request: Request<pb::ReportDeliveryRequest>) -> Reply<pb::ReportDeliveryResponse> {
        self.authorize(&request)?;
        let req = request.into_inner();
        let delivery_id = req.delivery_id.clone();
        if !self.core.webhooks().report_delivery(report("", req)?).await? {
            tracing::info!(delivery = %delivery_id, "stale delivery report ignored (lease expired or reassigned)");
        }
        Ok(Response::new(pb::ReportDeliveryResponse {}))
    }

    async fn report_outcomes(&self, request: Request<pb::ReportOutcomesRequest>) -> Reply<pb::ReportOutcomesResponse> {
        self.authorize(&request)?;
        let reports = request
            .into_inner()
            .reports
            .into_iter()
            .enumerate()
            .map(|(i, r)| report(&format!("reports[{i}]."), r))
            .collect::<Result<Vec<_>, _>>()?;
        let recorded = self.core.webhooks().report_deliveries(&reports).await?;
        if (recorded as usize) < reports.len() {
            tracing::info!(
                stale = reports.len() - recorded as usize,
                "stale delivery reports ignored (lease expired or reassigned)"
            );
        }
        Ok(Response::new(pb::ReportOutcomesResponse { recorded }))
    }

    async fn release_deliveries(
        &self,
        request: Request<pb::ReleaseDeliveriesRequest>,
    ) -> Reply<pb::ReleaseDeliveriesResponse> {
        self.authorize(&request)?;
        let leases = request
            .into_inner()
            .leases
            .iter()
            .enumerate()
            .map(|(i, lease)| {
                Ok((
                    uuid(format!("leases[{i}].deliveryId"), &lease.delivery_id)?,
                    uuid(format!("leases[{i}].leaseToken"), &lease.lease_token)?,
                ))
            })
            .collect::<Result<Vec<_>, CoreError>>()?;
        let released = self.core.webhooks().release_deliveries(&leases).await?;
        tracing::debug!(released, asked = leases.len(), "leases released by a dispatcher");
        Ok(Response::new(pb::ReleaseDeliveriesResponse { released }))
    }

    /// One notice at once, then one per change of the replica's due signal (changes made while a
    /// notice is being sent fold into the next). Ends at shutdown or when the dispatcher leaves.
    async fn watch_due(&self, request: Request<pb::WatchDueRequest>) -> Reply<DueStream> {
        self.authorize(&request)?;
        tracing::debug!(dispatcher = %request.get_ref().dispatcher_id, "dispatcher follows due deliveries");
        let notices = self.core.webhooks().due_notices();
        let stream =
            futures::stream::unfold((notices, self.shutdown.clone(), true), |(mut notices, stop, first)| async move {
                if !first {
                    tokio::select! {
                        changed = notices.changed() => changed.ok()?,
                        () = stop.cancelled() => return None,
                    }
                }
                Some((Ok(pb::DueNotice {}), (notices, stop, false)))
            });
        Ok(Response::new(Box::pin(stream)))
    }
}
