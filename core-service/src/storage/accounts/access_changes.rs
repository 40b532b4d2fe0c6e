//! Changes of access between replicas: a write that takes access away (a token or OAuth grant
//! revoked, a membership changed, a session ended) is announced on one PostgreSQL channel, and
//! every replica forgets the token and role answers it remembers (`service::access::cache`).
//! SQLite is one process: it has no channel, and the replica that made the change has already
//! forgotten.

use std::time::Duration;

use super::AccountsStore;
use crate::error::CoreResult;
use crate::storage::{db_error, ChannelListener, Storage};

/// The notification channel every replica listens on for changes of access.
pub const ACCESS_CHANNEL: &str = "canvas_access";

impl AccountsStore {
    /// Tells every replica (this one's listener included) that access changed. Writes no row.
    pub async fn notify_access_changed(&self) -> CoreResult<()> {
        if let Storage::Postgres(pool) = self.database() {
            sqlx::query("SELECT pg_notify($1, '')").bind(ACCESS_CHANNEL).execute(&**pool).await.map_err(db_error)?;
        }
        Ok(())
    }

    /// Starts listening for changes of access; `None` on SQLite. Waits at most `within`.
    pub async fn listen_access_changes(&self, within: Duration) -> CoreResult<Option<ChannelListener>> {
        self.database().listen_on(ACCESS_CHANNEL, within).await
    }
}
