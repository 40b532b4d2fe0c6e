//! What the dispatchers report: each attempt's outcome, recorded with the delivery's next state
//! and its webhook's status (the failures in a row, the automatic disable, and the slow-down a
//! receiver asked for with 429), and the operational events of a give-up or a disable
//! (`operational.rs`), in one transaction per batch of reports.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::operational::{raise_disabled, raise_exhausted, Disabled, DISABLED_RETURNING};
use super::recoveries::advance_recoveries;
use super::WebhooksStore;
use crate::error::CoreError;
use crate::storage::{db_error, Storage};

type Result<T> = std::result::Result<T, CoreError>;

/// The outcome of one attempt, as stored.
#[derive(Debug, Clone)]
pub struct AttemptOutcome {
    pub delivery_id: Uuid,
    /// Must match the lease; a stale report changes nothing.
    pub lease_token: Uuid,
    pub at: DateTime<Utc>,
    pub status_code: Option<i32>,
    pub duration_ms: i64,
    /// None on success.
    pub error: Option<String>,
    /// When to retry; None with an error means the delivery is given up.
    pub retry_at: Option<DateTime<Utc>>,
    /// Disable the webhook now with this reason (a 410 Gone).
    pub disable_now: Option<String>,
    /// Automatic disable: `(failures, first failure at or before)`.
    pub disable_rule: (i32, DateTime<Utc>),
    /// The receiver asked to be called more slowly (429 with `Retry-After`): see [`SlowDown`].
    pub slow_down: Option<SlowDown>,
}

/// A 429 with `Retry-After` that is a slow-down, not a failure, while the delivery is younger than
/// the retry schedule (`crate::webhooks::retry`): the webhook gets no call before `until`, this
/// delivery is due again then, the attempt is not counted against the schedule's attempts nor as a
/// failure in a row. A delivery created at or before `unless_created_by` has been retried for as
/// long as the whole schedule lasts: its 429 is an ordinary failed attempt (`retry_at`,
/// `disable_rule`), so a receiver that only ever answers 429 cannot keep a delivery for ever.
#[derive(Debug, Clone, Copy)]
pub struct SlowDown {
    pub until: DateTime<Utc>,
    pub unless_created_by: DateTime<Utc>,
}

/// Records one outcome's delivery and attempt on the open transaction `$tx` (either backend's);
/// evaluates to the delivery's webhook and whether its 429 was a slow-down, or `None` for a stale
/// lease, having written nothing for it.
/// The webhook's status is [`record_status!`]'s.
macro_rules! record_delivery {
    ($tx:ident, $outcome:expr) => {{
        let outcome: &AttemptOutcome = $outcome;
        let state = delivery_state(outcome);
        let (slow_until, created_after) = outcome.slow_down.map(|s| (s.until, s.unless_created_by)).unzip();
        // `$6 IS NOT NULL AND created_at > $7`: the 429 is a slow-down (see `SlowDown`).
        let updated: Option<(Uuid, i32, bool)> = sqlx::query_as(
            "UPDATE webhook_deliveries SET \
             state = CASE WHEN $6 IS NOT NULL AND created_at > $7 THEN 'pending' ELSE $3 END, \
             next_attempt_at = CASE WHEN $6 IS NOT NULL AND created_at > $7 THEN $6 ELSE COALESCE($4, next_attempt_at) END, \
             attempts = CASE WHEN $6 IS NOT NULL AND created_at > $7 THEN attempts - 1 ELSE attempts END, \
             lease_until = NULL, lease_token = NULL, \
             finished_at = CASE WHEN ($6 IS NOT NULL AND created_at > $7) OR $3 = 'pending' THEN NULL ELSE $5 END \
             WHERE id = $1 AND lease_token = $2 \
             RETURNING webhook_id, attempts, ($6 IS NOT NULL AND created_at > $7) AS slowed",
        )
        .bind(outcome.delivery_id)
        .bind(outcome.lease_token)
        .bind(state)
        .bind(outcome.retry_at)
        .bind(outcome.at)
        .bind(slow_until)
        .bind(created_after)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_error)?;
        match updated {
            None => None,
            Some((webhook_id, attempts, slowed)) => {
                // A slowed attempt gave its count back: it was call number `attempts + 1`.
                let attempt = if slowed { attempts + 1 } else { attempts };
                sqlx::query(
                    "INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, attempted_at, status_code, \
                     duration_ms, error) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(outcome.delivery_id)
                .bind(webhook_id)
                .bind(attempt)
                .bind(outcome.at)
                .bind(outcome.status_code)
                .bind(outcome.duration_ms)
                .bind(&outcome.error)
                .execute(&mut *$tx)
                .await
                .map_err(db_error)?;
                Some((webhook_id, slowed))
            }
        }
    }};
}

