//! A project's tags (docs/ITEMS.md "Tags"), and the one write that reaches items from a tag:
//! deleting a tag takes it off every item that carries it, each with its `item.updated` event,
//! in the tag's transaction. Which tags an item may carry is checked in the item's own write
//! (`missing_attachment!`, which share-locks the tags on PostgreSQL, so a delete waits for it).

use chrono::{DateTime, Utc};

use super::item_rows::{update_row, ITEM_COLUMNS};
use super::ItemsStore;
use crate::domain::{ProjectId, TagId, UserId};
use crate::error::CoreError;
use crate::storage::outbox::insert_event;
use crate::storage::{db_error, ItemRow, NewEvent, Storage};

type Result<T> = std::result::Result<T, CoreError>;

const TAG_COLUMNS: &str = "id, project_id, name, color, version, created_by, updated_by, created_at, updated_at";

/// One tag as stored.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TagRow {
    pub id: TagId,
    pub project_id: ProjectId,
    /// As the client wrote it, trimmed.
    pub name: String,
    /// A hex colour, as the property engine checked it.
    pub color: String,
    /// Bumped by every update.
    pub version: i64,
    pub created_by: UserId,
    pub updated_by: UserId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// Why a tag write was not made, beyond the database's own failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TagRefusal {
    /// Another tag of the project has the name (trimmed, ignoring case).
    NameTaken(String),
    /// The project holds its most tags already.
    Full,
    /// No such tag in the project.
    Missing,
    /// The tag changed since it was read (an update's version race).
    Raced,
}

/// The items of a delete's project that carry the tag, and what each becomes.
pub type Untag<'a> = &'a (dyn Fn(&ItemRow) -> Option<(ItemRow, NewEvent)> + Sync);

/// Inserts `$tags` (`&[TagRow]`, of a new project: a copy's or an import's, whose names were
/// checked unique) within the transaction `$tx`, 64 rows per statement.
macro_rules! insert_tag_rows {
    ($tx:expr, $tags:expr) => {{
        let tags: &[TagRow] = $tags;
        for rows in tags.chunks(64) {
            let mut insert = sqlx::QueryBuilder::new(
                "INSERT INTO tags (id, project_id, name, color, version, created_by, updated_by, created_at, updated_at, name_key) ",
            );
            insert.push_values(rows, |mut values, tag| {
                values
                    .push_bind(tag.id)
                    .push_bind(tag.project_id)
                    .push_bind(&tag.name)
                    .push_bind(&tag.color)
                    .push_bind(tag.version)
                    .push_bind(tag.created_by)
                    .push_bind(tag.updated_by)
                    .push_bind(tag.created_at)
                    .push_bind(tag.updated_at)
                    .push_bind(canvas_vocabulary::limits::tags::name_key(&tag.name));
            });
            insert.build().execute(&mut *$tx).await.map_err(db_error)?;
        }
    }};
}
pub(in crate::storage) use insert_tag_rows;

/// Within a write transaction: whether another tag than `$except` has the name key.
macro_rules! name_taken {
    ($tx:expr, $project:expr, $key:expr, $except:expr) => {{
        let found: Option<TagId> =
            sqlx::query_scalar("SELECT id FROM tags WHERE project_id = $1 AND name_key = $2 AND id <> $3")
                .bind($project)
                .bind($key)
                .bind($except)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(db_error)?;
        found.is_some()
    }};
}

