//! Where an item lives: on the canvas, in the inbox, or inside a container item. Beside the ids,
//! since a parent is one of them or a word of the vocabulary; every crate that names items
//! depends on this one. (The item types are `canvas_vocabulary::items::ItemType`; which types may
//! hold others is `canvas_vocabulary::items::containers`.)

use std::fmt;

use canvas_vocabulary::items::{INBOX, PANEL};

use crate::{Invalid, ItemId};

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

/// Stored text back into a parent (the `parent` column): a value that is no parent is a decoding
/// error in core-service's storage.
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
