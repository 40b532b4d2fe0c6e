//! The body of `POST .../presence`: what one open map says about itself, deserialised by this very
//! type (`crate::map::presence` relays it to core-service, which checks it).

use serde::Deserialize;
use utoipa::ToSchema;

/// `POST .../presence`: what one open map says about itself.
#[derive(Deserialize, ToSchema)]
#[serde(
    rename_all = "camelCase",
    deny_unknown_fields,
    expecting = "a presence {clientId, cursor, selection, leaving, viewport, summon}"
)]
pub struct PresenceAnnouncement {
    /// The open map's own id, kept while it is open: 1 to 64 characters of `A-Z a-z 0-9 _ -`.
    #[schema(min_length = 1, max_length = 64, pattern = "^[A-Za-z0-9_-]{1,64}$")]
    pub client_id: String,
    /// Where the pointer is on the map; `null` or absent when it is off the map.
    #[serde(default)]
    pub cursor: Option<PresenceCursor>,
    /// The selected items (at most 200).
    #[serde(default)]
    #[schema(max_items = 200)]
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
    /// Above 0, at most 10,000,000.
    #[schema(exclusive_minimum = 0, maximum = 10_000_000)]
    pub width: f64,
    /// Above 0, at most 10,000,000.
    #[schema(exclusive_minimum = 0, maximum = 10_000_000)]
    pub height: f64,
}

/// A point of the map.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, expecting = "a point {x, y}")]
pub struct PresenceCursor {
    pub x: f64,
    pub y: f64,
}