/// Records one outcome in its webhook's status (last attempt, failures in a row) on the open
/// transaction `$tx`, with the automatic disable and its `webhook.disabled` event; evaluates to the
/// operational events raised (0 or 1).
macro_rules! record_status {
    ($tx:ident, $webhook_id:expr, $outcome:expr, $slowed:expr) => {{
        let (webhook_id, outcome, slowed): (Uuid, &AttemptOutcome, bool) = ($webhook_id, $outcome, $slowed);
        if slowed {
            // Not a failure: the streak stands; no call before the later of the two times asked.
            let until = outcome.slow_down.map(|s| s.until);
            sqlx::query(
                "UPDATE webhooks SET last_attempt_at = $2, last_status_code = $3, last_error = $4, \
                 slow_down_until = CASE WHEN slow_down_until IS NULL OR slow_down_until < $5 THEN $5 \
                 ELSE slow_down_until END WHERE id = $1",
            )
            .bind(webhook_id)
            .bind(outcome.at)
            .bind(outcome.status_code)
            .bind(&outcome.error)
            .bind(until)
            .execute(&mut *$tx)
            .await
            .map_err(db_error)?;
            0u64
        } else {
            let succeeded = outcome.error.is_none();
            let status_sql = if succeeded {
                "UPDATE webhooks SET last_attempt_at = $2, last_success_at = $2, last_status_code = $3, \
             last_error = NULL, consecutive_failures = 0, first_failure_at = NULL WHERE id = $1"
            } else {
                "UPDATE webhooks SET last_attempt_at = $2, last_status_code = $3, last_error = $4, \
             consecutive_failures = consecutive_failures + 1, first_failure_at = COALESCE(first_failure_at, $2) \
             WHERE id = $1"
            };
            let mut status = sqlx::query(status_sql).bind(webhook_id).bind(outcome.at).bind(outcome.status_code);
            if !succeeded {
                status = status.bind(&outcome.error);
            }
            status.execute(&mut *$tx).await.map_err(db_error)?;
            if succeeded {
                0u64
            } else {
                let (failures, first_before) = outcome.disable_rule;
                let reason = outcome.disable_now.clone().unwrap_or_else(|| {
                    format!("disabled automatically after {failures} or more failed deliveries in a row")
                });
                // Returns the webhook only when this statement disabled it: once per disable.
                let disabled: Option<Disabled> = sqlx::query_as(&format!(
                    "UPDATE webhooks SET disabled_at = $2, disabled_reason = $3 WHERE id = $1 \
                 AND disabled_at IS NULL AND ($4 OR (consecutive_failures >= $5 AND first_failure_at <= $6)) \
                 {DISABLED_RETURNING}"
                ))
                .bind(webhook_id)
                .bind(outcome.at)
                .bind(reason)
                .bind(outcome.disable_now.is_some())
                .bind(failures)
                .bind(first_before)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(db_error)?;
                raise_disabled!($tx, webhook_id, outcome.at, disabled)
            }
        }
    }};
}

/// Records the webhooks' status of `$by_webhook` (webhook, outcome, in the order reported) on the
/// open transaction `$tx`. A webhook whose outcomes in the batch all succeeded gets one status
/// update, its last outcome's: each success sets the same fields, so only the last one shows, and
/// a busy webhook's row is written once per batch instead of once per delivery (on PostgreSQL
/// every write of that one row is a new version of it). A webhook with a failure in the batch gets
/// them all, in order, for the failures in a row and the automatic disable. Evaluates to the
/// operational events raised.
macro_rules! record_statuses {
    ($tx:ident, $by_webhook:expr) => {{
        let mut by_webhook: Vec<(Uuid, &AttemptOutcome, bool)> = $by_webhook;
        // Webhook rows are written in the order of their ids (each webhook's outcomes still in
        // the order reported), so two batches naming the same webhooks lock them in one order
        // and never wait on each other in a circle (PostgreSQL would abort one as a deadlock).
        by_webhook.sort_by_key(|(webhook, _, _)| *webhook);
        // A slow-down is not a failure, but its webhook's row gets it in order as a failure's does
        // (it sets the time before which nothing is sent, which a later success must not hide).
        let failing: HashSet<Uuid> = by_webhook
            .iter()
            .filter(|(_, outcome, _)| outcome.error.is_some())
            .map(|(webhook, _, _)| *webhook)
            .collect();
        let mut raised = 0u64;
        for (n, (webhook, outcome, slowed)) in by_webhook.iter().enumerate() {
            let last_of_webhook = by_webhook.get(n + 1).is_none_or(|(next, _, _)| next != webhook);
            if failing.contains(webhook) || last_of_webhook {
                raised += record_status!($tx, *webhook, *outcome, *slowed);
            }
        }
        raised
    }};
}

