//! Dispatchers are woken when deliveries may be due, instead of waiting for their next poll.
//!
//! Each replica keeps one [`DueSignal`](crate::webhooks::runtime::DueSignal) that its
//! dispatchers' `WatchDue` streams follow. It is fed by this replica's own writes (the items
//! context calls `written` after each commit with events) and by the database: on SQLite the
//! writer connection's commit hook (every enqueued delivery, whatever wrote it), on PostgreSQL the
//! `canvas_webhook_due` channel, on which each replica passes its own writes on to the others
//! (one `pg_notify` at a time, in its own transaction: see `storage/webhook_wake.rs`). A missed
//! wake-up costs at most the dispatcher's poll interval, so a lost connection is only logged.

use std::time::Duration;

use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::WebhooksService;

/// How long the first `LISTEN` may take.
const LISTEN_WITHIN: Duration = Duration::from_secs(5);
/// Pauses before listening again after the connection was lost, growing with each failure.
const RELISTEN_AFTER: [Duration; 4] =
    [Duration::from_millis(100), Duration::from_secs(1), Duration::from_secs(5), Duration::from_secs(15)];

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

    /// Database → this replica's signal, listening again after a growing pause when the
    /// connection is lost.
    async fn relay_due(&self, shutdown: &CancellationToken) {
        let mut failures = 0usize;
        loop {
            let listen = tokio::select! {
                () = shutdown.cancelled() => return,
                listen = self.storage.listen_due(LISTEN_WITHIN) => listen,
            };
            match listen {
                Ok(mut listener) => loop {
                    let received = tokio::select! {
                        () = shutdown.cancelled() => return,
                        received = listener.next() => received,
                    };
                    match received {
                        // This replica's own notifications: its streams were woken at the write.
                        Ok(Some(from)) if *from == *self.runtime.due.replica => failures = 0,
                        Ok(_) => {
                            failures = 0;
                            self.runtime.due.wake();
                        }
                        Err(err) => {
                            tracing::warn!(error = %err, "webhook wake-ups: the database feed ended; listening again");
                            break;
                        }
                    }
                },
                Err(err) => tracing::warn!(error = %err, "webhook wake-ups: cannot listen; trying again"),
            }
            let pause = RELISTEN_AFTER[failures.min(RELISTEN_AFTER.len() - 1)];
            failures += 1;
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = tokio::time::sleep(pause) => {}
            }
        }
    }

    /// This replica's writes → the other replicas (PostgreSQL only). Writes while a notify is in
    /// flight are told by the next one, so there is at most one notify per round trip.
    async fn publish_due(&self, shutdown: &CancellationToken) {
        if !self.storage.shares_due_deliveries() {
            return;
        }
        let mut written = self.runtime.due.written_here();
        loop {
            tokio::select! {
                () = shutdown.cancelled() => return,
                changed = written.changed() => if changed.is_err() { return },
            }
            if let Err(err) = self.storage.notify_due(&self.runtime.due.replica).await {
                tracing::warn!(error = %err, "webhook wake-ups: cannot notify the other replicas");
            }
        }
    }
}
