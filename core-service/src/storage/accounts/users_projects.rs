//! Users, API tokens, projects and memberships.

use crate::domain::{ProjectId, TokenId, UserId};
use chrono::{DateTime, Utc};
use uuid::Uuid;

use super::AccountsStore;
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, MembershipRow, NewEvent, ProjectRow, TokenRow, UserProjectRow, UserRow};

type Result<T> = std::result::Result<T, CoreError>;

const MEMBERSHIP_COLUMNS: &str = "project_id, user_id, role";

impl AccountsStore {
    pub async fn insert_user(&self, user: &UserRow) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("INSERT INTO users (id, name, system_admin, created_at) VALUES ($1, $2, $3, $4)")
                .bind(user.id)
                .bind(&user.name)
                .bind(user.system_admin)
                .bind(user.created_at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }

    pub async fn get_user(&self, id: UserId) -> Result<Option<UserRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, UserRow>("SELECT id, name, system_admin, created_at FROM users WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Stores a new API token unless its user already holds `max_active` that are not revoked;
    /// false when refused. On PostgreSQL the user's row is locked first, so concurrent creates
    /// for one person count one after another (SQLite's single writer does that anyway).
    pub async fn insert_token_within(&self, token: &TokenRow, max_active: u32) -> Result<bool> {
        let inserted = with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            lock_person!(self, &mut *tx, token.user_id);
            let done = sqlx::query(
                "INSERT INTO api_tokens (id, user_id, token_hash, environment, name, created_at, prefix) \
                 SELECT $1, $2, $3, $4, $5, $6, $7 \
                 WHERE (SELECT COUNT(*) FROM api_tokens WHERE user_id = $2 AND revoked_at IS NULL) < $8",
            )
            .bind(token.id)
            .bind(token.user_id)
            .bind(&token.token_hash)
            .bind(token.environment)
            .bind(&token.name)
            .bind(token.created_at)
            .bind(&token.prefix)
            .bind(i64::from(max_active))
            .execute(&mut *tx)
            .await
            .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
            done.rows_affected() == 1
        });
        Ok(inserted)
    }

    /// The token with this digest and its user, revoked or not.
    pub async fn find_token(&self, token_hash: &[u8]) -> Result<Option<(TokenRow, UserRow)>> {
        let token = with_read_pool!(self, pool => {
            sqlx::query_as::<_, TokenRow>(
                "SELECT id, user_id, token_hash, environment, name, created_at, last_used_at, revoked_at, prefix \
                 FROM api_tokens WHERE token_hash = $1",
            )
            .bind(token_hash)
            .fetch_optional(pool)
            .await
            .map_err(db_error)?
        });
        let Some(token) = token else { return Ok(None) };
        Ok(self.get_user(token.user_id).await?.map(|user| (token, user)))
    }

    /// Records a use of the token. Callers throttle this so that a busy token
    /// does not turn every read into a write.
    pub async fn touch_token(&self, id: TokenId, at: DateTime<Utc>) -> Result<()> {
        with_write_pool!(self, pool => {
            sqlx::query("UPDATE api_tokens SET last_used_at = $2 WHERE id = $1")
                .bind(id)
                .bind(at)
                .execute(pool)
                .await
                .map_err(db_error)?;
        });
        Ok(())
    }

    /// Revokes a token; revoking twice keeps the first time.
    pub async fn revoke_token(&self, id: TokenId, at: DateTime<Utc>) -> Result<Option<TokenRow>> {
        with_write_pool!(self, pool => {
            sqlx::query_as::<_, TokenRow>(
                "UPDATE api_tokens SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 \
                 RETURNING id, user_id, token_hash, environment, name, created_at, last_used_at, revoked_at, prefix",
            )
            .bind(id)
            .bind(at)
            .fetch_optional(pool)
            .await
            .map_err(db_error)
        })
    }

    pub async fn list_tokens(&self, user_id: UserId) -> Result<Vec<TokenRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, TokenRow>(
                "SELECT id, user_id, token_hash, environment, name, created_at, last_used_at, revoked_at, prefix \
                 FROM api_tokens WHERE user_id = $1 ORDER BY id",
            )
            .bind(user_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Creates a project with its owner as the first member.
    pub async fn insert_project(&self, project: &ProjectRow, owner: &MembershipRow) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            sqlx::query("INSERT INTO projects (id, name, created_at) VALUES ($1, $2, $3)")
                .bind(project.id)
                .bind(&project.name)
                .bind(project.created_at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            sqlx::query("INSERT INTO memberships (project_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)")
                .bind(owner.project_id)
                .bind(owner.user_id)
                .bind(owner.role)
                .bind(project.created_at)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    pub async fn get_project(&self, id: ProjectId) -> Result<Option<ProjectRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, ProjectRow>("SELECT id, name, created_at FROM projects WHERE id = $1")
                .bind(id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// The project and the user's role in it (None when not a member), in
    /// one round trip: every request in a project needs both.
    pub async fn project_with_role(
        &self,
        project_id: ProjectId,
        user_id: UserId,
    ) -> Result<Option<(ProjectRow, Option<i32>)>> {
        #[derive(sqlx::FromRow)]
        struct Joined {
            id: Uuid,
            name: String,
            created_at: DateTime<Utc>,
            role: Option<i32>,
        }
        let row = with_read_pool!(self, pool => {
            sqlx::query_as::<_, Joined>(
                "SELECT p.id, p.name, p.created_at, m.role FROM projects p \
                 LEFT JOIN memberships m ON m.project_id = p.id AND m.user_id = $2 WHERE p.id = $1",
            )
            .bind(project_id)
            .bind(user_id)
            .fetch_optional(pool)
            .await
            .map_err(db_error)?
        });
        Ok(row.map(|j| (ProjectRow { id: ProjectId::from_uuid(j.id), name: j.name, created_at: j.created_at }, j.role)))
    }

    /// The user's projects, oldest first.
    pub async fn list_user_projects(&self, user_id: UserId, limit: u32) -> Result<Vec<UserProjectRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, UserProjectRow>(
                "SELECT p.id, p.name, p.created_at, m.role FROM memberships m \
                 JOIN projects p ON p.id = m.project_id WHERE m.user_id = $1 ORDER BY p.id LIMIT $2",
            )
            .bind(user_id)
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    pub async fn list_members(&self, project_id: ProjectId) -> Result<Vec<MembershipRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, MembershipRow>(&format!(
                "SELECT {MEMBERSHIP_COLUMNS} FROM memberships WHERE project_id = $1 ORDER BY user_id"
            ))
            .bind(project_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// Adds a member and records `user.added`. A user already in the project
    /// is a conflict.
    pub async fn add_member(&self, member: &MembershipRow, event: &NewEvent) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            sqlx::query("INSERT INTO memberships (project_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)")
                .bind(member.project_id)
                .bind(member.user_id)
                .bind(member.role)
                .bind(event.occurred_at)
                .execute(&mut *tx)
                .await
                .map_err(|err| match db_error(err) {
                    CoreError::Conflict(_) => CoreError::Conflict("the user is already a member of the project".into()),
                    other => other,
                })?;
            insert_event!(&mut *tx, event)?;
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Changes a member's role and records `user.roleChanged`; returns the
    /// previous role, or None when the user is not a member.
    pub async fn set_member_role(&self, member: &MembershipRow, event: &NewEvent) -> Result<Option<i32>> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let previous: Option<(i32,)> =
                sqlx::query_as("SELECT role FROM memberships WHERE project_id = $1 AND user_id = $2")
                    .bind(member.project_id)
                    .bind(member.user_id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_error)?;
            let Some((previous,)) = previous else { return Ok(None) };
            sqlx::query("UPDATE memberships SET role = $3 WHERE project_id = $1 AND user_id = $2")
                .bind(member.project_id)
                .bind(member.user_id)
                .bind(member.role)
                .execute(&mut *tx)
                .await
                .map_err(db_error)?;
            insert_event!(&mut *tx, event)?;
            tx.commit().await.map_err(db_error)?;
            Ok(Some(previous))
        })
    }

    /// Removes a member and records `user.removed`; returns the removed
    /// membership, or None when the user was not a member.
    pub async fn remove_member(
        &self,
        project_id: ProjectId,
        user_id: UserId,
        event: &NewEvent,
    ) -> Result<Option<MembershipRow>> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let removed = sqlx::query_as::<_, MembershipRow>(&format!(
                "DELETE FROM memberships WHERE project_id = $1 AND user_id = $2 RETURNING {MEMBERSHIP_COLUMNS}"
            ))
            .bind(project_id)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_error)?;
            if removed.is_none() {
                return Ok(None);
            }
            insert_event!(&mut *tx, event)?;
            tx.commit().await.map_err(db_error)?;
            Ok(removed)
        })
    }

    /// How many admins (system or project) exist; used to decide whether a
    /// fresh install needs bootstrapping.
    pub async fn count_system_admins(&self) -> Result<i64> {
        with_read_pool!(self, pool => {
            let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE system_admin = $1")
                .bind(true)
                .fetch_one(pool)
                .await
                .map_err(db_error)?;
            Ok(n)
        })
    }
}
