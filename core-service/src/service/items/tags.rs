//! A project's tags (beyond the spec; docs/ITEMS.md "Tags"): a name and a colour that items carry
//! by id in their `tags` property. Any member reads them; Editors and above create, change and
//! delete them, as they change the items that carry them. Deleting a tag takes it off its items,
//! each with an `item.updated` event, in the tag's transaction.

use chrono::Utc;
use serde_json::{json, Map, Value};
use tokio::time::Instant;

use super::crud::{item_event, lost_race};
use super::item_locks::WRITE_DEADLINE;
use super::ItemsService;
use crate::domain::{EventKind, ItemId, ProjectId, ProjectRole, TagId};
use crate::error::{CoreError, CoreResult};
use crate::service::Principal;
use crate::storage::{Attachment, ItemRow, NewEvent, TagRefusal, TagRow};
use canvas_items::schema::{parse_value, Kind};
use canvas_vocabulary::limits::tags::{name_key, DEFAULT_COLOR, MAX_NAME_CHARS, MAX_PER_PROJECT};

/// A tag create's or update's fields, as the client sent them (None: not sent).
#[derive(Debug, Clone, Default)]
pub struct TagFields {
    pub name: Option<String>,
    pub color: Option<String>,
}

/// What a tag delete did.
#[derive(Debug, Clone)]
pub struct TagDeleted {
    pub tag: TagRow,
    /// The items it was taken off, at their new versions.
    pub untagged: Vec<ItemId>,
}

impl ItemsService {
    /// Every tag of the project, by name.
    pub async fn list_tags(&self, who: &Principal, project: ProjectId) -> CoreResult<Vec<TagRow>> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        self.store.list_tags(project).await
    }

    pub async fn get_tag(&self, who: &Principal, project: ProjectId, tag: TagId) -> CoreResult<TagRow> {
        self.access.require_role(who, project, ProjectRole::Viewer).await?;
        self.store.get_tag(project, tag).await?.ok_or_else(|| CoreError::not_found("tag", tag))
    }

    /// A new tag: `name` is required, `color` defaults to [`DEFAULT_COLOR`].
    pub async fn create_tag(&self, who: &Principal, project: ProjectId, fields: TagFields) -> CoreResult<TagRow> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let Some(name) = fields.name.as_deref() else {
            return Err(CoreError::invalid("name", "is required"));
        };
        let name = tag_name(name)?;
        let color = tag_color(fields.color.as_deref().unwrap_or(DEFAULT_COLOR))?;
        let now = Utc::now();
        let tag = TagRow {
            id: TagId::new(),
            project_id: project,
            name,
            color,
            version: 1,
            created_by: who.user_id,
            updated_by: who.user_id,
            created_at: now,
            updated_at: now,
        };
        let outcome = self.store.insert_tag(&tag, &name_key(&tag.name), MAX_PER_PROJECT).await?;
        outcome.map_err(|refused| refusal(refused, tag.id))?;
        Ok(tag)
    }

    /// Renames or recolours a tag; the fields not sent keep their value. The items carrying it
    /// are not changed (they name it by id), so no item event is written.
    pub async fn update_tag(
        &self,
        who: &Principal,
        project: ProjectId,
        tag: TagId,
        fields: TagFields,
    ) -> CoreResult<TagRow> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let name = fields.name.as_deref().map(tag_name).transpose()?;
        let color = fields.color.as_deref().map(tag_color).transpose()?;
        loop {
            let current = self.store.get_tag(project, tag).await?.ok_or_else(|| CoreError::not_found("tag", tag))?;
            let mut next = current.clone();
            next.name = name.clone().unwrap_or(current.name);
            next.color = color.clone().unwrap_or(current.color);
            (next.version, next.updated_by, next.updated_at) = (current.version + 1, who.user_id, Utc::now());
            match self.store.update_tag(&next, &name_key(&next.name), current.version).await? {
                Ok(()) => return Ok(next),
                // Changed meanwhile by another writer: apply this change on top of theirs.
                Err(TagRefusal::Raced) => continue,
                Err(other) => return Err(refusal(other, tag)),
            }
        }
    }

    /// Deletes a tag and takes it off every item that carries it (each with its `item.updated`
    /// event, `tags` old and new), all in one transaction.
    pub async fn delete_tag(&self, who: &Principal, project: ProjectId, tag: TagId) -> CoreResult<TagDeleted> {
        self.access.require_role(who, project, ProjectRole::Editor).await?;
        let now = Utc::now();
        let untag = |item: &ItemRow| untagged(who, project, tag, item, now);
        // A transaction PostgreSQL gave up for a concurrent one (a deadlock with a write that locks
        // the same items in another order) wrote nothing: it is made again, as an item write is.
        let deadline = Instant::now() + WRITE_DEADLINE;
        let outcome = loop {
            match self.store.delete_tag(project, tag, &untag).await {
                Err(CoreError::Contention(_)) => lost_race(deadline).await?,
                outcome => break outcome?,
            }
        };
        let (deleted, items) = outcome.map_err(|refused| refusal(refused, tag))?;
        if !items.is_empty() {
            self.outbox_written(project);
        }
        Ok(TagDeleted { tag: deleted, untagged: items.into_iter().map(|row| row.id).collect() })
    }

    /// The tags `props` carries that `before` did not, which must exist when the write commits
    /// (`Attachment::tag`), after a check here that names the first unknown one. Tags an item
    /// already carried need no check: a delete of one changes the item's version, so the write
    /// loses its version race and is made again on the item without it.
    pub(super) async fn tags_added(
        &self,
        project: ProjectId,
        props: &Map<String, Value>,
        before: Option<&Map<String, Value>>,
        field: &str,
    ) -> CoreResult<Vec<Attachment>> {
        let added = new_tags(props, before);
        if added.is_empty() {
            return Ok(Vec::new());
        }
        let known = self.known_tags(project).await?;
        if let Some((i, missing)) = added.iter().find(|(_, tag)| !known.contains(tag)) {
            return Err(CoreError::invalid(format!("{field}[{i}]"), format!("no tag '{missing}' in this project")));
        }
        Ok(added.into_iter().map(|(_, tag)| Attachment::tag(tag)).collect())
    }

    /// The ids of the project's tags.
    pub(super) async fn known_tags(&self, project: ProjectId) -> CoreResult<Vec<TagId>> {
        Ok(self.store.list_tags(project).await?.into_iter().map(|row| row.id).collect())
    }

    /// The tag a listing's `tag` filter names: its id, or its name (ignoring case).
    pub(super) async fn tag_filter(&self, project: ProjectId, raw: &str) -> CoreResult<TagId> {
        let tags = self.store.list_tags(project).await?;
        let wanted = name_key(raw);
        let by_id = TagId::parse(raw).ok();
        tags.into_iter()
            .find(|tag| Some(tag.id) == by_id || name_key(&tag.name) == wanted)
            .map(|tag| tag.id)
            .ok_or_else(|| {
                CoreError::invalid("tag", format!("no tag named or with the id '{}' in this project", raw.trim()))
            })
    }
}

