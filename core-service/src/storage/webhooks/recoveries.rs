//! Recoveries: every failed delivery of a time window sent again once, in the order of its events,
//! one call at a time (`POST .../webhooks/{webhookId}/recover`, docs/WEBHOOKS.md).
//!
//! A recovery writes, in one transaction, its job row and one new delivery per event, all `held`
//! in `recovery_position` order, and makes the first `pending`. The dispatcher leases it like any
//! other (the webhook's pace, slow-down and disable apply); when its outcome is recorded and it is
//! delivered or given up, the report's own transaction makes the next one pending
//! ([`advance_recoveries!`]), and marks the job done after the last. So a receiver gets the
//! window's events in order and never two of one recovery at once, and a crash anywhere leaves
//! either the whole recovery or none, and a chain that the next report moves on.
//!
//! "Once": an event is taken only while nothing else will deliver it: not when one of its
//! deliveries was delivered (a redelivery, an earlier recovery), is held by a recovery, or is
//! pending without having failed yet or in flight. A delivery that is failing and waiting for its
//! next retry is taken over: it becomes `recovered` (finished) and the recovery sends its event.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::WebhooksStore;
use crate::domain::{ProjectId, UserId};
use crate::error::CoreError;
use crate::storage::{db_error, Storage};

type Result<T> = std::result::Result<T, CoreError>;

const RECOVERY_COLUMNS: &str = "id, webhook_id, project_id, since, until_at, created_at, created_by, total, done_at";

/// Makes the next held delivery of every running recovery pending, where none of its deliveries is
/// pending any more; `$1` is now. Every report runs it: with no recovery running it reads one
/// empty index.
pub(super) const RELEASE_NEXT: &str = "UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $1 \
    WHERE state = 'held' AND id IN (SELECT (SELECT h.id FROM webhook_deliveries h \
    WHERE h.recovery_id = r.id AND h.state = 'held' ORDER BY h.recovery_position LIMIT 1) \
    FROM webhook_recoveries r WHERE r.done_at IS NULL AND NOT EXISTS \
    (SELECT 1 FROM webhook_deliveries p WHERE p.recovery_id = r.id AND p.state = 'pending'))";

/// Marks done, at `$1`, every running recovery with nothing held or pending left.
pub(super) const MARK_DONE: &str = "UPDATE webhook_recoveries SET done_at = $1 WHERE done_at IS NULL \
    AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.recovery_id = webhook_recoveries.id \
    AND d.state IN ('held', 'pending'))";

/// Moves recoveries on inside the open transaction `$tx` at `$now`; evaluates to the number of
/// deliveries made pending (the caller wakes the dispatchers when it is not 0).
macro_rules! advance_recoveries {
    ($tx:ident, $now:expr) => {{
        let now: chrono::DateTime<chrono::Utc> = $now;
        let released = sqlx::query($crate::storage::webhooks::recoveries::RELEASE_NEXT)
            .bind(now)
            .execute(&mut *$tx)
            .await
            .map_err(db_error)?
            .rows_affected();
        sqlx::query($crate::storage::webhooks::recoveries::MARK_DONE)
            .bind(now)
            .execute(&mut *$tx)
            .await
            .map_err(db_error)?;
        released
    }};
}
pub(super) use advance_recoveries;

/// A recovery as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct RecoveryRow {
    pub id: Uuid,
    pub webhook_id: Uuid,
    pub project_id: ProjectId,
    pub since: DateTime<Utc>,
    pub until_at: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub created_by: UserId,
    /// Deliveries it sends, one per event.
    pub total: i32,
    /// When the last was delivered or given up.
    pub done_at: Option<DateTime<Utc>>,
}

/// A recovery with where its deliveries are.
#[derive(Debug, Clone)]
pub struct RecoveryProgress {
    pub recovery: RecoveryRow,
    /// Waiting for the ones before them.
    pub queued: i64,
    /// Being sent, or waiting for a retry after a failed attempt.
    pub sending: i64,
    pub delivered: i64,
    /// Given up after every attempt (or taken over by a later recovery).
    pub failed: i64,
}

