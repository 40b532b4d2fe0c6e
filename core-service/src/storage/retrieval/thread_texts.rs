//! Comment threads as the knowledge index reads them (docs/COMMENTS.md "Knowledge"): an open
//! thread is indexed under its own id, beside the items, with the text of its comments; and a
//! citation of one names its item. The queue's key is then a thread's id (the trigger of migration
//! 0019 queues a thread on each of its `comment.*` events), so it is carried as the index's
//! `ItemId`, the key every index row has.

use std::collections::HashMap;

use sqlx::QueryBuilder;

use super::queue::IN_LIST_MAX;
use super::RetrievalStore;
use crate::domain::{ItemId, ProjectId};
use crate::error::CoreError;
use crate::storage::db_error;

type Result<T> = std::result::Result<T, CoreError>;

/// A thread's text source, as the indexer needs it.
#[derive(Debug, Clone)]
pub struct ThreadText {
    /// The thread's id, as the queue and the index key it.
    pub key: ItemId,
    pub project_id: ProjectId,
    /// Bumped by every change of the thread or its comments.
    pub version: i64,
    /// Resolved threads are not indexed.
    pub resolved: bool,
    /// Its comments' texts, the thread's own first (plain text or label HTML).
    pub texts: Vec<String>,
}

#[derive(sqlx::FromRow)]
struct ThreadHead {
    id: ItemId,
    project_id: ProjectId,
    version: i64,
    resolved: bool,
}

impl RetrievalStore {
    /// The threads among `keys` (queue keys that name no item), with their comments' texts.
    pub async fn threads_by_keys(&self, keys: &[ItemId]) -> Result<Vec<ThreadText>> {
        let mut threads: Vec<ThreadText> = Vec::new();
        for keys in keys.chunks(IN_LIST_MAX) {
            let heads: Vec<ThreadHead> = with_read_pool!(self, pool => {
                let mut q = QueryBuilder::new(
                    "SELECT id, project_id, version, resolved_at IS NOT NULL AS resolved FROM comment_threads WHERE id IN (",
                );
                let mut list = q.separated(", ");
                for key in keys {
                    list.push_bind(*key);
                }
                q.push(")");
                q.build_query_as().fetch_all(pool).await.map_err(db_error)?
            });
            if heads.is_empty() {
                continue;
            }
            let texts: Vec<(ItemId, String)> = with_read_pool!(self, pool => {
                let mut q = QueryBuilder::new("SELECT thread_id, text FROM comments WHERE thread_id IN (");
                let mut list = q.separated(", ");
                for head in &heads {
                    list.push_bind(head.id);
                }
                q.push(") ORDER BY thread_id, id");
                q.build_query_as().fetch_all(pool).await.map_err(db_error)?
            });
            let mut by_thread: HashMap<ItemId, Vec<String>> = HashMap::new();
            for (thread, text) in texts {
                by_thread.entry(thread).or_default().push(text);
            }
            threads.extend(heads.into_iter().map(|head| ThreadText {
                key: head.id,
                project_id: head.project_id,
                version: head.version,
                resolved: head.resolved,
                texts: by_thread.remove(&head.id).unwrap_or_default(),
            }));
        }
        Ok(threads)
    }

    /// Of the index keys `ids` (a retrieval's citations), those that are comment threads, with the
    /// item each is on (None for a thread on a point of the map).
    pub async fn cited_threads(&self, ids: &[ItemId]) -> Result<HashMap<ItemId, Option<ItemId>>> {
        let mut found = HashMap::new();
        for ids in ids.chunks(IN_LIST_MAX) {
            let rows: Vec<(ItemId, Option<ItemId>)> = with_read_pool!(self, pool => {
                let mut q = QueryBuilder::new("SELECT id, item_id FROM comment_threads WHERE id IN (");
                let mut list = q.separated(", ");
                for id in ids {
                    list.push_bind(*id);
                }
                q.push(")");
                q.build_query_as().fetch_all(pool).await.map_err(db_error)?
            });
            found.extend(rows);
        }
        Ok(found)
    }
}
