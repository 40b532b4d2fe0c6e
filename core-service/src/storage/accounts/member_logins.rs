//! The members of a project who have a login, found by it: how a comment's `@login` mentions are
//! resolved (docs/COMMENTS.md "Mentions").

use super::AccountsStore;
use crate::domain::{ProjectId, UserId};
use crate::error::CoreError;
use crate::storage::db_error;

/// Logins asked for per statement (well inside both backends' parameter limits).
const LOGINS_PER_QUERY: usize = 200;

impl AccountsStore {
    /// Of `logins` (stored form: lower-cased), those of members of the project, with their user.
    pub async fn members_by_login(
        &self,
        project_id: ProjectId,
        logins: &[String],
    ) -> Result<Vec<(UserId, String)>, CoreError> {
        let mut found = Vec::new();
        for chunk in logins.chunks(LOGINS_PER_QUERY) {
            with_read_pool!(self, pool => {
                let mut query = sqlx::QueryBuilder::new(
                    "SELECT l.user_id, l.login FROM user_logins l JOIN memberships m ON m.user_id = l.user_id \
                     WHERE m.project_id = ",
                );
                query.push_bind(project_id).push(" AND l.login IN (");
                let mut list = query.separated(", ");
                for login in chunk {
                    list.push_bind(login);
                }
                query.push(")");
                let rows: Vec<(UserId, String)> = query.build_query_as().fetch_all(pool).await.map_err(db_error)?;
                found.extend(rows);
            });
        }
        Ok(found)
    }
}