/// [`Storage::record_attempts`] on PostgreSQL: the deliveries and the attempt rows of the whole
/// batch in one statement each (arrays unnested), not two round trips per outcome: a batch of
/// 30 was 60 statements on every delivery's path. A report repeated in one batch (same delivery,
/// same lease) is recorded once, by its first copy, as one statement after the other would (the
/// first clears the lease the second names).
async fn record_attempts_pg(pool: &sqlx::PgPool, outcomes: &[AttemptOutcome]) -> Result<Recorded> {
    let mut first = HashSet::with_capacity(outcomes.len());
    let unique: Vec<&AttemptOutcome> =
        outcomes.iter().filter(|o| first.insert((o.delivery_id, o.lease_token))).collect();
    let column = |get: fn(&AttemptOutcome) -> Option<DateTime<Utc>>| unique.iter().map(|o| get(o)).collect::<Vec<_>>();
    let mut tx = pool.begin().await.map_err(db_error)?;
    // `o.slow_until IS NOT NULL AND d.created_at > o.created_after`: the 429 is a slow-down.
    let updated: Vec<(Uuid, Uuid, Uuid, i32, bool)> = sqlx::query_as(
        "UPDATE webhook_deliveries d SET \
         state = CASE WHEN o.slow_until IS NOT NULL AND d.created_at > o.created_after THEN 'pending' ELSE o.state END, \
         next_attempt_at = CASE WHEN o.slow_until IS NOT NULL AND d.created_at > o.created_after THEN o.slow_until \
         ELSE COALESCE(o.retry_at, d.next_attempt_at) END, \
         attempts = CASE WHEN o.slow_until IS NOT NULL AND d.created_at > o.created_after THEN d.attempts - 1 \
         ELSE d.attempts END, \
         lease_until = NULL, lease_token = NULL, \
         finished_at = CASE WHEN (o.slow_until IS NOT NULL AND d.created_at > o.created_after) OR o.state = 'pending' \
         THEN NULL ELSE o.at END \
         FROM UNNEST($1::uuid[], $2::uuid[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], \
         $7::timestamptz[]) AS o(id, token, state, retry_at, at, slow_until, created_after) \
         WHERE d.id = o.id AND d.lease_token = o.token \
         RETURNING d.id, o.token, d.webhook_id, d.attempts, \
         (o.slow_until IS NOT NULL AND d.created_at > o.created_after) AS slowed",
    )
    .bind(unique.iter().map(|o| o.delivery_id).collect::<Vec<_>>())
    .bind(unique.iter().map(|o| o.lease_token).collect::<Vec<_>>())
    .bind(unique.iter().map(|o| delivery_state(o)).collect::<Vec<_>>())
    .bind(column(|o| o.retry_at))
    .bind(column(|o| Some(o.at)))
    .bind(column(|o| o.slow_down.map(|s| s.until)))
    .bind(column(|o| o.slow_down.map(|s| s.unless_created_by)))
    .fetch_all(&mut *tx)
    .await
    .map_err(db_error)?;
    // A slowed attempt gave its count back: it was call number `attempts + 1`.
    let held: HashMap<(Uuid, Uuid), (Uuid, i32, bool)> = updated
        .into_iter()
        .map(|(delivery, token, webhook, attempts, slowed)| {
            ((delivery, token), (webhook, if slowed { attempts + 1 } else { attempts }, slowed))
        })
        .collect();
    // In the order reported, so the attempts' ids (the history's order) follow it.
    let done: Vec<(&AttemptOutcome, Uuid, i32, bool)> = unique
        .iter()
        .filter_map(|o| held.get(&(o.delivery_id, o.lease_token)).map(|(w, a, s)| (*o, *w, *a, *s)))
        .collect();
    if !done.is_empty() {
        sqlx::query(
            "INSERT INTO webhook_attempts (delivery_id, webhook_id, attempt, attempted_at, status_code, duration_ms, error) \
             SELECT delivery_id, webhook_id, attempt, attempted_at, status_code, duration_ms, error \
             FROM UNNEST($1::uuid[], $2::uuid[], $3::int4[], $4::timestamptz[], $5::int4[], $6::int8[], $7::text[]) \
             WITH ORDINALITY AS a(delivery_id, webhook_id, attempt, attempted_at, status_code, duration_ms, error, n) \
             ORDER BY n",
        )
        .bind(done.iter().map(|(o, ..)| o.delivery_id).collect::<Vec<_>>())
        .bind(done.iter().map(|(_, webhook, ..)| *webhook).collect::<Vec<_>>())
        .bind(done.iter().map(|(_, _, attempt, _)| *attempt).collect::<Vec<_>>())
        .bind(done.iter().map(|(o, ..)| o.at).collect::<Vec<_>>())
        .bind(done.iter().map(|(o, ..)| o.status_code).collect::<Vec<_>>())
        .bind(done.iter().map(|(o, ..)| o.duration_ms).collect::<Vec<_>>())
        .bind(done.iter().map(|(o, ..)| o.error.clone()).collect::<Vec<_>>())
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
    }
    let mut raised = 0;
    for (outcome, ..) in done.iter().filter(|(o, _, _, slowed)| gave_up(o, *slowed)) {
        raised += raise_exhausted!(tx, outcome);
    }
    raised += record_statuses!(tx, done.iter().map(|(o, webhook, _, slowed)| (*webhook, *o, *slowed)).collect());
    let released = advance_recoveries!(tx, Utc::now());
    tx.commit().await.map_err(db_error)?;
    // Each outcome recorded, or not (a stale lease, or a repeated report in the batch).
    let mut counted = HashSet::with_capacity(outcomes.len());
    let recorded = outcomes
        .iter()
        .map(|o| {
            let key = (o.delivery_id, o.lease_token);
            held.contains_key(&key) && counted.insert(key)
        })
        .collect();
    Ok(Recorded { recorded, released, raised })
}

