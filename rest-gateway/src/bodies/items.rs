//! The one item body the gateway reads itself: a connector PATCH wraps its changes as
//! `{"properties": {...}}` (REST framing), unwrapped by this type (`crate::routes::items::update`);
//! core-service checks the changes. Every other item body is passed on as JSON, and its schema is
//! generated from core-service's property table (`crate::openapi::item_schemas`).

use serde::Deserialize;
use serde_json::{Map, Value};
use utoipa::openapi::Ref;
use utoipa::ToSchema;

/// The item type whose PATCH body wraps the changes as `{"properties": {...}}` (REST framing).
pub const WRAPPED_UPDATE: &str = "connector";

/// The schema of the changes a connector PATCH wraps.
pub const WRAPPED_CHANGES: &str = "ConnectorChanges";

/// A connector PATCH wraps the changes: `{"properties": {...}}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a connector update {\"properties\": {...}}")]
pub struct WrappedChanges {
    /// The properties to change.
    #[schema(schema_with = wrapped_changes)]
    pub properties: Map<String, Value>,
    /// Moves the connector (beyond the spec): `panel`, `inbox` or a frame's or shape's id.
    #[serde(default)]
    pub parent: Option<String>,
}

fn wrapped_changes() -> Ref {
    Ref::from_schema_name(WRAPPED_CHANGES)
}
