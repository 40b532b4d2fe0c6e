//! Access: who is calling, and may they do this here. One [`Access`] is built by the root
//! [`crate::service::Core`] and shared by every context service, which authenticates and checks
//! roles through it; it reaches no service itself, only the token, session and membership rows.
//!
//! - [`credentials`]: what a call carries, and the session and OAuth access-token look-ups.
//! - [`rate_limits`]: the per-credential and per-address budgets spent at authentication.
//! - [`fair_share`]: what one person, and one project, may hold open (streams, waiting retries).
//! - [`cache`]: token and role answers remembered for a moment, forgotten on every change.
//! - [`forgetting`]: how a change of access reaches this replica's and the others' caches.

pub mod cache;
pub mod credentials;
pub mod fair_share;
mod forgetting;
pub mod rate_limits;

use std::sync::Arc;

use cache::{AccessCache, KnownToken};
use chrono::Utc;

pub use credentials::{Credentials, SignedIn};
use fair_share::FairShares;
use rate_limits::RateLimits;

use super::ServiceSettings;
use crate::domain::{tokens, Environment, ProjectId, ProjectRole, TokenId, UserId};
use crate::error::{CoreError, CoreResult};
use crate::storage::AccountsStore;
use crate::storage::ProjectRow;

/// The authenticated caller: the user a token belongs to.
#[derive(Debug, Clone)]
pub struct Principal {
    pub user_id: UserId,
    pub name: String,
    /// May use the admin API.
    pub system_admin: bool,
    /// The token used, for audit.
    pub token_id: TokenId,
}

/// The message of every 401: it must not tell an attacker which check failed
/// beyond "missing" versus "not valid".
pub const TOKEN_REQUIRED: &str = "a valid API token is required (Authorization: Bearer <token>)";
pub const TOKEN_INVALID: &str = "the API token is not valid: it is unknown, revoked, or belongs to another environment";

/// Authentication, project roles and rate limits, shared (behind an `Arc`) by every service.
#[derive(Debug)]
pub struct Access {
    store: AccountsStore,
    settings: ServiceSettings,
    /// This replica's share of every caller's request budget.
    rate_limits: RateLimits,
    /// What each person and project holds open in this replica (`fair_share`).
    shares: FairShares,
    /// Token and role answers of the last moment (`cache`), so a read costs no access query.
    cache: AccessCache,
}

impl Access {
    pub(crate) fn new(store: AccountsStore, settings: ServiceSettings) -> Arc<Self> {
        let rate_limits = RateLimits::new(&settings.accounts.rate_limits);
        let shares = FairShares::new(&settings.accounts.fair_share);
        let cache = AccessCache::new(settings.access_memory);
        Arc::new(Self { store, settings, rate_limits, shares, cache })
    }

    /// This replica's rate limiters (pruned periodically by the gRPC server).
    pub fn rate_limits(&self) -> &RateLimits {
        &self.rate_limits
    }

    /// What each person and project holds open in this replica, and the bounds.
    pub fn shares(&self) -> &FairShares {
        &self.shares
    }

    /// Authenticates a call: an API token; or an OAuth access token at its own resource; or, when
    /// no `Authorization` header was sent, a session: alone when `allow_session` (reads), else
    /// only with its CSRF value in `credentials.csrf` (writes).
    ///
    /// Every call spends one of its credential's rate budget; a call whose credentials fail spends
    /// one of its client address's instead, and once that is used up is answered
    /// `TooManyRequests` rather than 401 (`service/access/rate_limits.rs`).
    pub async fn authenticate_with(&self, credentials: Credentials<'_>, allow_session: bool) -> CoreResult<Principal> {
        match self.identify(credentials, allow_session).await {
            Ok(principal) => {
                self.rate_limits.spend_credential(principal.token_id.uuid())?;
                Ok(principal)
            }
            Err(CoreError::Unauthenticated(message)) => {
                self.rate_limits.spend_anonymous(credentials.client_address)?;
                Err(CoreError::Unauthenticated(message))
            }
            Err(other) => Err(other),
        }
    }

    /// The account site's signed-in person, spending the session's rate budget (or, when the
    /// session fails, the client address's), as [`Access::authenticate_with`] does for the API.
    pub async fn signed_in(
        &self,
        session: Option<&str>,
        client_address: Option<std::net::IpAddr>,
    ) -> CoreResult<SignedIn> {
        match self.session(session).await {
            Ok(signed_in) => {
                self.rate_limits.spend_credential(signed_in.principal.token_id.uuid())?;
                Ok(signed_in)
            }
            Err(CoreError::Unauthenticated(message)) => {
                self.rate_limits.spend_anonymous(client_address)?;
                Err(CoreError::Unauthenticated(message))
            }
            Err(other) => Err(other),
        }
    }

    /// Who the credentials name, without spending any rate budget.
    async fn identify(&self, credentials: Credentials<'_>, allow_session: bool) -> CoreResult<Principal> {
        let header = credentials.authorization.map(str::trim).filter(|h| !h.is_empty());
        if header.is_none() && credentials.session.is_some() {
            if allow_session {
                return Ok(self.session(credentials.session).await?.principal);
            }
            // A write rides a session only with the session's CSRF value beside it.
            if let Some(csrf) = credentials.csrf {
                return self.session_for_write(credentials.session, csrf).await;
            }
        }
        if let Some((scheme, secret)) = header.and_then(|h| h.split_once(' ')) {
            let secret = secret.trim();
            if scheme.eq_ignore_ascii_case("bearer") && tokens::looks_like(tokens::ACCESS_PREFIX, secret) {
                return self.authenticate_access_token(secret, credentials.resource).await;
            }
        }
        self.authenticate(header).await
    }

