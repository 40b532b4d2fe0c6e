//! The items table's row as SQL: its columns in the order every item read decodes them, and the
//! item read by id. Apart from `item_rows.rs`, so the reads without sqlx (`sqlite_reads.rs`,
//! `pg_reads.rs`) share the text without importing the module that calls them.

pub(in crate::storage) const ITEM_COLUMNS: &str =
    "id, project_id, item_type, parent, properties, version, created_by, updated_by, created_at, updated_at, content_key";

/// The item read by id, one text for sqlx's read and the reads without it (`sqlite_reads.rs`,
/// `pg_reads.rs`, which decode the columns in this order). `$n` placeholders: SQLite takes them
/// too, bound by position.
pub(in crate::storage) static ITEM_BY_ID: std::sync::LazyLock<String> =
    std::sync::LazyLock::new(|| format!("SELECT {ITEM_COLUMNS} FROM items WHERE id = $1 AND project_id = $2"));
