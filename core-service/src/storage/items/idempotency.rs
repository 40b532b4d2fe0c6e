//! `Idempotency-Key`s of creating calls (migration 0010): claimed by the first call, holding its
//! encoded answer once it succeeded, shared by every replica. The rules (fingerprints, waiting,
//! leases, what is stored) are `service::items::idempotency`'s; this module only reads and writes rows.
//!
//! Every change to a held row names the claim that holds it (`claim = $n`), so an attempt whose
//! lease was taken over can no longer store or release a row that is not its own.
//!
//! An item create run under a key records what it inserted in the key's row *in its own
//! transaction* ([`mark_landed!`], migration 0014): the call's task carries its claim
//! ([`Landing`], a task-local), so whether the write committed is never in doubt, even when the
//! commit's answer was lost with the connection.

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::ItemsStore;
use crate::error::CoreError;
use crate::storage::db_error;

type Result<T> = std::result::Result<T, CoreError>;

/// The claim an idempotent call's task holds, for the writes it makes to record themselves.
#[derive(Debug, Clone)]
pub struct Landing {
    pub scope: String,
    pub key: String,
    pub claim: Uuid,
}

tokio::task_local! {
    static LANDING: Landing;
}

impl Landing {
    /// Runs `work` with this claim as the task's: item inserts it makes mark the key's row.
    pub async fn scope<F: std::future::Future>(self, work: F) -> F::Output {
        LANDING.scope(self, work).await
    }

    /// The claim of the idempotent call running in this task, if any.
    pub fn current() -> Option<Landing> {
        LANDING.try_with(Clone::clone).ok()
    }
}

/// One item an idempotent create inserted, as recorded in `landed`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LandedItem {
    pub id: Uuid,
    pub version: i64,
    #[serde(rename = "type")]
    pub item_type: String,
}

/// A diagram an idempotent create wrote: what its answer names.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LandedDiagram {
    /// The diagram record.
    pub diagram: Uuid,
    /// Its items, in the order the answer lists them.
    pub items: Vec<Uuid>,
    /// Each node's item (its shape), by node id.
    pub nodes: std::collections::BTreeMap<String, Uuid>,
}

/// What an idempotent call's write recorded in its own transaction, as stored in `landed` (JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Landed {
    /// The items an item create inserted, in insertion order (a JSON array).
    Items(Vec<LandedItem>),
    /// A diagram create (a JSON object).
    Diagram(LandedDiagram),
}

impl Landed {
    /// The items of an item create; none for anything else.
    pub fn items(&self) -> &[LandedItem] {
        match self {
            Self::Items(items) => items,
            Self::Diagram(_) => &[],
        }
    }
}

/// Records, inside the write transaction `$tx` and only when this task runs an idempotent call,
/// the items (`$rows`, an iterator of `&ItemRow`) its write inserted.
macro_rules! mark_landed {
    ($tx:expr, $rows:expr) => {
        crate::storage::items::idempotency::mark_landed_as!($tx, || {
            crate::storage::items::idempotency::Landed::Items(
                $rows
                    .into_iter()
                    .map(|row: &crate::storage::ItemRow| crate::storage::items::idempotency::LandedItem {
                        id: row.id.uuid(),
                        version: row.version,
                        item_type: row.item_type.as_str().to_owned(),
                    })
                    .collect(),
            )
        })
    };
}
pub(crate) use mark_landed;

/// Records, inside the write transaction `$tx` and only when this task runs an idempotent call,
/// what `$landed` (a closure making a [`Landed`]) says the write did.
macro_rules! mark_landed_as {
    ($tx:expr, $landed:expr) => {{
        if let Some(landing) = crate::storage::items::idempotency::Landing::current() {
            let landed: crate::storage::items::idempotency::Landed = ($landed)();
            let landed = serde_json::to_string(&landed).map_err(CoreError::internal)?;
            sqlx::query("UPDATE idempotency_keys SET landed = $4 WHERE scope = $1 AND key = $2 AND claim = $3")
                .bind(&landing.scope)
                .bind(&landing.key)
                .bind(landing.claim)
                .bind(landed)
                .execute(&mut *$tx)
                .await
                .map_err(db_error)?;
        }
    }};
}
pub(crate) use mark_landed_as;

/// `state` of a key whose first call is still running.
pub const IN_PROGRESS: &str = "in_progress";
/// `state` of a key whose first call succeeded; `response` holds its answer.
pub const DONE: &str = "done";

/// Expired rows deleted by one claim, so pruning never makes one request slow.
const PRUNE_BATCH: i64 = 100;

