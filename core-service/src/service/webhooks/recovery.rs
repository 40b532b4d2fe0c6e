//! Recovering a webhook's failed deliveries by time range (`POST .../webhooks/{webhookId}/recover`):
//! the window's rules here, the once-and-in-order mechanics in `storage/webhooks/recoveries.rs`;
//! and the alerts that tell a project's managers when a recovery is needed.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::WebhooksService;
use crate::domain::{ProjectId, ProjectRole};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{NewRecovery, RecoveryProgress, Started, WebhookAlertRow};
use canvas_vocabulary::limits::webhooks::{ALERT_DAYS, MAX_RECOVERY_EVENTS};

/// A time of the window: RFC 3339 with an offset, as every time the API answers.
fn instant(field: &str, raw: &str) -> CoreResult<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(raw.trim()).map(|at| at.with_timezone(&Utc)).map_err(|_| {
        CoreError::invalid(
            field,
            format!("must be an RFC 3339 date-time with an offset, e.g. 2026-12-06T10:00:00Z; got '{raw}'"),
        )
    })
}

/// The window `[since, until)` asked: `since` required and not in the future, `until` after it
/// (absent: now).
fn window(since: &str, until: Option<&str>, now: DateTime<Utc>) -> CoreResult<(DateTime<Utc>, DateTime<Utc>)> {
    if since.trim().is_empty() {
        return Err(CoreError::invalid("since", "is required: the start of the window of deliveries to recover"));
    }
    let since = instant("since", since)?;
    let until = match until {
        Some(raw) => instant("until", raw)?,
        None => now,
    };
    if since > now {
        return Err(CoreError::invalid("since", "must not be in the future"));
    }
    if until <= since {
        return Err(CoreError::invalid("until", "must be after since"));
    }
    Ok((since, until))
}

impl WebhooksService {
    /// Sends again, once, in the order of their events and one call at a time, the events of every
    /// delivery of the webhook made in `[since, until)` that failed (given up, or failing and
    /// waiting for a retry, which the recovery takes over). Answers the job as it starts.
    pub async fn recover(
        &self,
        who: &Principal,
        project: ProjectId,
        id: Uuid,
        since: &str,
        until: Option<&str>,
    ) -> CoreResult<RecoveryProgress> {
        let webhook = self.get_webhook(who, project, id).await?;
        let now = Utc::now();
        let (since, until) = window(since, until, now)?;
        let new = NewRecovery {
            id: Uuid::now_v7(),
            webhook_id: webhook.id,
            project_id: project,
            since,
            until,
            created_by: who.user_id,
            now,
        };
        match self.store.start_recovery(&new, MAX_RECOVERY_EVENTS).await? {
            Started::TooMany { found } => Err(CoreError::invalid(
                "since",
                format!(
                    "the window holds {found} events to recover and one recovery takes at most \
                     {MAX_RECOVERY_EVENTS}: recover a shorter window (a later since or an earlier until), then the rest"
                ),
            )),
            Started::Recovery(recovery) => {
                self.runtime.due.written();
                self.store
                    .recovery(webhook.id, recovery.id)
                    .await?
                    .ok_or_else(|| CoreError::not_found("recovery", new.id))
            }
        }
    }

    /// The project's webhooks that need its managers' attention (the account site's operational
    /// events): disabled ones, and those with deliveries given up of events of the last
    /// [`ALERT_DAYS`] days, which a recovery from the oldest of them sends again.
    pub async fn webhook_alerts(&self, who: &Principal, project: ProjectId) -> CoreResult<Vec<WebhookAlertRow>> {
        self.access.require_role(who, project, ProjectRole::Manager).await?;
        self.store.webhook_alerts(project, Utc::now() - chrono::Duration::days(ALERT_DAYS)).await
    }

    /// A recovery of the webhook with its progress.
    pub async fn get_recovery(
        &self,
        who: &Principal,
        project: ProjectId,
        id: Uuid,
        recovery: &str,
    ) -> CoreResult<RecoveryProgress> {
        let webhook = self.get_webhook(who, project, id).await?;
        let recovery_id = Uuid::parse_str(recovery.trim()).map_err(|_| CoreError::not_found("recovery", recovery))?;
        self.store.recovery(webhook.id, recovery_id).await?.ok_or_else(|| CoreError::not_found("recovery", recovery_id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_is_checked_field_by_field() {
        let now = Utc::now();
        let field = |result: CoreResult<_>| match result {
            Err(CoreError::Validation(violations)) => violations[0].field.clone(),
            other => panic!("expected a violation, got {other:?}"),
        };
        assert_eq!(field(window("", None, now)), "since");
        assert_eq!(field(window("yesterday", None, now)), "since");
        assert_eq!(field(window("2026-12-06T10:00:00", None, now)), "since", "an offset is required");
        assert_eq!(field(window("2999-01-01T00:00:00Z", None, now)), "since");
        assert_eq!(field(window("2026-01-01T00:00:00Z", Some("2025-01-01T00:00:00Z"), now)), "until");
        assert_eq!(field(window("2026-01-01T00:00:00Z", Some("2026-01-01T00:00:00Z"), now)), "until");
        assert_eq!(field(window("2026-01-01T00:00:00Z", Some("soon"), now)), "until");
        let (since, until) = window("2026-01-01T01:00:00+01:00", None, now).unwrap();
        assert_eq!(since.to_rfc3339(), "2026-01-01T00:00:00+00:00");
        assert_eq!(until, now);
    }
}
