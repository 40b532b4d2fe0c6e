//! Webhook management: list, get, create, replace, delete, enable, test,
//! the deliveries listing and redelivery. Manager or Admin role only.

use chrono::Utc;
use uuid::Uuid;
use webhook_client::Outcome;

use super::WebhooksService;
use crate::domain::{ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{AttemptRow, WebhookRow};
use crate::webhooks::runtime::TEST_CALLS_PER_MINUTE;
use crate::webhooks::{event_mask, Definition};

/// Parses a webhook id from a path; a malformed one is a 404 like an
/// unknown one (the resource cannot exist).
pub fn webhook_id(raw: &str) -> CoreResult<Uuid> {
    Uuid::parse_str(raw.trim()).map_err(|_| CoreError::not_found("webhook", raw))
}

/// A destination the rules refuse, as the 400 naming `url`: the same status and words for a
/// literal address (refused by `Definition::parse`) and for a name resolving to one.
fn refused_destination(refusal: webhook_client::Refusal) -> CoreError {
    CoreError::invalid("url", refusal.to_string())
}

impl WebhooksService {
    /// Parses a definition and applies the destination rules to its URL as a call would (a host
    /// name is resolved now). Calls check again at connect time, so a name that resolves
    /// elsewhere later is still refused then.
    async fn parse_definition(&self, json: &str) -> CoreResult<Definition> {
        let definition = Definition::parse(json, self.runtime.client.policy())?;
        self.runtime.client.check_destination(&definition.url).await.map_err(refused_destination)?;
        Ok(definition)
    }

    async fn require_manager(&self, who: &Principal, project: ProjectId) -> CoreResult<()> {
        self.access.require_role(who, project, ProjectRole::Manager).await.map(|_| ())
    }

    pub async fn list_webhooks(&self, who: &Principal, project: ProjectId) -> CoreResult<Vec<WebhookRow>> {
        self.require_manager(who, project).await?;
        self.store.list_webhooks(project).await
    }

    pub async fn get_webhook(&self, who: &Principal, project: ProjectId, id: Uuid) -> CoreResult<WebhookRow> {
        self.require_manager(who, project).await?;
        self.store.get_webhook(project, id).await?.ok_or_else(|| CoreError::not_found("webhook", id))
    }

    pub async fn create_webhook(&self, who: &Principal, project: ProjectId, json: &str) -> CoreResult<WebhookRow> {
        self.require_manager(who, project).await?;
        let definition = self.parse_definition(json).await?;
        let now = Utc::now();
        let row = WebhookRow {
            id: Uuid::now_v7(),
            project_id: project,
            name: definition.name,
            url: definition.url,
            enabled: definition.enabled,
            event_mask: event_mask(definition.events.iter().map(String::as_str)),
            events: definition.events,
            custom_data: definition.custom_data,
            created_at: now,
            updated_at: now,
            inactive: None,
            last_attempt_at: None,
            last_success_at: None,
            last_status_code: None,
            last_error: None,
            consecutive_failures: 0,
            first_failure_at: None,
            disabled_at: None,
            disabled_reason: None,
            slow_down_until: None,
            max_deliveries_per_second: definition.max_deliveries_per_second.map(|n| n as i32),
        };
        self.store.insert_webhook(&row).await?;
        Ok(row)
    }

    /// PUT: the full definition; re-enables and clears `inactive`.
    pub async fn replace_webhook(
        &self,
        who: &Principal,
        project: ProjectId,
        id: Uuid,
        json: &str,
    ) -> CoreResult<WebhookRow> {
        self.require_manager(who, project).await?;
        let definition = self.parse_definition(json).await?;
        let mut row = self.store.get_webhook(project, id).await?.ok_or_else(|| CoreError::not_found("webhook", id))?;
        row.name = definition.name;
        row.url = definition.url;
        row.enabled = definition.enabled;
        row.event_mask = event_mask(definition.events.iter().map(String::as_str));
        row.events = definition.events;
        row.custom_data = definition.custom_data;
        row.max_deliveries_per_second = definition.max_deliveries_per_second.map(|n| n as i32);
        row.updated_at = Utc::now();
        self.store.replace_webhook(&row).await?.ok_or_else(|| CoreError::not_found("webhook", id))
    }

    pub async fn delete_webhook(&self, who: &Principal, project: ProjectId, id: Uuid) -> CoreResult<WebhookRow> {
        self.require_manager(who, project).await?;
        self.store.delete_webhook(project, id).await?.ok_or_else(|| CoreError::not_found("webhook", id))
    }

    /// Clears an automatic disable and the failure counter, and enables.
    pub async fn enable_webhook(&self, who: &Principal, project: ProjectId, id: Uuid) -> CoreResult<WebhookRow> {
        self.require_manager(who, project).await?;
        self.store.enable_webhook(project, id, Utc::now()).await?.ok_or_else(|| CoreError::not_found("webhook", id))
    }

    /// Sends one signed `ping` to an unsaved definition. At most
    /// [`TEST_CALLS_PER_MINUTE`] per user, counted in the database so every
    /// replica shares the count; beyond that a rate-limit error with the
    /// seconds until the oldest call leaves the window.
    pub async fn test_webhook(&self, who: &Principal, project: ProjectId, json: &str) -> CoreResult<Outcome> {
        self.require_manager(who, project).await?;
        let definition = self.parse_definition(json).await?;
        let now = Utc::now();
        let window = chrono::Duration::seconds(60);
        if let Some(oldest) = self.store.count_test_call(who.user_id, now, now - window, TEST_CALLS_PER_MINUTE).await? {
            let wait = (oldest + window - now).num_milliseconds().max(0) as u64;
            return Err(CoreError::RateLimited {
                message: format!("at most {TEST_CALLS_PER_MINUTE} webhook test calls per minute; try again later"),
                retry_after_secs: wait.div_ceil(1000).max(1),
            });
        }
        let outcome = self.send_test_call(project.uuid(), &definition).await?;
        // The name resolved to a refused address at the moment of the call: the same 400.
        match outcome.refused {
            Some(refusal) => Err(refused_destination(refusal)),
            None => Ok(outcome),
        }
    }

    /// The most recent attempts of a webhook, newest first.
    pub async fn list_deliveries(
        &self,
        who: &Principal,
        project: ProjectId,
        id: Uuid,
        limit: Option<u32>,
    ) -> CoreResult<Vec<AttemptRow>> {
        let limit = crate::service::page_size(limit, canvas_vocabulary::limits::DELIVERIES_PAGE)?;
        let webhook = self.get_webhook(who, project, id).await?;
        self.store.list_attempts(webhook.id, limit).await
    }

    /// Queues a past delivery's event again under a new delivery id (so
    /// receivers that drop seen ids still take it); returns the new id.
    pub async fn redeliver(&self, who: &Principal, project: ProjectId, id: Uuid, delivery: &str) -> CoreResult<Uuid> {
        let webhook = self.get_webhook(who, project, id).await?;
        let delivery_id = Uuid::parse_str(delivery.trim()).map_err(|_| CoreError::not_found("delivery", delivery))?;
        let new_id = Uuid::now_v7();
        if !self.store.redeliver(webhook.id, delivery_id, new_id, Utc::now()).await? {
            return Err(CoreError::not_found("delivery", delivery_id));
        }
        self.runtime.due.written();
        Ok(new_id)
    }
}

/// What a project copy produced.
#[derive(Debug, Clone)]
pub struct ProjectCopy {
    /// The new project.
    pub project: crate::storage::ProjectRow,
    /// Items copied (with new ids; references between them follow).
    pub items: usize,
    /// Webhooks copied; each stays inactive (`copiedFromOtherProject`) until a PUT.
    pub webhooks: usize,
}

impl WebhooksService {
    /// Copies a project's items and webhooks into a new project owned by
    /// `owner` (system administrators only). Item ids are new; parents and
    /// connector ends that point at copied items point at their copies. Each
    /// copied item records `item.created`. Copied webhooks keep their
    /// definition but are never called until a PUT re-saves them: the copy's
    /// owner decides whether the receiver should get a second project's calls.
    pub async fn copy_project(
        &self,
        who: &Principal,
        source: ProjectId,
        name: &str,
        owner: crate::domain::UserId,
    ) -> CoreResult<ProjectCopy> {
        self.access.require_system_admin(who)?;
        if !self.accounts.project_exists(source).await? {
            return Err(CoreError::not_found("project", source));
        }
        let items = self.items.all_items(source).await?;
        let hooks = self.store.list_webhooks(source).await?;
        let project = self.accounts.create_project(who, name, owner).await?;
        let now = Utc::now();
        let tags = self.items.copy_tags(who, source, project.id, now).await?;
        let items = self.items.insert_copies(who, items, &tags, project.id, now).await?;
        for mut hook in hooks.clone() {
            hook.id = Uuid::now_v7();
            hook.project_id = project.id;
            hook.inactive = Some(crate::webhooks::inactive::COPIED.to_owned());
            (hook.created_at, hook.updated_at) = (now, now);
            (hook.last_attempt_at, hook.last_success_at, hook.last_status_code, hook.last_error) =
                (None, None, None, None);
            (hook.consecutive_failures, hook.first_failure_at, hook.disabled_at, hook.disabled_reason) =
                (0, None, None, None);
            hook.slow_down_until = None;
            self.store.insert_webhook(&hook).await?;
        }
        Ok(ProjectCopy { project, items, webhooks: hooks.len() })
    }
}
