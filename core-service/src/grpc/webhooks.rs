//! `canvas.v1.WebhookService` (management, keys) and project copies: parse, authenticate, call the
//! service layer, convert. The dispatcher's service is `webhook_dispatch.rs`.

use crate::grpc::status::invalid;
use std::sync::Arc;
use std::time::Duration;

use canvas_proto::v1 as pb;
use canvas_proto::v1::webhook_service_server::WebhookService;
use tonic::{Request, Response, Status};
use uuid::Uuid;

use super::authenticate;
use super::convert::timestamp;
use super::idempotency::Once;
use crate::domain::ProjectId;
use crate::error::CoreError;
use crate::service::webhooks::management::webhook_id;
use crate::service::Core;
use crate::storage::{AttemptRow, RecoveryProgress, SigningKeyRow, WebhookRow};

/// gRPC face of webhook management.
pub struct WebhookGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

/// A webhook record in its gRPC form.
pub fn webhook(row: WebhookRow) -> pb::Webhook {
    pb::Webhook {
        webhook_id: row.id.to_string(),
        project_id: row.project_id.to_string(),
        name: row.name,
        url: row.url,
        enabled: row.enabled,
        events: row.events,
        custom_data_json: row.custom_data,
        created_at: Some(timestamp(row.created_at)),
        status: Some(pb::WebhookStatus {
            last_attempt_at: row.last_attempt_at.map(timestamp),
            last_success_at: row.last_success_at.map(timestamp),
            last_status_code: row.last_status_code,
            last_error: row.last_error,
            consecutive_failures: row.consecutive_failures.max(0) as u32,
            disabled_at: row.disabled_at.map(timestamp),
            disabled_reason: row.disabled_reason,
            // Only a time still ahead: a past one asks nothing any more.
            slow_down_until: row.slow_down_until.filter(|until| *until > chrono::Utc::now()).map(timestamp),
        }),
        inactive: row.inactive,
        max_deliveries_per_second: row.max_deliveries_per_second.map(|n| n.max(0) as u32),
    }
}

fn attempt(row: AttemptRow) -> pb::DeliveryAttempt {
    pb::DeliveryAttempt {
        delivery_id: row.delivery_id.to_string(),
        event_id: row.event_id.to_string(),
        event_kind: row.kind.as_str().to_owned(),
        attempt: row.attempt.max(0) as u32,
        attempted_at: Some(timestamp(row.attempted_at)),
        status_code: row.status_code,
        duration_ms: row.duration_ms.max(0) as u64,
        error: row.error,
    }
}

fn delivery_recovery(progress: RecoveryProgress) -> pb::DeliveryRecovery {
    let row = progress.recovery;
    let count = |n: i64| n.clamp(0, i64::from(u32::MAX)) as u32;
    pb::DeliveryRecovery {
        recovery_id: row.id.to_string(),
        webhook_id: row.webhook_id.to_string(),
        project_id: row.project_id.to_string(),
        since: Some(timestamp(row.since)),
        until: Some(timestamp(row.until_at)),
        created_at: Some(timestamp(row.created_at)),
        finished_at: row.done_at.map(timestamp),
        total: row.total.max(0) as u32,
        queued: count(progress.queued),
        sending: count(progress.sending),
        delivered: count(progress.delivered),
        failed: count(progress.failed),
    }
}

fn signing_key(row: SigningKeyRow) -> pb::SigningKey {
    pb::SigningKey {
        kid: row.kid,
        x: row.public_x,
        y: row.public_y,
        activates_at: Some(timestamp(row.activates_at)),
        retires_at: row.retires_at.map(timestamp),
    }
}

fn reference(r: &pb::WebhookRef) -> Result<(ProjectId, Uuid), CoreError> {
    Ok((ProjectId::parse(&r.project_id)?, webhook_id(&r.webhook_id)?))
}

#[tonic::async_trait]
impl WebhookService for WebhookGrpc {
    async fn list_webhooks(&self, request: Request<pb::ListWebhooksRequest>) -> Reply<pb::ListWebhooksResponse> {
        let who = authenticate(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let rows = self.core.webhooks().list_webhooks(&who, project).await?;
        Ok(Response::new(pb::ListWebhooksResponse { webhooks: rows.into_iter().map(webhook).collect() }))
    }

    async fn get_webhook(&self, request: Request<pb::WebhookRef>) -> Reply<pb::Webhook> {
        let who = authenticate(&self.core, &request).await?;
        let (project, id) = reference(request.get_ref())?;
        Ok(Response::new(webhook(self.core.webhooks().get_webhook(&who, project, id).await?)))
    }

    async fn create_webhook(&self, request: Request<pb::CreateWebhookRequest>) -> Reply<pb::Webhook> {
        let who = authenticate(&self.core, &request).await?;
        let once = Once::of(&request, &who, "/canvas.v1.WebhookService/CreateWebhook", &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        once.run(&self.core, async move {
            let project = ProjectId::parse(&req.project_id)?;
            Ok(webhook(core.webhooks().create_webhook(&who, project, &req.definition_json).await?))
        })
        .await
    }

    async fn replace_webhook(&self, request: Request<pb::ReplaceWebhookRequest>) -> Reply<pb::Webhook> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, id) = (ProjectId::parse(&req.project_id).map_err(invalid)?, webhook_id(&req.webhook_id)?);
        Ok(Response::new(webhook(self.core.webhooks().replace_webhook(&who, project, id, &req.definition_json).await?)))
    }

