//! Notification channels between replicas: PostgreSQL's `LISTEN`/`NOTIFY`, which presence
//! (`items/presence.rs`) and access changes (`accounts/access_changes.rs`) each use on a channel of
//! their own. SQLite is one process and has no channel: there, a listen answers `None`.

use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::error::{CoreError, CoreResult, Dependency};
use crate::storage::{db_error, Storage};

/// One replica's subscription to a notification channel (presence, or access changes). Its connection is one of the pool's, held
/// for as long as the listener lives.
#[derive(Debug)]
pub struct PresenceListener(PgListener);

impl Storage {
    /// Starts listening on `channel`; `None` on SQLite. Waits at most `within` for the connection.
    pub(in crate::storage) async fn listen_on(
        &self,
        channel: &str,
        within: Duration,
    ) -> CoreResult<Option<PresenceListener>> {
        let Storage::Postgres(pool) = self else { return Ok(None) };
        let listen = async {
            let mut listener = PgListener::connect_with(pool).await?;
            listener.listen(channel).await?;
            Ok::<_, sqlx::Error>(listener)
        };
        match tokio::time::timeout(within, listen).await {
            Ok(listener) => Ok(Some(PresenceListener(listener.map_err(db_error)?))),
            Err(_) => {
                Err(CoreError::unavailable(Dependency::Database, "the database did not answer LISTEN in time", 1))
            }
        }
    }
}

/// A feed of one notification channel's payloads, followed by `service::notifications::follow`.
pub trait NotificationFeed: Send {
    /// The next payload; an error when the connection is lost and cannot be opened again (the
    /// caller starts a new listener after a pause).
    fn next(&mut self) -> impl std::future::Future<Output = CoreResult<String>> + Send;
}

impl NotificationFeed for PresenceListener {
    async fn next(&mut self) -> CoreResult<String> {
        let notification = self.0.recv().await.map_err(db_error)?;
        Ok(notification.payload().to_owned())
    }
}