/// What a batch of reports wrote.
#[derive(Debug, Default)]
pub struct Recorded {
    /// Per outcome, whether it was recorded (false: a stale lease, nothing written for it).
    pub recorded: Vec<bool>,
    /// Deliveries of recoveries made pending because the one before them finished
    /// (`recoveries.rs`): the dispatchers are to be woken for them.
    pub released: u64,
    /// Operational events raised (`operational.rs`): their deliveries are new, and the dispatchers
    /// are to be woken for them too.
    pub raised: u64,
}

impl Recorded {
    /// Whether the batch made deliveries due that no dispatcher was told of.
    pub fn enqueued(&self) -> bool {
        self.released + self.raised > 0
    }
}

/// Whether the outcome gave its delivery up for good: an error with no retry, and not a slow-down.
fn gave_up(outcome: &AttemptOutcome, slowed: bool) -> bool {
    !slowed && delivery_state(outcome) == "failed"
}

/// A delivery's state after an attempt: delivered, pending a retry, or failed for good.
fn delivery_state(outcome: &AttemptOutcome) -> &'static str {
    match (outcome.error.is_none(), outcome.retry_at) {
        (true, _) => "delivered",
        (false, Some(_)) => "pending",
        (false, None) => "failed",
    }
}

impl WebhooksStore {
    /// Records attempts, each as [`Storage::record_attempt`] would, all in one transaction (one
    /// write where SQLite has a single writer), and moves recoveries on whose delivery finished.
    pub async fn record_attempts(&self, outcomes: &[AttemptOutcome]) -> Result<Recorded> {
        if outcomes.is_empty() {
            return Ok(Recorded::default());
        }
        let pool = match self.database() {
            Storage::Postgres(pool) => return record_attempts_pg(pool, outcomes).await,
            Storage::Sqlite(store) => store.writer_pool(),
        };
        let mut tx = pool.begin().await.map_err(db_error)?;
        let mut recorded = Vec::with_capacity(outcomes.len());
        let mut by_webhook: Vec<(Uuid, &AttemptOutcome, bool)> = Vec::with_capacity(outcomes.len());
        let mut raised = 0;
        for outcome in outcomes {
            let webhook = record_delivery!(tx, outcome);
            recorded.push(webhook.is_some());
            if webhook.is_some_and(|(_, slowed)| gave_up(outcome, slowed)) {
                raised += raise_exhausted!(tx, outcome);
            }
            by_webhook.extend(webhook.map(|(webhook, slowed)| (webhook, outcome, slowed)));
        }
        raised += record_statuses!(tx, by_webhook);
        let released = advance_recoveries!(tx, Utc::now());
        tx.commit().await.map_err(db_error)?;
        Ok(Recorded { recorded, released, raised })
    }

    /// Records an attempt: the attempt row, the delivery's next state and the webhook's status
    /// (with the automatic disable), in one transaction.
    pub async fn record_attempt(&self, outcome: &AttemptOutcome) -> Result<Recorded> {
        self.record_attempts(std::slice::from_ref(outcome)).await
    }
}
