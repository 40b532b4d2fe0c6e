//! Webhooks, their deliveries and attempts.
//!
//! Deliveries are the outbox's fan-out: `storage::outbox` writes them inside the
//! transaction of every event, so a committed change always has its deliveries. Dispatchers lease due rows: PostgreSQL
//! skips rows another lease is taking (`FOR UPDATE SKIP LOCKED`); SQLite has
//! one writer connection, so the `UPDATE … WHERE id IN (…)` is atomic anyway.
//! An expired lease makes a row due again (at-least-once delivery).

use crate::domain::{ProjectId, UserId};
use chrono::{DateTime, Utc};
use sqlx::types::Json;
use uuid::Uuid;

use super::WebhooksStore;
use crate::error::CoreError;
use crate::storage::db_error;

type Result<T> = std::result::Result<T, CoreError>;

const WEBHOOK_COLUMNS: &str = "id, project_id, name, url, enabled, events, event_mask, custom_data, created_at, \
    updated_at, inactive, last_attempt_at, last_success_at, last_status_code, last_error, consecutive_failures, \
    first_failure_at, disabled_at, disabled_reason, slow_down_until, max_deliveries_per_second";

/// A webhook as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookRow {
    pub id: Uuid,
    pub project_id: ProjectId,
    /// Display name.
    pub name: Option<String>,
    /// Destination URL (https).
    pub url: String,
    /// False: kept but never called.
    pub enabled: bool,
    /// The event kinds as sent (a JSON array).
    #[sqlx(json)]
    pub events: Vec<String>,
    /// The same kinds as bits (`webhooks::event_mask`), for the fan-out.
    pub event_mask: i64,
    /// customData's JSON text exactly as sent.
    pub custom_data: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// `copiedFromOtherProject` or `invalidDefinition`.
    pub inactive: Option<String>,
    pub last_attempt_at: Option<DateTime<Utc>>,
    pub last_success_at: Option<DateTime<Utc>>,
    pub last_status_code: Option<i32>,
    /// Short reason of the last failure; never the receiver's body.
    pub last_error: Option<String>,
    pub consecutive_failures: i32,
    /// When the current run of failures began; None after a success.
    pub first_failure_at: Option<DateTime<Utc>>,
    /// Set by the automatic disable (or a 410 Gone).
    pub disabled_at: Option<DateTime<Utc>>,
    pub disabled_reason: Option<String>,
    /// No call before then: the receiver answered 429 with `Retry-After` (`webhooks::retry`).
    pub slow_down_until: Option<DateTime<Utc>>,
    /// The most calls per second (`maxDeliveriesPerSecond`); None: no limit.
    pub max_deliveries_per_second: Option<i32>,
}

/// A delivery as leased: what is needed to build, sign and send it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LeasedRow {
    pub delivery_id: Uuid,
    pub webhook_id: Uuid,
    pub project_id: ProjectId,
    /// This attempt's number (1 for the first).
    pub attempts: i32,
    pub url: String,
    pub custom_data: Option<String>,
    pub event_id: Uuid,
    /// The event's place in the project's change log (receivers order by it).
    pub event_seq: i64,
    #[sqlx(try_from = "String")]
    pub kind: crate::domain::EventKind,
    pub subject_id: Uuid,
    pub subject_type: String,
    pub actor_user_id: UserId,
    pub occurred_at: DateTime<Utc>,
    #[sqlx(json)]
    pub payload: serde_json::Value,
}

/// One recorded attempt, for the deliveries listing.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttemptRow {
    pub delivery_id: Uuid,
    pub event_id: Uuid,
    #[sqlx(try_from = "String")]
    pub kind: crate::domain::EventKind,
    pub attempt: i32,
    pub attempted_at: DateTime<Utc>,
    pub status_code: Option<i32>,
    pub duration_ms: i64,
    pub error: Option<String>,
}

