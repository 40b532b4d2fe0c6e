//! Item operations: access check, validation, storage, change event.

use std::collections::HashSet;
use std::time::Duration;

use chrono::Utc;
use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::item_filters::ItemMatch;
use super::item_locks::WRITE_DEADLINE;
use super::preconditions::Preconditions;
use super::ItemsService;
use crate::domain::{EventId, EventKind, ItemId, ProjectId, ProjectRole};
use crate::error::Invalid;
use crate::error::{CoreError, CoreResult};
use crate::service::{page_size, Principal};
use crate::storage::{Attachment, DependentUpdate, ItemFilter, ItemRow, NewEvent};
use canvas_items::{ItemFacts, ItemType, Parent};
use canvas_vocabulary::limits::ITEMS_PAGE;

/// Items read per round while a filtered listing looks for its page.
const SCAN_PAGE: u32 = 1000;

/// What a write answers: the item and its version after the change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Written {
    pub item: ItemId,
    /// The item's type, so an update by id alone tells its caller what it changed.
    pub item_type: ItemType,
    /// The version written (for a delete: the version deleted), the new HTTP ETag.
    pub version: i64,
}

/// One page of a listing.
pub struct ItemPage {
    pub items: Vec<ItemRow>,
    /// The cursor for the next page; None at the end.
    pub next_cursor: Option<String>,
}

/// A listing request.
#[derive(Debug, Default)]
pub struct ListQuery {
    pub item_type: Option<String>,
    pub parent: Option<String>,
    /// As the client sent it; None for the default (see [`crate::service::page_size`]).
    pub page_size: Option<u32>,
    pub cursor: Option<String>,
    /// Filters tested on the items as presented (region, text, changed since).
    pub matching: ItemMatch,
    /// Only items carrying this tag: its id or its name (ignoring case), as the client sent it.
    pub tag: Option<String>,
    /// Only what this frame holds, at any depth (its id, as the client sent it).
    pub frame: Option<String>,
}

/// A file sent with a create (the multipart form, or MCP `upload_image`).
#[derive(Debug)]
pub struct Upload {
    pub file_name: String,
    pub declared_mime_type: String,
    pub content: Vec<u8>,
}

impl ItemsService {
    pub async fn create_item(
        &self,
        who: &Principal,
        project: ProjectId,
        parent: &str,
        item_type: &str,
        mut properties: Map<String, Value>,
        upload: Option<Upload>,
    ) -> CoreResult<Written> {
        let item_type = ItemType::parse(item_type).map_err(Invalid::from)?;
        let parent = Parent::parse(parent)?;
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let content = match upload {
            Some(upload) => Some(self.accept_upload(item_type, upload, &mut properties)?),
            None if !item_type.vocabulary().creation.from_json() => {
                return Err(CoreError::invalid(
                    "binary",
                    format!("{item_type} items are created by file upload: POST /{{parent}}/{item_type}/file"),
                ))
            }
            None => None,
        };
        let facts = ItemFacts { has_content: content.is_some() };
        let props = canvas_items::validate_create(item_type, properties, facts)?;
        let container = self.check_parent(project, parent, item_type, None).await?;
        if item_type == ItemType::Connector {
            self.check_attachments(project, &props, None).await?;
        }
        let content_key = match content {
            Some(bytes) => Some(self.blobs.put(bytes).await?),
            None => None,
        };
        let id = ItemId::new();
        let row =
            first_version(NewItem { id, project, item_type, parent, props: &props, content_key }, who, Utc::now());
        let payload = json!({"parent": row.parent.to_string(), "new": props});
        let event = item_event(who, project, id, item_type, EventKind::ItemCreated, payload);
        let mut attached = attachments(item_type, &props);
        attached.extend(self.tags_added(project, &props, None, "tags").await?);
        attached.extend(container);
        let _filling = match container {
            Some(_) => Some(self.container_turns.fill(project).await),
            None => None,
        };
        let deadline = Instant::now() + WRITE_DEADLINE;
        while !written(self.store.insert_item(&row, &event, &attached).await.map(|()| true))? {
            lost_race(deadline).await?;
        }
        self.outbox_written(project);
        Ok(Written { item: id, item_type, version: row.version })
    }

