//! Operational events as the account site shows them to a project's managers: webhooks disabled by
//! their failures (or a 410 Gone), and deliveries given up after every attempt. Both are read from
//! the state delivery already keeps (`webhooks.disabled_at`, deliveries in state `failed`), so
//! nothing more is written on the delivery path.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::WebhooksStore;
use crate::domain::ProjectId;
use crate::error::CoreError;
use crate::storage::db_error;

/// A webhook that needs its managers' attention.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WebhookAlertRow {
    pub id: Uuid,
    pub project_id: ProjectId,
    pub name: Option<String>,
    pub url: String,
    pub disabled_at: Option<DateTime<Utc>>,
    pub disabled_reason: Option<String>,
    /// Deliveries given up, of events recorded since the window's start.
    pub given_up: i64,
    /// The oldest of them: where a recovery of them all starts.
    pub first_given_up_at: Option<DateTime<Utc>>,
}

impl WebhooksStore {
    /// The project's webhooks that are disabled, or have deliveries given up of events recorded
    /// since `since`, oldest webhook first.
    pub async fn webhook_alerts(
        &self,
        project_id: ProjectId,
        since: DateTime<Utc>,
    ) -> Result<Vec<WebhookAlertRow>, CoreError> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, WebhookAlertRow>(
                "SELECT w.id, w.project_id, w.name, w.url, w.disabled_at, w.disabled_reason, \
                 COUNT(d.id) AS given_up, MIN(d.created_at) AS first_given_up_at \
                 FROM webhooks w LEFT JOIN webhook_deliveries d \
                 ON d.webhook_id = w.id AND d.state = 'failed' AND d.created_at >= $2 \
                 WHERE w.project_id = $1 \
                 GROUP BY w.id, w.project_id, w.name, w.url, w.disabled_at, w.disabled_reason \
                 HAVING w.disabled_at IS NOT NULL OR COUNT(d.id) > 0 ORDER BY w.id",
            )
            .bind(project_id)
            .bind(since)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }
}
