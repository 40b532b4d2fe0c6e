//! Sign-in: logins and password hashes, sessions, one-time sign-in links, the
//! sign-in throttle and the audit records a user can see. Every secret is
//! stored as its SHA-256 only.

use crate::domain::UserId;
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::AccountsStore;
use crate::error::CoreError;
use crate::storage::{db_error, UserRow};

type Result<T> = std::result::Result<T, CoreError>;

/// How a user signs in.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct LoginRow {
    pub user_id: UserId,
    /// Lower-cased.
    pub login: String,
    /// Argon2id PHC string; None until a password is set.
    pub password_hash: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub id: Uuid,
    pub user_id: UserId,
    pub secret_hash: Vec<u8>,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    /// The absolute end.
    pub expires_at: DateTime<Utc>,
    pub client_address: String,
    pub user_agent: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SignInLinkRow {
    pub secret_hash: Vec<u8>,
    pub user_id: UserId,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub used_at: Option<DateTime<Utc>>,
}

/// Failed sign-ins under one key (an account or a client address).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ThrottleRow {
    pub key: String,
    pub failures: i32,
    pub window_started_at: DateTime<Utc>,
    pub last_failure_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    /// UUIDv7: the order of ids is the order of time.
    pub id: Uuid,
    pub user_id: UserId,
    pub kind: String,
    pub at: DateTime<Utc>,
    pub client_address: String,
    pub detail: String,
}

const SESSION_COLUMNS: &str =
    "id, user_id, secret_hash, created_at, last_seen_at, expires_at, client_address, user_agent";