    /// An item as readers see it (derived properties filled in).
    pub async fn get_item(&self, who: &Principal, project: ProjectId, item: ItemId) -> CoreResult<ItemRow> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let row = self.load_item(project, item).await?;
        Ok(self.present(project, vec![row]).await?.remove(0))
    }

    /// One property, by a case-insensitive name the spec lists for the type.
    pub async fn get_item_property(
        &self,
        who: &Principal,
        project: ProjectId,
        item: ItemId,
        name: &str,
    ) -> CoreResult<(&'static str, Value)> {
        let row = self.get_item(who, project, item).await?;
        let item_type = row.item_type;
        let canonical = canvas_items::readable_property(item_type, name)?;
        let value = row.properties.get(canonical).cloned().unwrap_or(Value::Null);
        Ok((canonical, value))
    }

    /// Applies `patch` to an item. Writers of one item take turns ([`ItemLocks`]), so concurrent
    /// updates are all applied, each with its own `item.updated` event, in the order they got the
    /// lock. The update applies only while `conditions` hold (HTTP `If-Match`, `If-None-Match`,
    /// `If-Unmodified-Since`; `preconditions.rs`), checked against the state it changes.
    /// `parent`, when given, moves the item into or out of a container in the same write, and a
    /// frame that moves takes what it holds along (`frames.rs`).
    #[allow(clippy::too_many_arguments)]
    pub async fn update_item(
        &self,
        who: &Principal,
        project: ProjectId,
        item_type: Option<&str>,
        item: ItemId,
        patch: Map<String, Value>,
        parent: Option<&str>,
        conditions: Preconditions,
    ) -> CoreResult<Written> {
        let named_type = item_type.map(ItemType::parse).transpose().map_err(Invalid::from)?;
        let parent = parent.map(Parent::parse).transpose()?;
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let _turn = self.item_locks.lock(item).await;
        let deadline = Instant::now() + WRITE_DEADLINE;
        loop {
            let current = self.load_item(project, item).await?;
            conditions.check("item", current.version, current.updated_at)?;
            let actual_type = current.item_type;
            if let Some(named_type) = named_type.filter(|named| *named != actual_type) {
                return Err(CoreError::invalid(
                    "itemType",
                    format!("item '{item}' is a {actual_type}, not a {named_type}"),
                ));
            }
            let Value::Object(stored) = &current.properties else {
                return Err(CoreError::internal(format!("item {item} has non-object properties")));
            };
            let facts = ItemFacts { has_content: current.content_key.is_some() };
            let updated = canvas_items::validate_update(actual_type, stored, patch.clone(), facts)?;
            if actual_type == ItemType::Connector {
                self.check_attachments(project, &updated, Some(item)).await?;
            }
            let moved_to = parent.filter(|p| *p != current.parent);
            let container = match moved_to {
                Some(to) => self.check_move(project, &current, to).await?,
                None => None,
            };
            // Creates into a frame wait while it moves, so none lands at its old place unmoved.
            let _moving = match actual_type {
                ItemType::Frame => Some(self.container_turns.empty(project).await),
                _ => None,
            };
            let held = self.moved_with(who, &current, stored, &updated).await?;
            let (new, old) = changed_properties(stored, &updated);
            let mut row = next_version(&current, who, updated);
            let mut payload = json!({"parent": current.parent.to_string(), "new": new, "old": old});
            if let Some(to) = moved_to {
                row.parent = to;
                payload["parent"] = json!(to.to_string());
                payload["oldParent"] = json!(current.parent.to_string());
            }
            let event = item_event(who, project, item, actual_type, EventKind::ItemUpdated, payload);
            let mut attached = attachments(actual_type, row.properties.as_object().unwrap_or(&Map::new()));
            if let Some(props) = row.properties.as_object() {
                attached.extend(self.tags_added(project, props, Some(stored), "tags").await?);
            }
            attached.extend(container);
            if written(self.store.update_item(&row, current.version, &event, &attached, &held).await)? {
                self.outbox_written(project);
                return Ok(Written { item, item_type: actual_type, version: row.version });
            }
            lost_race(deadline).await?;
        }
    }

    /// Deletes an item and everything it holds (`containers.rs`). Connectors attached to a
    /// deleted item are detached in the same transaction: their ends stay where they were drawn
    /// (and each gets an `item.updated` event), so no connector is lost with the item.
    pub async fn delete_item(
        &self,
        who: &Principal,
        project: ProjectId,
        item: ItemId,
        conditions: Preconditions,
        ask_above: Option<u32>,
    ) -> CoreResult<Written> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let _turn = self.item_locks.lock(item).await;
        let mut emptying = None;
        let deadline = Instant::now() + WRITE_DEADLINE;
        loop {
            let current = self.load_item(project, item).await?;
            if current.item_type.is_container() && emptying.is_none() {
                // Creates into it wait from here on; read it again once they are done.
                emptying = Some(self.container_turns.empty(project).await);
                continue;
            }
            conditions.check("item", current.version, current.updated_at)?;
            let (item_type, version) = (current.item_type, current.version);
            let removal = self.removal(who, project, vec![current], &HashSet::new()).await?;
            // A container goes with everything it holds: that count is what may need asking first.
            CoreError::ask_first(ask_above, removal.deletes.len(), "delete")?;
            let done = self.store.delete_items(project, &removal.deletes, &removal.events, &removal.dependents).await;
            if written(done)? {
                self.outbox_written(project);
                return Ok(Written { item, item_type, version });
            }
            lost_race(deadline).await?;
        }
    }

    pub async fn list_items(&self, who: &Principal, project: ProjectId, query: ListQuery) -> CoreResult<ItemPage> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let tag = match query.tag.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            Some(raw) => Some(self.tag_filter(project, raw).await?),
            None => None,
        };
        let item_type = match query.item_type.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            Some(raw) => Some(ItemType::parse(raw).map_err(|_| {
                let names: Vec<&str> = ItemType::ALL.iter().map(|t| t.as_str()).collect();
                CoreError::invalid("type", format!("must be one of {}", names.join(", ")))
            })?),
            None => None,
        };
        let parent = match query.parent.as_deref().map(str::trim).filter(|p| !p.is_empty()) {
            Some(raw) => Some(Parent::parse(raw)?),
            None => None,
        };
        let after = match query.cursor.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
            Some(raw) => Some(
                ItemId::parse(raw)
                    .map_err(|_| CoreError::invalid("cursor", "is not a cursor returned by a previous page"))?,
            ),
            None => None,
        };
        let limit = page_size(query.page_size, ITEMS_PAGE)?;
        let mut filter = ItemFilter {
            item_type: item_type.map(|t| t.as_str().to_owned()),
            parent: parent.map(|p| p.to_string()),
            after,
            tag,
            limit: limit + 1,
        };
        if let Some(raw) = query.frame.as_deref().map(str::trim).filter(|f| !f.is_empty()) {
            return self.list_in_frame(project, raw, &filter, limit, &query.matching).await;
        }
        let mut rows = if query.matching.is_active() {
            // Read on in creation order until a page (and one more, for the cursor) matches.
            filter.limit = SCAN_PAGE;
            let mut matched = Vec::new();
            while matched.len() <= limit as usize {
                let scanned = self.store.list_items(project, &filter).await?;
                let last_page = scanned.len() < SCAN_PAGE as usize;
                filter.after = scanned.last().map(|r| r.id);
                let presented = self.present(project, scanned).await?;
                matched.extend(presented.into_iter().filter(|row| query.matching.matches(row)));
                if last_page {
                    break;
                }
            }
            matched
        } else {
            self.present(project, self.store.list_items(project, &filter).await?).await?
        };
        let next_cursor = if rows.len() > limit as usize {
            rows.truncate(limit as usize);
            rows.last().map(|r| r.id.to_string())
        } else {
            None
        };
        Ok(ItemPage { items: rows, next_cursor })
    }

    /// An item by id alone, among the projects the caller can read.
    pub async fn find_item(&self, who: &Principal, item: ItemId) -> CoreResult<ItemRow> {
        let row = self
            .store
            .find_item_for_user(item, who.user_id)
            .await?
            .ok_or_else(|| CoreError::not_found("item", item))?;
        Ok(self.present(row.project_id, vec![row]).await?.remove(0))
    }

    /// The uploaded bytes of an image, document or svg item, with its type
    /// and name.
    pub async fn get_item_content(
        &self,
        who: &Principal,
        project: ProjectId,
        item: ItemId,
    ) -> CoreResult<(String, String, Vec<u8>)> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        let row = self.load_item(project, item).await?;
        let Some(key) = &row.content_key else {
            return Err(CoreError::not_found("file content of item", item));
        };
        let props = &row.properties;
        let mime = props.get("mimeType").and_then(Value::as_str).unwrap_or("application/octet-stream").to_owned();
        let name = props.get("fileName").and_then(Value::as_str).unwrap_or("file").to_owned();
        Ok((mime, name, self.blobs.get(key).await?))
    }

    pub(super) async fn load_item(&self, project: ProjectId, item: ItemId) -> CoreResult<ItemRow> {
        self.store.get_item(project, item).await?.ok_or_else(|| CoreError::not_found("item", item))
    }
}

