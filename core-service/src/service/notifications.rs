//! Following one of the database's notification channels for as long as a replica serves: the
//! presence of open maps, changes of access and due webhook deliveries travel between replicas
//! this way (PostgreSQL `LISTEN`/`NOTIFY`; due deliveries also from SQLite's commit hook). A lost
//! connection is made again at once by the listener itself, or listened to again after a growing
//! pause when that fails; either way the follower is told ([`Follower::listening`]), since
//! notifications sent meanwhile were lost. A receive is cancelled only at shutdown.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::error::CoreResult;
use crate::storage::{Heard, NotificationFeed};

/// The longest wait for the database's `LISTEN`.
pub(crate) const LISTEN_WITHIN: Duration = Duration::from_secs(10);
/// The pauses before listening again after a failure, growing to the last.
const RELISTEN_AFTER: [Duration; 4] =
    [Duration::from_millis(250), Duration::from_secs(1), Duration::from_secs(3), Duration::from_secs(10)];

/// What a follower does with its channel.
pub(crate) trait Follower {
    /// Each time listening starts: first, or again after a lost connection (made again by the
    /// listener, or by listening anew). What was sent while nobody listened was missed: catch up.
    fn listening(&self) {}
    /// One notification's payload.
    fn received(&self, payload: String);
}

/// Feeds `follower` from the channel `listen` opens until `shutdown`; returns at once when
/// `listen` answers `None` (SQLite: no channel).
pub(crate) async fn follow<L, F, N>(
    what: &'static str,
    listen: L,
    follower: &impl Follower,
    shutdown: &CancellationToken,
) where
    L: Fn() -> F,
    F: Future<Output = CoreResult<Option<N>>>,
    N: NotificationFeed,
{
    let mut failures = 0usize;
    loop {
        let listened = tokio::select! {
            () = shutdown.cancelled() => return,
            listened = listen() => listened,
        };
        match listened {
            Ok(Some(mut listener)) => {
                failures = 0;
                follower.listening();
                loop {
                    let received = tokio::select! {
                        () = shutdown.cancelled() => return,
                        received = listener.next() => received,
                    };
                    match received {
                        Ok(Heard::Payload(payload)) => follower.received(payload),
                        Ok(Heard::Resumed) => {
                            tracing::warn!("{what}: the database connection was lost and made again; catching up");
                            follower.listening();
                        }
                        Err(err) => {
                            tracing::warn!(error = %err, "{what}: the database connection was lost; listening again");
                            break;
                        }
                    }
                }
            }
            Ok(None) => return,
            Err(err) => tracing::warn!(error = %err, "{what}: cannot listen to the database; trying again"),
        }
        let pause = RELISTEN_AFTER[failures.min(RELISTEN_AFTER.len() - 1)];
        failures += 1;
        tokio::select! {
            () = shutdown.cancelled() => return,
            () = tokio::time::sleep(pause) => {}
        }
    }
}
