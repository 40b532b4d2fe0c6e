//! Wake-ups for webhook-dispatcher: when deliveries may have become due, without a poll.
//!
//! SQLite is one process with one writer connection: that connection's update hook notes an
//! insert into `webhook_deliveries` and its commit hook then bumps a counter, so every code path
//! that enqueues a delivery (the outbox fan-out, a redelivery) wakes the dispatchers, and a
//! rolled-back one does not. The hook fires before the commit is complete, which is safe: a lease
//! needs the same writer connection, so it runs after the commit.
//!
//! PostgreSQL: a `NOTIFY` inside the writing transaction would serialise every commit on the
//! database's notify lock (measured here with pgbench: 5,900 inserts/s fall to 400/s), so no
//! trigger notifies. The replica that wrote wakes its own dispatchers in memory and then sends one
//! `pg_notify` on [`DUE_CHANNEL`] in a transaction of its own (coalesced while one is in flight);
//! every replica listens there, as presence does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use sqlx::sqlite::SqliteOperation;
use sqlx::SqliteConnection;
use tokio::sync::watch;

use super::WebhooksStore;
use crate::error::{CoreError, CoreResult, Dependency};
use crate::storage::{db_error, Heard, Storage};

/// The notification channel of due deliveries (PostgreSQL).
pub const DUE_CHANNEL: &str = "canvas_webhook_due";

/// The table whose inserts wake dispatchers.
const DELIVERIES: &str = "webhook_deliveries";

/// Counts SQLite commits that inserted deliveries; the writer connection's hooks feed it.
#[derive(Debug, Clone)]
pub(in crate::storage) struct EnqueuedCounter(Arc<watch::Sender<u64>>);

impl Default for EnqueuedCounter {
    fn default() -> Self {
        Self(Arc::new(watch::channel(0).0))
    }
}

impl EnqueuedCounter {
    /// Installs the hooks on a (writer) connection; run for every new connection of the pool.
    pub(in crate::storage) async fn install(&self, conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
        let inserted = Arc::new(AtomicBool::new(false));
        let mut handle = conn.lock_handle().await?;
        let noted = inserted.clone();
        handle.set_update_hook(move |change| {
            if matches!(change.operation, SqliteOperation::Insert) && change.table == DELIVERIES {
                noted.store(true, Ordering::Relaxed);
            }
        });
        let (committed, counter) = (inserted.clone(), self.0.clone());
        handle.set_commit_hook(move || {
            if committed.swap(false, Ordering::Relaxed) {
                counter.send_modify(|n| *n = n.wrapping_add(1));
            }
            true
        });
        handle.set_rollback_hook(move || inserted.store(false, Ordering::Relaxed));
        Ok(())
    }
}

/// One replica's feed of "deliveries may be due" from the database.
#[derive(Debug)]
pub enum DueListener {
    /// This process's own commits (SQLite).
    Sqlite(watch::Receiver<u64>),
    /// Every replica's notifications (PostgreSQL), this one's included.
    Postgres(Box<crate::storage::notifications::Listening>),
}

impl WebhooksStore {
    /// Starts following enqueued deliveries; waits at most `within` for PostgreSQL's `LISTEN`.
    pub async fn listen_due(&self, within: Duration) -> CoreResult<DueListener> {
        let pool = match self.database() {
            Storage::Sqlite(store) => return Ok(DueListener::Sqlite(store.enqueued.0.subscribe())),
            Storage::Postgres(pool) => pool,
        };
        let listener = crate::storage::notifications::listen_with(pool, DUE_CHANNEL, within).await?;
        Ok(DueListener::Postgres(Box::new(listener)))
    }

    /// Whether other processes must be told of this one's enqueued deliveries (PostgreSQL).
    pub fn shares_due_deliveries(&self) -> bool {
        matches!(self.database(), Storage::Postgres(_))
    }

    /// Tells every replica's listener that `replica` enqueued deliveries; nothing on SQLite. Its
    /// own transaction, never the writing one (see the module comment).
    pub async fn notify_due(&self, replica: &str) -> CoreResult<()> {
        if let Storage::Postgres(pool) = self.database() {
            sqlx::query("SELECT pg_notify($1, $2)")
                .bind(DUE_CHANNEL)
                .bind(replica)
                .execute(&**pool)
                .await
                .map_err(db_error)?;
        }
        Ok(())
    }
}

/// Each wake-up's payload is the replica that sent it (PostgreSQL) or empty (SQLite, this process);
/// [`Heard::Resumed`] after a lost connection was made again; an error when it could not be (the
/// caller listens again after a pause) or, on SQLite, when storage is gone.
impl crate::storage::NotificationFeed for DueListener {
    async fn next(&mut self) -> CoreResult<Heard> {
        match self {
            Self::Sqlite(feed) => match feed.changed().await {
                Ok(()) => Ok(Heard::Payload(String::new())),
                Err(_) => Err(CoreError::unavailable(Dependency::Database, "the database was closed", 1)),
            },
            Self::Postgres(listener) => crate::storage::notifications::next_heard(listener).await,
        }
    }
}