/// What a new item is made of.
pub(super) struct NewItem<'a> {
    pub id: ItemId,
    pub project: ProjectId,
    pub item_type: ItemType,
    pub parent: Parent,
    pub props: &'a Map<String, Value>,
    pub content_key: Option<String>,
}

/// The first version of a new item, created by `who` at `now`.
pub(super) fn first_version(item: NewItem<'_>, who: &Principal, now: chrono::DateTime<Utc>) -> ItemRow {
    ItemRow {
        id: item.id,
        project_id: item.project,
        item_type: item.item_type,
        parent: item.parent,
        properties: Value::Object(item.props.clone()),
        version: 1,
        created_by: who.user_id,
        updated_by: who.user_id,
        created_at: now,
        updated_at: now,
        content_key: item.content_key,
    }
}

/// The row that replaces `current` with new properties, written by `who`.
pub(super) fn next_version(current: &ItemRow, who: &Principal, properties: Map<String, Value>) -> ItemRow {
    ItemRow {
        properties: Value::Object(properties),
        version: current.version + 1,
        updated_by: who.user_id,
        updated_at: Utc::now(),
        ..current.clone()
    }
}

/// The properties that differ: their new values and their previous ones.
pub(super) fn changed_properties(
    old: &Map<String, Value>,
    new: &Map<String, Value>,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut after = Map::new();
    let mut before = Map::new();
    for (key, value) in new {
        if old.get(key) != Some(value) {
            after.insert(key.clone(), value.clone());
            before.insert(key.clone(), old.get(key).cloned().unwrap_or(Value::Null));
        }
    }
    for (key, value) in old {
        if !new.contains_key(key) {
            after.insert(key.clone(), Value::Null);
            before.insert(key.clone(), value.clone());
        }
    }
    (after, before)
}