impl ItemsStore {
    /// Every tag of a project, by name (ignoring case).
    pub async fn list_tags(&self, project_id: ProjectId) -> Result<Vec<TagRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, TagRow>(&format!(
                "SELECT {TAG_COLUMNS} FROM tags WHERE project_id = $1 ORDER BY name_key, id"
            ))
            .bind(project_id)
            .fetch_all(pool)
            .await
            .map_err(db_error)
        })
    }

    /// A tag of the project.
    pub async fn get_tag(&self, project_id: ProjectId, tag_id: TagId) -> Result<Option<TagRow>> {
        with_read_pool!(self, pool => {
            sqlx::query_as::<_, TagRow>(&format!("SELECT {TAG_COLUMNS} FROM tags WHERE id = $1 AND project_id = $2"))
                .bind(tag_id)
                .bind(project_id)
                .fetch_optional(pool)
                .await
                .map_err(db_error)
        })
    }

    /// Inserts a tag unless its name is taken or the project holds `most` tags already (checked
    /// in the transaction; the unique index on the name key holds against a concurrent create).
    pub async fn insert_tag(
        &self,
        tag: &TagRow,
        key: &str,
        most: usize,
    ) -> Result<std::result::Result<(), TagRefusal>> {
        let count_lock = self.count_lock();
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            // PostgreSQL: the project row is locked for the count, so two creates cannot both
            // take the last place. `NO KEY UPDATE` conflicts with itself but not with the key-share
            // locks of foreign-key checks: item writes of the project do not wait for it.
            sqlx::query(&format!("SELECT id FROM projects WHERE id = $1{count_lock}"))
                .bind(tag.project_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_error)?;
            if name_taken!(tx, tag.project_id, key, tag.id) {
                return Ok(Err(TagRefusal::NameTaken(tag.name.clone())));
            }
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tags WHERE project_id = $1")
                .bind(tag.project_id)
                .fetch_one(&mut *tx)
                .await
                .map_err(db_error)?;
            if count >= most as i64 {
                return Ok(Err(TagRefusal::Full));
            }
            sqlx::query(&format!("INSERT INTO tags ({TAG_COLUMNS}, name_key) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"))
                .bind(tag.id)
                .bind(tag.project_id)
                .bind(&tag.name)
                .bind(&tag.color)
                .bind(tag.version)
                .bind(tag.created_by)
                .bind(tag.updated_by)
                .bind(tag.created_at)
                .bind(tag.updated_at)
                .bind(key)
                .execute(&mut *tx)
                .await
                .map_err(name_race)?;
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(()))
        })
    }

    /// Inserts a new project's tags (a project copy's) in one transaction.
    pub async fn insert_tags(&self, tags: &[TagRow]) -> Result<()> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            insert_tag_rows!(tx, tags);
            tx.commit().await.map_err(db_error)?;
        });
        Ok(())
    }

    /// Writes a tag's new name and colour if it is still at `expected_version`.
    pub async fn update_tag(
        &self,
        tag: &TagRow,
        key: &str,
        expected_version: i64,
    ) -> Result<std::result::Result<(), TagRefusal>> {
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            if name_taken!(tx, tag.project_id, key, tag.id) {
                return Ok(Err(TagRefusal::NameTaken(tag.name.clone())));
            }
            let updated = sqlx::query(
                "UPDATE tags SET name = $3, name_key = $4, color = $5, version = $6, updated_by = $7, updated_at = $8 \
                 WHERE id = $1 AND project_id = $2 AND version = $9",
            )
            .bind(tag.id)
            .bind(tag.project_id)
            .bind(&tag.name)
            .bind(key)
            .bind(&tag.color)
            .bind(tag.version)
            .bind(tag.updated_by)
            .bind(tag.updated_at)
            .bind(expected_version)
            .execute(&mut *tx)
            .await
            .map_err(name_race)?
            .rows_affected();
            if updated != 1 {
                return Ok(Err(TagRefusal::Raced));
            }
            tx.commit().await.map_err(db_error)?;
            Ok(Ok(()))
        })
    }

    /// Deletes a tag and takes it off its items, in one transaction: each item `untag` changes is
    /// written at its next version with its event. Answers the tag and how many items changed.
    /// On PostgreSQL the items are locked first, so a concurrent update of one of them waits and
    /// then loses its version race (and reads the item again, without the tag); an item write
    /// that names the tag share-locks it, so this delete waits for that write and then sees it.
    pub async fn delete_tag(
        &self,
        project_id: ProjectId,
        tag_id: TagId,
        untag: Untag<'_>,
    ) -> Result<std::result::Result<(TagRow, Vec<ItemRow>), TagRefusal>> {
        let (carrying, lock) = match self.database() {
            Storage::Sqlite(_) => ("CAST(properties AS TEXT) LIKE $2", ""),
            Storage::Postgres(_) => ("properties->'tags' ? $2", " FOR UPDATE"),
        };
        let select_items =
            format!("SELECT {ITEM_COLUMNS} FROM items WHERE project_id = $1 AND {carrying} ORDER BY id{lock}");
        let needle = match self.database() {
            Storage::Sqlite(_) => format!("%{tag_id}%"),
            Storage::Postgres(_) => tag_id.to_string(),
        };
        with_write_pool!(self, pool => {
            let mut tx = pool.begin().await.map_err(db_error)?;
            let deleted = sqlx::query_as::<_, TagRow>(&format!(
                "DELETE FROM tags WHERE id = $1 AND project_id = $2 RETURNING {TAG_COLUMNS}"
            ))
            .bind(tag_id)
            .bind(project_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_error)?;
            let Some(deleted) = deleted else { return Ok(Err(TagRefusal::Missing)) };
            let items = sqlx::query_as::<_, ItemRow>(&select_items)
                .bind(project_id)
                .bind(&needle)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_error)?;
            let mut changed = Vec::new();
            for item in &items {
                // The text match may find the id elsewhere (a connector end naming an item of the
                // same id cannot, ids being unique, but a text could): `untag` decides.
                let Some((row, event)) = untag(item) else { continue };
                if !update_row!(&mut *tx, &row, item.version) {
                    return Err(CoreError::Contention("an item changed while its tag was deleted; try again".into()));
                }
                insert_event!(&mut *tx, &event)?;
                changed.push(row);
            }
            tx.commit().await.map_err(db_error)?;
            Ok(Ok((deleted, changed)))
        })
    }

    /// ` FOR NO KEY UPDATE` on PostgreSQL, where a count must not race another writer's.
    pub(super) fn count_lock(&self) -> &'static str {
        match self.database() {
            Storage::Sqlite(_) => "",
            Storage::Postgres(_) => " FOR NO KEY UPDATE",
        }
    }
}

/// A unique-index violation of the name key (a concurrent create or rename took the name between
/// the check and the write) is a refusal like the checked one; anything else is the database's.
fn name_race(err: sqlx::Error) -> CoreError {
    match &err {
        sqlx::Error::Database(db) if db.kind() == sqlx::error::ErrorKind::UniqueViolation => {
            CoreError::invalid("name", "another tag of the project has this name (ignoring case)")
        }
        _ => db_error(err),
    }
}