impl AccountsStore {
    /// Sets a user's login, and the password hash when given (None keeps the current one).
    /// A login another user has is a conflict.
    pub async fn set_login(
        &self,
        user_id: UserId,
        login: &str,
        password_hash: Option<&str>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO user_logins (user_id, login, password_hash, password_set_at) \
                 VALUES ($1, $2, $3, CASE WHEN $3 IS NULL THEN NULL ELSE $4 END) \
                 ON CONFLICT (user_id) DO UPDATE SET login = excluded.login, \
                 password_hash = COALESCE(excluded.password_hash, user_logins.password_hash), \
                 password_set_at = COALESCE(excluded.password_set_at, user_logins.password_set_at)",
            )
            .bind(user_id)
            .bind(login)
            .bind(password_hash)
            .bind(at)
            .execute(pool)
            .await
            .map_err(|err| match db_error(err) {
                CoreError::Conflict(_) => CoreError::Conflict(format!("the login '{login}' is taken")),
                other => other,
            })?;
        });
        Ok(())
    }

    /// Replaces the password hash of a user who has a login; false when the user has none.
    pub async fn set_password(&self, user_id: UserId, password_hash: &str, at: DateTime<Utc>) -> Result<bool> {
        let done = with_write_pool!(self, pool => {
            sqlx::query("UPDATE user_logins SET password_hash = $2, password_set_at = $3 WHERE user_id = $1")
                .bind(user_id)
                .bind(password_hash)
                .bind(at)
                .execute(pool)
                .await
                .map_err(db_error)?
                .rows_affected()
        });
        Ok(done == 1)
    }

    pub async fn find_login(&self, login: &str) -> Result<Option<LoginRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, LoginRow>("SELECT user_id, login, password_hash FROM user_logins WHERE login = $1")
                .bind(login)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    pub async fn login_of(&self, user_id: UserId) -> Result<Option<LoginRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, LoginRow>("SELECT user_id, login, password_hash FROM user_logins WHERE user_id = $1")
                .bind(user_id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Stores a new session, drops the user's sessions that have ended (absolute expiry), so
    /// they do not pile up, and ends the least recently used beyond the newest `max_open`;
    /// answers how many live sessions were ended for room.
    pub async fn insert_session(&self, session: &SessionRow, max_open: u32) -> Result<u64> {
        let ended = with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            lock_person!(self, &mut *tx, session.user_id);
            sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND expires_at < $2")
                .bind(session.user_id)
                .bind(session.created_at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            sqlx::query(&format!("INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"))
                .bind(session.id)
                .bind(session.user_id)
                .bind(&session.secret_hash)
                .bind(session.created_at)
                .bind(session.last_seen_at)
                .bind(session.expires_at)
                .bind(&session.client_address)
                .bind(&session.user_agent)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            let ended = sqlx::query(
                "DELETE FROM sessions WHERE user_id = $1 AND id NOT IN \
                 (SELECT id FROM sessions WHERE user_id = $1 ORDER BY last_seen_at DESC, id DESC LIMIT $2)",
            )
            .bind(session.user_id)
            .bind(i64::from(max_open))
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            ended.rows_affected()
        });
        Ok(ended)
    }

    /// The session with this digest, its user and the user's login, in one read: every request
    /// a signed-in person makes (the web map's reads too) starts here.
    pub async fn find_session(&self, secret_hash: &[u8]) -> Result<Option<(SessionRow, UserRow, String)>> {
        #[derive(sqlx::FromRow)]
        struct Joined {
            #[sqlx(flatten)]
            session: SessionRow,
            name: String,
            system_admin: bool,
            user_created_at: DateTime<Utc>,
            login: Option<String>,
        }
        let row = with_read_pool!(self, pool => {
            sqlx::query_as::<_, Joined>(
                "SELECT s.id, s.user_id, s.secret_hash, s.created_at, s.last_seen_at, s.expires_at, s.client_address, \
                 s.user_agent, u.name, u.system_admin, u.created_at AS user_created_at, l.login \
                 FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_logins l ON l.user_id = s.user_id \
                 WHERE s.secret_hash = $1",
            )
            .bind(secret_hash)
            .fetch_optional(pool)
            .await
            .map_err(db_error)?
        });
        Ok(row.map(|row| {
            let user = UserRow {
                id: row.session.user_id,
                name: row.name,
                system_admin: row.system_admin,
                created_at: row.user_created_at,
            };
            (row.session, user, row.login.unwrap_or_default())
        }))
    }

    pub async fn touch_session(&self, id: Uuid, at: DateTime<Utc>) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2")
                .bind(id)
                .bind(at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }

    pub async fn delete_session(&self, id: Uuid) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("DELETE FROM sessions WHERE id = $1").bind(id).execute(pool).await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Ends every session of a user but `keep` (a password change signs the other devices out).
    pub async fn delete_other_sessions(&self, user_id: UserId, keep: Option<Uuid>) -> Result<u64> {
        with_write_pool!(self, pool => {
            Ok(sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND ($2 IS NULL OR id <> $2)")
                .bind(user_id)
                .bind(keep)
                .execute(pool)
                .await
                .map_err(db_error)?
                .rows_affected())
        })
    }

    pub async fn insert_sign_in_link(&self, link: &SignInLinkRow) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query(
                "INSERT INTO sign_in_links (secret_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(&link.secret_hash)
            .bind(link.user_id)
            .bind(link.created_at)
            .bind(link.expires_at)
            .execute(pool)
            .await
            .map_err(db_error)?;
        });
        Ok(())
    }

    pub async fn find_sign_in_link(&self, secret_hash: &[u8]) -> Result<Option<SignInLinkRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, SignInLinkRow>(
                "SELECT secret_hash, user_id, created_at, expires_at, used_at FROM sign_in_links WHERE secret_hash = $1",
            )
            .bind(secret_hash)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Uses a link up: the user it signs in, or None when it is unknown, used or expired. One
    /// statement, so two concurrent uses cannot both succeed.
    pub async fn use_sign_in_link(&self, secret_hash: &[u8], at: DateTime<Utc>) -> Result<Option<Uuid>> {
        with_write_pool!(self, pool => {
            sqlx::query_scalar::<_, Uuid>(
                "UPDATE sign_in_links SET used_at = $2 \
                 WHERE secret_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id",
            )
            .bind(secret_hash)
            .bind(at)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    pub async fn throttle_rows(&self, keys: &[String]) -> Result<Vec<ThrottleRow>> {
        let mut rows = Vec::with_capacity(keys.len());
        for key in keys {
            let row = with_read_pool!(self, pool => {
                sqlx::query_as::<_, ThrottleRow>(
                    "SELECT key, failures, window_started_at, last_failure_at FROM sign_in_throttle WHERE key = $1",
                )
                .bind(key)
                .fetch_optional(pool)
                .await
                .map_err(db_error)?
            });
            rows.extend(row);
        }
        Ok(rows)
    }

    /// Counts a failure under `key`; a count whose window began before `window_start` starts over.
    /// One statement, so concurrent failures on several replicas all count. Counts idle since
    /// before `forget_before` (the longest window) are dropped first, so a guesser trying many
    /// logins leaves no lasting rows.
    pub async fn record_sign_in_failure(
        &self,
        key: &str,
        at: DateTime<Utc>,
        window_start: DateTime<Utc>,
        forget_before: DateTime<Utc>,
    ) -> Result<ThrottleRow> {
        with_write_pool!(self, pool => {
            sqlx::query("DELETE FROM sign_in_throttle WHERE last_failure_at < $1")
                .bind(forget_before)
                .execute(pool)
                .await
                .map_err(db_error)?;
            sqlx::query_as::<_, ThrottleRow>(
                "INSERT INTO sign_in_throttle (key, failures, window_started_at, last_failure_at) VALUES ($1, 1, $2, $2) \
                 ON CONFLICT (key) DO UPDATE SET \
                 failures = CASE WHEN sign_in_throttle.window_started_at < $3 THEN 1 ELSE sign_in_throttle.failures + 1 END, \
                 window_started_at = CASE WHEN sign_in_throttle.window_started_at < $3 THEN $2 \
                                     ELSE sign_in_throttle.window_started_at END, \
                 last_failure_at = $2 \
                 RETURNING key, failures, window_started_at, last_failure_at",
            )
            .bind(key)
            .bind(at)
            .bind(window_start)
            .fetch_one(pool)
            .await
            .map_err(db_error)
        })
    }

    pub async fn clear_sign_in_failures(&self, key: &str) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("DELETE FROM sign_in_throttle WHERE key = $1").bind(key).execute(pool).await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Writes an audit record, keeping the user's newest `keep` (older ones are dropped in the
    /// same transaction, so the history is bounded however often someone tries a password).
    pub async fn insert_audit(&self, record: &AuditRow, keep: u32) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            sqlx::query(
                "INSERT INTO audit_records (id, user_id, kind, at, client_address, detail) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(record.id)
            .bind(record.user_id)
            .bind(&record.kind)
            .bind(record.at)
            .bind(&record.client_address)
            .bind(&record.detail)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            sqlx::query(
                "DELETE FROM audit_records WHERE user_id = $1 AND id < (SELECT id FROM audit_records \
                 WHERE user_id = $1 ORDER BY id DESC LIMIT 1 OFFSET $2)",
            )
            .bind(record.user_id)
            .bind(i64::from(keep) - 1)
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// A user's newest audit records first.
    pub async fn list_audit(&self, user_id: UserId, limit: u32) -> Result<Vec<AuditRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, AuditRow>(
                "SELECT id, user_id, kind, at, client_address, detail FROM audit_records \
                 WHERE user_id = $1 ORDER BY id DESC LIMIT $2",
            )
            .bind(user_id)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }
}
