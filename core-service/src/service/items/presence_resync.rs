//! Presence after a lost listener connection (PostgreSQL): notifications sent while a replica's
//! presence listener was reconnecting (a failover, a restart of the server, a session the server
//! ended) never reach it, so its hub may lack a client that arrived or moved, and keep one that
//! left. Presence is in memory only, so nothing can be read back from the database; instead the
//! replicas tell each other again:
//!
//! 1. The replica whose listener resumed ages every client it holds, so that a client not heard
//!    of again within [`RESYNC_GRACE`] leaves (rather than after the whole expiry), and sends
//!    [`RESYNC_REQUEST`] on the presence channel.
//! 2. Every replica (that one included) answers the request by sending again the latest
//!    announcement of each client that announced through it ([`OwnAnnouncements`]).
//!
//! So within about the grace every hub holds what the clients last said, and a client that left
//! unheard is gone. A request costs one notification per present client across all replicas.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use parking_lot::Mutex;
use tokio::sync::Notify;

use crate::domain::ProjectId;

/// The payload that asks every replica to send its clients' announcements again; not a valid
/// announcement, so an older replica ignores it (with a warning).
pub(super) const RESYNC_REQUEST: &str = r#"{"resync":true}"#;

/// How long after a resync request a client not announced again stays present.
pub(super) const RESYNC_GRACE: Duration = Duration::from_secs(2);

/// The latest announcement (as sent on the channel) of each client that announced through this
/// replica, and the two things the presence task must do: answer a request, or send one.
#[derive(Debug, Default)]
pub(super) struct OwnAnnouncements {
    latest: Mutex<HashMap<(ProjectId, String), (String, Instant)>>,
    /// Another replica (or this one) asked for the announcements again.
    pub(super) asked: Notify,
    /// This replica's listener resumed: ask the others.
    pub(super) must_ask: Notify,
}

impl OwnAnnouncements {
    /// Records what `client_id` of `project` just announced through this replica.
    pub(super) fn sent(&self, project: ProjectId, client_id: &str, payload: &str, leaving: bool) {
        let mut latest = self.latest.lock();
        if leaving {
            latest.remove(&(project, client_id.to_owned()));
        } else {
            latest.insert((project, client_id.to_owned()), (payload.to_owned(), Instant::now()));
        }
    }

    /// Forgets the clients not heard from within `expiry`: they have left.
    pub(super) fn expire(&self, now: Instant, expiry: Duration) {
        self.latest.lock().retain(|_, (_, at)| now.saturating_duration_since(*at) < expiry);
    }

    /// What to send again when asked.
    pub(super) fn payloads(&self) -> Vec<String> {
        self.latest.lock().values().map(|(payload, _)| payload.clone()).collect()
    }
}

/// The moment to pretend a client was last heard of so that it leaves `grace` after `now` unless
/// heard again: `now - (expiry - grace)` (`now` itself when that is before the process started).
pub(super) fn aged(now: Instant, expiry: Duration, grace: Duration) -> Instant {
    now.checked_sub(expiry.saturating_sub(grace)).unwrap_or(now)
}

#[cfg(test)]
mod tests {
    use super::*;
    use uuid::Uuid;

    #[test]
    fn the_latest_announcement_of_each_own_client_is_kept_until_it_leaves_or_expires() {
        let own = OwnAnnouncements::default();
        let project = ProjectId::from_uuid(Uuid::from_u128(1));
        own.sent(project, "a", "first", false);
        own.sent(project, "a", "second", false);
        own.sent(project, "b", "b's", false);
        let mut payloads = own.payloads();
        payloads.sort();
        assert_eq!(payloads, ["b's", "second"]);
        own.sent(project, "b", "leaving", true);
        assert_eq!(own.payloads(), ["second"]);
        own.expire(Instant::now() + Duration::from_secs(31), Duration::from_secs(30));
        assert!(own.payloads().is_empty());
    }

    #[test]
    fn an_aged_client_leaves_after_the_grace() {
        let now = Instant::now() + Duration::from_secs(60);
        let expiry = Duration::from_secs(30);
        let seen = aged(now, expiry, RESYNC_GRACE);
        assert_eq!(now + RESYNC_GRACE - seen, expiry, "expires exactly one grace from now");
    }
}
