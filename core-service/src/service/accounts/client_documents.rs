//! OAuth clients named by the URL of their Client ID Metadata Document (MCP 2026-07-28's preferred
//! registration): the document is fetched when an authorization request names it, checked
//! (`canvas_accounts::client_documents`), stored as the client (so the token endpoint, the grants
//! and the person's connected apps find it like any other), and used again without a fetch while
//! its caching headers say it is fresh.
//!
//! The fetch is a request into the network on a stranger's behalf, so it goes through the webhook
//! client: the same destination rules (`CANVAS_WEBHOOK_ALLOW_DESTINATIONS`), the same trusted CAs,
//! no redirects, at most [`MAX_METADATA_BYTES`] in [`DOCUMENT_FETCH_SECS`].
//!
//! Freshness is kept in this process only: a replica that has not seen a document fetches it once
//! itself, one fetch at a time (requests arriving meanwhile wait for it and use its outcome). A stale document that cannot be fetched again is refused, not used as it was: the
//! client may have withdrawn a redirect URI on purpose.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use chrono::Utc;
use serde_json::Value;

use super::AccountsService;
use crate::error::CoreResult;
use crate::storage::OAuthClientRow;
use canvas_accounts::client_documents::{checked_document, document_url_problem, is_document_client_id};
use canvas_accounts::clients::{OAuthRefusal, MAX_METADATA_BYTES};
#[cfg(test)]
use canvas_vocabulary::limits::oauth::DOCUMENT_FRESH_MIN_SECS;
use canvas_vocabulary::limits::oauth::{
    DOCUMENTS_REMEMBERED, DOCUMENT_FETCH_SECS, DOCUMENT_FRESH_DEFAULT_SECS, DOCUMENT_FRESH_MAX_SECS,
};

/// Until when each fetched document may be used without a fetch, by URL; and the fetches under way.
#[derive(Debug, Default)]
pub struct DocumentMemory {
    fresh_until: Mutex<HashMap<String, Instant>>,
    /// One fetch of a URL at a time: requests that arrive while its document is being fetched wait
    /// for that fetch and use what it stored, so a crowd of authorizations costs the client's host
    /// one request. Holds only the URLs being fetched.
    fetching: Mutex<HashMap<String, Arc<tokio::sync::Mutex<()>>>>,
}

/// The turn to fetch one URL; its entry goes when nobody else waits for it.
struct FetchTurn<'a> {
    memory: &'a DocumentMemory,
    url: String,
    lock: Arc<tokio::sync::Mutex<()>>,
    _held: tokio::sync::OwnedMutexGuard<()>,
}

impl Drop for FetchTurn<'_> {
    fn drop(&mut self) {
        let mut fetching = self.memory.fetching.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // This turn's references: the map's, `lock` and the guard's. Any more is someone waiting.
        if Arc::strong_count(&self.lock) <= 3 {
            fetching.remove(&self.url);
        }
    }
}

impl DocumentMemory {
    /// Waits for the turn to fetch `url`.
    async fn turn(&self, url: &str) -> FetchTurn<'_> {
        let lock = {
            let mut fetching = self.fetching.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            fetching.entry(url.to_owned()).or_default().clone()
        };
        let held = lock.clone().lock_owned().await;
        FetchTurn { memory: self, url: url.to_owned(), lock, _held: held }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        // Each write is one insert or removal: a poisoned map is still whole.
        self.fresh_until.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn is_fresh(&self, url: &str, now: Instant) -> bool {
        self.entries().get(url).is_some_and(|until| *until > now)
    }

    fn remember(&self, url: &str, until: Instant, now: Instant) {
        let mut entries = self.entries();
        if entries.len() >= DOCUMENTS_REMEMBERED && !entries.contains_key(url) {
            entries.retain(|_, until| *until > now);
            if entries.len() >= DOCUMENTS_REMEMBERED {
                let stalest = entries.iter().min_by_key(|(_, until)| **until).map(|(url, _)| url.clone());
                if let Some(stalest) = stalest {
                    entries.remove(&stalest);
                }
            }
        }
        entries.insert(url.to_owned(), until);
    }
}

/// How long a fetched document is used again: what its headers say, at least `least` seconds
/// (`--oauth-document-fresh-min-secs`) and at most [`DOCUMENT_FRESH_MAX_SECS`].
pub fn fresh_for(said: Option<Duration>, least: u64) -> Duration {
    let secs = said.map_or(DOCUMENT_FRESH_DEFAULT_SECS, |d| d.as_secs());
    Duration::from_secs(secs.clamp(least.min(DOCUMENT_FRESH_MAX_SECS), DOCUMENT_FRESH_MAX_SECS))
}

