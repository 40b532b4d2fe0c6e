//! Presence between replicas: PostgreSQL's `LISTEN`/`NOTIFY` on one channel, so an announcement
//! reaches every replica's in-memory presence (`service::items::presence`) without a table write.
//! SQLite is one process: it has no channel, and the service feeds its own presence directly.

use std::time::Duration;

use super::ItemsStore;
use crate::error::{CoreError, CoreResult};
use crate::storage::{db_error, ChannelListener, Storage};

/// The notification channel every replica listens on.
pub const PRESENCE_CHANNEL: &str = "canvas_presence";
/// The largest payload sent (PostgreSQL refuses 8000 bytes and more).
pub const MAX_PRESENCE_PAYLOAD: usize = 7000;

impl ItemsStore {
    /// Whether presence travels between replicas through the database (PostgreSQL), rather than
    /// staying in this process (SQLite, one process).
    pub fn shares_presence(&self) -> bool {
        matches!(self.database(), Storage::Postgres(_))
    }

    /// Sends `payload` to every replica's listener (this one's included). Writes no row. A payload
    /// over [`MAX_PRESENCE_PAYLOAD`] is refused before it is sent.
    pub async fn notify_presence(&self, payload: &str) -> CoreResult<()> {
        if payload.len() > MAX_PRESENCE_PAYLOAD {
            return Err(CoreError::invalid(
                "selection",
                format!("the announcement is too large ({} bytes, at most {MAX_PRESENCE_PAYLOAD})", payload.len()),
            ));
        }
        if let Storage::Postgres(pool) = self.database() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(PRESENCE_CHANNEL)
                .bind(payload)
                .execute(&**pool)
                .await
                .map_err(db_error)?;
        }
        Ok(())
    }

    /// Starts listening on the presence channel; `None` on SQLite. Waits at most `within` for the
    /// connection.
    pub async fn listen_presence(&self, within: Duration) -> CoreResult<Option<ChannelListener>> {
        self.database().listen_on(PRESENCE_CHANNEL, within).await
    }
}
