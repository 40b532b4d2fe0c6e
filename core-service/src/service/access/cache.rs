//! What this replica remembers of access for a moment: who an API or OAuth access token names
//! and the role a user holds in a project. Every request used to read both from the database
//! (two queries for the token, one for the role), which was the main cost of a GET.
//!
//! Correctness rests on three rules:
//! - **At once here**: every write that takes access away (a token or OAuth grant revoked, a
//!   membership changed or removed, a session ended) calls [`super::Access::changed`], which
//!   forgets everything this replica remembers before the call answers.
//! - **Within a moment everywhere**: the same call tells the other replicas (PostgreSQL
//!   `NOTIFY canvas_access`, [`super::Access::run_forgetting`]); and an entry is trusted for at
//!   most [`TRUSTED_FOR`] whatever happens, so a lost notification or a replica that cannot listen
//!   still sees a revocation within that bound.
//! - **No stale answer can be kept**: an entry records the generation current *before* its
//!   database read; one read before a change but stored after it carries the old generation and is
//!   never used.
//!
//! Only successes are kept (a flood of made-up tokens fills nothing), the maps are bounded
//! ([`MAX_ENTRIES`], cleared whole when full), and a write's role is always read from the
//! database: a removed member never writes on a remembered role (see `Access::require_role`).
//! Keys are SHA-256 digests of the secrets, so looking one up by equality reveals nothing of a
//! secret by its timing.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use dashmap::DashMap;
use uuid::Uuid;

use super::Principal;
use crate::storage::ProjectRow;

/// The longest an entry is used without a fresh read (the default, and the most
/// `--access-memory-ms` allows): the bound on how late a revocation is seen by a replica that
/// missed its notification.
pub const TRUSTED_FOR: Duration = Duration::from_millis(MAX_ACCESS_MEMORY_MS);
/// [`TRUSTED_FOR`] in milliseconds, for the flag's range.
pub const MAX_ACCESS_MEMORY_MS: u64 = 1000;
/// Entries per map before it is cleared (memory stays bounded under any number of callers).
pub const MAX_ENTRIES: usize = 100_000;

/// What a token digest names, as authentication needs it.
#[derive(Debug, Clone)]
pub enum KnownToken {
    /// An API token, valid in this environment and not revoked when read.
    Api { principal: Principal, last_used_at: Option<DateTime<Utc>> },
    /// An OAuth access token of a live grant, for `resource`, until `expires_at`.
    OAuth { principal: Principal, resource: String, expires_at: DateTime<Utc> },
}

/// A project and the user's role code in it (None: not a member).
pub type KnownRole = (ProjectRow, Option<i32>);

#[derive(Debug)]
struct Remembered<T> {
    value: T,
    generation: u64,
    read_at: Instant,
}

/// This replica's remembered access answers.
#[derive(Debug)]
pub struct AccessCache {
    /// How long an entry is used (at most [`TRUSTED_FOR`]); zero keeps nothing.
    trusted_for: Duration,
    /// Bumped by every change of access (here or told by another replica).
    generation: AtomicU64,
    tokens: DashMap<[u8; 32], Remembered<KnownToken>>,
    roles: DashMap<(Uuid, Uuid), Remembered<KnownRole>>,
}

/// The generation read before a database read, to store its answer under.
#[derive(Debug, Clone, Copy)]
pub struct Generation(u64);

impl AccessCache {
    pub fn new(trusted_for: Duration) -> Self {
        Self {
            trusted_for: trusted_for.min(TRUSTED_FOR),
            generation: AtomicU64::new(0),
            tokens: DashMap::new(),
            roles: DashMap::new(),
        }
    }

    /// The generation now; take it *before* reading what will be remembered.
    pub fn generation(&self) -> Generation {
        Generation(self.generation.load(Ordering::Acquire))
    }

    /// Forgets everything: access changed somewhere.
    pub fn forget_all(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
        self.tokens.clear();
        self.roles.clear();
    }

    pub fn token(&self, digest: &[u8; 32]) -> Option<KnownToken> {
        self.tokens.get(digest).filter(|entry| self.fresh(entry)).map(|entry| entry.value.clone())
    }

