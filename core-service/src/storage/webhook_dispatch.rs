//! The dispatcher's side of webhook storage: leases, outcomes, the signing
//! key ring and the test-call counter.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::webhooks::LeasedRow;
use super::{db_error, Storage};
use crate::error::CoreError;

type Result<T> = std::result::Result<T, CoreError>;

/// One key of the ring as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SigningKeyRow {
    /// Key id, named in every signature header.
    pub kid: String,
    /// Public affine coordinates, base64url.
    pub public_x: String,
    pub public_y: String,
    /// `nonce || ChaCha20-Poly1305(private scalar)`, bound to the kid.
    pub sealed_private: Vec<u8>,
    pub created_at: DateTime<Utc>,
    /// From then on this key signs (the newest active key signs).
    pub activates_at: DateTime<Utc>,
    /// From then on the key is no longer published.
    pub retires_at: Option<DateTime<Utc>>,
}

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
}

/// Records one outcome on the open transaction `$tx` (either backend's); evaluates to false for a
/// stale lease, having written nothing for it.
macro_rules! record_one {
    ($tx:ident, $outcome:expr) => {{
        let outcome: &AttemptOutcome = $outcome;
        let succeeded = outcome.error.is_none();
        let state = match (succeeded, outcome.retry_at) {
            (true, _) => "delivered",
            (false, Some(_)) => "pending",
            (false, None) => "failed",
        };
        let updated: Option<(Uuid, i32)> = sqlx::query_as(
            "UPDATE webhook_deliveries SET state = $3, next_attempt_at = COALESCE($4, next_attempt_at), \
             lease_until = NULL, lease_token = NULL, finished_at = CASE WHEN $3 = 'pending' THEN NULL ELSE $5 END \
             WHERE id = $1 AND lease_token = $2 RETURNING webhook_id, attempts",
        )
        .bind(outcome.delivery_id)
        .bind(outcome.lease_token)
        .bind(state)
        .bind(outcome.retry_at)
        .bind(outcome.at)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_error)?;
        match updated {
            None => false,
            Some((webhook_id, attempt)) => {
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
                if !succeeded {
                    let (failures, first_before) = outcome.disable_rule;
                    let reason = outcome.disable_now.clone().unwrap_or_else(|| {
                        format!("disabled automatically after {failures} or more failed deliveries in a row")
                    });
                    sqlx::query(
                        "UPDATE webhooks SET disabled_at = $2, disabled_reason = $3 WHERE id = $1 \
                         AND disabled_at IS NULL AND ($4 OR (consecutive_failures >= $5 AND first_failure_at <= $6))",
                    )
                    .bind(webhook_id)
                    .bind(outcome.at)
                    .bind(reason)
                    .bind(outcome.disable_now.is_some())
                    .bind(failures)
                    .bind(first_before)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_error)?;
                }
                true
            }
        }
    }};
}

const KEY_COLUMNS: &str = "kid, public_x, public_y, sealed_private, created_at, activates_at, retires_at";

