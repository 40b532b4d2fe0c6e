//! The OAuth authorization server's state: registered clients, authorization
//! codes, grants (one per consent) and the access and refresh tokens issued
//! under them. Codes and tokens are stored as SHA-256 digests; every
//! one-time use (a code, a refresh token's rotation) is a single conditional
//! UPDATE, so two replicas racing on one secret cannot both win.

use crate::domain::UserId;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::AccountsStore;
use crate::error::CoreError;
use crate::storage::{db_error, UserRow};

type Result<T> = std::result::Result<T, CoreError>;

/// Inserts one [`OAuthTokenRow`] on a transaction's connection.
macro_rules! insert_token {
    ($executor:expr, $token:expr) => {{
        let token: &OAuthTokenRow = $token;
        sqlx::query(&format!("INSERT INTO oauth_tokens ({TOKEN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, NULL)"))
            .bind(&token.token_hash)
            .bind(token.grant_id)
            .bind(&token.kind)
            .bind(token.created_at)
            .bind(token.expires_at)
            .execute($executor)
            .await
            .map_err(db_error)?;
    }};
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OAuthClientRow {
    pub id: String,
    pub name: String,
    /// JSON array of the registered redirect URIs.
    pub redirect_uris: String,
    /// The registration answer (RFC 7591 client information), JSON.
    pub metadata: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OAuthCodeRow {
    pub code_hash: Vec<u8>,
    pub client_id: String,
    pub user_id: UserId,
    /// The redirect URI of the authorization request, as sent.
    pub redirect_uri: String,
    pub code_challenge: String,
    pub resource: String,
    pub scope: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
    pub grant_id: Option<Uuid>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OAuthGrantRow {
    pub id: Uuid,
    pub client_id: String,
    pub user_id: UserId,
    pub resource: String,
    pub scope: String,
    pub created_at: DateTime<Utc>,
    pub revoked_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OAuthTokenRow {
    pub token_hash: Vec<u8>,
    pub grant_id: Uuid,
    /// `access` or `refresh`.
    pub kind: String,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
}

/// What presenting a code found.
#[derive(Debug)]
pub enum CodeUse {
    /// First use: the code, now used up.
    Fresh(OAuthCodeRow),
    /// Presented before: the grant its first use created (to revoke), if any.
    Replayed {
        grant_id: Option<Uuid>,
    },
    Unknown,
}

/// What presenting a refresh token found.
#[derive(Debug)]
pub enum RefreshUse {
    /// Retired now; new tokens may be issued under this grant.
    Rotated(OAuthGrantRow),
    /// Already rotated before: the token was stolen or replayed, so the grant must end.
    Replayed { grant_id: Uuid },
    /// Unknown, expired, or its grant was revoked.
    Invalid,
}

const CODE_COLUMNS: &str = "code_hash, client_id, user_id, redirect_uri, code_challenge, resource, scope, \
                            created_at, expires_at, used_at, grant_id";
const GRANT_COLUMNS: &str = "id, client_id, user_id, resource, scope, created_at, revoked_at";
const TOKEN_COLUMNS: &str = "token_hash, grant_id, kind, created_at, expires_at, used_at";

impl AccountsStore {
    pub async fn insert_oauth_client(&self, client: &OAuthClientRow) -> Result<()> {
        self.write_oauth_client(client, "").await
    }

    /// Stores a client named by its metadata document's URL, or replaces what a fetch of that
    /// document said before (its name, redirect URIs and metadata; `created_at` stays the first).
    pub async fn upsert_oauth_client(&self, client: &OAuthClientRow) -> Result<()> {
        let replace = " ON CONFLICT (id) DO UPDATE SET name = excluded.name, \
                       redirect_uris = excluded.redirect_uris, metadata = excluded.metadata";
        self.write_oauth_client(client, replace).await
    }

    async fn write_oauth_client(&self, client: &OAuthClientRow, on_conflict: &str) -> Result<()> {
        let sql = format!(
            "INSERT INTO oauth_clients (id, name, redirect_uris, metadata, created_at) VALUES ($1, $2, $3, $4, $5){on_conflict}"
        );
        with_write_pool!(self, pool => {
            sqlx::query(&sql)
                .bind(&client.id)
                .bind(&client.name)
                .bind(&client.redirect_uris)
                .bind(&client.metadata)
                .bind(client.created_at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }

    pub async fn get_oauth_client(&self, id: &str) -> Result<Option<OAuthClientRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, OAuthClientRow>(
                "SELECT id, name, redirect_uris, metadata, created_at FROM oauth_clients WHERE id = $1",
            )
            .bind(id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Stores a code, and drops codes that expired a day ago or more (their replay can no
    /// longer matter: the tokens they issued have expired or rotated by then).
    pub async fn insert_oauth_code(&self, code: &OAuthCodeRow) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            sqlx::query("DELETE FROM oauth_codes WHERE expires_at < $1")
                .bind(code.created_at - chrono::Duration::days(1))
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            sqlx::query(&format!(
                "INSERT INTO oauth_codes ({CODE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, NULL)"
            ))
            .bind(&code.code_hash)
            .bind(&code.client_id)
            .bind(code.user_id)
            .bind(&code.redirect_uri)
            .bind(&code.code_challenge)
            .bind(&code.resource)
            .bind(&code.scope)
            .bind(code.created_at)
            .bind(code.expires_at)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Uses a code up (whether or not the rest of the request then checks out: a code is
    /// presented once).
    pub async fn use_oauth_code(&self, code_hash: &[u8], at: DateTime<Utc>) -> Result<CodeUse> {
        let fresh = with_write_pool!(self, pool => {
            sqlx::query_as::<_, OAuthCodeRow>(&format!(
                "UPDATE oauth_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL RETURNING {CODE_COLUMNS}"
            ))
            .bind(code_hash)
            .bind(at)
            .fetch_optional(pool)
            .await
            .map_err(db_error)?
        });
        if let Some(code) = fresh {
            return Ok(CodeUse::Fresh(code));
        }
        let seen = with_write_pool!(self, pool => {
            sqlx::query_as::<_, OAuthCodeRow>(&format!("SELECT {CODE_COLUMNS} FROM oauth_codes WHERE code_hash = $1"))
                .bind(code_hash)
                .fetch_optional(pool)
                .await
                .map_err(db_error)?
        });
        Ok(seen.map_or(CodeUse::Unknown, |code| CodeUse::Replayed { grant_id: code.grant_id }))
    }

    /// Creates a grant with its first tokens, and marks the code that led to it, in one
    /// transaction; the user's oldest live grants beyond the newest `max_live` are revoked in it
    /// (answered: how many).
    pub async fn insert_oauth_grant(
        &self,
        grant: &OAuthGrantRow,
        tokens: &[OAuthTokenRow],
        code_hash: &[u8],
        max_live: u32,
    ) -> Result<u64> {
        let revoked = with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            lock_person!(self, &mut *tx, grant.user_id);
            sqlx::query(&format!("INSERT INTO oauth_grants ({GRANT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, NULL)"))
                .bind(grant.id)
                .bind(&grant.client_id)
                .bind(grant.user_id)
                .bind(&grant.resource)
                .bind(&grant.scope)
                .bind(grant.created_at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            for token in tokens {
                insert_token!(&mut *tx, token);
            }
            sqlx::query("UPDATE oauth_codes SET grant_id = $2 WHERE code_hash = $1")
                .bind(code_hash)
                .bind(grant.id)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            let revoked = sqlx::query(
                "UPDATE oauth_grants SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL AND id NOT IN \
                 (SELECT id FROM oauth_grants WHERE user_id = $1 AND revoked_at IS NULL \
                  ORDER BY created_at DESC, id DESC LIMIT $3)",
            )
            .bind(grant.user_id)
            .bind(grant.created_at)
            .bind(i64::from(max_live))
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            revoked.rows_affected()
        });
        Ok(revoked)
    }

    /// Retires a refresh token and stores its successors in one transaction, provided the token
    /// is current, unexpired and its grant not revoked.
    pub async fn rotate_refresh_token(
        &self,
        token_hash: &[u8],
        at: DateTime<Utc>,
        successors: impl Fn(&OAuthGrantRow) -> Vec<OAuthTokenRow>,
    ) -> Result<RefreshUse> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let retired = sqlx::query_scalar::<_, Uuid>(
                "UPDATE oauth_tokens SET used_at = $2 WHERE token_hash = $1 AND kind = 'refresh' \
                 AND used_at IS NULL AND expires_at > $2 RETURNING grant_id",
            )
            .bind(token_hash)
            .bind(at)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_error)?;
            let Some(grant_id) = retired else {
                let seen = sqlx::query_as::<_, OAuthTokenRow>(&format!(
                    "SELECT {TOKEN_COLUMNS} FROM oauth_tokens WHERE token_hash = $1 AND kind = 'refresh'"
                ))
                .bind(token_hash)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_error)?;
                return Ok(match seen {
                    Some(token) if token.used_at.is_some() => RefreshUse::Replayed { grant_id: token.grant_id },
                    _ => RefreshUse::Invalid,
                });
            };
            let grant = sqlx::query_as::<_, OAuthGrantRow>(&format!(
                "SELECT {GRANT_COLUMNS} FROM oauth_grants WHERE id = $1 AND revoked_at IS NULL"
            ))
            .bind(grant_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_error)?;
            let Some(grant) = grant else { return Ok(RefreshUse::Invalid) };
            // Rows that can no longer matter: expired tokens of this grant (a retired refresh token
            // is kept until it would have expired, so a replay of it is still recognised).
            sqlx::query("DELETE FROM oauth_tokens WHERE grant_id = $1 AND expires_at < $2")
                .bind(grant.id)
                .bind(at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            for token in successors(&grant) {
                insert_token!(&mut *tx, &token);
            }
            tx.commit().await.map_err(db_error)?;
            Ok(RefreshUse::Rotated(grant))
        })
    }

    /// An OAuth token by digest, with its grant and the grant's user.
    pub async fn find_oauth_token(&self, token_hash: &[u8]) -> Result<Option<(OAuthTokenRow, OAuthGrantRow, UserRow)>> {
        let token = with_read_pool!(self, pool => {
            sqlx::query_as::<_, OAuthTokenRow>(&format!("SELECT {TOKEN_COLUMNS} FROM oauth_tokens WHERE token_hash = $1"))
                .bind(token_hash)
                .fetch_optional(pool)
                .await
                .map_err(db_error)?
        });
        let Some(token) = token else { return Ok(None) };
        let grant = with_read_pool!(self, pool => {
            sqlx::query_as::<_, OAuthGrantRow>(&format!("SELECT {GRANT_COLUMNS} FROM oauth_grants WHERE id = $1"))
                .bind(token.grant_id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)?
        });
        let Some(grant) = grant else { return Ok(None) };
        Ok(self.get_user(grant.user_id).await?.map(|user| (token, grant, user)))
    }

    /// A user's live grants (not revoked, with a refresh token still usable), newest first, each
    /// with its client.
    pub async fn list_user_grants(
        &self,
        user_id: UserId,
        now: DateTime<Utc>,
    ) -> Result<Vec<(OAuthGrantRow, OAuthClientRow)>> {
        let grants = with_read_pool!(self, pool => {
            sqlx::query_as::<_, OAuthGrantRow>(&format!(
                "SELECT {GRANT_COLUMNS} FROM oauth_grants g WHERE user_id = $1 AND revoked_at IS NULL \
                 AND EXISTS (SELECT 1 FROM oauth_tokens t WHERE t.grant_id = g.id AND t.kind = 'refresh' \
                             AND t.used_at IS NULL AND t.expires_at > $2) \
                 ORDER BY id DESC LIMIT 500"
            ))
            .bind(user_id)
            .bind(now)
            .fetch_all(pool)
            .await
            .map_err(db_error)?
        });
        let mut listed = Vec::with_capacity(grants.len());
        for grant in grants {
            if let Some(client) = self.get_oauth_client(&grant.client_id).await? {
                listed.push((grant, client));
            }
        }
        Ok(listed)
    }

    pub async fn get_oauth_grant(&self, id: Uuid) -> Result<Option<OAuthGrantRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, OAuthGrantRow>(&format!("SELECT {GRANT_COLUMNS} FROM oauth_grants WHERE id = $1"))
                .bind(id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Ends a grant: every token issued under it stops working.
    pub async fn revoke_oauth_grant(&self, grant_id: Uuid, at: DateTime<Utc>) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("UPDATE oauth_grants SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")
                .bind(grant_id)
                .bind(at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }

    /// Ends one token (an access token revoked on its own).
    pub async fn expire_oauth_token(&self, token_hash: &[u8], at: DateTime<Utc>) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("UPDATE oauth_tokens SET expires_at = $2 WHERE token_hash = $1 AND expires_at > $2")
                .bind(token_hash)
                .bind(at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }
}
