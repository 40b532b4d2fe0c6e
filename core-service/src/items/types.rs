//! Item types and parents.

use std::fmt;

use crate::domain::ItemId;
use crate::error::CoreError;

/// The eight item types of the spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ItemType {
    Label,
    StickyNote,
    Shape,
    Connector,
    Web,
    Image,
    Document,
    Svg,
}

impl ItemType {
    pub const ALL: [ItemType; 8] = [
        Self::Label,
        Self::StickyNote,
        Self::Shape,
        Self::Connector,
        Self::Web,
        Self::Image,
        Self::Document,
        Self::Svg,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Label => "label",
            Self::StickyNote => "sticky-note",
            Self::Shape => "shape",
            Self::Connector => "connector",
            Self::Web => "web",
            Self::Image => "image",
            Self::Document => "document",
            Self::Svg => "svg",
        }
    }

    /// Parses the `itemType` of a path, case-insensitively.
    pub fn parse(raw: &str) -> Result<Self, CoreError> {
        Self::ALL.into_iter().find(|t| t.as_str().eq_ignore_ascii_case(raw.trim())).ok_or_else(|| {
            CoreError::invalid(
                "itemType",
                "invalid item type: must be one of label, sticky-note, shape, connector, web, image, document, svg",
            )
        })
    }
}

impl fmt::Display for ItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where an item lives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parent {
    /// On the canvas.
    Panel,
    /// In the project inbox, off the canvas.
    Inbox,
    /// Inside a container item of the same project.
    Item(ItemId),
}

impl Parent {
    pub fn parse(raw: &str) -> Result<Self, CoreError> {
        let raw = raw.trim();
        if raw.is_empty() || raw.eq_ignore_ascii_case("panel") {
            Ok(Self::Panel)
        } else if raw.eq_ignore_ascii_case("inbox") {
            Ok(Self::Inbox)
        } else {
            ItemId::parse(raw).map(Self::Item).map_err(|_| {
                CoreError::invalid("parent", "must be 'panel', 'inbox' or the id of an item of the project")
            })
        }
    }
}

impl fmt::Display for Parent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Panel => f.write_str("panel"),
            Self::Inbox => f.write_str("inbox"),
            Self::Item(id) => id.fmt(f),
        }
    }
}
