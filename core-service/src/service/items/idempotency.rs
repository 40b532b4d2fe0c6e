//! Idempotent retries of creating calls (draft-ietf-httpapi-idempotency-key-header).
//!
//! A caller names a creating call with a key (`Idempotency-Key`; gRPC metadata
//! `idempotency-key`). [`ItemsService::once`] runs the call at most once per caller and key:
//! - the first call with a key claims it in the database (so every replica sees the claim), runs,
//!   and stores its encoded answer; a call that fails frees the key, so a corrected retry runs;
//! - a retry with the same key and the same request (its [fingerprint](Retry::new): method,
//!   project and the request message) gets that answer again, marked as replayed, and nothing is
//!   written a second time; with another request it is [`CoreError::IdempotencyKeyReused`];
//! - a retry that arrives while the first call still runs waits for it (polling the row) within
//!   its own deadline, then replays its answer, or is [`CoreError::IdempotencyKeyInUse`] when the
//!   first call has not finished by then. Waiting costs the replica a task polling the database,
//!   so a person's waiting retries, and a project's, are bounded (`--max-idempotency-waits-*`,
//!   `service/access/fair_share.rs`): one more is answered `IdempotencyKeyInUse` at once.
//!
//! Keys are scoped to the authenticated user: two users' keys never meet. A key and its answer
//! are kept for [`KEY_LIFETIME`]; expired rows are ignored and pruned as new keys are claimed.
//!
//! The call runs in its own task, so it finishes and stores its answer even when its caller goes
//! away (a client that disconnects, a deadline that passes): the retry then replays it. While it
//! runs, its claim holds a lease ([`lease`]: the call's deadline plus [`LEASE_MARGIN`]), which it
//! extends every half lease. A replica that dies mid-call leaves its claim until the lease lapses
//! (60 s with the gateways' default 30 s deadline); retries until then answer "in progress", and
//! the first one after takes the key over and runs the call.
//!
//! Whether the first call's write committed is never guessed: an item create marks the key's row
//! in its own write transaction (`landed`, `storage::items::idempotency::mark_landed!`). A
//! retry that finds the mark without an answer (the answer was lost with the connection at the
//! commit, as in a database failover, or the replica died right after it) answers from what was
//! written and never runs the call again; a failed call frees its key only when nothing landed.
//! Calls whose writes do not mark (diagrams, arranging, webhooks) keep one window in which a
//! retried call can apply twice: a replica that dies, or a database that fails over, between
//! their commit and the store of their answer right after it (docs/REST.md#idempotent-retries).
use std::future::Future;
use std::time::Duration;

use chrono::Utc;
use sha2::{Digest, Sha256};
use tokio::time::Instant;
use uuid::Uuid;

use super::ItemsService;
use crate::error::{while_unavailable, CoreError, CoreResult};
use crate::service::access::fair_share::{Over, Slot};
use crate::service::Principal;
use crate::storage::{IdempotencyClaim, ItemsStore, Landed, Landing};

/// The HTTP header, named in errors about the key.
pub const HEADER: &str = "Idempotency-Key";
/// The longest key, in characters.
pub const MAX_KEY_CHARS: usize = 255;
/// How long a key and its answer are kept.
pub const KEY_LIFETIME: Duration = Duration::from_secs(24 * 60 * 60);
/// Added to a call's deadline to make the lease of its claim.
pub const LEASE_MARGIN: Duration = Duration::from_secs(30);
/// The deadline assumed for a call that carries none (the gateways' default).
pub const DEFAULT_DEADLINE: Duration = Duration::from_secs(30);

/// How long a claim holds its key without being extended: the call's deadline plus
/// [`LEASE_MARGIN`].
pub fn lease(deadline: Duration) -> Duration {
    deadline + LEASE_MARGIN
}

/// How long a retry waits for a running first call: its deadline less a margin (a tenth, at most
/// a second), so that its "in progress" answer reaches the caller before the deadline does.
pub fn patience(deadline: Duration) -> Duration {
    deadline.saturating_sub((deadline / 10).min(Duration::from_secs(1)))
}

