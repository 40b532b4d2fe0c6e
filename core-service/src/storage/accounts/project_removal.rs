//! Removing a project that an import created and could not finish (docs/ARCHIVE.md): its
//! memberships, items, diagram records and webhooks go with it (`ON DELETE CASCADE`).

use super::AccountsStore;
use crate::domain::ProjectId;
use crate::error::CoreError;
use crate::storage::db_error;

impl AccountsStore {
    /// Deletes the project; true when it existed.
    pub async fn delete_project(&self, project_id: ProjectId) -> Result<bool, CoreError> {
        let deleted = with_write_pool!(self, pool => {
            sqlx::query("DELETE FROM projects WHERE id = $1")
                .bind(project_id)
                .execute(pool)
                .await
                .map_err(db_error)?
                .rows_affected()
        });
        Ok(deleted == 1)
    }
}
