//! Which items may hold others: the spec's "container item (a group)", decided here once.
//!
//! - A **shape** holds any item: it is the box a group is drawn in (a Mermaid subgraph, a class
//!   box with its caption label, a note inside a composite state), the only item the spec's types
//!   offer as a group.
//! - A **frame** (beyond the spec) holds any item but a frame: a part of the map with what is on
//!   it. Nothing holds a frame (frames are never nested, as Miro's), so a frame's parent is the
//!   canvas or the inbox, and a shape holds anything but a frame.
//! - A **connector** holds labels only: its captions (a Mermaid edge label is a label inside the
//!   connector it names, so it moves and goes with its line).
//! - Nothing else holds anything: a label, sticky note, web link, image, document or svg inside
//!   another item would be drawn nowhere the person put it.
//!
//! core-service refuses every other parent with a 400 naming `parent` (text: [`refusal`]), and
//! deleting a container deletes what it holds (docs/DECISIONS.md, "Containers"). The OpenAPI
//! document and the MCP tool descriptions quote [`RULE`].

use super::ItemType;

/// The rule in one sentence, for refusals and the exported descriptions.
pub const RULE: &str = "a parent item must be a frame or a shape (which hold any item but a frame) or a connector \
                        (which holds labels, its captions); a frame's parent is panel or inbox; deleting a container \
                        deletes what it holds";

impl ItemType {
    /// Whether an item of this type may hold an item of type `child`.
    pub const fn holds(self, child: ItemType) -> bool {
        match self {
            Self::Frame | Self::Shape => !matches!(child, Self::Frame),
            Self::Connector => matches!(child, Self::Label),
            _ => false,
        }
    }

    /// Whether this type holds anything at all (deleting one may delete more than itself).
    pub const fn is_container(self) -> bool {
        matches!(self, Self::Frame | Self::Shape | Self::Connector)
    }
}

/// Why `parent` may not hold `child`, in words that name both types and the rule.
pub fn refusal(parent: ItemType, child: ItemType) -> String {
    format!("a {parent} cannot hold a {child}: {RULE}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole table, written out: a change to the rule has to change this test too.
    #[test]
    fn frames_and_shapes_hold_all_but_frames_connectors_hold_labels_nothing_else_holds_anything() {
        for parent in ItemType::ALL {
            for child in ItemType::ALL {
                let expected = (matches!(parent, ItemType::Frame | ItemType::Shape) && child != ItemType::Frame)
                    || (parent == ItemType::Connector && child == ItemType::Label);
                assert_eq!(parent.holds(child), expected, "{parent} holding {child}");
            }
            assert_eq!(parent.is_container(), ItemType::ALL.iter().any(|c| parent.holds(*c)), "{parent}");
        }
    }

    #[test]
    fn the_refusal_names_both_types_and_the_rule() {
        let text = refusal(ItemType::Label, ItemType::StickyNote);
        assert!(
            text.starts_with("a label cannot hold a sticky-note: a parent item must be a frame or a shape"),
            "{text}"
        );
    }
}