/// A key as the caller sent it: 1 to [`MAX_KEY_CHARS`] printable ASCII characters, bare (as
/// Stripe's clients send it) or as a structured-field string (`"…"`, as the draft writes it),
/// which is the same key.
pub fn parse_key(raw: &str) -> CoreResult<String> {
    let rule = || {
        CoreError::invalid(
            HEADER,
            format!(
                "must be 1 to {MAX_KEY_CHARS} printable ASCII characters (a UUID, say), bare or as a quoted string"
            ),
        )
    };
    let raw = raw.trim_matches([' ', '\t']);
    let key = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).filter(|_| raw.len() >= 2) {
        Some(quoted) => {
            let mut key = String::with_capacity(quoted.len());
            let mut chars = quoted.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some(escaped @ ('"' | '\\')) => key.push(escaped),
                        _ => return Err(rule()),
                    },
                    '"' => return Err(rule()),
                    c => key.push(c),
                }
            }
            key
        }
        None => raw.to_owned(),
    };
    let printable = key.chars().all(|c| matches!(c, ' '..='~'));
    if key.is_empty() || key.len() > MAX_KEY_CHARS || !printable {
        return Err(rule());
    }
    Ok(key)
}

/// One idempotent call: the caller's key and the fingerprint of the request.
#[derive(Debug, Clone)]
pub struct Retry {
    key: String,
    fingerprint: [u8; 32],
    /// The project of the call (nil when it names none that parses), for the bound on waiting
    /// retries per project.
    project: Uuid,
}

impl Retry {
    /// `raw_key` as sent; the fingerprint is the SHA-256 of `method` (the call's route), `project`
    /// and `message` (the encoded request), each length-prefixed.
    pub fn new(raw_key: &str, method: &str, project: &str, message: &[u8]) -> CoreResult<Self> {
        let key = parse_key(raw_key)?;
        let mut hash = Sha256::new();
        for part in [method.as_bytes(), project.as_bytes(), message] {
            hash.update((part.len() as u64).to_be_bytes());
            hash.update(part);
        }
        let project = Uuid::parse_str(project.trim()).unwrap_or_default();
        Ok(Self { key, fingerprint: hash.finalize().into(), project })
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    /// The SHA-256 of the request, as stored with the key.
    pub fn fingerprint(&self) -> &[u8] {
        &self.fingerprint
    }
}

/// Whose keys these are: `user:<id>` of the authenticated user, whichever token or OAuth client
/// the call came with.
pub fn scope_of(who: &Principal) -> String {
    format!("user:{}", who.user_id)
}

/// The claim of one attempt on one key.
#[derive(Clone)]
struct Held {
    store: ItemsStore,
    scope: String,
    key: String,
    claim: Uuid,
    lease: Duration,
}

impl Held {
    fn lease_until(&self) -> chrono::DateTime<Utc> {
        Utc::now() + chrono::Duration::from_std(self.lease).unwrap_or(chrono::Duration::MAX)
    }

    /// Runs `work` while extending the lease every half lease, then stores its answer or frees the
    /// key.
    async fn run<F>(self, work: F) -> CoreResult<Vec<u8>>
    where
        F: Future<Output = CoreResult<Vec<u8>>>,
    {
        let landing = Landing { scope: self.scope.clone(), key: self.key.clone(), claim: self.claim };
        let mut work = std::pin::pin!(landing.scope(work));
        let mut renew = tokio::time::interval_at(Instant::now() + self.lease / 2, self.lease / 2);
        let outcome = loop {
            tokio::select! {
                outcome = &mut work => break outcome,
                _ = renew.tick() => {
                    match self.store.extend_idempotency_lease(&self.scope, &self.key, self.claim, self.lease_until()).await {
                        Ok(true) => {}
                        Ok(false) => tracing::warn!(key = %self.key, "an idempotency key's lease was taken over while its call ran"),
                        Err(err) => tracing::warn!(error = %err, "could not extend an idempotency key's lease"),
                    }
                }
            }
        };
        self.settle(outcome.as_ref().ok().cloned()).await;
        outcome
    }