impl WebhooksStore {
    pub async fn insert_webhook(&self, row: &WebhookRow) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(&format!(
                "INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES \
                 ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)"
            ))
            .bind(row.id)
            .bind(row.project_id)
            .bind(&row.name)
            .bind(&row.url)
            .bind(row.enabled)
            .bind(Json(&row.events))
            .bind(row.event_mask)
            .bind(&row.custom_data)
            .bind(row.created_at)
            .bind(row.updated_at)
            .bind(&row.inactive)
            .bind(row.last_attempt_at)
            .bind(row.last_success_at)
            .bind(row.last_status_code)
            .bind(&row.last_error)
            .bind(row.consecutive_failures)
            .bind(row.first_failure_at)
            .bind(row.disabled_at)
            .bind(&row.disabled_reason)
            .bind(row.slow_down_until)
            .bind(row.max_deliveries_per_second)
            .execute(pool)
            .await
            .map_err(db_error)?;
        });
        Ok(())
    }

    /// A project's webhooks, oldest first.
    pub async fn list_webhooks(&self, project_id: ProjectId) -> Result<Vec<WebhookRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, WebhookRow>(&format!(
                "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE project_id = $1 ORDER BY id"
            ))
            .bind(project_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Every webhook, for re-validation at start-up.
    pub async fn all_webhooks(&self) -> Result<Vec<WebhookRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, WebhookRow>(&format!("SELECT {WEBHOOK_COLUMNS} FROM webhooks ORDER BY id"))
                .fetch_all(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Reads from the writer on SQLite, so a record is seen right after the
    /// write that changed it.
    pub async fn get_webhook(&self, project_id: ProjectId, id: Uuid) -> Result<Option<WebhookRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, WebhookRow>(&format!(
                "SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND project_id = $2"
            ))
            .bind(id)
            .bind(project_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Replaces the definition; a re-save re-enables: clears the automatic
    /// disable, the failure run, a slow-down the receiver asked for and `inactive`.
    pub async fn replace_webhook(&self, row: &WebhookRow) -> Result<Option<WebhookRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, WebhookRow>(&format!(
                "UPDATE webhooks SET name = $3, url = $4, enabled = $5, events = $6, event_mask = $7, \
                 custom_data = $8, updated_at = $9, max_deliveries_per_second = $10, inactive = NULL, consecutive_failures = 0, \
                 first_failure_at = NULL, disabled_at = NULL, disabled_reason = NULL, slow_down_until = NULL \
                 WHERE id = $1 AND project_id = $2 RETURNING {WEBHOOK_COLUMNS}"
            ))
            .bind(row.id)
            .bind(row.project_id)
            .bind(&row.name)
            .bind(&row.url)
            .bind(row.enabled)
            .bind(Json(&row.events))
            .bind(row.event_mask)
            .bind(&row.custom_data)
            .bind(row.updated_at)
            .bind(row.max_deliveries_per_second)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Enables the webhook and clears an automatic disable, its counter and a slow-down the
    /// receiver asked for (the operator's word comes after the receiver's).
    pub async fn enable_webhook(
        &self,
        project_id: ProjectId,
        id: Uuid,
        at: DateTime<Utc>,
    ) -> Result<Option<WebhookRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, WebhookRow>(&format!(
                "UPDATE webhooks SET enabled = TRUE, updated_at = $3, consecutive_failures = 0, \
                 first_failure_at = NULL, disabled_at = NULL, disabled_reason = NULL, slow_down_until = NULL \
                 WHERE id = $1 AND project_id = $2 RETURNING {WEBHOOK_COLUMNS}"
            ))
            .bind(id)
            .bind(project_id)
            .bind(at)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Deletes a webhook with its pending deliveries; returns the record.
    pub async fn delete_webhook(&self, project_id: ProjectId, id: Uuid) -> Result<Option<WebhookRow>> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            // Deliveries before the webhook: the dispatcher's report locks a delivery and then its
            // webhook (`webhook_dispatch.rs`), so taking them in the other order deadlocked on
            // PostgreSQL when a webhook was deleted while its delivery was being reported (a 409).
            sqlx::query("DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND state IN ('pending', 'held')")
                .bind(id)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            sqlx::query("DELETE FROM webhook_recoveries WHERE webhook_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            let deleted = sqlx::query_as::<_, WebhookRow>(&format!(
                "DELETE FROM webhooks WHERE id = $1 AND project_id = $2 RETURNING {WEBHOOK_COLUMNS}"
            ))
            .bind(id)
            .bind(project_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_error)?;
            if deleted.is_none() {
                // Not this project's webhook (or gone already): nothing of it may be deleted.
                tx.rollback().await.map_err(db_error)?;
                return Ok(None);
            }
            tx.commit().await.map_err(db_error)?;
            Ok(deleted)
        })
    }

    /// Sets or clears `inactive = invalidDefinition`; a copied webhook keeps
    /// its own reason until it is re-saved.
    pub async fn mark_invalid(&self, id: Uuid, invalid: bool) -> Result<()> {
        with_write_pool!(self, pool => {
            let sql = if invalid {
                "UPDATE webhooks SET inactive = 'invalidDefinition' WHERE id = $1 AND inactive IS NULL"
            } else {
                "UPDATE webhooks SET inactive = NULL WHERE id = $1 AND inactive = 'invalidDefinition'"
            };
            sqlx::query(sql).bind(id).execute(pool).await.map_err(db_error)?;
        });
        Ok(())
    }

    /// The most recent attempts of a webhook, newest first.
    pub async fn list_attempts(&self, webhook_id: Uuid, limit: u32) -> Result<Vec<AttemptRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, AttemptRow>(
                "SELECT a.delivery_id, d.event_id, e.kind, a.attempt, a.attempted_at, a.status_code, \
                 a.duration_ms, a.error FROM webhook_attempts a \
                 JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN events e ON e.id = d.event_id \
                 WHERE a.webhook_id = $1 ORDER BY a.id DESC LIMIT $2",
            )
            .bind(webhook_id)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Queues the event of `delivery_id` again for its webhook under
    /// `new_id`; None when no such delivery belongs to the webhook.
    pub async fn redeliver(
        &self,
        webhook_id: Uuid,
        delivery_id: Uuid,
        new_id: Uuid,
        at: DateTime<Utc>,
    ) -> Result<bool> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let inserted = sqlx::query(
                "INSERT INTO webhook_deliveries \
                 (id, webhook_id, project_id, event_id, state, attempts, next_attempt_at, created_at) \
                 SELECT $1, webhook_id, project_id, event_id, 'pending', 0, $2, $2 FROM webhook_deliveries \
                 WHERE id = $3 AND webhook_id = $4",
            )
            .bind(new_id)
            .bind(at)
            .bind(delivery_id)
            .bind(webhook_id)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            // A given-up delivery sent again is given up no more (the account site's alerts).
            sqlx::query(
                "UPDATE webhook_deliveries SET state = 'recovered' WHERE id = $1 AND webhook_id = $2 AND state = 'failed'",
            )
            .bind(delivery_id)
            .bind(webhook_id)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            Ok(inserted.rows_affected() == 1)
        })
    }
}
