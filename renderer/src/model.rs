//! Items as core-service presents them (the REST item JSON: `itemId`,
//! `itemType`, `parent` and every property at the top level), read into what
//! the drawing needs: the kind and the frame the item is drawn in.
//!
//! Where an item is drawn is [`crate::geometry`]'s; a label's fitted box is [`crate::text`]'s.

use serde_json::{Map, Value};

use crate::geometry::connector_frame;
pub use crate::geometry::{base_frame, number, Frame, Rect};
pub use canvas_vocabulary::items::ItemType;

/// One item, ready to draw.
#[derive(Debug, Clone)]
pub struct Item<'a> {
    pub id: &'a str,
    pub kind: ItemType,
    pub props: &'a Map<String, Value>,
    pub frame: Frame,
}

impl<'a> Item<'a> {
    /// Reads one item of the listing. None for what is not on the canvas:
    /// unknown types and items in the project inbox.
    pub fn read(value: &'a Value) -> Option<Item<'a>> {
        let props = value.as_object()?;
        let id = props.get("itemId").and_then(Value::as_str)?;
        let kind = ItemType::named(props.get("itemType").and_then(Value::as_str)?)?;
        if props.get("parent").and_then(Value::as_str) == Some("inbox") {
            return None;
        }
        let frame = match kind {
            ItemType::Connector => connector_frame(props),
            ItemType::Label | ItemType::StickyNote => crate::text::label_frame(props),
            _ => base_frame(props, number(props, "size", "width"), number(props, "size", "height")),
        };
        Some(Item { id, kind, props, frame })
    }

    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.props.get(key).and_then(Value::as_str)
    }

    pub fn f64(&self, key: &str) -> Option<f64> {
        self.props.get(key).and_then(Value::as_f64).filter(|n| n.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inbox_items_and_unknown_types_are_not_drawn() {
        let inbox = serde_json::json!({"itemId": "a", "itemType": "label", "parent": "inbox", "text": "x"});
        assert!(Item::read(&inbox).is_none());
        let unknown = serde_json::json!({"itemId": "a", "itemType": "widget", "parent": "panel"});
        assert!(Item::read(&unknown).is_none());
    }
}