    pub fn keep_token(&self, digest: [u8; 32], value: KnownToken, read_under: Generation) {
        if self.tokens.len() >= MAX_ENTRIES {
            self.tokens.clear();
        }
        self.keep(&self.tokens, digest, value, read_under);
    }

    /// Records that an API token's use was just written, so the next requests do not write it
    /// again.
    pub fn token_used(&self, digest: &[u8; 32], at: DateTime<Utc>) {
        if let Some(mut entry) = self.tokens.get_mut(digest) {
            let remembered: &mut Remembered<KnownToken> = &mut entry;
            if let KnownToken::Api { last_used_at, .. } = &mut remembered.value {
                *last_used_at = Some(at);
            }
        }
    }

    pub fn role(&self, project: Uuid, user: Uuid) -> Option<KnownRole> {
        self.roles.get(&(project, user)).filter(|entry| self.fresh(entry)).map(|entry| entry.value.clone())
    }

    pub fn keep_role(&self, project: Uuid, user: Uuid, value: KnownRole, read_under: Generation) {
        if self.roles.len() >= MAX_ENTRIES {
            self.roles.clear();
        }
        self.keep(&self.roles, (project, user), value, read_under);
    }

    fn fresh<T>(&self, entry: &Remembered<T>) -> bool {
        entry.generation == self.generation.load(Ordering::Acquire) && entry.read_at.elapsed() < self.trusted_for
    }

    /// Stores `value` unless access changed since it was read (then it may be stale: dropped).
    fn keep<K: std::hash::Hash + Eq, T>(&self, map: &DashMap<K, Remembered<T>>, key: K, value: T, read: Generation) {
        if read.0 != self.generation.load(Ordering::Acquire) || self.trusted_for.is_zero() {
            return;
        }
        map.insert(key, Remembered { value, generation: read.0, read_at: Instant::now() });
        // A change that raced the insert: its forget_all may have cleared the maps before the
        // insert landed. The generation moved, so the entry is never used; drop it anyway.
        if read.0 != self.generation.load(Ordering::Acquire) {
            map.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{TokenId, UserId};

    fn principal() -> Principal {
        Principal {
            user_id: UserId::from_uuid(Uuid::nil()),
            name: "a".into(),
            system_admin: false,
            token_id: TokenId::from_uuid(Uuid::nil()),
        }
    }

    fn api() -> KnownToken {
        KnownToken::Api { principal: principal(), last_used_at: None }
    }

    #[test]
    fn an_answer_read_before_a_change_is_never_used() {
        let cache = AccessCache::new(TRUSTED_FOR);
        let before = cache.generation();
        cache.forget_all();
        cache.keep_token([1; 32], api(), before);
        assert!(cache.token(&[1; 32]).is_none());
        let now = cache.generation();
        cache.keep_token([1; 32], api(), now);
        assert!(cache.token(&[1; 32]).is_some());
        cache.forget_all();
        assert!(cache.token(&[1; 32]).is_none(), "a change forgets what was kept");
    }

    #[test]
    fn an_entry_is_trusted_for_a_moment_only() {
        let cache = AccessCache::new(TRUSTED_FOR);
        let generation = cache.generation();
        cache.keep_token([2; 32], api(), generation);
        cache.tokens.get_mut(&[2; 32]).unwrap().read_at = Instant::now() - TRUSTED_FOR;
        assert!(cache.token(&[2; 32]).is_none());
    }

    #[test]
    fn a_zero_memory_keeps_nothing() {
        let cache = AccessCache::new(Duration::ZERO);
        cache.keep_token([3; 32], api(), cache.generation());
        assert!(cache.token(&[3; 32]).is_none());
        assert!(cache.tokens.is_empty());
    }

    #[test]
    fn the_maps_stay_bounded() {
        let cache = AccessCache::new(TRUSTED_FOR);
        let generation = cache.generation();
        for n in 0..(MAX_ENTRIES + 10) {
            let mut digest = [0u8; 32];
            digest[..8].copy_from_slice(&(n as u64).to_le_bytes());
            cache.keep_token(digest, api(), generation);
        }
        assert!(cache.tokens.len() <= MAX_ENTRIES);
    }
}