impl Storage {
    /// Leases up to `max` due deliveries until `until` under `token`, skipping those of `skip`
    /// (webhooks the dispatcher cannot call now), and returns them with their webhook and event.
    /// One write: the `UPDATE` takes the whole batch.
    pub async fn lease_deliveries(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        token: Uuid,
        max: u32,
        skip: &[Uuid],
    ) -> Result<Vec<LeasedRow>> {
        let skip_locked = match self {
            Storage::Postgres(_) => " FOR UPDATE OF d SKIP LOCKED",
            Storage::Sqlite(_) => "",
        };
        let skipped = if skip.is_empty() {
            String::new()
        } else {
            let marks: Vec<String> = (0..skip.len()).map(|i| format!("${}", i + 5)).collect();
            format!(" AND d.webhook_id NOT IN ({})", marks.join(", "))
        };
        let sql = format!(
            "UPDATE webhook_deliveries SET lease_until = $1, lease_token = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT d.id FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id \
             WHERE d.state = 'pending' AND d.next_attempt_at <= $3 AND (d.lease_until IS NULL OR d.lease_until <= $3) \
             AND w.enabled = TRUE AND w.disabled_at IS NULL AND w.inactive IS NULL{skipped} \
             ORDER BY d.next_attempt_at LIMIT $4{skip_locked})"
        );
        with_write_pool!(self, pool => {
            let mut update = sqlx::query(&sql).bind(until).bind(token).bind(now).bind(i64::from(max));
            for webhook_id in skip {
                update = update.bind(*webhook_id);
            }
            let leased = update.execute(pool).await.map_err(db_error)?;
            if leased.rows_affected() == 0 {
                return Ok(Vec::new());
            }
            sqlx::query_as::<_, LeasedRow>(
                "SELECT d.id AS delivery_id, d.webhook_id, d.project_id, d.attempts, w.url, w.custom_data, \
                 e.id AS event_id, e.kind, e.subject_id, e.subject_type, e.actor_user_id, e.occurred_at, e.payload \
                 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id \
                 WHERE d.lease_token = $1 AND d.state = 'pending'",
            )
            .bind(token)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Gives leased deliveries back (their attempts were cut off, or their destination is busy):
    /// due again at once, the attempts not counted, in one transaction. Returns how many were
    /// still held (a stale lease is left alone).
    pub async fn release_deliveries(&self, leases: &[(Uuid, Uuid)]) -> Result<u32> {
        if leases.is_empty() {
            return Ok(0);
        }
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let mut released = 0;
            for (delivery_id, token) in leases {
                let done = sqlx::query(
                    "UPDATE webhook_deliveries SET lease_until = NULL, lease_token = NULL, \
                     attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END \
                     WHERE id = $1 AND lease_token = $2 AND state = 'pending'",
                )
                .bind(*delivery_id)
                .bind(*token)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
                released += done.rows_affected() as u32;
            }
            tx.commit().await.map_err(db_error)?;
            Ok(released)
        })
    }

    /// Records attempts, each as [`Storage::record_attempt`] would, all in one transaction (one
    /// write where SQLite has a single writer). Returns, per outcome, whether it was recorded
    /// (false: a stale lease, nothing written for it).
    pub async fn record_attempts(&self, outcomes: &[AttemptOutcome]) -> Result<Vec<bool>> {
        if outcomes.is_empty() {
            return Ok(Vec::new());
        }
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let mut recorded = Vec::with_capacity(outcomes.len());
            for outcome in outcomes {
                recorded.push(record_one!(tx, outcome));
            }
            tx.commit().await.map_err(db_error)?;
            Ok(recorded)
        })
    }

    /// Records an attempt: the attempt row, the delivery's next state and the webhook's status
    /// (with the automatic disable), in one transaction. Returns false for a stale lease (nothing
    /// written).
    pub async fn record_attempt(&self, outcome: &AttemptOutcome) -> Result<bool> {
        Ok(self.record_attempts(std::slice::from_ref(outcome)).await?.first().copied().unwrap_or(false))
    }

    /// Adds a key; when `retire_others_at` is given, every other key without
    /// a retirement time gets that one.
    pub async fn insert_signing_key(&self, key: &SigningKeyRow, retire_others_at: Option<DateTime<Utc>>) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            if let Some(at) = retire_others_at {
                sqlx::query("UPDATE signing_keys SET retires_at = $1 WHERE retires_at IS NULL")
                    .bind(at)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_error)?;
            }
            sqlx::query(&format!("INSERT INTO signing_keys ({KEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"))
                .bind(&key.kid)
                .bind(&key.public_x)
                .bind(&key.public_y)
                .bind(&key.sealed_private)
                .bind(key.created_at)
                .bind(key.activates_at)
                .bind(key.retires_at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Keys not retired at `now` (published, including ones not yet signing),
    /// oldest activation first.
    pub async fn published_signing_keys(&self, now: DateTime<Utc>) -> Result<Vec<SigningKeyRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, SigningKeyRow>(&format!(
                "SELECT {KEY_COLUMNS} FROM signing_keys WHERE retires_at IS NULL OR retires_at > $1 \
                 ORDER BY activates_at, kid"
            ))
            .bind(now)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Counts a test call of `user_id` unless `limit` calls were made since
    /// `window_start`; then returns the oldest of them (the caller derives
    /// `Retry-After`). PostgreSQL locks the user's row so replicas count
    /// one at a time; SQLite's single writer already does.
    pub async fn count_test_call(
        &self,
        user_id: Uuid,
        now: DateTime<Utc>,
        window_start: DateTime<Utc>,
        limit: u32,
    ) -> Result<Option<DateTime<Utc>>> {
        let lock = match self {
            Storage::Postgres(_) => "SELECT id FROM users WHERE id = $1 FOR UPDATE",
            Storage::Sqlite(_) => "SELECT id FROM users WHERE id = $1",
        };
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            sqlx::query(lock).bind(user_id).execute(&mut *tx).await.map_err(db_error)?;
            let recent: Vec<(DateTime<Utc>,)> = sqlx::query_as(
                "SELECT called_at FROM webhook_test_calls WHERE user_id = $1 AND called_at > $2 ORDER BY called_at",
            )
            .bind(user_id)
            .bind(window_start)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_error)?;
            if recent.len() >= limit as usize {
                return Ok(Some(recent[recent.len() - limit as usize].0));
            }
            sqlx::query("DELETE FROM webhook_test_calls WHERE user_id = $1 AND called_at <= $2")
                .bind(user_id)
                .bind(window_start)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            sqlx::query("INSERT INTO webhook_test_calls (user_id, called_at) VALUES ($1, $2)")
                .bind(user_id)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            Ok(None)
        })
    }
}