    /// Stores the answer of a success, or frees the key of a failure. When the database is
    /// unavailable (a failover) this goes on in the background ([`while_unavailable`]): the caller
    /// gets its answer now, and a retry meanwhile answers from what the write recorded in its own
    /// transaction (`landed`) rather than running again. Freeing never frees a key whose write
    /// landed (`release_idempotency_key`).
    async fn settle(self, answer: Option<Vec<u8>>) {
        let failed = match self.settle_once(answer.as_deref()).await {
            Err(CoreError::Unavailable { .. }) => true,
            Err(err) => {
                tracing::warn!(error = %err, "could not store an idempotent call's outcome; its lease will lapse");
                false
            }
            Ok(()) => false,
        };
        if failed {
            tokio::spawn(async move {
                let settled = while_unavailable("an idempotent call's outcome", || self.settle_once(answer.as_deref()));
                if let Err(err) = settled.await {
                    tracing::warn!(error = %err, key = %self.key, "gave up storing an idempotent call's outcome; its lease will lapse");
                }
            });
        }
    }

    /// One try of [`Held::settle`]; `Ok` also when the key is no longer this attempt's.
    async fn settle_once(&self, answer: Option<&[u8]>) -> CoreResult<()> {
        match answer {
            Some(answer) => {
                let held = self.store.finish_idempotency_key(&self.scope, &self.key, self.claim, answer).await?;
                if !held {
                    tracing::warn!(key = %self.key, "an idempotency key was taken over before its call's answer was stored");
                }
                Ok(())
            }
            None => self.store.release_idempotency_key(&self.scope, &self.key, self.claim).await,
        }
    }
}

impl ItemsService {
    /// Runs `work` (the encoded answer of a creating call) once for `who` and `retry`'s key, or
    /// answers what its first run answered: `(answer, replayed)`. `deadline` is the time the
    /// caller gives this call. `work` runs in its own task, so it is `'static`.
    pub async fn once<F, R>(
        &self,
        who: &Principal,
        retry: Retry,
        deadline: Duration,
        work: F,
        rebuild: R,
    ) -> CoreResult<(Vec<u8>, bool)>
    where
        F: Future<Output = CoreResult<Vec<u8>>> + Send + 'static,
        R: Fn(&Landed) -> Option<Vec<u8>>,
    {
        let scope = scope_of(who);
        let (lease, give_up) = (lease(deadline), Instant::now() + patience(deadline));
        let mut pause = Duration::from_millis(10);
        // A place among the retries waiting in this replica, taken at the first wait
        // (`service/access/fair_share.rs`).
        let mut waiting: Option<Slot> = None;
        let claim = loop {
            let now = Utc::now();
            let claim = IdempotencyClaim {
                scope: &scope,
                key: &retry.key,
                fingerprint: &retry.fingerprint,
                claim: Uuid::new_v4(),
                now,
                lease_until: now + chrono::Duration::from_std(lease).unwrap_or(chrono::Duration::MAX),
                expires_at: now + chrono::Duration::from_std(KEY_LIFETIME).unwrap_or(chrono::Duration::MAX),
            };
            if self.store.claim_idempotency_key(&claim).await? {
                break claim.claim;
            }
            // Freed by a failed call meanwhile: claim it again.
            let Some(row) = self.store.idempotency_key(&scope, &retry.key).await? else { continue };
            let take_over = if row.expires_at <= now {
                true
            } else if row.fingerprint != retry.fingerprint {
                return Err(CoreError::IdempotencyKeyReused(format!(
                    "this {HEADER} was already used for another request (another body, endpoint or project) in \
                     the last 24 hours; use a new key for a new request"
                )));
            } else if row.is_done() {
                let answer =
                    row.response.ok_or_else(|| CoreError::internal("a done idempotency key holds no answer"))?;
                tracing::info!(key = %retry.key, "idempotent call replayed");
                return Ok((answer, true));
            } else if let Some(answer) = row.landed().and_then(|landed| rebuild(&landed)) {
                // The first call's write committed (it said so in its own transaction), and its
                // answer is not stored: lost with the connection at the commit, or not stored yet.
                // Answer from what it wrote; never run it again.
                tracing::warn!(key = %retry.key, "idempotent call answered from what its first run wrote");
                return Ok((answer, true));
            } else if row.landed.is_some() && row.lease_until <= now {
                // Its write landed but no answer can be made from it, and its call is gone: never
                // run it again. (While the call may still store its answer, the retry waits.)
                return Err(CoreError::Conflict(format!(
                    "the request with this {HEADER} was applied, but its answer was lost; read the project to find \
                     what it made"
                )));
            } else {
                // Held by a running call, or by one whose replica went away mid-call (its lease lapsed).
                row.lease_until <= now
            };
            if take_over {
                if self.store.take_over_idempotency_key(&claim, row.claim).await? {
                    if row.expires_at > now {
                        tracing::warn!(key = %retry.key, "took over an idempotency key whose lease lapsed");
                    }
                    break claim.claim;
                }
                continue;
            }
            if waiting.is_none() {
                let waits = &self.access.shares().idempotency_waits;
                match waits.take(who.user_id, retry.project) {
                    Ok(slot) => waiting = Some(slot),
                    Err(over) => {
                        let whose = match over {
                            Over::Person => "of yours",
                            Over::Project => "on this project",
                        };
                        return Err(CoreError::IdempotencyKeyInUse(format!(
                            "a request with this {HEADER} is still in progress, and as many retries {whose} as may \
                             wait for their first requests already do; retry it later to get its answer"
                        )));
                    }
                }
            }
            let left = give_up.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(CoreError::IdempotencyKeyInUse(format!(
                    "a request with this {HEADER} is still in progress; retry it later to get its answer"
                )));
            }
            tokio::time::sleep(pause.min(left)).await;
            pause = (pause * 2).min(Duration::from_millis(250));
        };
        drop(waiting);
        let held = Held { store: self.store.clone(), scope, key: retry.key, claim, lease };
        let answer = tokio::spawn(held.run(work))
            .await
            .map_err(|err| CoreError::internal(format!("an idempotent call's task failed: {err}")))??;
        Ok((answer, false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_printable_ascii_bare_or_quoted() {
        assert_eq!(parse_key("abc-123").ok().as_deref(), Some("abc-123"));
        assert_eq!(parse_key("\"abc-123\"").ok().as_deref(), Some("abc-123"));
        assert_eq!(parse_key(r#""a\"b\\c""#).ok().as_deref(), Some(r#"a"b\c"#));
        assert_eq!(parse_key(&"k".repeat(255)).map(|k| k.len()).ok(), Some(255));
        for bad in ["", "\"\"", "  ", "é", "a\u{7f}", "a\nb", r#""a\b""#, r#""a"b""#] {
            let Err(CoreError::Validation(violations)) = parse_key(bad) else { panic!("{bad:?} was accepted") };
            assert_eq!(violations[0].field, HEADER);
        }
        assert!(parse_key(&"k".repeat(256)).is_err());
    }

    #[test]
    fn fingerprints_tell_method_project_and_message_apart() {
        let print = |method: &str, project: &str, message: &[u8]| Retry::new("k", method, project, message).unwrap();
        let base = print("/a", "p", b"m").fingerprint;
        assert_eq!(print("/a", "p", b"m").fingerprint, base);
        assert_ne!(print("/b", "p", b"m").fingerprint, base);
        assert_ne!(print("/a", "q", b"m").fingerprint, base);
        assert_ne!(print("/a", "p", b"n").fingerprint, base);
        assert_ne!(print("/a", "pm", b"").fingerprint, print("/a", "p", b"m").fingerprint);
    }

    #[test]
    fn a_retry_answers_before_its_deadline_and_a_lease_outlives_it() {
        assert_eq!(patience(Duration::from_secs(30)), Duration::from_secs(29));
        assert_eq!(patience(Duration::from_secs(2)), Duration::from_millis(1800));
        assert_eq!(lease(Duration::from_secs(30)), Duration::from_secs(60));
    }
}
