//! Bodies of a project's tags (beyond the spec). The request type is also what `routes::tags`
//! deserialises the body with ([`super::parse`]), so the schema is the parser; the rules (name
//! length, colour, unique names) are core-service's, from `canvas_vocabulary::limits::tags`.

use canvas_vocabulary::limits::tags::{DEFAULT_COLOR, MAX_NAME_CHARS};
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};
use utoipa::ToSchema;

/// `POST .../tags` and `PATCH .../tags/{tagId}`: on a create `name` is required and `color`
/// defaults; on an update each field sent is changed and the others kept.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, expecting = "a tag {name, color}")]
pub struct TagRequest {
    #[serde(default)]
    #[schema(schema_with = tag_name)]
    pub name: Option<String>,
    #[serde(default)]
    #[schema(schema_with = tag_color)]
    pub color: Option<String>,
}

fn tag_name() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_NAME_CHARS))
        .pattern(Some("\\S"))
        .description(Some(format!(
            "1 to {MAX_NAME_CHARS} characters, trimmed; unique in the project ignoring case (required on a create)"
        )))
        .build()
}

fn tag_color() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^\\s*#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})\\s*$"))
        .description(Some(format!(
            "hex colour only: #RRGGBB, #AARRGGBB (alpha first) or #RGB; {DEFAULT_COLOR} on a create without one"
        )))
        .build()
}

/// A tag.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct Tag {
    #[schema(format = "uuid")]
    pub tag_id: String,
    #[schema(format = "uuid")]
    pub project_id: String,
    pub name: String,
    pub color: String,
    /// Bumped by every change.
    pub version: i64,
    #[schema(format = "date-time")]
    pub created_at: String,
    #[schema(format = "date-time")]
    pub updated_at: String,
}

/// Every tag of a project (at most `canvas_vocabulary::limits::tags::MAX_PER_PROJECT`), by name
/// ignoring case.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TagList {
    pub tags: Vec<Tag>,
}

/// What a tag delete did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TagDeleted {
    /// The tag as it was.
    pub tag: Tag,
    /// The items it was taken off, each with its `item.updated` event.
    pub untagged_item_ids: Vec<String>,
}