    async fn delete_webhook(&self, request: Request<pb::WebhookRef>) -> Reply<pb::Webhook> {
        let who = authenticate(&self.core, &request).await?;
        let (project, id) = reference(request.get_ref())?;
        Ok(Response::new(webhook(self.core.webhooks().delete_webhook(&who, project, id).await?)))
    }

    async fn enable_webhook(&self, request: Request<pb::WebhookRef>) -> Reply<pb::Webhook> {
        let who = authenticate(&self.core, &request).await?;
        let (project, id) = reference(request.get_ref())?;
        Ok(Response::new(webhook(self.core.webhooks().enable_webhook(&who, project, id).await?)))
    }

    async fn test_webhook(&self, request: Request<pb::TestWebhookRequest>) -> Reply<pb::TestWebhookResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let project = ProjectId::parse(&req.project_id).map_err(invalid)?;
        let outcome = self.core.webhooks().test_webhook(&who, project, &req.definition_json).await?;
        Ok(Response::new(pb::TestWebhookResponse {
            status_code: outcome.status_code.map(i32::from),
            duration_ms: outcome.duration.as_millis() as u64,
            error: outcome.error,
        }))
    }

    async fn list_deliveries(&self, request: Request<pb::ListDeliveriesRequest>) -> Reply<pb::ListDeliveriesResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, id) = (ProjectId::parse(&req.project_id).map_err(invalid)?, webhook_id(&req.webhook_id)?);
        let rows = self.core.webhooks().list_deliveries(&who, project, id, req.limit).await?;
        Ok(Response::new(pb::ListDeliveriesResponse { attempts: rows.into_iter().map(attempt).collect() }))
    }

    async fn redeliver(&self, request: Request<pb::RedeliverRequest>) -> Reply<pb::RedeliverResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, id) = (ProjectId::parse(&req.project_id).map_err(invalid)?, webhook_id(&req.webhook_id)?);
        let new_id = self.core.webhooks().redeliver(&who, project, id, &req.delivery_id).await?;
        Ok(Response::new(pb::RedeliverResponse { delivery_id: new_id.to_string() }))
    }

    async fn recover_deliveries(&self, request: Request<pb::RecoverDeliveriesRequest>) -> Reply<pb::DeliveryRecovery> {
        let who = authenticate(&self.core, &request).await?;
        let method = "/canvas.v1.WebhookService/RecoverDeliveries";
        // A retried request with its `Idempotency-Key` answers the first run's recovery.
        let once = Once::of(&request, &who, method, &request.get_ref().project_id)?;
        let (core, req) = (self.core.clone(), request.into_inner());
        once.run(&self.core, async move {
            let (project, id) = (ProjectId::parse(&req.project_id)?, webhook_id(&req.webhook_id)?);
            // Boxed: the recovery's future is large, and `Once` holds it across its own awaits.
            let recovery =
                Box::pin(core.webhooks().recover(&who, project, id, &req.since, req.until.as_deref())).await?;
            Ok(delivery_recovery(recovery))
        })
        .await
    }

    async fn get_recovery(&self, request: Request<pb::GetRecoveryRequest>) -> Reply<pb::DeliveryRecovery> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let (project, id) = (ProjectId::parse(&req.project_id).map_err(invalid)?, webhook_id(&req.webhook_id)?);
        let recovery = self.core.webhooks().get_recovery(&who, project, id, &req.recovery_id).await?;
        Ok(Response::new(delivery_recovery(recovery)))
    }

    async fn get_signing_keys(&self, _request: Request<pb::GetSigningKeysRequest>) -> Reply<pb::SigningKeySet> {
        let keys = self.core.webhooks().signing_keys().await?;
        Ok(Response::new(pb::SigningKeySet { keys: keys.into_iter().map(signing_key).collect() }))
    }

    async fn rotate_signing_key(&self, request: Request<pb::RotateSigningKeyRequest>) -> Reply<pb::SigningKey> {
        let who = authenticate(&self.core, &request).await?;
        let delay = Some(request.get_ref().delay_secs).filter(|s| *s > 0).map(Duration::from_secs);
        Ok(Response::new(signing_key(self.core.webhooks().rotate_signing_key(&who, delay).await?)))
    }
}

/// gRPC face of project copies.
pub struct CopyGrpc {
    pub core: Arc<Core>,
}

#[tonic::async_trait]
impl canvas_proto::v1::project_copy_service_server::ProjectCopyService for CopyGrpc {
    async fn copy_project(&self, request: Request<pb::CopyProjectRequest>) -> Reply<pb::CopyProjectResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.get_ref();
        let source = ProjectId::parse(&req.source_project_id).map_err(invalid)?;
        let owner = crate::domain::UserId::parse(&req.owner_user_id).map_err(invalid)?;
        let copy = self.core.webhooks().copy_project(&who, source, &req.name, owner).await?;
        Ok(Response::new(pb::CopyProjectResponse {
            project_id: copy.project.id.to_string(),
            items_copied: copy.items as u32,
            webhooks_copied: copy.webhooks as u32,
        }))
    }
}