/// What a recovery request found.
#[derive(Debug)]
pub enum Started {
    Recovery(RecoveryRow),
    /// More events than one recovery takes; nothing was written.
    TooMany {
        found: usize,
    },
}

/// One of the webhook's deliveries made at or after the window's start.
#[derive(Debug, Clone, sqlx::FromRow)]
pub(super) struct Made {
    pub id: Uuid,
    pub event_id: Uuid,
    pub state: String,
    pub attempts: i32,
    pub recovery_id: Option<Uuid>,
    pub lease_until: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub seq: i64,
}

impl Made {
    /// Failing and waiting for its next retry: a recovery may take it over.
    fn retrying(&self, now: DateTime<Utc>) -> bool {
        self.state == "pending"
            && self.attempts > 0
            && self.recovery_id.is_none()
            && self.lease_until.is_none_or(|until| until <= now)
    }

    /// Delivered, or going to be by something other than a recovery taking it over.
    fn covers_its_event(&self, now: DateTime<Utc>) -> bool {
        match self.state.as_str() {
            "delivered" | "held" => true,
            "pending" => !self.retrying(now),
            _ => false,
        }
    }
}

/// What a recovery of `[since, until)` does: the events to send, in order, the retrying
/// deliveries it takes over, and the given-up deliveries of those events, which are given up no
/// more once their event is sent again (the account site stops counting them).
#[derive(Debug, Default, PartialEq)]
pub(super) struct Plan {
    pub events: Vec<Uuid>,
    pub taken_over: Vec<Uuid>,
    pub given_up: Vec<Uuid>,
}

pub(super) fn plan(made: &[Made], since: DateTime<Utc>, until: DateTime<Utc>, now: DateTime<Utc>) -> Plan {
    let mut by_event: HashMap<Uuid, Vec<&Made>> = HashMap::new();
    for delivery in made {
        by_event.entry(delivery.event_id).or_default().push(delivery);
    }
    let mut chosen: Vec<(i64, Uuid)> = Vec::new();
    let (mut taken_over, mut given_up) = (Vec::new(), Vec::new());
    for (event, deliveries) in &by_event {
        let in_window = |d: &&&Made| d.created_at >= since && d.created_at < until;
        let failed = deliveries.iter().filter(in_window).any(|d| d.state == "failed" || d.retrying(now));
        if !failed || deliveries.iter().any(|d| d.covers_its_event(now)) {
            continue;
        }
        chosen.push((deliveries[0].seq, *event));
        taken_over.extend(deliveries.iter().filter(|d| d.retrying(now)).map(|d| d.id));
        given_up.extend(deliveries.iter().filter(|d| d.state == "failed").map(|d| d.id));
    }
    chosen.sort();
    Plan { events: chosen.into_iter().map(|(_, event)| event).collect(), taken_over, given_up }
}

/// A recovery to start.
#[derive(Debug, Clone)]
pub struct NewRecovery {
    pub id: Uuid,
    pub webhook_id: Uuid,
    pub project_id: ProjectId,
    pub since: DateTime<Utc>,
    pub until: DateTime<Utc>,
    pub created_by: UserId,
    pub now: DateTime<Utc>,
}

/// Rows of held deliveries per INSERT (SQLite allows 32,766 bound values; 8 per row).
const INSERT_CHUNK: usize = 1000;

