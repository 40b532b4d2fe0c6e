//! The item property table: for each item type, its properties with their kind, flags, default and
//! bounds. This is data: core-service's property engine (`core-service/src/items`) applies it and
//! owns every rule that ties properties together; the gateways export it (OpenAPI bodies, MCP tool
//! schemas and descriptions, through [`crate::json_schema`]) and hold no copy of their own.

use serde_json::Value;

pub mod containers;
mod tables;
mod types;

pub use tables::*;
pub use types::{ItemType, UnknownItemType};

/// The parent of an item on the canvas (also what an omitted parent means).
pub const PANEL: &str = "panel";
/// The parent of an item in the project inbox, off the canvas.
pub const INBOX: &str = "inbox";

/// Smallest item size per dimension (the spec's "minimum size"; a label's auto-sized dimension,
/// which is 0, excepted).
pub const MIN_SIZE: f64 = 5.0;

/// Longest file name, in characters (the spec's image `fileName` limit, used for every file).
pub const FILE_NAME_MAX_CHARS: usize = 128;

/// What a property holds and the rule for its value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// `{x, y}`, finite numbers.
    Point,
    /// `{width, height}`, finite numbers, each at least [`MIN_SIZE`] (core-service checks the
    /// minimum in the type's rules, after defaults and patches are merged).
    Size,
    /// A label's size: like [`Kind::Size`], but either dimension may be omitted, because an
    /// auto-sized dimension "must be 0 or omitted" (the label rules fill it in and check the rest).
    AutoSize,
    /// A finite number `> min` (exclusive).
    NumberAbove(f64),
    /// A finite number `>= min`.
    NumberAtLeast(f64),
    /// A finite number within `[min, max]`.
    NumberBetween(f64, f64),
    /// `true` or `false`.
    Bool,
    /// A non-empty string that is plain text or valid HTML without active content.
    RichText,
    /// A non-empty string with at most `max` characters.
    Name(usize),
    /// Any CSS colour (`red`, `rgb(…)`, `#abc`, `hsl(…)`, …).
    CssColor,
    /// One of the listed words, matched case-insensitively and stored in the listed spelling.
    OneOf(&'static [&'static str]),
    /// `#RRGGBB`, `#AARRGGBB` (alpha first) or `#RGB`; nothing else.
    HexColor,
    /// An array of finite numbers, each `>= 0`.
    NonNegativeList,
    /// An array of `{x, y}` points.
    PointList,
    /// An absolute `http` or `https` URL with a host.
    WebUrl,
    /// A file name: 1 to [`FILE_NAME_MAX_CHARS`] characters, no `/`, `\` or control characters.
    FileName,
    /// A whole number of bytes, `>= 0`.
    ByteCount,
    /// A connector end: the members of [`CONNECTOR_POINT`].
    ConnectorPoint,
    /// The id (GUID) of another item of the project, or `null`.
    ItemId,
    /// The ids (GUIDs) of tags of the project, each at most once, at most
    /// [`crate::limits::tags::MAX_PER_ITEM`] of them.
    TagIds,
}

/// One property of an item type.
#[derive(Debug, Clone, Copy)]
pub struct PropertyDef {
    /// Canonical camelCase name, as the spec writes it (clients may use any casing).
    pub name: &'static str,
    /// The value's shape and rule.
    pub kind: Kind,
    /// Must be present on create.
    pub required: bool,
    /// May be changed by an update.
    pub updatable: bool,
    /// Accepted on writes and dropped: the value is derived on read (a connector's geometry comes
    /// from its ends). `kind` then describes the value as read.
    pub ignored: bool,
    /// JSON text of the default, filled on create when the property is omitted (and by an update
    /// that sends `null`); None leaves it absent.
    pub default: Option<&'static str>,
    /// What a client should know beyond the kind's rule, for generated documentation; empty if
    /// nothing.
    pub note: &'static str,
}

