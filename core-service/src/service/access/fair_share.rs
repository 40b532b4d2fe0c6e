//! Fair shares of what a caller holds open in a replica's memory: open event streams (a map's
//! change stream and its presence stream) and retries waiting for a running idempotent call.
//!
//! The rate limits (`rate_limits.rs`) bound how often a person calls; they do not bound what a
//! person keeps: a stream is one call that then stays open for minutes, and a retry of a running
//! call waits (polling the database) for up to its deadline. Without a bound per person, one
//! person's client in a loop could hold every stream or waiter a replica can serve while every
//! other member of every project pays for it. So each is counted per person (across projects) and
//! per project (across people), and a caller over either bound is refused at once, before anything
//! is held: a stream with [`CoreError::TooManyRequests`] (429 with `Retry-After` and the
//! `RateLimit-Policy` / `RateLimit` fields, quota unit `concurrent-requests`), a waiting retry as
//! the idempotent call still in progress that it is (`IdempotencyKeyInUse`, 409).
//!
//! Counts are this replica's (like the rate limits' shares): a [`Slot`] is held for as long as
//! its stream or wait lasts and given back when dropped, whatever ends it. The bounds themselves
//! are [`FairShareConfig`], shown by `canvasctl config table` and documented in docs/LIMITS.md,
//! with those counted where their state lives: present map clients in the presence hub
//! (`service/items/presence.rs`), and the credentials that each have a rate-limit budget (API
//! tokens, OAuth grants, sessions) in their tables (`storage/accounts/`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use uuid::Uuid;

use crate::domain::UserId;
use crate::error::CoreError;

/// The bounds on what one person, and one project, may hold open; each default is stated once,
/// here.
#[derive(Debug, Clone, clap::Args)]
pub struct FairShareConfig {
    /// Event streams (`/changes`, `/presence`; gRPC `WatchProject`, `FollowPresence`) one person
    /// may hold open on one replica, across projects: a map tab holds two.
    #[arg(long = "max-streams-per-person", env = "CANVAS_MAX_STREAMS_PER_PERSON",
          default_value_t = FairShareConfig::STREAMS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub streams_per_person: u32,

    /// Event streams of one project open on one replica, across people.
    #[arg(long = "max-streams-per-project", env = "CANVAS_MAX_STREAMS_PER_PROJECT",
          default_value_t = FairShareConfig::STREAMS_PER_PROJECT, value_parser = clap::value_parser!(u32).range(1..))]
    pub streams_per_project: u32,

    /// Map clients (presence client ids) one person may have present at once, across projects.
    #[arg(long = "max-presence-clients-per-person", env = "CANVAS_MAX_PRESENCE_CLIENTS_PER_PERSON",
          default_value_t = FairShareConfig::PRESENCE_CLIENTS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub presence_clients_per_person: u32,

    /// Map clients present on one project's map at once, across people.
    #[arg(long = "max-presence-clients-per-project", env = "CANVAS_MAX_PRESENCE_CLIENTS_PER_PROJECT",
          default_value_t = FairShareConfig::PRESENCE_CLIENTS_PER_PROJECT, value_parser = clap::value_parser!(u32).range(1..))]
    pub presence_clients_per_project: u32,

    /// Retries one person may have waiting on one replica for their running idempotent calls.
    #[arg(long = "max-idempotency-waits-per-person", env = "CANVAS_MAX_IDEMPOTENCY_WAITS_PER_PERSON",
          default_value_t = FairShareConfig::IDEMPOTENCY_WAITS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub idempotency_waits_per_person: u32,

    /// Retries waiting on one replica for running idempotent calls on one project, across people.
    #[arg(long = "max-idempotency-waits-per-project", env = "CANVAS_MAX_IDEMPOTENCY_WAITS_PER_PROJECT",
          default_value_t = FairShareConfig::IDEMPOTENCY_WAITS_PER_PROJECT, value_parser = clap::value_parser!(u32).range(1..))]
    pub idempotency_waits_per_project: u32,

    /// API tokens one person may hold that are not revoked (each is a rate-limit budget of its
    /// own); creating one more is refused until one is revoked.
    #[arg(long = "max-api-tokens-per-person", env = "CANVAS_MAX_API_TOKENS_PER_PERSON",
          default_value_t = FairShareConfig::API_TOKENS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub api_tokens_per_person: u32,

    /// OAuth grants (an MCP client authorized by the person, each a rate-limit budget of its
    /// own) one person may hold at once; a further authorization revokes the oldest.
    #[arg(long = "max-oauth-grants-per-person", env = "CANVAS_MAX_OAUTH_GRANTS_PER_PERSON",
          default_value_t = FairShareConfig::OAUTH_GRANTS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub oauth_grants_per_person: u32,

    /// Account-site sessions one person may have signed in at once; a further sign-in ends the
    /// least recently used.
    #[arg(long = "max-sessions-per-person", env = "CANVAS_MAX_SESSIONS_PER_PERSON",
          default_value_t = FairShareConfig::SESSIONS_PER_PERSON, value_parser = clap::value_parser!(u32).range(1..))]
    pub sessions_per_person: u32,
}

