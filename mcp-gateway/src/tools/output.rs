//! The shapes tools answer with, shared by several tools, and their
//! conversion from core-service messages. Every item and project carries its
//! link so an agent can hand the user a place to look.

use canvas_proto::json::from_proto_struct;
use canvas_proto::v1 as pb;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::state::McpState;

/// An item with every property (defaults included).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ItemOut {
    /// The item's id (GUID).
    pub item_id: String,
    /// The project the item belongs to.
    pub project_id: String,
    /// label, sticky-note, shape, connector, web, image, document or svg.
    pub item_type: String,
    /// "panel" (on the canvas), "inbox", or the id of the containing item.
    pub parent: String,
    /// Every property of the item with its camelCase name, as in the
    /// interface spec's tables.
    pub properties: Map<String, Value>,
    /// When the item was created (RFC 3339).
    pub created_at: String,
    /// When the item last changed (RFC 3339).
    pub updated_at: String,
    /// Grows by one with every change: pass it as expectedVersion to a write tool to change the
    /// item only if nobody changed it since.
    pub version: i64,
    /// Where a user sees the item: {web_url}/map/{projectId}?node={itemId}.
    pub link: String,
}

impl ItemOut {
    pub fn from_proto(state: &McpState, item: pb::Item) -> Self {
        Self {
            link: state.item_link(&item.project_id, &item.item_id),
            properties: item.properties.map(from_proto_struct).unwrap_or_default(),
            created_at: rfc3339(item.created_at),
            version: item.version,
            updated_at: rfc3339(item.updated_at),
            item_id: item.item_id,
            project_id: item.project_id,
            item_type: item.item_type,
            parent: item.parent,
        }
    }
}

/// What a tool that creates an item answers.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedOut {
    /// The new item's id; pass it as itemId to the other tools.
    pub item_id: String,
    /// The project it was created in.
    pub project_id: String,
    /// Its type.
    pub item_type: String,
    /// Where a user sees it: {web_url}/map/{projectId}?node={itemId}.
    pub link: String,
}

impl CreatedOut {
    pub fn new(state: &McpState, project_id: &str, item_id: String, item_type: &str) -> Self {
        Self {
            link: state.item_link(project_id, &item_id),
            item_id,
            project_id: project_id.to_owned(),
            item_type: item_type.to_owned(),
        }
    }
}

/// What a tool that changes an item answers.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdatedOut {
    /// The changed item's id.
    pub item_id: String,
    /// Its project.
    pub project_id: String,
    /// Its type.
    pub item_type: String,
    /// The properties sent to core-service, as they were accepted.
    pub changed: Map<String, Value>,
    /// The item's version after the change (pass it as expectedVersion to change only this one).
    pub version: i64,
    /// Where a user sees it: {web_url}/map/{projectId}?node={itemId}.
    pub link: String,
}

/// An `{x, y}` position on the map.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Horizontal position in map units.
    pub x: f64,
    /// Vertical position in map units (grows downwards).
    pub y: f64,
}

/// A `{width, height}` size.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Size {
    /// Width in map units.
    pub width: f64,
    /// Height in map units.
    pub height: f64,
}

/// The JSON value of an argument struct, for building a property patch.
pub fn json_of<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// A protobuf timestamp as RFC 3339 with milliseconds, UTC.
pub fn rfc3339(ts: Option<prost_types::Timestamp>) -> String {
    ts.and_then(|t| chrono::DateTime::from_timestamp(t.seconds, t.nanos.max(0) as u32))
        .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

/// The role names of the interface spec.
pub fn role_name(role: i32) -> &'static str {
    match pb::ProjectRole::try_from(role) {
        Ok(pb::ProjectRole::Viewer) => "Viewer",
        Ok(pb::ProjectRole::Editor) => "Editor",
        Ok(pb::ProjectRole::Manager) => "Manager",
        Ok(pb::ProjectRole::Admin) => "Admin",
        _ => "Unknown",
    }
}
