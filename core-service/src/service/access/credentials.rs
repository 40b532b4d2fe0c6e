//! What each kind of credential names: the account site's session cookie and an OAuth access
//! token at its resource (API tokens are read in [`super::Access::authenticate`]). These look-ups
//! are access's, not the account site's, so every context authenticates through [`super::Access`]
//! alone; the account site opens and ends the sessions read here.

use chrono::Utc;

use super::cache::KnownToken;
use super::{Access, Principal};
use crate::domain::{tokens, TokenId};
use crate::error::{CoreError, CoreResult};
use crate::storage::{SessionRow, UserRow};

const SESSION_ENDED: &str = "the session has ended or is not valid; sign in again";
const CSRF_REFUSED: &str =
    "a write with the session cookie needs the session's CSRF value in the X-Canvas-CSRF header, and this one is \
     missing or not the session's";
const ACCESS_REFUSED: &str =
    "the access token is not valid here: it is unknown, expired, revoked, or minted for another resource";
/// A session's `last_seen_at` is rewritten at most this often, so reads do not all write.
const TOUCH_EVERY: chrono::Duration = chrono::Duration::seconds(60);

/// What a call carries to say who is calling, as its gateway passed it on.
#[derive(Debug, Clone, Copy, Default)]
pub struct Credentials<'a> {
    /// The client's `Authorization` header.
    pub authorization: Option<&'a str>,
    /// The account site's session cookie (rest-gateway passes it on reads, and on writes that
    /// carry `X-Canvas-CSRF`).
    pub session: Option<&'a str>,
    /// The session's CSRF value a write carried (`X-Canvas-CSRF`); a session writes only with it.
    pub csrf: Option<&'a str>,
    /// The protected resource the call came through (mcp-gateway's MCP URL), which an OAuth
    /// access token must have been minted for.
    pub resource: Option<&'a str>,
    /// The client's address as the gateway saw it, for the per-address limit of calls whose
    /// credentials fail; `None` from callers that do not say (internal components).
    pub client_address: Option<std::net::IpAddr>,
}

/// A signed-in session: the user, and what the site needs to keep it.
#[derive(Debug, Clone)]
pub struct SignedIn {
    pub principal: Principal,
    pub login: String,
    pub session: SessionRow,
    /// What state-changing forms of this session carry.
    pub csrf: String,
}

impl Access {
    /// The session a cookie holds, if it is still alive.
    pub async fn session(&self, secret: Option<&str>) -> CoreResult<SignedIn> {
        let ended = || CoreError::Unauthenticated(SESSION_ENDED.into());
        let secret =
            secret.map(str::trim).filter(|s| tokens::looks_like(tokens::SESSION_PREFIX, s)).ok_or_else(ended)?;
        let digest = tokens::hash(secret);
        let (session, user, login) = self.store.find_session(&digest).await?.ok_or_else(ended)?;
        let now = Utc::now();
        let idle_end = session.last_seen_at + secs(self.settings.accounts.session_idle_secs);
        if !tokens::digests_match(&session.secret_hash, &digest) || now >= session.expires_at || now >= idle_end {
            return Err(ended());
        }
        if now - session.last_seen_at >= TOUCH_EVERY {
            let store = self.store.clone();
            let id = session.id;
            tokio::spawn(async move {
                if let Err(err) = store.touch_session(id, now).await {
                    tracing::warn!(error = %err, "could not record session use");
                }
            });
        }
        Ok(signed_in(user, login, session, secret))
    }

    /// The session of a write: alive, and `csrf` its CSRF value (compared in constant time). A
    /// missing or wrong value is UNAUTHENTICATED, as a missing token is.
    pub(crate) async fn session_for_write(&self, secret: Option<&str>, csrf: &str) -> CoreResult<Principal> {
        let signed_in = self.session(secret).await?;
        if csrf.is_empty() || !tokens::strings_match(&signed_in.csrf, csrf) {
            return Err(CoreError::Unauthenticated(CSRF_REFUSED.into()));
        }
        Ok(signed_in.principal)
    }

    /// Authenticates an OAuth access token presented at `resource` (the MCP endpoint the call
    /// came through, as its gateway says; None everywhere else).
    pub(crate) async fn authenticate_access_token(
        &self,
        secret: &str,
        resource: Option<&str>,
    ) -> CoreResult<Principal> {
        let refused = || CoreError::Unauthenticated(ACCESS_REFUSED.into());
        let resource = resource.filter(|r| !r.is_empty()).ok_or_else(refused)?;
        let digest = tokens::hash(secret);
        if let Some(KnownToken::OAuth { principal, resource: minted_for, expires_at }) = self.cache.token(&digest) {
            // The same checks as on a fresh read: the grant was live when read (a revocation
            // forgets the entry); expiry and resource are the caller's and the clock's.
            if expires_at > Utc::now() && minted_for == resource {
                return Ok(principal);
            }
            return Err(refused());
        }
        let generation = self.cache.generation();
        let (token, grant, user) = self.store.find_oauth_token(&digest).await?.ok_or_else(refused)?;
        let alive = token.kind == "access" && token.expires_at > Utc::now() && grant.revoked_at.is_none();
        if !tokens::digests_match(&token.token_hash, &digest) || !alive || grant.resource != resource {
            return Err(refused());
        }
        let principal = Principal {
            user_id: user.id,
            name: user.name,
            system_admin: false,
            token_id: TokenId::from_uuid(grant.id),
        };
        let known =
            KnownToken::OAuth { principal: principal.clone(), resource: grant.resource, expires_at: token.expires_at };
        self.cache.keep_token(digest, known, generation);
        Ok(principal)
    }
}

/// The signed-in person of a live session, with the CSRF value its forms carry.
pub(crate) fn signed_in(user: UserRow, login: String, session: SessionRow, secret: &str) -> SignedIn {
    let principal = Principal {
        user_id: user.id,
        name: user.name,
        system_admin: user.system_admin,
        token_id: TokenId::from_uuid(session.id),
    };
    SignedIn { principal, login, session, csrf: tokens::csrf_for(secret) }
}

/// `n` seconds, saturating far beyond any configured lifetime instead of overflowing.
pub(crate) fn secs(n: u64) -> chrono::Duration {
    chrono::Duration::seconds(i64::try_from(n).unwrap_or(i64::MAX / 1000).min(i64::MAX / 1000))
}
