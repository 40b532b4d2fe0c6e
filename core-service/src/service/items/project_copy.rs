//! A project's items read whole and written again as copies into another project (the project copy
//! of `WebhooksService::copy_project`, which also carries the webhooks over).

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use super::ItemsService;
use crate::domain::{EventKind, ProjectId, TagId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{ItemFilter, ItemRow};

impl ItemsService {
    /// Every item of `project`, in id order, read a page of 1,000 at a time.
    pub(crate) async fn all_items(&self, project: ProjectId) -> CoreResult<Vec<ItemRow>> {
        let mut items = Vec::new();
        let mut filter = ItemFilter { limit: 1000, ..Default::default() };
        loop {
            let page = self.store.list_items(project, &filter).await?;
            let full = page.len() == filter.limit as usize;
            filter.after = page.last().map(|row| row.id);
            items.extend(page);
            if !full {
                break;
            }
        }
        Ok(items)
    }

    /// Copies the tags of `from` into `into` with new ids, created by `who` at `now`; answers
    /// each old id's copy (as text, as items carry them).
    pub(crate) async fn copy_tags(
        &self,
        who: &Principal,
        from: ProjectId,
        into: ProjectId,
        now: DateTime<Utc>,
    ) -> CoreResult<HashMap<String, String>> {
        let mut tags = self.store.list_tags(from).await?;
        let mut copies = HashMap::new();
        for tag in &mut tags {
            let copy = TagId::new();
            copies.insert(tag.id.to_string(), copy.to_string());
            (tag.id, tag.project_id, tag.version) = (copy, into, 1);
            (tag.created_by, tag.updated_by, tag.created_at, tag.updated_at) = (who.user_id, who.user_id, now, now);
        }
        self.store.insert_tags(&tags).await?;
        Ok(copies)
    }

    /// Writes `items` into `into` with new ids, created by `who` at `now`; parents and connector
    /// ends that point at copied items point at their copies, and tags at the copies of `tags`
    /// (from [`Self::copy_tags`]). Each copy records `item.created`;
    /// all are written in one transaction. Answers how many were written.
    pub(crate) async fn insert_copies(
        &self,
        who: &Principal,
        items: Vec<ItemRow>,
        tags: &HashMap<String, String>,
        into: ProjectId,
        now: DateTime<Utc>,
    ) -> CoreResult<usize> {
        let ids: HashMap<String, String> =
            items.iter().map(|row| (row.id.to_string(), Uuid::now_v7().to_string())).collect();
        let mut rows = Vec::with_capacity(items.len());
        let mut events = Vec::with_capacity(items.len());
        for mut row in items {
            let new_id = Uuid::parse_str(&ids[&row.id.to_string()]).map_err(CoreError::internal)?;
            if let canvas_items::Parent::Item(old) = row.parent {
                // A container that is not among the copies (none is, since containers delete what
                // they hold; kept for data written before) leaves its item on the canvas.
                row.parent = match ids.get(&old.to_string()) {
                    Some(copy) => canvas_items::Parent::Item(crate::domain::ItemId::from_uuid(
                        Uuid::parse_str(copy).map_err(CoreError::internal)?,
                    )),
                    None => canvas_items::Parent::Panel,
                };
            }
            for end in ["startPoint", "endPoint"] {
                let target = row.properties.get(end).and_then(|p| p.get("itemId")).and_then(|v| v.as_str());
                if let Some(copy) = target.and_then(|old| ids.get(old)).cloned() {
                    row.properties[end]["itemId"] = serde_json::Value::String(copy);
                }
            }
            if let Some(Value::Array(carried)) = row.properties.get_mut("tags") {
                // Every tag an item carries is one of its project's (its writes checked), so each
                // has a copy; one that had none would be dropped rather than left dangling.
                carried.retain_mut(|tag| match tag.as_str().and_then(|old| tags.get(old)) {
                    Some(copy) => {
                        *tag = Value::String(copy.clone());
                        true
                    }
                    None => false,
                });
            }
            row.id = crate::domain::ItemId::from_uuid(new_id);
            row.project_id = into;
            row.version = 1;
            (row.created_by, row.updated_by, row.created_at, row.updated_at) = (who.user_id, who.user_id, now, now);
            let event = crate::storage::NewEvent {
                id: crate::domain::EventId::new(),
                project_id: into,
                kind: EventKind::ItemCreated,
                subject_id: row.id.uuid(),
                subject_type: row.item_type.to_string(),
                actor_user_id: who.user_id,
                occurred_at: now,
                payload: serde_json::json!({"parent": row.parent.to_string(), "new": row.properties}),
            };
            rows.push(row);
            events.push(event);
        }
        // One transaction: the copy is whole or not there.
        self.store.insert_items(&rows, &events, &[]).await?;
        self.outbox_written(into);
        Ok(rows.len())
    }
}