/// One key as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct IdempotencyRow {
    pub fingerprint: Vec<u8>,
    /// [`IN_PROGRESS`] or [`DONE`].
    pub state: String,
    /// The attempt holding (or that completed) the key.
    pub claim: Uuid,
    pub lease_until: DateTime<Utc>,
    /// The encoded answer, once [`DONE`].
    pub response: Option<Vec<u8>>,
    pub expires_at: DateTime<Utc>,
    /// What the call's write inserted (JSON), recorded in its own transaction ([`mark_landed!`]).
    pub landed: Option<String>,
}

impl IdempotencyRow {
    /// The first call succeeded and `response` holds its answer.
    pub fn is_done(&self) -> bool {
        self.state == DONE
    }

    /// What the call's committed write inserted, when it recorded that: its write happened, even
    /// if its answer was never stored.
    pub fn landed(&self) -> Option<Landed> {
        self.landed.as_deref().and_then(|landed| serde_json::from_str(landed).ok())
    }
}

/// A claim on a key: what a new attempt writes.
#[derive(Debug, Clone)]
pub struct IdempotencyClaim<'a> {
    pub scope: &'a str,
    pub key: &'a str,
    pub fingerprint: &'a [u8],
    pub claim: Uuid,
    pub now: DateTime<Utc>,
    pub lease_until: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
}

impl ItemsStore {
    /// Claims a key nobody holds: true when this attempt now holds it, false when a row exists
    /// (read it with [`Storage::idempotency_key`]). First deletes up to [`PRUNE_BATCH`] rows
    /// past their expiry whose call is not running.
    pub async fn claim_idempotency_key(&self, claim: &IdempotencyClaim<'_>) -> Result<bool> {
        let inserted = with_write_pool!(self, pool => {
            sqlx::query(
                "DELETE FROM idempotency_keys WHERE (scope, key) IN (\
                   SELECT scope, key FROM idempotency_keys \
                   WHERE expires_at < $1 AND (state = $2 OR lease_until < $1) LIMIT $3)",
            )
            .bind(claim.now)
            .bind(DONE)
            .bind(PRUNE_BATCH)
            .execute(pool)
            .await
            .map_err(db_error)?;
            sqlx::query(
                "INSERT INTO idempotency_keys \
                   (scope, key, fingerprint, state, claim, lease_until, response, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, $8) ON CONFLICT (scope, key) DO NOTHING",
            )
            .bind(claim.scope)
            .bind(claim.key)
            .bind(claim.fingerprint)
            .bind(IN_PROGRESS)
            .bind(claim.claim)
            .bind(claim.lease_until)
            .bind(claim.now)
            .bind(claim.expires_at)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected()
        });
        Ok(inserted == 1)
    }

    /// The row of a key, if any (expired or not).
    pub async fn idempotency_key(&self, scope: &str, key: &str) -> Result<Option<IdempotencyRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, IdempotencyRow>(
                "SELECT fingerprint, state, claim, lease_until, response, expires_at, landed \
                 FROM idempotency_keys WHERE scope = $1 AND key = $2",
            )
            .bind(scope)
            .bind(key)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Takes a key over from the attempt `previous` (its row expired, or its lease lapsed):
    /// true when this attempt now holds it, false when the row changed meanwhile.
    pub async fn take_over_idempotency_key(&self, claim: &IdempotencyClaim<'_>, previous: Uuid) -> Result<bool> {
        let updated = with_write_pool!(self, pool => {
            sqlx::query(
                "UPDATE idempotency_keys SET fingerprint = $3, state = $4, claim = $5, lease_until = $6, \
                   response = NULL, landed = NULL, created_at = $7, expires_at = $8 \
                 WHERE scope = $1 AND key = $2 AND claim = $9",
            )
            .bind(claim.scope)
            .bind(claim.key)
            .bind(claim.fingerprint)
            .bind(IN_PROGRESS)
            .bind(claim.claim)
            .bind(claim.lease_until)
            .bind(claim.now)
            .bind(claim.expires_at)
            .bind(previous)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected()
        });
        Ok(updated == 1)
    }

    /// Moves the lease of a running call on; false when the attempt no longer holds the key.
    pub async fn extend_idempotency_lease(
        &self,
        scope: &str,
        key: &str,
        claim: Uuid,
        lease_until: DateTime<Utc>,
    ) -> Result<bool> {
        let updated = with_write_pool!(self, pool => {
            sqlx::query(
                "UPDATE idempotency_keys SET lease_until = $4 \
                 WHERE scope = $1 AND key = $2 AND claim = $3 AND state = $5",
            )
            .bind(scope)
            .bind(key)
            .bind(claim)
            .bind(lease_until)
            .bind(IN_PROGRESS)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected()
        });
        Ok(updated == 1)
    }