    /// Authenticates the value of an `Authorization` header:
    /// `Bearer <token>` or `ServiceApiKey <token>` (scheme case-insensitive).
    pub async fn authenticate(&self, authorization: Option<&str>) -> CoreResult<Principal> {
        let header = authorization.map(str::trim).filter(|h| !h.is_empty());
        let Some(header) = header else {
            return Err(CoreError::Unauthenticated(TOKEN_REQUIRED.into()));
        };
        let (scheme, secret) = header.split_once(' ').unwrap_or((header, ""));
        let scheme_ok = scheme.eq_ignore_ascii_case("bearer") || scheme.eq_ignore_ascii_case("serviceapikey");
        let secret = secret.trim();
        if !scheme_ok || !tokens::looks_like_token(secret) {
            return Err(CoreError::Unauthenticated(TOKEN_INVALID.into()));
        }
        let digest = tokens::hash(secret);
        if let Some(KnownToken::Api { principal, last_used_at }) = self.cache.token(&digest) {
            self.note_token_use(&digest, principal.token_id, last_used_at);
            return Ok(principal);
        }
        let generation = self.cache.generation();
        let Some((token, user)) = self.store.find_token(&digest).await? else {
            return Err(CoreError::Unauthenticated(TOKEN_INVALID.into()));
        };
        let environment_ok = Environment::from_code(token.environment) == Some(self.settings.environment);
        if !tokens::digests_match(&token.token_hash, &digest) || token.revoked_at.is_some() || !environment_ok {
            return Err(CoreError::Unauthenticated(TOKEN_INVALID.into()));
        }
        let principal =
            Principal { user_id: user.id, name: user.name, system_admin: user.system_admin, token_id: token.id };
        let known = KnownToken::Api { principal: principal.clone(), last_used_at: token.last_used_at };
        self.cache.keep_token(digest, known, generation);
        self.note_token_use(&digest, principal.token_id, token.last_used_at);
        Ok(principal)
    }

    /// Updates `last_used_at` in the background, at most once per interval,
    /// so a busy token does not turn every read into a write.
    fn note_token_use(&self, digest: &[u8; 32], token_id: TokenId, last_used: Option<chrono::DateTime<Utc>>) {
        let now = Utc::now();
        let interval = chrono::Duration::from_std(self.settings.token_touch_interval).unwrap_or_default();
        if last_used.is_some_and(|at| now - at < interval) {
            return;
        }
        self.cache.token_used(digest, now);
        let store = self.store.clone();
        tokio::spawn(async move {
            if let Err(err) = store.touch_token(token_id, now).await {
                tracing::warn!(error = %err, "could not record token use");
            }
        });
    }

    /// The project, provided the caller holds at least `minimum` in it.
    /// Unknown project: 404; no membership or too weak a role: 403.
    pub async fn require_role(
        &self,
        who: &Principal,
        project: ProjectId,
        minimum: ProjectRole,
    ) -> CoreResult<(ProjectRow, ProjectRole)> {
        self.role_at_least(who, project, minimum, minimum == ProjectRole::Viewer).await
    }

    /// As [`Access::require_role`], for a write any member may make (a comment): the role is read
    /// from the database, never remembered, so a member removed a moment ago writes nothing.
    pub async fn require_role_to_write(
        &self,
        who: &Principal,
        project: ProjectId,
        minimum: ProjectRole,
    ) -> CoreResult<(ProjectRow, ProjectRole)> {
        self.role_at_least(who, project, minimum, false).await
    }

    async fn role_at_least(
        &self,
        who: &Principal,
        project: ProjectId,
        minimum: ProjectRole,
        remembered: bool,
    ) -> CoreResult<(ProjectRow, ProjectRole)> {
        let Some((row, role)) = self.project_with_role(project, who, remembered).await? else {
            return Err(CoreError::not_found("project", project));
        };
        let Some(role) = role.and_then(ProjectRole::from_code) else {
            return Err(CoreError::PermissionDenied(format!("you have no access to project '{project}'")));
        };
        if role < minimum {
            return Err(CoreError::PermissionDenied(format!(
                "this needs the {minimum} role or above in project '{project}'; you are {role}"
            )));
        }
        Ok((row, role))
    }

    /// The project and the caller's role code in it. A read (`remembered`: one needing only the
    /// Viewer role) may use the answer of the last moment; a write reads the database, so a member
    /// whose role was lowered or removed on another replica never writes on a remembered role.
    async fn project_with_role(
        &self,
        project: ProjectId,
        who: &Principal,
        remembered: bool,
    ) -> CoreResult<Option<(ProjectRow, Option<i32>)>> {
        if remembered {
            if let Some(known) = self.cache.role(project.uuid(), who.user_id.uuid()) {
                return Ok(Some(known));
            }
        }
        let generation = self.cache.generation();
        let found = self.store.project_with_role(project, who.user_id).await?;
        if let (true, Some(known)) = (remembered, &found) {
            self.cache.keep_role(project.uuid(), who.user_id.uuid(), known.clone(), generation);
        }
        Ok(found)
    }

    /// Of `logins` (lower-cased), those of the project's members, with their user: the people a
    /// comment's `@login` mentions.
    pub async fn members_by_login(&self, project: ProjectId, logins: &[String]) -> CoreResult<Vec<(UserId, String)>> {
        if logins.is_empty() {
            return Ok(Vec::new());
        }
        self.store.members_by_login(project, logins).await
    }

    /// Admin API calls need a system admin.
    pub fn require_system_admin(&self, who: &Principal) -> CoreResult<()> {
        if who.system_admin {
            Ok(())
        } else {
            Err(CoreError::PermissionDenied("this needs a system administrator's token".into()))
        }
    }
}
