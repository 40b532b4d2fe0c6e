//! The account site's sign-in: passwords, sessions, one-time sign-in links,
//! logins, and the audit record of each of them. Throttling is in
//! [`super::sign_in_throttle`].

use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::AccountsService;
use crate::domain::{passwords, tokens, UserId};
use crate::error::{CoreError, CoreResult};
use crate::service::access::credentials::{secs, signed_in};
pub use crate::service::access::SignedIn;
use crate::service::Principal;
use crate::storage::{AuditRow, LoginRow, SessionRow, SignInLinkRow, UserRow};
// A user keeps as many audit records as the activity page can show.
use canvas_vocabulary::limits::AUDIT_PAGE;

/// The 401 of every failed sign-in: the same words for an unknown login and a wrong password.
pub const SIGN_IN_REFUSED: &str = "the login or password is not correct";
const LINK_INVALID: &str = "the sign-in link is not valid: it is unknown, used or expired";
/// Longest login, in characters.
const MAX_LOGIN: usize = 64;
/// Default life of a sign-in link, and the longest one an administrator may ask for.
pub const LINK_DEFAULT_SECS: u32 = 24 * 3600;
pub const LINK_MAX_SECS: u32 = 7 * 24 * 3600;

/// Who is at the other end of a sign-in, for throttling and the audit record.
#[derive(Debug, Clone, Default)]
pub struct ClientInfo {
    pub address: String,
    pub user_agent: String,
}

/// Longest client address kept (an IPv6 address with a zone fits many times over) and user agent.
const MAX_ADDRESS: usize = 128;
const MAX_USER_AGENT: usize = 256;

impl ClientInfo {
    /// As the gateway reported them, bounded: a throttling key or an audit record never grows
    /// with what a client (or a proxy header) chose to send.
    pub fn new(address: &str, user_agent: &str) -> Self {
        Self { address: clipped(address.trim(), MAX_ADDRESS), user_agent: clipped(user_agent, MAX_USER_AGENT) }
    }
}

/// A session just opened: its secret is shown once, for the cookie.
#[derive(Debug)]
pub struct OpenedSession {
    pub secret: String,
    pub signed_in: SignedIn,
}

/// A login as stored: trimmed, lower-cased, of letters, digits and `.`, `_`, `-`, `@`, `+`.
pub fn normalise_login(raw: &str) -> CoreResult<String> {
    let login = raw.trim().to_lowercase();
    if login.is_empty() {
        return Err(CoreError::invalid("login", "is required and must not be empty"));
    }
    if login.chars().count() > MAX_LOGIN {
        return Err(CoreError::invalid("login", format!("must be at most {MAX_LOGIN} characters")));
    }
    if !login.chars().all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '@' | '+')) {
        return Err(CoreError::invalid("login", "may hold only letters, digits and . _ - @ +"));
    }
    Ok(login)
}

fn checked_password(field: &str, password: &str) -> CoreResult<()> {
    match passwords::problem(password) {
        Some(problem) => Err(CoreError::invalid(field, problem)),
        None => Ok(()),
    }
}

/// At most this many Argon2id computations run at once per replica; the rest wait their turn.
/// Each takes 19 MiB and tens of milliseconds of a core by design, so a burst of sign-ins (or an
/// attacker's) must queue rather than take the replica's memory: 4 per core bounds it to about
/// 76 MiB per core.
static HASHING: std::sync::LazyLock<tokio::sync::Semaphore> = std::sync::LazyLock::new(|| {
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    tokio::sync::Semaphore::new(4 * cores)
});

/// Hashes off the async workers, within the [`HASHING`] bound.
async fn hash_password(password: &str) -> CoreResult<String> {
    let _turn = HASHING.acquire().await.map_err(|e| anyhow::anyhow!("password hashing stopped: {e}"))?;
    let password = password.to_owned();
    let hashed = tokio::task::spawn_blocking(move || passwords::hash(&password)).await;
    Ok(hashed.map_err(|e| anyhow::anyhow!("password hashing stopped: {e}"))??)
}

pub(crate) async fn verify_password(stored: Option<String>, password: &str) -> bool {
    let Ok(_turn) = HASHING.acquire().await else { return false };
    let password = password.to_owned();
    tokio::task::spawn_blocking(move || passwords::verify(stored.as_deref(), &password)).await.unwrap_or(false)
}

