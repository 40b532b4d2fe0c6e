//! Rows as stored, shared by both backends. Each type decodes from SQLite and
//! PostgreSQL alike (UUID as BLOB or UUID, time as TEXT or TIMESTAMPTZ, JSON as
//! TEXT or JSONB).

use crate::domain::{EventId, ItemId, ProjectId, TagId, TokenId, UserId};
use chrono::{DateTime, Utc};
use serde_json::Value;
use uuid::Uuid;

use crate::domain::EventKind;
use canvas_items::{ItemType, Parent};

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: UserId,
    pub name: String,
    pub system_admin: bool,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TokenRow {
    pub id: TokenId,
    pub user_id: UserId,
    /// SHA-256 of the secret; the secret itself is never stored.
    pub token_hash: Vec<u8>,
    /// `Environment::code()`.
    pub environment: i32,
    pub name: String,
    pub created_at: DateTime<Utc>,
    pub last_used_at: Option<DateTime<Utc>>,
    pub revoked_at: Option<DateTime<Utc>>,
    /// The secret's first characters (`tokens::SHOWN_CHARS`), for recognising it in a list;
    /// empty for tokens made before it was kept.
    pub prefix: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProjectRow {
    pub id: ProjectId,
    pub name: String,
    pub created_at: DateTime<Utc>,
}

/// A project seen by one user, with that user's role.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserProjectRow {
    pub id: ProjectId,
    pub name: String,
    pub created_at: DateTime<Utc>,
    /// `ProjectRole::code()`.
    pub role: i32,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MembershipRow {
    pub project_id: ProjectId,
    pub user_id: UserId,
    /// `ProjectRole::code()`.
    pub role: i32,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ItemRow {
    pub id: ItemId,
    pub project_id: ProjectId,
    /// Decoded here: text that names no type is a storage (decoding) error, never re-parsed above.
    #[sqlx(try_from = "String")]
    pub item_type: ItemType,
    #[sqlx(try_from = "String")]
    pub parent: Parent,
    /// Every property, validated and with defaults, camelCase names.
    #[sqlx(json)]
    pub properties: Value,
    /// Bumped by every update; guards against lost updates.
    pub version: i64,
    pub created_by: UserId,
    pub updated_by: UserId,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Blob key of uploaded content (image, document, svg); None otherwise.
    pub content_key: Option<String>,
}

/// What an item's write names that must still exist when it is written (a delete of it may have
/// committed since the request was validated): an item a connector end is attached to or a new
/// item's container, or a tag the item carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attachment {
    /// The field that names it: a connector end (`startPoint.itemId`, `endPoint.itemId`), a new
    /// item's `parent`, or `tags`.
    pub field: &'static str,
    pub to: Attached,
}

/// The row an [`Attachment`] names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attached {
    Item(ItemId),
    Tag(TagId),
}

impl Attachment {
    pub fn item(field: &'static str, item_id: ItemId) -> Self {
        Self { field, to: Attached::Item(item_id) }
    }

    pub fn tag(tag_id: TagId) -> Self {
        Self { field: "tags", to: Attached::Tag(tag_id) }
    }

    /// The item named, if it names one.
    pub fn item_id(&self) -> Option<ItemId> {
        match self.to {
            Attached::Item(id) => Some(id),
            Attached::Tag(_) => None,
        }
    }

    /// The table and id of the row named.
    pub(in crate::storage) fn row(&self) -> (&'static str, Uuid) {
        match self.to {
            Attached::Item(id) => ("items", id.uuid()),
            Attached::Tag(id) => ("tags", id.uuid()),
        }
    }

    /// Why a write naming it was refused once it was gone.
    pub fn gone(&self) -> String {
        match self.to {
            Attached::Item(id) => format!("no item '{id}' in this project (it was deleted)"),
            Attached::Tag(id) => format!("no tag '{id}' in this project (it was deleted)"),
        }
    }
}

/// A dependent change written in the same transaction as another one (a
/// connector detached from a deleted item), guarded by its version.
#[derive(Debug, Clone)]
pub struct DependentUpdate {
    pub row: ItemRow,
    pub expected_version: i64,
    pub event: NewEvent,
}

/// A change record for the outbox, written in the same transaction as the
/// change it describes.
#[derive(Debug, Clone)]
pub struct NewEvent {
    pub id: EventId,
    pub project_id: ProjectId,
    pub kind: EventKind,
    /// The item or user the event is about.
    pub subject_id: Uuid,
    /// The item type, or `user`.
    pub subject_type: String,
    pub actor_user_id: UserId,
    pub occurred_at: DateTime<Utc>,
    /// The changed properties: `{"new": {...}, "old": {...}}`.
    pub payload: Value,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EventRow {
    pub seq: i64,
    pub id: EventId,
    pub project_id: ProjectId,
    #[sqlx(try_from = "String")]
    pub kind: EventKind,
    pub subject_id: Uuid,
    pub subject_type: String,
    pub actor_user_id: UserId,
    pub occurred_at: DateTime<Utc>,
    #[sqlx(json)]
    pub payload: Value,
}
