//! Item types and parents.

use std::fmt;

use canvas_vocabulary::items::{ItemTypeDef, INBOX, PANEL};

use canvas_domain::Invalid;
use canvas_domain::ItemId;

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

    /// The type's property table and creation, from the shared vocabulary.
    pub fn vocabulary(self) -> &'static ItemTypeDef {
        canvas_vocabulary::items::item_type(self.as_str()).expect("every item type has a vocabulary entry")
    }

    /// Parses the `itemType` of a path, case-insensitively.
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        Self::ALL.into_iter().find(|t| t.as_str().eq_ignore_ascii_case(raw.trim())).ok_or_else(|| {
            Invalid::field(
                "itemType",
                "invalid item type: must be one of label, sticky-note, shape, connector, web, image, document, svg",
            )
        })
    }
}

/// Stored text back into a type: core-service's storage decodes the `item_type` column through
/// this (`#[sqlx(try_from = "String")]`), so a value that is no type is a decoding error there.
impl TryFrom<String> for ItemType {
    type Error = Invalid;

    fn try_from(stored: String) -> Result<Self, Invalid> {
        Self::parse(&stored)
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
    pub fn parse(raw: &str) -> Result<Self, Invalid> {
        let raw = raw.trim();
        if raw.is_empty() || raw.eq_ignore_ascii_case(PANEL) {
            Ok(Self::Panel)
        } else if raw.eq_ignore_ascii_case(INBOX) {
            Ok(Self::Inbox)
        } else {
            ItemId::parse(raw).map(Self::Item).map_err(|_| {
                Invalid::field("parent", format!("must be '{PANEL}', '{INBOX}' or the id of an item of the project"))
            })
        }
    }
}

/// Stored text back into a parent (the `parent` column), as [`ItemType`]'s `TryFrom<String>`.
impl TryFrom<String> for Parent {
    type Error = Invalid;

    fn try_from(stored: String) -> Result<Self, Invalid> {
        Self::parse(&stored)
    }
}

impl fmt::Display for Parent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Panel => f.write_str(PANEL),
            Self::Inbox => f.write_str(INBOX),
            Self::Item(id) => id.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The enum and the vocabulary's list name the same types in the same order, so
    /// [`ItemType::vocabulary`] never fails.
    #[test]
    fn every_type_is_in_the_vocabulary() {
        let names: Vec<&str> = ItemType::ALL.iter().map(|t| t.as_str()).collect();
        let vocabulary: Vec<&str> = canvas_vocabulary::items::ITEM_TYPES.iter().map(|t| t.name).collect();
        assert_eq!(names, vocabulary);
        assert!(ItemType::ALL.iter().all(|t| t.vocabulary().name == t.as_str()));
    }
}
