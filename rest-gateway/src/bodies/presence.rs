//! The body of `POST .../presence`: what one open map says about itself, deserialised by this very
//! type (`crate::map::presence` relays it to core-service, which checks it).

use canvas_vocabulary::limits::presence::{MAX_CLIENT_ID, MAX_SELECTION, MAX_VIEWPORT_EXTENT};
use serde::Deserialize;
use utoipa::openapi::schema::{Array, ArrayBuilder, Object, ObjectBuilder, Type};
use utoipa::ToSchema;

/// `POST .../presence`: what one open map says about itself.
#[derive(Deserialize, ToSchema)]
#[serde(
    rename_all = "camelCase",
    deny_unknown_fields,
    expecting = "a presence {clientId, cursor, selection, leaving, viewport, summon}"
)]
pub struct PresenceAnnouncement {
    /// The open map's own id, kept while it is open (its length and characters: [`client_id`]).
    #[schema(schema_with = client_id)]
    pub client_id: String,
    /// Where the pointer is on the map; `null` or absent when it is off the map.
    #[serde(default)]
    pub cursor: Option<PresenceCursor>,
    /// The selected items.
    #[serde(default)]
    #[schema(schema_with = selection)]
    pub selection: Vec<String>,
    /// The map is being closed: the client leaves at once.
    #[serde(default)]
    pub leaving: bool,
    /// The part of the map it shows, so others can follow its view; `null` or absent when unknown.
    #[serde(default)]
    pub viewport: Option<PresenceViewport>,
    /// "Bring everyone here": every other open map is asked to follow this one's view (needs
    /// `viewport`). Passed on once; a map opened later is not summoned.
    #[serde(default)]
    pub summon: bool,
}

/// A part of the map: its top-left corner and size, in map units.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a viewport {x, y, width, height}")]
pub struct PresenceViewport {
    pub x: f64,
    pub y: f64,
    #[schema(schema_with = extent)]
    pub width: f64,
    #[schema(schema_with = extent)]
    pub height: f64,
}

/// A client id: 1 to [`MAX_CLIENT_ID`] characters of `A-Z a-z 0-9 _ -`.
fn client_id() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_CLIENT_ID))
        .pattern(Some(format!("^[A-Za-z0-9_-]{{1,{MAX_CLIENT_ID}}}$")))
        .description(Some("The open map's own id, kept while it is open."))
        .build()
}

/// A selection: item ids, at most [`MAX_SELECTION`].
fn selection() -> Array {
    ArrayBuilder::new()
        .items(ObjectBuilder::new().schema_type(Type::String))
        .max_items(Some(MAX_SELECTION))
        .description(Some(format!("The selected items (at most {MAX_SELECTION}).")))
        .build()
}

/// A viewport's width or height: above 0, at most [`MAX_VIEWPORT_EXTENT`].
fn extent() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .exclusive_minimum(Some(0.0))
        .maximum(Some(MAX_VIEWPORT_EXTENT))
        .description(Some(format!("Above 0, at most {MAX_VIEWPORT_EXTENT} map units.")))
        .build()
}

/// A point of the map.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a point {x, y}")]
pub struct PresenceCursor {
    pub x: f64,
    pub y: f64,
}