/// The tag ids an item's properties carry (the property engine wrote them as GUIDs).
fn carried(props: &Map<String, Value>) -> Vec<TagId> {
    let ids = props.get("tags").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    ids.iter().filter_map(Value::as_str).filter_map(|id| TagId::parse(id).ok()).collect()
}

/// The tags `props` carries that `before` did not, each with its place in `tags`.
pub(super) fn new_tags(props: &Map<String, Value>, before: Option<&Map<String, Value>>) -> Vec<(usize, TagId)> {
    let had = before.map(carried).unwrap_or_default();
    carried(props).into_iter().enumerate().filter(|(_, tag)| !had.contains(tag)).collect()
}

/// The item without `tag`, at its next version, with its event; None if it does not carry it.
fn untagged(
    who: &Principal,
    project: ProjectId,
    tag: TagId,
    item: &ItemRow,
    now: chrono::DateTime<Utc>,
) -> Option<(ItemRow, NewEvent)> {
    let props = item.properties.as_object()?;
    let old = props.get("tags")?.clone();
    let before = carried(props);
    if !before.contains(&tag) {
        return None;
    }
    let after: Vec<Value> = before.iter().filter(|t| **t != tag).map(|t| Value::String(t.to_string())).collect();
    let mut row = item.clone();
    row.properties["tags"] = Value::Array(after.clone());
    (row.version, row.updated_by, row.updated_at) = (item.version + 1, who.user_id, now);
    let payload = json!({"parent": item.parent.to_string(), "new": {"tags": after}, "old": {"tags": old}});
    let mut event = item_event(who, project, item.id, item.item_type, EventKind::ItemUpdated, payload);
    event.occurred_at = now;
    Some((row, event))
}

/// A tag's name: the text rule, not empty, at most [`MAX_NAME_CHARS`], kept trimmed. (Every
/// path that makes a tag checks it here: the calls above and an archive's `tags.json`.)
pub(super) fn tag_name(raw: &str) -> CoreResult<String> {
    let mut errors = Vec::new();
    match parse_value(Kind::Name(MAX_NAME_CHARS), "name", &Value::String(raw.trim().to_owned()), &mut errors) {
        Some(Value::String(name)) => Ok(name),
        _ => Err(CoreError::Validation(errors)),
    }
}

/// A tag's colour: hex, as a shape's fill (`#RRGGBB`, `#AARRGGBB` or `#RGB`).
pub(super) fn tag_color(raw: &str) -> CoreResult<String> {
    let mut errors = Vec::new();
    match parse_value(Kind::HexColor, "color", &Value::String(raw.to_owned()), &mut errors) {
        Some(Value::String(color)) => Ok(color),
        _ => Err(CoreError::Validation(errors)),
    }
}

/// Why a write of the tag `tag` was refused, as the caller is told.
fn refusal(refusal: TagRefusal, tag: TagId) -> CoreError {
    match refusal {
        TagRefusal::NameTaken(name) => {
            CoreError::invalid("name", format!("another tag of the project is named '{name}' (ignoring case)"))
        }
        TagRefusal::Full => CoreError::Conflict(format!(
            "the project has {MAX_PER_PROJECT} tags, the most a project may have; delete one first"
        )),
        TagRefusal::Missing => CoreError::not_found("tag", tag),
        TagRefusal::Raced => CoreError::Contention("the tag changed meanwhile; try again".into()),
    }
}
