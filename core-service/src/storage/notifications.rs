//! Notification channels between replicas: PostgreSQL's `LISTEN`/`NOTIFY`, which presence
//! (`items/presence.rs`), access changes (`accounts/access_changes.rs`) and webhook wake-ups
//! (`webhooks/wake.rs`) each use on a channel of their own. SQLite is one process and has no
//! channel: there, a listen answers `None`.
//!
//! A notification is sent once, to the connections listening at that moment: one sent while a
//! listener's connection was lost (a failover, a restart, a server that ended the session) is
//! never delivered. sqlx's listener makes its connection again by itself; [`next_heard`] turns that
//! into [`Heard::Resumed`], so each follower can catch up on what it may have missed
//! (`service::notifications::Follower::listening`).

use std::time::Duration;

use sqlx::postgres::PgListener;

use crate::error::{CoreError, CoreResult, Dependency};
use crate::storage::{db_error, Storage};

/// One replica's subscription to a notification channel. Its connection is one of the pool's,
/// held for as long as the listener lives.
#[derive(Debug)]
pub struct ChannelListener(Listening);

/// A listener, and the moves of the pool's server it must follow (a host list's primary moved:
/// this connection may be on a standby now, which hears nothing; `pg_hosts.rs`).
#[derive(Debug)]
pub struct Listening {
    listener: PgListener,
    moves: Option<tokio::sync::watch::Receiver<u64>>,
}

/// What a listener heard next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Heard {
    /// A notification's payload.
    Payload(String),
    /// The connection was lost and made again, listening to the same channels: notifications
    /// sent in between were missed.
    Resumed,
}

impl Storage {
    /// Starts listening on `channel`; `None` on SQLite. Waits at most `within` for the connection.
    pub(in crate::storage) async fn listen_on(
        &self,
        channel: &str,
        within: Duration,
    ) -> CoreResult<Option<ChannelListener>> {
        let Storage::Postgres(store) = self else { return Ok(None) };
        Ok(Some(ChannelListener(listen_with(store, channel, within).await?)))
    }
}

/// A listener on `channel` of `pool`'s database, within `within`.
pub(in crate::storage) async fn listen_with(
    store: &super::PgStore,
    channel: &str,
    within: Duration,
) -> CoreResult<Listening> {
    let mut moves = store.moves();
    if let Some(moves) = &mut moves {
        moves.mark_unchanged();
    }
    let listen = async {
        let mut listener = PgListener::connect_with(store).await?;
        listener.listen(channel).await?;
        Ok::<_, sqlx::Error>(listener)
    };
    match tokio::time::timeout(within, listen).await {
        Ok(listener) => Ok(Listening { listener: listener.map_err(db_error)?, moves }),
        Err(_) => Err(CoreError::unavailable(Dependency::Database, "the database did not answer LISTEN in time", 1)),
    }
}

/// The next thing `listening` hears. sqlx reconnects a lost connection at once (its
/// `eager_reconnect`) and says so only through `try_recv`'s `None`; an error means the connection
/// could not be made again, or the pool's server moved (the caller listens again after a pause).
pub(in crate::storage) async fn next_heard(listening: &mut Listening) -> CoreResult<Heard> {
    let Listening { listener, moves } = listening;
    let moved = async {
        match moves {
            Some(moves) => moves.changed().await.unwrap_or(()),
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        received = listener.try_recv() => match received.map_err(db_error)? {
            Some(notification) => Ok(Heard::Payload(notification.payload().to_owned())),
            None => Ok(Heard::Resumed),
        },
        () = moved => Err(CoreError::unavailable(Dependency::Database, "the primary moved; listening anew", 1)),
    }
}

/// A feed of one notification channel, followed by `service::notifications::follow`.
pub trait NotificationFeed: Send {
    /// What is heard next; an error when the connection is lost and cannot be made again.
    fn next(&mut self) -> impl std::future::Future<Output = CoreResult<Heard>> + Send;
}

impl NotificationFeed for ChannelListener {
    async fn next(&mut self) -> CoreResult<Heard> {
        next_heard(&mut self.0).await
    }
}
