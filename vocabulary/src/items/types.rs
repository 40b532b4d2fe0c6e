//! The item types: the one place their names are spelt. core-service parses a path's `itemType`
//! here, storage decodes the `item_type` column here, the renderer reads core-service's answers
//! here and canvas-diagram names the items it plans here, so no crate keeps a list of its own.

use std::fmt;

use super::{ItemTypeDef, ITEM_TYPES};

/// The eight item types of the spec, in its order, and the frame beyond it (docs/ITEMS.md
/// "Frames"): the order of [`ITEM_TYPES`].
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
    /// A titled part of the map that holds items and moves them with it (beyond the spec).
    Frame,
}

impl ItemType {
    pub const ALL: [ItemType; 9] = [
        Self::Label,
        Self::StickyNote,
        Self::Shape,
        Self::Connector,
        Self::Web,
        Self::Image,
        Self::Document,
        Self::Svg,
        Self::Frame,
    ];

    /// The `itemType` of paths and answers.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Label => "label",
            Self::StickyNote => "sticky-note",
            Self::Shape => "shape",
            Self::Connector => "connector",
            Self::Web => "web",
            Self::Image => "image",
            Self::Document => "document",
            Self::Svg => "svg",
            Self::Frame => "frame",
        }
    }

    /// The type's property table and creation.
    pub fn vocabulary(self) -> &'static ItemTypeDef {
        &ITEM_TYPES[self as usize]
    }

    /// The type `name` spells exactly as [`ItemType::as_str`] does (core-service's answers).
    pub fn named(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == name)
    }

    /// The type `raw` names, case-insensitively and without surrounding white space (a path's
    /// `itemType`); the refusal names the field and every type.
    pub fn parse(raw: &str) -> Result<Self, UnknownItemType> {
        Self::ALL.into_iter().find(|t| t.as_str().eq_ignore_ascii_case(raw.trim())).ok_or(UnknownItemType)
    }
}

impl fmt::Display for ItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Stored text back into a type: core-service's storage decodes the `item_type` column through
/// this (`#[sqlx(try_from = "String")]`), so a value that is no type is a decoding error there.
impl TryFrom<String> for ItemType {
    type Error = UnknownItemType;

    fn try_from(stored: String) -> Result<Self, UnknownItemType> {
        Self::parse(&stored)
    }
}

/// A text that names no item type. canvas-domain turns it into the refusal of the field
/// [`UnknownItemType::FIELD`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnknownItemType;

impl UnknownItemType {
    /// The request field an item type comes in.
    pub const FIELD: &'static str = "itemType";
}

impl fmt::Display for UnknownItemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid item type: must be one of ")?;
        for (i, item_type) in ItemType::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(item_type.as_str())?;
        }
        Ok(())
    }
}

impl std::error::Error for UnknownItemType {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The enum and the table name the same types in the same order, so [`ItemType::vocabulary`]
    /// is the type's own entry.
    #[test]
    fn every_type_is_its_own_entry_of_the_table() {
        let names: Vec<&str> = ItemType::ALL.iter().map(|t| t.as_str()).collect();
        let table: Vec<&str> = ITEM_TYPES.iter().map(|t| t.name).collect();
        assert_eq!(names, table);
        assert!(ItemType::ALL.iter().all(|t| t.vocabulary().name == t.as_str()));
    }

    #[test]
    fn names_parse_in_any_case_and_others_are_refused_naming_every_type() {
        assert_eq!(ItemType::parse(" Sticky-Note "), Ok(ItemType::StickyNote));
        assert_eq!(ItemType::parse("sticky_note"), Err(UnknownItemType));
        assert_eq!(ItemType::named("sticky-note"), Some(ItemType::StickyNote));
        assert_eq!(ItemType::named("Sticky-Note"), None);
        assert_eq!(
            UnknownItemType.to_string(),
            "invalid item type: must be one of label, sticky-note, shape, connector, web, image, document, svg, frame"
        );
    }
}
