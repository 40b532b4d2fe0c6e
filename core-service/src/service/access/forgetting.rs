//! How a change of access reaches every cache: the replica that made it forgets before it answers,
//! and tells the others through the database ([`Access::run_forgetting`] follows the channel).

use tokio_util::sync::CancellationToken;

use super::cache::AccessCache;
use super::Access;
use crate::service::notifications::{self, Follower, LISTEN_WITHIN};

impl Access {
    /// Access was taken away or changed (a token or OAuth grant revoked, a membership added,
    /// changed or removed, a session ended): this replica forgets every remembered answer at once,
    /// and the others are told. Call it after the write committed and before answering.
    ///
    /// A failed announcement is logged, not returned: the write stands, and other replicas see it
    /// within [`super::cache::TRUSTED_FOR`] anyway.
    pub(crate) async fn changed(&self) {
        self.cache.forget_all();
        if let Err(err) = self.store.notify_access_changed().await {
            tracing::warn!(error = %err, "could not announce a change of access; other replicas see it within a second");
        }
    }

    /// Forgets remembered answers whenever another replica changes access (PostgreSQL; on SQLite
    /// it returns at once), until `shutdown`.
    pub async fn run_forgetting(&self, shutdown: CancellationToken) {
        let listen = || self.store.listen_access_changes(LISTEN_WITHIN);
        notifications::follow("access changes", listen, &self.cache, &shutdown).await;
    }
}

impl Follower for AccessCache {
    /// Changes made while nobody listened were missed: forget.
    fn listening(&self) {
        self.forget_all();
    }

    fn received(&self, _payload: String) {
        self.forget_all();
    }
}