impl PropertyDef {
    pub const fn new(name: &'static str, kind: Kind) -> Self {
        Self { name, kind, required: false, updatable: true, ignored: false, default: None, note: "" }
    }

    pub const fn required(mut self) -> Self {
        self.required = true;
        self
    }

    /// Cannot change after creation.
    pub const fn fixed(mut self) -> Self {
        self.updatable = false;
        self
    }

    /// Accepted and dropped on writes; derived on read.
    pub const fn ignored(mut self) -> Self {
        self.ignored = true;
        self
    }

    pub const fn default(mut self, json: &'static str) -> Self {
        self.default = Some(json);
        self
    }

    pub const fn note(mut self, note: &'static str) -> Self {
        self.note = note;
        self
    }

    /// The default as a JSON value (every default is valid JSON: the crate's tests parse them all).
    pub fn default_value(&self) -> Option<Value> {
        self.default.map(|text| serde_json::from_str(text).expect("property defaults are valid JSON"))
    }
}

/// How items of a type come into being.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Creation {
    /// From JSON properties only.
    Json,
    /// From JSON properties, or from an uploaded file with optional properties.
    JsonOrUpload,
    /// Only from an uploaded file (documents and SVGs).
    UploadOnly,
}

impl Creation {
    pub fn from_json(self) -> bool {
        self != Self::UploadOnly
    }

    pub fn from_upload(self) -> bool {
        self != Self::Json
    }
}

/// One item type: its name in paths and answers, its properties and how it is created.
#[derive(Debug, Clone, Copy)]
pub struct ItemTypeDef {
    /// The `itemType` of paths and answers (matched case-insensitively).
    pub name: &'static str,
    /// Its property table.
    pub properties: &'static [PropertyDef],
    /// JSON create, upload, or both.
    pub creation: Creation,
}

/// The eight item types of the spec, in its order, then the frame (beyond the spec).
pub const ITEM_TYPES: [ItemTypeDef; 9] = [
    ItemTypeDef { name: ItemType::Label.as_str(), properties: LABEL, creation: Creation::Json },
    ItemTypeDef { name: ItemType::StickyNote.as_str(), properties: STICKY_NOTE, creation: Creation::Json },
    ItemTypeDef { name: ItemType::Shape.as_str(), properties: SHAPE, creation: Creation::Json },
    ItemTypeDef { name: ItemType::Connector.as_str(), properties: CONNECTOR, creation: Creation::Json },
    ItemTypeDef { name: ItemType::Web.as_str(), properties: WEB, creation: Creation::Json },
    ItemTypeDef { name: ItemType::Image.as_str(), properties: IMAGE, creation: Creation::JsonOrUpload },
    ItemTypeDef { name: ItemType::Document.as_str(), properties: DOCUMENT, creation: Creation::UploadOnly },
    ItemTypeDef { name: ItemType::Svg.as_str(), properties: SVG, creation: Creation::UploadOnly },
    ItemTypeDef { name: ItemType::Frame.as_str(), properties: FRAME, creation: Creation::Json },
];

/// The item type named `name` exactly (the canonical spelling).
pub fn item_type(name: &str) -> Option<&'static ItemTypeDef> {
    ITEM_TYPES.iter().find(|t| t.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_json_and_names_unique_per_type() {
        for item_type in ITEM_TYPES {
            let mut names: Vec<&str> = item_type.properties.iter().map(|d| d.name).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), item_type.properties.len(), "{}", item_type.name);
            for def in item_type.properties.iter().chain(CONNECTOR_POINT) {
                if let Some(text) = def.default {
                    assert!(serde_json::from_str::<Value>(text).is_ok(), "{}.{}: {text}", item_type.name, def.name);
                }
                assert!(
                    !(def.required && def.default.is_some()),
                    "{}.{} is required with a default",
                    item_type.name,
                    def.name
                );
            }
        }
    }
}