impl FairShareConfig {
    /// 32 map tabs at once, each with its change and presence streams.
    pub const STREAMS_PER_PERSON: u32 = 64;
    /// 500 people with a map tab each, twice over.
    pub const STREAMS_PER_PROJECT: u32 = 1000;
    /// 32 map tabs (each announces under its own client id).
    pub const PRESENCE_CLIENTS_PER_PERSON: u32 = 32;
    /// Figma's and Miro's rooms hold a few hundred people; so does ours.
    pub const PRESENCE_CLIENTS_PER_PROJECT: u32 = 500;
    /// More parallel retries than a client library makes; a script that sends more gets 409s.
    pub const IDEMPOTENCY_WAITS_PER_PERSON: u32 = 16;
    pub const IDEMPOTENCY_WAITS_PER_PROJECT: u32 = 256;
    /// One per script, machine and integration, with room to spare.
    pub const API_TOKENS_PER_PERSON: u32 = 100;
    /// Every agent a person authorizes, with room for each to authorize again several times.
    pub const OAUTH_GRANTS_PER_PERSON: u32 = 100;
    /// Every browser and device a person uses, many times over.
    pub const SESSIONS_PER_PERSON: u32 = 50;
}

impl Default for FairShareConfig {
    fn default() -> Self {
        Self {
            streams_per_person: Self::STREAMS_PER_PERSON,
            streams_per_project: Self::STREAMS_PER_PROJECT,
            presence_clients_per_person: Self::PRESENCE_CLIENTS_PER_PERSON,
            presence_clients_per_project: Self::PRESENCE_CLIENTS_PER_PROJECT,
            idempotency_waits_per_person: Self::IDEMPOTENCY_WAITS_PER_PERSON,
            idempotency_waits_per_project: Self::IDEMPOTENCY_WAITS_PER_PROJECT,
            api_tokens_per_person: Self::API_TOKENS_PER_PERSON,
            oauth_grants_per_person: Self::OAUTH_GRANTS_PER_PERSON,
            sessions_per_person: Self::SESSIONS_PER_PERSON,
        }
    }
}

/// Which bound a refused caller met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Over {
    Person,
    Project,
}

/// One kind of thing held open, counted per person and per project.
#[derive(Debug)]
pub struct Allowance {
    /// What is counted, in the refusal's words (`event streams`).
    what: &'static str,
    /// The policy name prefix in `RateLimit-Policy` (`streams`: `"streams-per-person"`).
    policy: &'static str,
    per_person: usize,
    per_project: usize,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    people: HashMap<UserId, usize>,
    projects: HashMap<Uuid, usize>,
}

/// One held place; given back when dropped.
#[derive(Debug)]
pub struct Slot {
    allowance: Arc<Allowance>,
    person: UserId,
    project: Uuid,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self.allowance.held();
        decrement(&mut held.people, self.person);
        decrement(&mut held.projects, self.project);
    }
}

/// Takes one from `key`'s count, forgetting the key at zero (also the presence hub's counts).
pub(crate) fn decrement<K: std::hash::Hash + Eq>(counts: &mut HashMap<K, usize>, key: K) {
    if let Some(count) = counts.get_mut(&key) {
        *count -= 1;
        if *count == 0 {
            // Nobody holds anything: forget the key, so memory follows what is open.
            counts.remove(&key);
        }
    }
}

