//! Dispatchers are woken when deliveries may be due, instead of waiting for their next poll.
//!
//! Each replica keeps one [`DueSignal`](crate::webhooks::runtime::DueSignal) that its
//! dispatchers' `WatchDue` streams follow. It is fed by this replica's own writes (the items
//! context calls `written` after each commit with events) and by the database: on SQLite the
//! writer connection's commit hook (every enqueued delivery, whatever wrote it), on PostgreSQL the
//! `canvas_webhook_due` channel, on which each replica passes its own writes on to the others
//! (one `pg_notify` at a time, in its own transaction: see `storage/webhooks/wake.rs`). A missed
//! wake-up costs at most the dispatcher's poll interval, so a lost connection is only logged.

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::WebhooksService;
use crate::service::notifications::{self, Follower, LISTEN_WITHIN};
use crate::webhooks::runtime::DueSignal;

/// A wake-up from the database wakes this replica's dispatchers, unless it is this replica's own
/// notification (its streams were woken at the write). SQLite's wake-ups name no replica.
impl Follower for DueSignal {
    /// Wake-ups sent while the listener's connection was lost were missed: the dispatchers look
    /// for due deliveries now rather than at their next poll.
    fn listening(&self) {
        self.wake();
    }

    fn received(&self, from: String) {
        if *from != *self.replica {
            self.wake();
        }
    }
}

impl WebhooksService {
    /// What a `WatchDue` stream follows: changes whenever deliveries may have become due.
    pub fn due_notices(&self) -> watch::Receiver<u64> {
        self.runtime.due.subscribe()
    }

    /// Feeds this replica's wake-ups from the database and, on PostgreSQL, tells the other
    /// replicas of this one's writes, until `shutdown`.
    pub async fn run_due_wakeups(&self, shutdown: CancellationToken) {
        tokio::join!(self.relay_due(&shutdown), self.publish_due(&shutdown));
    }

    /// Database → this replica's signal.
    async fn relay_due(&self, shutdown: &CancellationToken) {
        let listen = || async { self.store.listen_due(LISTEN_WITHIN).await.map(Some) };
        notifications::follow("webhook wake-ups", listen, &self.runtime.due, shutdown).await;
    }

    /// This replica's writes → the other replicas (PostgreSQL only). Writes while a notify is in
    /// flight are told by the next one, so there is at most one notify per round trip.
    async fn publish_due(&self, shutdown: &CancellationToken) {
        if !self.store.shares_due_deliveries() {
            return;
        }
        let mut written = self.runtime.due.written_here();
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                changed = written.changed() => if changed.is_err() { return },
            }
            if let Err(err) = self.store.notify_due(&self.runtime.due.replica).await {
                tracing::warn!(error = %err, "webhook wake-ups: cannot notify the other replicas");
            }
        }
    }
}
