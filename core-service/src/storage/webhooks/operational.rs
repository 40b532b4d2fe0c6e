//! Operational events (docs/WEBHOOKS.md "Operational events"): `webhook.disabled` when a webhook is
//! disabled by its failures or a `410 Gone`, `webhook.deliveryExhausted` when a delivery is given
//! up after every attempt. They are outbox events of the webhook's project, written by the
//! transaction that records the dispatcher's report ([`raise_disabled!`], [`raise_exhausted!`] in
//! `attempts.rs`), so a webhook that lists them gets a delivery exactly when the failure is
//! acknowledged, signed and retried as every other, and a crash never records one without the
//! other.
//!
//! Loop guard: a delivery of an operational event that is given up raises nothing (a receiver of
//! operational events that is down would otherwise feed itself). A disable raises one event per
//! disable, and a disabled webhook's deliveries wait, so nothing runs away either way.
//!
//! The event's actor is the service ([`SERVICE_ACTOR`]). The body names the webhook by id and
//! `name`, never by URL: a URL can hold a credential, and the operational receiver is another
//! destination.

use chrono::{DateTime, SecondsFormat, Utc};
use serde_json::{json, Value};
use uuid::Uuid;

use crate::domain::{EventId, EventKind, ProjectId, SERVICE_ACTOR};
use crate::storage::NewEvent;

/// The subject type of an operational event: the webhook it is about.
const SUBJECT_TYPE: &str = "webhook";

/// What a given-up delivery names, read in the report's transaction ([`EXHAUSTED`]).
#[derive(Debug, sqlx::FromRow)]
pub(super) struct Exhausted {
    project_id: ProjectId,
    webhook_id: Uuid,
    name: Option<String>,
    attempts: i32,
    event_id: EventId,
    #[sqlx(try_from = "String")]
    event_kind: EventKind,
    event_occurred_at: DateTime<Utc>,
}

/// The delivery `$1`, given up, with its webhook's name and its event.
pub(super) const EXHAUSTED: &str = "SELECT d.project_id, d.webhook_id, w.name, d.attempts, e.id AS event_id, \
    e.kind AS event_kind, e.occurred_at AS event_occurred_at FROM webhook_deliveries d \
    JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id \
    WHERE d.id = $1 AND d.state = 'failed'";

/// The attempt that gave a delivery up, as the dispatcher reported it.
#[derive(Debug, Clone, Copy)]
pub(super) struct LastAttempt<'a> {
    pub delivery_id: Uuid,
    pub at: DateTime<Utc>,
    pub status_code: Option<i32>,
    pub error: Option<&'a str>,
}

/// A webhook just disabled, as the disabling `UPDATE … RETURNING` gives it ([`DISABLED_RETURNING`]).
#[derive(Debug, sqlx::FromRow)]
pub(super) struct Disabled {
    project_id: ProjectId,
    name: Option<String>,
    disabled_reason: Option<String>,
    consecutive_failures: i32,
    last_status_code: Option<i32>,
    last_error: Option<String>,
}

/// The columns the disabling statement returns for [`Disabled`].
pub(super) const DISABLED_RETURNING: &str =
    "RETURNING project_id, name, disabled_reason, consecutive_failures, last_status_code, last_error";

fn timestamp(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn operational_event(
    project_id: ProjectId,
    kind: EventKind,
    webhook_id: Uuid,
    at: DateTime<Utc>,
    new: Value,
) -> NewEvent {
    NewEvent {
        id: EventId::new(),
        project_id,
        kind,
        subject_id: webhook_id,
        subject_type: SUBJECT_TYPE.to_owned(),
        actor_user_id: SERVICE_ACTOR,
        occurred_at: at,
        payload: json!({ "new": new }),
    }
}

impl Exhausted {
    /// The `webhook.deliveryExhausted` event of this delivery, given up by `last` (its last
    /// attempt); None for a delivery of an operational event (the loop guard).
    pub(super) fn raised(&self, last: LastAttempt<'_>) -> Option<NewEvent> {
        if self.event_kind.is_operational() {
            return None;
        }
        let new = json!({
            "name": self.name,
            "deliveryId": last.delivery_id,
            "eventId": self.event_id.uuid(),
            "eventKind": self.event_kind.as_str(),
            "eventOccurredAt": timestamp(self.event_occurred_at),
            "attempts": self.attempts,
            "lastStatusCode": last.status_code,
            "lastError": last.error,
        });
        Some(operational_event(self.project_id, EventKind::WebhookDeliveryExhausted, self.webhook_id, last.at, new))
    }
}

impl Disabled {
    /// The `webhook.disabled` event of `webhook_id`, disabled at `at`.
    pub(super) fn raised(&self, webhook_id: Uuid, at: DateTime<Utc>) -> NewEvent {
        let new = json!({
            "name": self.name,
            "reason": self.disabled_reason,
            "disabledAt": timestamp(at),
            "consecutiveFailures": self.consecutive_failures,
            "lastStatusCode": self.last_status_code,
            "lastError": self.last_error,
        });
        operational_event(self.project_id, EventKind::WebhookDisabled, webhook_id, at, new)
    }
}

/// Inside the report's transaction `$tx`: raises `webhook.deliveryExhausted` for the delivery that
/// `$outcome` gave up (unless it carried an operational event). Evaluates to the events raised
/// (0 or 1).
macro_rules! raise_exhausted {
    ($tx:ident, $outcome:expr) => {{
        let outcome: &AttemptOutcome = $outcome;
        let found: Option<super::operational::Exhausted> = sqlx::query_as(super::operational::EXHAUSTED)
            .bind(outcome.delivery_id)
            .fetch_optional(&mut *$tx)
            .await
            .map_err(db_error)?;
        let last = super::operational::LastAttempt {
            delivery_id: outcome.delivery_id,
            at: outcome.at,
            status_code: outcome.status_code,
            error: outcome.error.as_deref(),
        };
        match found.and_then(|delivery| delivery.raised(last)) {
            Some(event) => {
                crate::storage::outbox::insert_event!(&mut *$tx, &event)?;
                1u64
            }
            None => 0u64,
        }
    }};
}
pub(super) use raise_exhausted;

/// Inside the report's transaction `$tx`: raises `webhook.disabled` for `$webhook_id` when the
/// disabling statement's answer `$disabled` says it was disabled now. Evaluates to the events
/// raised (0 or 1).
macro_rules! raise_disabled {
    ($tx:ident, $webhook_id:expr, $at:expr, $disabled:expr) => {{
        let disabled: Option<super::operational::Disabled> = $disabled;
        match disabled {
            Some(webhook) => {
                crate::storage::outbox::insert_event!(&mut *$tx, &webhook.raised($webhook_id, $at))?;
                1u64
            }
            None => 0u64,
        }
    }};
}
pub(super) use raise_disabled;