/// Writes a recovery on the open transaction `$tx`: takes over the retrying deliveries (an event
/// whose retrying delivery was leased meanwhile is left to that lease), inserts the held
/// deliveries and the job, makes the first pending. Evaluates to the job row.
macro_rules! write_recovery {
    ($tx:ident, $db:ty, $new:expr, $plan:expr) => {{
        let (new, plan): (&NewRecovery, Plan) = ($new, $plan);
        let mut left_to_lease = std::collections::HashSet::new();
        for id in &plan.taken_over {
            let taken = sqlx::query(
                "UPDATE webhook_deliveries SET state = 'recovered', finished_at = $2, lease_token = NULL \
                 WHERE id = $1 AND state = 'pending' AND (lease_until IS NULL OR lease_until <= $2) \
                 RETURNING event_id",
            )
            .bind(id)
            .bind(new.now)
            .fetch_optional(&mut *$tx)
            .await
            .map_err(db_error)?;
            if taken.is_none() {
                let event: Option<(Uuid,)> = sqlx::query_as("SELECT event_id FROM webhook_deliveries WHERE id = $1")
                    .bind(id)
                    .fetch_optional(&mut *$tx)
                    .await
                    .map_err(db_error)?;
                left_to_lease.extend(event.map(|(event,)| event));
            }
        }
        let events: Vec<Uuid> = plan.events.into_iter().filter(|e| !left_to_lease.contains(e)).collect();
        for chunk in plan.given_up.chunks(INSERT_CHUNK) {
            let mut recovered = sqlx::QueryBuilder::<$db>::new(
                "UPDATE webhook_deliveries SET state = 'recovered' WHERE state = 'failed' AND id IN (",
            );
            let mut ids = recovered.separated(", ");
            for id in chunk {
                ids.push_bind(*id);
            }
            recovered.push(")");
            recovered.build().execute(&mut *$tx).await.map_err(db_error)?;
        }
        for (chunk_number, chunk) in events.chunks(INSERT_CHUNK).enumerate() {
            let mut insert = sqlx::QueryBuilder::<$db>::new(
                "INSERT INTO webhook_deliveries (id, webhook_id, project_id, event_id, state, attempts, \
                 next_attempt_at, created_at, recovery_id, recovery_position) ",
            );
            insert.push_values(chunk.iter().enumerate(), |mut row, (n, event)| {
                row.push_bind(Uuid::now_v7())
                    .push_bind(new.webhook_id)
                    .push_bind(new.project_id)
                    .push_bind(*event)
                    .push("'held'")
                    .push("0")
                    .push_bind(new.now)
                    .push_bind(new.now)
                    .push_bind(new.id)
                    .push_bind((chunk_number * INSERT_CHUNK + n) as i32);
            });
            insert.build().execute(&mut *$tx).await.map_err(db_error)?;
        }
        let recovery = sqlx::query_as::<_, RecoveryRow>(&format!(
            "INSERT INTO webhook_recoveries ({RECOVERY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
             RETURNING {RECOVERY_COLUMNS}"
        ))
        .bind(new.id)
        .bind(new.webhook_id)
        .bind(new.project_id)
        .bind(new.since)
        .bind(new.until)
        .bind(new.now)
        .bind(new.created_by)
        .bind(events.len() as i32)
        .bind(events.is_empty().then_some(new.now))
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_error)?;
        advance_recoveries!($tx, new.now);
        recovery
    }};
}

impl WebhooksStore {
    /// Starts a recovery of the webhook's failed deliveries made in `[since, until)`: at most
    /// `max` events, or nothing is written.
    pub async fn start_recovery(&self, new: &NewRecovery, max: usize) -> Result<Started> {
        /// Reads, plans and writes the recovery on the open transaction `$tx` of database `$db`.
        macro_rules! start {
            ($tx:ident, $db:ty) => {{
                let made: Vec<Made> = sqlx::query_as(
                    "SELECT d.id, d.event_id, d.state, d.attempts, d.recovery_id, d.lease_until, d.created_at, \
                     e.seq FROM webhook_deliveries d JOIN events e ON e.id = d.event_id \
                     WHERE d.webhook_id = $1 AND d.created_at >= $2",
                )
                .bind(new.webhook_id)
                .bind(new.since)
                .fetch_all(&mut *$tx)
                .await
                .map_err(db_error)?;
                let plan = plan(&made, new.since, new.until, new.now);
                if plan.events.len() > max {
                    return Ok(Started::TooMany { found: plan.events.len() });
                }
                let recovery = write_recovery!($tx, $db, new, plan);
                $tx.commit().await.map_err(db_error)?;
                Ok(Started::Recovery(recovery))
            }};
        }
        match self.database() {
            Storage::Postgres(pool) => {
                let mut tx = pool.begin().await.map_err(db_error)?;
                // One recovery of a webhook at a time, without locking its row (reports lock a
                // delivery, then its webhook: taking the webhook first could deadlock with them).
                sqlx::query("SELECT pg_advisory_xact_lock($1)")
                    .bind(new.webhook_id.as_u64_pair().0 as i64)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?;
                start!(tx, sqlx::Postgres)
            }
            // The one writer connection: recoveries take turns as every write does.
            Storage::Sqlite(store) => {
                let mut tx = store.writer_pool().begin().await.map_err(db_error)?;
                start!(tx, sqlx::Sqlite)
            }
        }
    }

