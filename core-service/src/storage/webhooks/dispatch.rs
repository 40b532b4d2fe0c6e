//! The dispatcher's side of webhook storage: leases (paced by `pace.rs`), the signing
//! key ring and the test-call counter.

use crate::domain::UserId;

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::definitions::LeasedRow;
use super::pace::{Paced, PACED_DUE};
use super::WebhooksStore;
use crate::error::CoreError;
use crate::storage::{db_error, Storage};

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

/// What a lease read back: its columns, from `webhook_deliveries d`, `webhooks w` and `events e`.
const LEASED_COLUMNS: &str = "SELECT d.id AS delivery_id, d.webhook_id, d.project_id, d.attempts, w.url, \
    w.custom_data, e.id AS event_id, e.seq AS event_seq, e.kind, e.subject_id, e.subject_type, e.actor_user_id, e.occurred_at, \
    e.payload FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id JOIN events e ON e.id = d.event_id";

/// Reads the deliveries a lease took, by id, on the lease's transaction.
trait ReadLeased {
    async fn read_leased(&mut self, token: Uuid, ids: &[Uuid]) -> Result<Vec<LeasedRow>>;
}

/// PostgreSQL takes the ids as one array: one statement, prepared once per connection, where a
/// list of `$n` was a new statement (parsed and planned again) for every count of leased rows.
impl ReadLeased for sqlx::PgConnection {
    async fn read_leased(&mut self, token: Uuid, ids: &[Uuid]) -> Result<Vec<LeasedRow>> {
        static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let sql = SQL.get_or_init(|| {
            format!("{LEASED_COLUMNS} WHERE d.id = ANY($2) AND d.lease_token = $1 AND d.state = 'pending'")
        });
        sqlx::query_as::<_, LeasedRow>(sql).bind(token).bind(ids).fetch_all(self).await.map_err(db_error)
    }
}

/// SQLite has no arrays: a `$n` per id (SQLite prepares in this process, without a round trip).
impl ReadLeased for sqlx::SqliteConnection {
    async fn read_leased(&mut self, token: Uuid, ids: &[Uuid]) -> Result<Vec<LeasedRow>> {
        let marks: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "{LEASED_COLUMNS} WHERE d.id IN ({}) AND d.lease_token = $1 AND d.state = 'pending'",
            marks.join(", ")
        );
        let mut select = sqlx::query_as::<_, LeasedRow>(&sql).bind(token);
        for id in ids {
            select = select.bind(*id);
        }
        select.fetch_all(self).await.map_err(db_error)
    }
}

/// Which due deliveries a lease statement takes.
#[derive(Clone, Copy)]
enum Leasing<'a> {
    /// Those of every webhook but these.
    AllBut(&'a [Uuid]),
    /// Those of one webhook (bound as $5).
    One,
    /// Those of one webhook (bound as $5) unless it is paced: a paced webhook another dispatcher
    /// is leasing (its row locked) is not found by `PACED_DUE`, and must not be leased unpaced.
    OneUnpaced,
}

const KEY_COLUMNS: &str = "kid, public_x, public_y, sealed_private, created_at, activates_at, retires_at";