    /// Stores the answer of the call holding the key; false when the attempt no longer holds it.
    pub async fn finish_idempotency_key(&self, scope: &str, key: &str, claim: Uuid, response: &[u8]) -> Result<bool> {
        let updated = with_write_pool!(self, pool => {
            sqlx::query(
                "UPDATE idempotency_keys SET state = $4, response = $5 \
                 WHERE scope = $1 AND key = $2 AND claim = $3 AND state = $6",
            )
            .bind(scope)
            .bind(key)
            .bind(claim)
            .bind(DONE)
            .bind(response)
            .bind(IN_PROGRESS)
            .execute(pool)
            .await
            .map_err(db_error)?
            .rows_affected()
        });
        Ok(updated == 1)
    }

    /// Frees a key whose call failed, so a corrected retry can run; never one whose write landed
    /// (its failure was only the answer's: the retry answers from what landed).
    pub async fn release_idempotency_key(&self, scope: &str, key: &str, claim: Uuid) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(
                "DELETE FROM idempotency_keys \
                 WHERE scope = $1 AND key = $2 AND claim = $3 AND state = $4 AND landed IS NULL",
            )
                .bind(scope)
                .bind(key)
                .bind(claim)
                .bind(IN_PROGRESS)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{DatabaseTarget, PoolSettings, Storage};

    async fn sqlite() -> (tempfile::TempDir, ItemsStore) {
        let dir = tempfile::tempdir().unwrap();
        let target = DatabaseTarget::SqliteFile(dir.path().join("canvas.db"));
        let storage = Storage::connect(&target, &PoolSettings::default()).await.unwrap();
        (dir, ItemsStore::new(storage))
    }

    #[tokio::test]
    async fn a_key_is_claimed_once_finished_taken_over_only_by_its_holder_and_pruned() {
        let (_dir, storage) = sqlite().await;
        let now = Utc::now();
        let claim = |id: Uuid, fingerprint: &'static [u8], at: DateTime<Utc>| IdempotencyClaim {
            scope: "user:a",
            key: "k",
            fingerprint,
            claim: id,
            now: at,
            lease_until: at + chrono::Duration::seconds(60),
            expires_at: at + chrono::Duration::hours(24),
        };
        let (first, second) = (Uuid::new_v4(), Uuid::new_v4());
        assert!(storage.claim_idempotency_key(&claim(first, b"f1", now)).await.unwrap());
        assert!(!storage.claim_idempotency_key(&claim(second, b"f1", now)).await.unwrap());
        // Only the holder stores its answer.
        assert!(!storage.finish_idempotency_key("user:a", "k", second, b"other").await.unwrap());
        assert!(storage.finish_idempotency_key("user:a", "k", first, b"answer").await.unwrap());
        let row = storage.idempotency_key("user:a", "k").await.unwrap().unwrap();
        assert_eq!((row.state.as_str(), row.response.as_deref()), (DONE, Some(&b"answer"[..])));
        // A done key is not released by a late failure, and another scope is another key.
        storage.release_idempotency_key("user:a", "k", first).await.unwrap();
        assert!(storage.idempotency_key("user:a", "k").await.unwrap().is_some());
        assert!(storage.idempotency_key("user:b", "k").await.unwrap().is_none());
        // A take-over names the holder it replaces.
        assert!(!storage.take_over_idempotency_key(&claim(second, b"f2", now), second).await.unwrap());
        assert!(storage.take_over_idempotency_key(&claim(second, b"f2", now), first).await.unwrap());
        let row = storage.idempotency_key("user:a", "k").await.unwrap().unwrap();
        assert_eq!((row.state.as_str(), row.fingerprint.as_slice(), row.response), (IN_PROGRESS, &b"f2"[..], None));
        // A claim a day later prunes the expired row first, and so claims the key afresh.
        assert!(storage.finish_idempotency_key("user:a", "k", second, b"x").await.unwrap());
        let later = now + chrono::Duration::hours(25);
        assert!(storage.claim_idempotency_key(&claim(first, b"f3", later)).await.unwrap());
        assert_eq!(storage.idempotency_key("user:a", "k").await.unwrap().unwrap().fingerprint, b"f3");
    }
}