impl AccountsService {
    /// Signs in with a login and password, within the throttle's limits.
    pub async fn sign_in(&self, login: &str, password: &str, client: &ClientInfo) -> CoreResult<OpenedSession> {
        // An unusable login is a wrong login: the same answer, after the same work.
        let login = normalise_login(login).unwrap_or_default();
        self.check_sign_in_throttle(&login, &client.address).await?;
        let found = if login.is_empty() { None } else { self.store.find_login(&login).await? };
        // A password longer than any that can be set cannot match: checked against the decoy,
        // so the answer and its cost stay those of a wrong password.
        let possible = password.chars().count() <= passwords::MAX_CHARS;
        let stored = found.as_ref().and_then(|row| row.password_hash.clone()).filter(|_| possible);
        let attempt = if possible { password } else { "" };
        if !verify_password(stored, attempt).await || !possible {
            self.record_sign_in_failure(&login, &client.address).await?;
            if let Some(row) = &found {
                self.audit(row.user_id, "sign_in_failed", &client.address, "wrong password").await;
            }
            return Err(CoreError::Unauthenticated(SIGN_IN_REFUSED.into()));
        }
        // A password can only verify against a stored hash, so the login was found.
        let Some(row) = found else { return Err(CoreError::Unauthenticated(SIGN_IN_REFUSED.into())) };
        self.clear_sign_in_failures(&login).await?;
        self.open_session(row, client, "with a password").await
    }

    async fn open_session(&self, login: LoginRow, client: &ClientInfo, how: &str) -> CoreResult<OpenedSession> {
        let user =
            self.store.get_user(login.user_id).await?.ok_or_else(|| CoreError::not_found("user", login.user_id))?;
        let fresh = tokens::generate_with(tokens::SESSION_PREFIX)?;
        let now = Utc::now();
        let session = SessionRow {
            id: Uuid::now_v7(),
            user_id: user.id,
            secret_hash: fresh.hash.to_vec(),
            created_at: now,
            last_seen_at: now,
            expires_at: now + secs(self.settings.accounts.session_max_secs),
            client_address: client.address.clone(),
            user_agent: client.user_agent.clone(),
        };
        let most = self.settings.accounts.fair_share.sessions_per_person;
        let ended = self.store.insert_session(&session, most).await?;
        self.audit(user.id, "sign_in", &client.address, how).await;
        if ended > 0 {
            // The person's least recently used session made room: say so where they look.
            let detail = format!("{ended} least recently used session(s) signed out: at most {most} at once");
            self.audit(user.id, "sign_out", &client.address, &detail).await;
        }
        let signed_in = signed_in(user, login.login, session, &fresh.secret);
        Ok(OpenedSession { secret: fresh.secret, signed_in })
    }

    /// Refuses a state-changing call whose CSRF value is not the session's.
    pub fn check_csrf(&self, who: &SignedIn, csrf: &str) -> CoreResult<()> {
        if tokens::strings_match(&who.csrf, csrf.trim()) {
            Ok(())
        } else {
            Err(CoreError::PermissionDenied(
                "the form's CSRF value does not match the session: it expired or came from another site".into(),
            ))
        }
    }

    pub async fn sign_out(&self, who: &SignedIn, csrf: &str) -> CoreResult<()> {
        self.check_csrf(who, csrf)?;
        self.store.delete_session(who.session.id).await?;
        self.access.changed().await;
        self.audit(who.principal.user_id, "sign_out", &who.session.client_address, "").await;
        Ok(())
    }

    pub async fn change_password(&self, who: &SignedIn, csrf: &str, current: &str, new: &str) -> CoreResult<()> {
        self.check_csrf(who, csrf)?;
        checked_password("newPassword", new)?;
        let stored = self.store.login_of(who.principal.user_id).await?.and_then(|row| row.password_hash);
        if stored.is_some() && !verify_password(stored, current).await {
            return Err(CoreError::invalid("currentPassword", "is not your current password"));
        }
        self.store.set_password(who.principal.user_id, &hash_password(new).await?, Utc::now()).await?;
        // Whoever knew the old password is signed out everywhere but here.
        let ended = self.store.delete_other_sessions(who.principal.user_id, Some(who.session.id)).await?;
        self.access.changed().await;
        let detail = format!("changed on the account site; {ended} other session(s) signed out");
        self.audit(who.principal.user_id, "password_set", &who.session.client_address, &detail).await;
        Ok(())
    }

    /// Whose a sign-in link is, without using it up (mail scanners open links).
    pub async fn check_sign_in_link(&self, link: &str) -> CoreResult<(UserRow, LoginRow, SignInLinkRow)> {
        let invalid = || CoreError::Unauthenticated(LINK_INVALID.into());
        let link = link.trim();
        if !tokens::looks_like(tokens::LINK_PREFIX, link) {
            return Err(invalid());
        }
        let row = self.store.find_sign_in_link(&tokens::hash(link)).await?.ok_or_else(invalid)?;
        if row.used_at.is_some() || row.expires_at <= Utc::now() {
            return Err(invalid());
        }
        let user = self.store.get_user(row.user_id).await?.ok_or_else(invalid)?;
        let login = self.store.login_of(row.user_id).await?.ok_or_else(invalid)?;
        Ok((user, login, row))
    }