impl Allowance {
    pub fn new(what: &'static str, policy: &'static str, per_person: u32, per_project: u32) -> Arc<Self> {
        Arc::new(Self {
            what,
            policy,
            per_person: per_person.max(1) as usize,
            per_project: per_project.max(1) as usize,
            held: Mutex::default(),
        })
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Held> {
        // Each change is one counter step, so the maps are consistent whatever a panicking holder
        // did: a poisoned lock is used as it is.
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Holds one place for `person` in `project`, or says which bound is full.
    pub fn take(self: &Arc<Self>, person: UserId, project: Uuid) -> Result<Slot, Over> {
        let mut held = self.held();
        if held.people.get(&person).copied().unwrap_or(0) >= self.per_person {
            return Err(Over::Person);
        }
        if held.projects.get(&project).copied().unwrap_or(0) >= self.per_project {
            return Err(Over::Project);
        }
        *held.people.entry(person).or_default() += 1;
        *held.projects.entry(project).or_default() += 1;
        Ok(Slot { allowance: self.clone(), person, project })
    }

    /// What `person` holds now (tests and metrics).
    pub fn held_by(&self, person: UserId) -> usize {
        self.held().people.get(&person).copied().unwrap_or(0)
    }

    /// The refusal of a caller over `over`: 429 with the policy of the bound, and `retry_after_secs`.
    pub fn refusal(&self, over: Over, retry_after_secs: u64) -> CoreError {
        let (scope, quota) = match over {
            Over::Person => ("person", self.per_person),
            Over::Project => ("project", self.per_project),
        };
        too_many(self.what, self.policy, scope, quota, retry_after_secs)
    }
}

/// [`CoreError::TooManyRequests`] for a bound on things held at once: `quota` `what` per `scope`
/// (`person` or `project`), with the draft's quota unit for them.
pub fn too_many(what: &str, policy: &str, scope: &str, quota: usize, retry_after_secs: u64) -> CoreError {
    let secs = retry_after_secs.max(1);
    let name = format!("{policy}-per-{scope}");
    CoreError::TooManyRequests {
        message: format!(
            "too many {what} open: at most {quota} per {scope} at once; close one (or wait for one to end) and try \
             again in {secs} s"
        ),
        retry_after_secs: secs,
        policy: format!("\"{name}\";q={quota};qu=\"concurrent-requests\""),
        state: format!("\"{name}\";r=0;t={secs}"),
    }
}

/// This replica's allowances, built from [`FairShareConfig`]. Cheap to share.
#[derive(Debug, Clone)]
pub struct FairShares {
    /// Open event streams (changes and presence).
    pub streams: Arc<Allowance>,
    /// Retries waiting for a running idempotent call.
    pub idempotency_waits: Arc<Allowance>,
    /// The configured bounds (presence, tokens and sessions are counted where they live).
    pub config: FairShareConfig,
}

impl FairShares {
    pub fn new(config: &FairShareConfig) -> Self {
        Self {
            streams: Allowance::new("event streams", "streams", config.streams_per_person, config.streams_per_project),
            idempotency_waits: Allowance::new(
                "waiting retries",
                "idempotency-waits",
                config.idempotency_waits_per_person,
                config.idempotency_waits_per_project,
            ),
            config: config.clone(),
        }
    }
}

/// How long a refused stream is told to wait: streams end when their clients close them, so a
/// short wait is enough for a client that closed one.
pub const STREAM_RETRY_AFTER_SECS: u64 = 10;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_per_person_and_per_project_and_given_back() {
        let allowance = Allowance::new("event streams", "streams", 2, 3);
        let (ada, bob, cy) = (UserId::new(), UserId::new(), UserId::new());
        let (p, q) = (Uuid::new_v4(), Uuid::new_v4());
        let a1 = allowance.take(ada, p).unwrap();
        let _a2 = allowance.take(ada, q).unwrap();
        assert_eq!(allowance.take(ada, p).unwrap_err(), Over::Person, "two per person, across projects");
        let _b1 = allowance.take(bob, p).unwrap();
        let _b2 = allowance.take(bob, p).unwrap();
        assert_eq!(allowance.take(cy, p).unwrap_err(), Over::Project, "three per project, across people");
        let _c1 = allowance.take(cy, q).expect("another project is unaffected");
        drop(a1);
        assert_eq!(allowance.held_by(ada), 1);
        let _c2 = allowance.take(cy, p).expect("a place given back is free again");
    }

    #[test]
    fn nothing_is_remembered_once_everything_is_given_back() {
        let allowance = Allowance::new("x", "x", 5, 5);
        let slots: Vec<Slot> = (0..5).map(|_| allowance.take(UserId::new(), Uuid::new_v4()).unwrap()).collect();
        drop(slots);
        let held = allowance.held();
        assert!(held.people.is_empty() && held.projects.is_empty());
    }

    #[test]
    fn a_refusal_names_the_bound_with_the_drafts_quota_unit() {
        let allowance = Allowance::new("event streams", "streams", 64, 1000);
        match allowance.refusal(Over::Project, 10) {
            CoreError::TooManyRequests { message, retry_after_secs, policy, state } => {
                assert_eq!(retry_after_secs, 10);
                assert_eq!(policy, "\"streams-per-project\";q=1000;qu=\"concurrent-requests\"");
                assert_eq!(state, "\"streams-per-project\";r=0;t=10");
                assert!(message.contains("at most 1000 per project"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }
}