impl AccountsService {
    /// The client an authorization request names: a registered client, or the one whose metadata
    /// document is at `client_id`. A refusal is shown to the person, never sent to a redirect URI
    /// (none can be trusted before the client is known).
    pub(crate) async fn authorizing_client(&self, client_id: &str) -> CoreResult<Result<OAuthClientRow, OAuthRefusal>> {
        if !is_document_client_id(client_id) {
            return Ok(match self.store.get_oauth_client(client_id).await? {
                Some(client) if !client_id.is_empty() => Ok(client),
                _ => {
                    Err(OAuthRefusal::new("invalid_client", "the client_id is unknown: the client must register first"))
                }
            });
        }
        if let Some(problem) = document_url_problem(client_id) {
            return Ok(Err(OAuthRefusal::new("invalid_client", format!("the client_id URL {problem}"))));
        }
        if self.documents.is_fresh(client_id, Instant::now()) {
            if let Some(client) = self.store.get_oauth_client(client_id).await? {
                return Ok(Ok(client));
            }
        }
        // One fetch at a time per URL; a request that waited finds what the fetch before it stored.
        let _turn = self.documents.turn(client_id).await;
        let now = Instant::now();
        if self.documents.is_fresh(client_id, now) {
            if let Some(client) = self.store.get_oauth_client(client_id).await? {
                return Ok(Ok(client));
            }
        }
        let refused = |what: String| Ok(Err(OAuthRefusal::new("invalid_client", what)));
        let limit = Duration::from_secs(DOCUMENT_FETCH_SECS);
        let fetched = match self.outbound.fetch_document(client_id, MAX_METADATA_BYTES, limit).await {
            Ok(fetched) => fetched,
            Err(why) => {
                return refused(format!("the client's metadata document at {client_id} could not be fetched: {why}"))
            }
        };
        let checked = match checked_document(client_id, &fetched.body) {
            Ok(checked) => checked,
            Err(refusal) => {
                return refused(format!("the client's metadata document at {client_id}: {}", refusal.description))
            }
        };
        let client = OAuthClientRow {
            id: client_id.to_owned(),
            name: checked.name,
            redirect_uris: serde_json::to_string(&checked.redirect_uris).map_err(anyhow::Error::from)?,
            metadata: Value::Object(checked.info).to_string(),
            created_at: Utc::now(),
        };
        self.store.upsert_oauth_client(&client).await?;
        self.documents.remember(
            client_id,
            now + fresh_for(fetched.fresh_for, self.settings.accounts.oauth_document_fresh_min_secs),
            now,
        );
        Ok(Ok(client))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freshness_is_kept_within_its_bounds() {
        let least = DOCUMENT_FRESH_MIN_SECS;
        assert_eq!(fresh_for(None, least), Duration::from_secs(DOCUMENT_FRESH_DEFAULT_SECS));
        assert_eq!(fresh_for(Some(Duration::ZERO), least), Duration::from_secs(DOCUMENT_FRESH_MIN_SECS));
        assert_eq!(fresh_for(Some(Duration::from_secs(600)), least), Duration::from_secs(600));
        assert_eq!(fresh_for(Some(Duration::MAX), least), Duration::from_secs(DOCUMENT_FRESH_MAX_SECS));
        assert_eq!(fresh_for(Some(Duration::ZERO), 0), Duration::ZERO);
        assert_eq!(fresh_for(Some(Duration::ZERO), u64::MAX), Duration::from_secs(DOCUMENT_FRESH_MAX_SECS));
    }

    #[test]
    fn the_memory_forgets_the_stalest_past_its_bound() {
        let memory = DocumentMemory::default();
        let now = Instant::now();
        for i in 0..DOCUMENTS_REMEMBERED {
            memory.remember(&format!("https://a.example/{i}"), now + Duration::from_secs(100 + i as u64), now);
        }
        memory.remember("https://new.example/c", now + Duration::from_secs(50), now);
        assert_eq!(memory.entries().len(), DOCUMENTS_REMEMBERED);
        assert!(!memory.is_fresh("https://a.example/0", now), "the stalest was forgotten");
        assert!(memory.is_fresh("https://a.example/1", now) && memory.is_fresh("https://new.example/c", now));
        assert!(!memory.is_fresh("https://new.example/c", now + Duration::from_secs(50)), "fresh until, not at");
    }
}