    /// Uses a sign-in link: opens a session, and sets the password when one is given.
    pub async fn redeem_sign_in_link(
        &self,
        link: &str,
        new_password: &str,
        client: &ClientInfo,
    ) -> CoreResult<OpenedSession> {
        // Check first, so a bad password does not use the link up.
        let (_, login, _) = self.check_sign_in_link(link).await?;
        let new_hash = if new_password.is_empty() {
            None
        } else {
            checked_password("newPassword", new_password)?;
            Some(hash_password(new_password).await?)
        };
        let user_id = self
            .store
            .use_sign_in_link(&tokens::hash(link.trim()), Utc::now())
            .await?
            .ok_or_else(|| CoreError::Unauthenticated(LINK_INVALID.into()))?;
        if let Some(hash) = new_hash {
            self.store.set_password(UserId::from_uuid(user_id), &hash, Utc::now()).await?;
            // A reset must shut out whoever had the old password: every session ends.
            let ended = self.store.delete_other_sessions(UserId::from_uuid(user_id), None).await?;
            self.access.changed().await;
            let detail = format!("set with a sign-in link; {ended} session(s) signed out");
            self.audit(UserId::from_uuid(user_id), "password_set", &client.address, &detail).await;
        }
        self.clear_sign_in_failures(&login.login).await?;
        self.open_session(login, client, "with a one-time link").await
    }

    /// A one-time sign-in link for a user who has a login (an invitation, or a reset).
    pub async fn create_sign_in_link(
        &self,
        who: &Principal,
        user: UserId,
        valid_secs: Option<u32>,
    ) -> CoreResult<(String, DateTime<Utc>)> {
        self.access.require_system_admin(who)?;
        self.sign_in_link_for(user, valid_secs).await
    }

    /// As [`Self::create_sign_in_link`], for `canvasctl up`'s first start (no caller yet).
    pub async fn sign_in_link_for(&self, user: UserId, valid_secs: Option<u32>) -> CoreResult<(String, DateTime<Utc>)> {
        let valid = valid_secs.unwrap_or(LINK_DEFAULT_SECS);
        if valid == 0 || valid > LINK_MAX_SECS {
            return Err(CoreError::invalid("validSeconds", format!("must be 1 to {LINK_MAX_SECS} seconds")));
        }
        if self.store.login_of(user).await?.is_none() {
            return Err(CoreError::invalid(
                "userId",
                "the user has no login yet; set one first (canvasctl user login)",
            ));
        }
        let fresh = tokens::generate_with(tokens::LINK_PREFIX)?;
        let now = Utc::now();
        let expires_at = now + secs(u64::from(valid));
        let row = SignInLinkRow {
            secret_hash: fresh.hash.to_vec(),
            user_id: user,
            created_at: now,
            expires_at,
            used_at: None,
        };
        self.store.insert_sign_in_link(&row).await?;
        Ok((fresh.secret, expires_at))
    }

    /// Sets a user's login, and password when given.
    pub async fn set_user_login(
        &self,
        who: &Principal,
        user: UserId,
        login: &str,
        password: &str,
    ) -> CoreResult<UserRow> {
        self.access.require_system_admin(who)?;
        self.set_login_of(user, login, password).await
    }

    /// As [`Self::set_user_login`], for `canvasctl up`'s first start.
    pub async fn set_login_of(&self, user: UserId, login: &str, password: &str) -> CoreResult<UserRow> {
        let row = self.store.get_user(user).await?.ok_or_else(|| CoreError::not_found("user", user))?;
        let login = normalise_login(login)?;
        let hash = if password.is_empty() {
            None
        } else {
            checked_password("password", password)?;
            Some(hash_password(password).await?)
        };
        self.store.set_login(user, &login, hash.as_deref(), Utc::now()).await?;
        if hash.is_some() {
            self.audit(user, "password_set", "", "set by an administrator").await;
        }
        Ok(row)
    }

    /// Writes an audit record. A failure to write one is logged, not fatal: the action it
    /// records has already happened.
    pub(crate) async fn audit(&self, user: UserId, kind: &str, address: &str, detail: &str) {
        let record = AuditRow {
            id: Uuid::now_v7(),
            user_id: user,
            kind: kind.to_owned(),
            at: Utc::now(),
            client_address: clipped(address, MAX_ADDRESS),
            detail: clipped(detail, 256),
        };
        if let Err(err) = self.store.insert_audit(&record, AUDIT_PAGE.max).await {
            tracing::warn!(error = %err, kind, "could not write an audit record");
        }
    }
}

fn clipped(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logins_are_trimmed_lower_cased_and_limited() {
        assert_eq!(normalise_login("  Ada.Lovelace@Example.org ").unwrap(), "ada.lovelace@example.org");
        assert!(normalise_login("").is_err());
        assert!(normalise_login("a b").is_err());
        assert!(normalise_login("ada<script>").is_err());
        assert!(normalise_login(&"a".repeat(65)).is_err());
        assert_eq!(normalise_login("Zoë").unwrap(), "zoë");
    }
}
