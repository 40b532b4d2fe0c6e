//! Presence between replicas: PostgreSQL's `LISTEN`/`NOTIFY` on one channel, so an announcement
//! reaches every replica's in-memory presence (`service::items::presence`) without a table write.
//! SQLite is one process: it has no channel, and the service feeds its own presence directly.

use std::time::Duration;

use sqlx::postgres::PgListener;

use super::{db_error, Storage};
use crate::error::{CoreError, CoreResult, Dependency};

/// The notification channel every replica listens on.
pub const PRESENCE_CHANNEL: &str = "canvas_presence";
/// The largest payload sent (PostgreSQL refuses 8000 bytes and more).
pub const MAX_PRESENCE_PAYLOAD: usize = 7000;

/// One replica's subscription to a notification channel (presence, or access changes). Its connection is one of the pool's, held
/// for as long as the listener lives.
#[derive(Debug)]
pub struct PresenceListener(PgListener);

impl Storage {
    /// Whether presence travels between replicas through the database (PostgreSQL), rather than
    /// staying in this process (SQLite, one process).
    pub fn shares_presence(&self) -> bool {
        matches!(self, Self::Postgres(_))
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
        if let Self::Postgres(pool) = self {
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
    pub async fn listen_presence(&self, within: Duration) -> CoreResult<Option<PresenceListener>> {
        self.listen_on(PRESENCE_CHANNEL, within).await
    }

    /// Starts listening on `channel`; `None` on SQLite. Waits at most `within` for the connection.
    pub(super) async fn listen_on(&self, channel: &str, within: Duration) -> CoreResult<Option<PresenceListener>> {
        let Self::Postgres(pool) = self else { return Ok(None) };
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