pub(super) fn item_event(
    who: &Principal,
    project: ProjectId,
    item: ItemId,
    item_type: ItemType,
    kind: EventKind,
    payload: Value,
) -> NewEvent {
    NewEvent {
        id: EventId::new(),
        project_id: project,
        kind,
        subject_id: item.uuid(),
        subject_type: item_type.as_str().to_owned(),
        actor_user_id: who.user_id,
        occurred_at: Utc::now(),
        payload,
    }
}

/// Connector updates that go with a delete.
pub(super) type Dependents = Vec<DependentUpdate>;

/// A write's outcome, with a transaction the database gave up for a concurrent one (a deadlock
/// victim) counted as a lost race: nothing was written, and the caller runs it again.
pub(super) fn written(outcome: CoreResult<bool>) -> CoreResult<bool> {
    match outcome {
        Err(CoreError::Contention(_)) => Ok(false),
        other => other,
    }
}

/// After losing a version race to another replica: a short randomised pause (so two replicas do
/// not collide again in lockstep), or, once the deadline passed, a refusal that says why.
pub(super) async fn lost_race(deadline: Instant) -> CoreResult<()> {
    if Instant::now() >= deadline {
        return Err(CoreError::Conflict(format!(
            "the item kept being changed by other servers for {} s; nothing was changed, try again",
            WRITE_DEADLINE.as_secs()
        )));
    }
    let pause = Duration::from_millis(1 + u64::from(uuid::Uuid::new_v4().as_bytes()[0] % 16));
    tokio::time::sleep(pause).await;
    Ok(())
}

/// The items a connector's ends are attached to, which must still exist when it is written (the
/// tags an item carries are `ItemsService::tags_added`'s).
fn attachments(item_type: ItemType, props: &Map<String, Value>) -> Vec<Attachment> {
    if item_type != ItemType::Connector {
        return Vec::new();
    }
    [("startPoint", "startPoint.itemId"), ("endPoint", "endPoint.itemId")]
        .into_iter()
        .filter_map(|(end, field)| {
            let id = props.get(end)?.get("itemId")?.as_str()?;
            Some(Attachment::item(field, ItemId::from_uuid(uuid::Uuid::parse_str(id).ok()?)))
        })
        .collect()
}