impl WebhooksStore {
    /// Leases up to `max` due deliveries until `until` under `token` and returns them with their
    /// webhook and event: none of the webhooks in `skip` (the dispatcher cannot call them now),
    /// at most the allowance of each webhook in `limited` (it can call them only that many more
    /// times now) and of each paced webhook (`maxDeliveriesPerSecond`, `pace.rs`), any number of
    /// the others', oldest due first within each part. One write transaction.
    pub async fn lease_deliveries(
        &self,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
        token: Uuid,
        max: u32,
        skip: &[Uuid],
        limited: &[(Uuid, u32)],
    ) -> Result<Vec<LeasedRow>> {
        let excluded: Vec<Uuid> = skip.iter().copied().chain(limited.iter().map(|(id, _)| *id)).collect();
        let others = self.lease_sql(Leasing::AllBut(&excluded));
        let one_webhook = self.lease_sql(Leasing::One);
        let one_unpaced = self.lease_sql(Leasing::OneUnpaced);
        let paced_due = match self.database() {
            Storage::Postgres(_) => format!("{PACED_DUE} FOR UPDATE OF w SKIP LOCKED"),
            Storage::Sqlite(_) => PACED_DUE.to_owned(),
        };
        // Where a lease's time goes (`RUST_LOG=core_service::webhooks::lease=debug`): waiting for
        // a pooled connection, the lease statements, the commit, the read of what was leased.
        let started = std::time::Instant::now();
        let ms = |since: std::time::Instant| since.elapsed().as_secs_f64() * 1000.0;
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let acquired = ms(started);
            let step = std::time::Instant::now();
            let mut update = sqlx::query_scalar::<_, Uuid>(&others).bind(until).bind(token).bind(now).bind(i64::from(max));
            for webhook_id in &excluded {
                update = update.bind(*webhook_id);
            }
            let mut leased = update.fetch_all(&mut *tx).await.map_err(db_error)?;
            // Paced webhooks (`maxDeliveriesPerSecond`, `pace.rs`) were left out above: each gets
            // what its bucket holds, within its destination's allowance when it has one.
            let paced = sqlx::query_as::<_, Paced>(&paced_due).bind(now).fetch_all(&mut *tx).await.map_err(db_error)?;
            let mut turns: Vec<(Uuid, u32, Option<&Paced>)> = Vec::new();
            for (webhook_id, allowance) in limited {
                match paced.iter().find(|p| p.id == *webhook_id) {
                    Some(bucket) => turns.push((*webhook_id, (*allowance).min(bucket.room(now)), Some(bucket))),
                    None => turns.push((*webhook_id, *allowance, None)),
                }
            }
            for bucket in &paced {
                if !skip.contains(&bucket.id) && !limited.iter().any(|(id, _)| *id == bucket.id) {
                    turns.push((bucket.id, bucket.room(now), Some(bucket)));
                }
            }
            for (webhook_id, allowance, bucket) in turns {
                let room = (max as usize).saturating_sub(leased.len()).min(allowance as usize);
                if room == 0 {
                    continue;
                }
                let more = sqlx::query_scalar::<_, Uuid>(if bucket.is_some() { &one_webhook } else { &one_unpaced })
                    .bind(until)
                    .bind(token)
                    .bind(now)
                    .bind(room as i64)
                    .bind(webhook_id)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db_error)?;
                if let Some(bucket) = bucket.filter(|_| !more.is_empty()) {
                    sqlx::query("UPDATE webhooks SET paced_until = $2 WHERE id = $1")
                        .bind(webhook_id)
                        .bind(bucket.after(now, more.len()))
                        .execute(&mut *tx)
                        .await
                        .map_err(db_error)?;
                }
                leased.extend(more);
            }
            let updated = ms(step);
            if leased.is_empty() {
                tx.commit().await.map_err(db_error)?;
                tracing::debug!(target: "core_service::webhooks::lease", acquired, updated, leased = 0, "lease (ms)");
                return Ok(Vec::new());
            }
            // What was leased, read by the ids the updates returned (primary-key look-ups: no
            // index holds the lease token, and finding the rows by it read every pending
            // delivery, the backlog again), in the same transaction: one pooled connection and
            // no second wait for one (each cost milliseconds under load).
            let step = std::time::Instant::now();
            let rows = ReadLeased::read_leased(&mut *tx, token, &leased).await?;
            let read = ms(step);
            let step = std::time::Instant::now();
            tx.commit().await.map_err(db_error)?;
            tracing::debug!(target: "core_service::webhooks::lease", acquired, updated, read, committed = ms(step),
                leased = rows.len(), "lease (ms)");
            Ok(rows)
        })
    }

    /// The lease `UPDATE`: $1 lease until, $2 token, $3 now, $4 limit, then the webhooks left
    /// out from $5 on, or the one webhook as $5. Returns the leased ids.
    fn lease_sql(&self, leasing: Leasing<'_>) -> String {
        // Paced webhooks are never in the lease of all the others: their turn counts its calls.
        let (excluded, one) = match leasing {
            Leasing::AllBut(excluded) => (excluded, " AND w.max_deliveries_per_second IS NULL"),
            Leasing::One => (&[][..], " AND d.webhook_id = $5"),
            Leasing::OneUnpaced => (&[][..], " AND d.webhook_id = $5 AND w.max_deliveries_per_second IS NULL"),
        };
        let skip_locked = match self.database() {
            Storage::Postgres(_) => " FOR UPDATE OF d SKIP LOCKED",
            Storage::Sqlite(_) => "",
        };
        // The deliveries of a webhook left out are often the oldest due ones (it is left out
        // because its receiver is slow), so walking the global due order steps over all of them
        // first: a lease then costs in proportion to that backlog, and on SQLite it does so
        // inside the one writer. There, a lease that leaves webhooks out walks webhook by webhook
        // (the outer loop), each through its own queue (`webhook_deliveries_queue`, migration
        // 0012), stopping at the limit: it costs in proportion to the webhooks instead. Without
        // exclusions the global order stops at the limit by itself, and is kept.
        // The webhooks are left out by `w.id`, so a plan with the webhooks outside drops them
        // before reading any of their deliveries (PostgreSQL picks that plan itself).
        let deliveries = match self.database() {
            Storage::Sqlite(_) if !excluded.is_empty() => {
                "webhooks w CROSS JOIN webhook_deliveries d ON d.webhook_id = w.id"
            }
            _ => "webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id",
        };
        let left_out = if excluded.is_empty() {
            String::new()
        } else {
            let marks: Vec<String> = (0..excluded.len()).map(|i| format!("${}", i + 5)).collect();
            format!(" AND w.id NOT IN ({})", marks.join(", "))
        };
        format!(
            "UPDATE webhook_deliveries SET lease_until = $1, lease_token = $2, attempts = attempts + 1 \
             WHERE id IN (SELECT d.id FROM {deliveries} \
             WHERE d.state = 'pending' AND d.next_attempt_at <= $3 AND (d.lease_until IS NULL OR d.lease_until <= $3) \
             AND w.enabled = TRUE AND w.disabled_at IS NULL AND w.inactive IS NULL \
             AND (w.slow_down_until IS NULL OR w.slow_down_until <= $3){left_out}{one} \
             ORDER BY d.next_attempt_at LIMIT $4{skip_locked}) RETURNING id"
        )
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
        user_id: UserId,
        now: DateTime<Utc>,
        window_start: DateTime<Utc>,
        limit: u32,
    ) -> Result<Option<DateTime<Utc>>> {
        let lock = match self.database() {
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