    /// A recovery of the webhook with its progress; None when there is no such recovery.
    pub async fn recovery(&self, webhook_id: Uuid, id: Uuid) -> Result<Option<RecoveryProgress>> {
        with_read_pool!(self, pool => {
            let Some(recovery) = sqlx::query_as::<_, RecoveryRow>(&format!(
                "SELECT {RECOVERY_COLUMNS} FROM webhook_recoveries WHERE id = $1 AND webhook_id = $2"
            ))
            .bind(id)
            .bind(webhook_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)? else {
                return Ok(None);
            };
            let states: Vec<(String, i64)> = sqlx::query_as(
                "SELECT state, COUNT(*) FROM webhook_deliveries WHERE recovery_id = $1 GROUP BY state",
            )
            .bind(id)
            .fetch_all(pool)
            .await
            .map_err(db_error)?;
            let count = |names: &[&str]| states.iter().filter(|(s, _)| names.contains(&s.as_str())).map(|(_, n)| n).sum();
            Ok(Some(RecoveryProgress {
                recovery,
                queued: count(&["held"]),
                sending: count(&["pending"]),
                delivered: count(&["delivered"]),
                failed: count(&["failed", "recovered"]),
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    fn made(event: Uuid, seq: i64, state: &str, attempts: i32, at: DateTime<Utc>) -> Made {
        Made {
            id: Uuid::now_v7(),
            event_id: event,
            state: state.into(),
            attempts,
            recovery_id: None,
            lease_until: None,
            created_at: at,
            seq,
        }
    }

    #[test]
    fn failed_and_retrying_events_of_the_window_in_seq_order_once() {
        let now = Utc::now();
        let (since, until) = (now - Duration::hours(2), now - Duration::hours(1));
        let inside = since + Duration::minutes(5);
        let [a, b, c, d, e, f] = [(); 6].map(|()| Uuid::now_v7());
        let retrying = made(b, 2, "pending", 2, inside);
        let rows = vec![
            made(a, 9, "failed", 8, inside),
            retrying.clone(),
            // Failed, then delivered by a redelivery after the window: already delivered.
            made(c, 3, "failed", 8, inside),
            made(c, 3, "delivered", 1, now),
            // Never tried yet (a disabled webhook's): not failed.
            made(d, 4, "pending", 0, inside),
            // Failed before the window.
            made(e, 1, "failed", 8, since - Duration::minutes(1)),
            // Failed twice (a failed redelivery too): one event, sent once.
            made(f, 5, "failed", 8, inside),
            made(f, 5, "failed", 8, inside + Duration::minutes(1)),
        ];
        let planned = plan(&rows, since, until, now);
        assert_eq!(planned.events, vec![b, f, a]);
        assert_eq!(planned.taken_over, vec![retrying.id]);
        let mut given_up = planned.given_up.clone();
        given_up.sort();
        let mut expected = vec![rows[0].id, rows[6].id, rows[7].id];
        expected.sort();
        assert_eq!(given_up, expected, "the chosen events' given-up deliveries, and only theirs");
    }

    #[test]
    fn in_flight_or_already_recovering_events_are_left_alone() {
        let now = Utc::now();
        let (since, until) = (now - Duration::hours(1), now);
        let [a, b] = [(); 2].map(|()| Uuid::now_v7());
        let mut leased = made(a, 1, "pending", 1, since);
        leased.lease_until = Some(now + Duration::seconds(30));
        let mut held = made(b, 2, "held", 0, now);
        held.recovery_id = Some(Uuid::now_v7());
        let rows = vec![leased, made(b, 2, "failed", 8, since), held];
        assert_eq!(plan(&rows, since, until, now), Plan::default());
    }
}
