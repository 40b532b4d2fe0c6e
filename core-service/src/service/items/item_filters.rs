//! The listing's filters beyond type and parent (beyond the spec): a region of the map, text
//! contained, and changed since a time. (A tag carried is the database's filter:
//! `storage::ItemFilter::tag`.) They are tested on the items as readers see them (after
//! `present`: a connector's box follows the items its ends are attached to), in Rust, so both
//! backends filter alike.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::error::{CoreError, CoreResult};
use crate::storage::ItemRow;
use canvas_items::connector::Frame;
use canvas_items::ItemType;

/// A rectangle of the map (top-left corner, width, height).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Region {
    /// A region with finite numbers and a size that is not negative.
    pub fn new(x: f64, y: f64, width: f64, height: f64) -> CoreResult<Region> {
        if ![x, y, width, height].iter().all(|n| n.is_finite()) {
            return Err(CoreError::invalid("region", "x, y, width and height must be finite numbers"));
        }
        if width < 0.0 || height < 0.0 {
            return Err(CoreError::invalid("region", "width and height must be >= 0"));
        }
        Ok(Region { x, y, width, height })
    }

    /// Whether the box (inclusive edges) meets this region.
    fn meets(&self, left: f64, top: f64, right: f64, bottom: f64) -> bool {
        left <= self.x + self.width && right >= self.x && top <= self.y + self.height && bottom >= self.y
    }
}

/// The filters tested in Rust; an item passes when it passes every one given.
#[derive(Debug, Clone, Default)]
pub struct ItemMatch {
    pub region: Option<Region>,
    /// Lower-cased text to find.
    pub text: Option<String>,
    pub changed_since: Option<DateTime<Utc>>,
}

impl ItemMatch {
    /// `text` is trimmed; an empty one filters nothing.
    pub fn new(region: Option<Region>, text: Option<&str>, changed_since: Option<DateTime<Utc>>) -> ItemMatch {
        let text = text.map(str::trim).filter(|t| !t.is_empty()).map(str::to_lowercase);
        ItemMatch { region, text, changed_since }
    }

    /// Whether any filter is set (otherwise the database's page is the answer).
    pub fn is_active(&self) -> bool {
        self.region.is_some() || self.text.is_some() || self.changed_since.is_some()
    }

    pub fn matches(&self, row: &ItemRow) -> bool {
        if self.changed_since.is_some_and(|since| row.updated_at < since) {
            return false;
        }
        let Some(props) = row.properties.as_object() else { return false };
        if let Some(region) = &self.region {
            let frame = Frame::of(props);
            let (half_w, half_h) = frame.turned_half_extents();
            if !region.meets(frame.cx - half_w, frame.cy - half_h, frame.cx + half_w, frame.cy + half_h) {
                return false;
            }
        }
        if let Some(wanted) = &self.text {
            let Some(text) = searchable_text(row.item_type, props) else { return false };
            if !text.to_lowercase().contains(wanted.as_str()) {
                return false;
            }
        }
        true
    }
}

/// The text a `text` filter searches: a label's or sticky note's text (HTML reduced to text), a
/// web item's url, a file's name, a frame's title. Shapes and connectors hold none.
fn searchable_text(item_type: ItemType, props: &serde_json::Map<String, Value>) -> Option<String> {
    let get = |name: &str| props.get(name).and_then(Value::as_str);
    match item_type {
        ItemType::Label | ItemType::StickyNote => get("text").map(canvas_html::to_text),
        ItemType::Web => get("url").map(str::to_owned),
        ItemType::Image | ItemType::Document | ItemType::Svg => get("fileName").map(str::to_owned),
        ItemType::Frame => get("title").map(str::to_owned),
        ItemType::Shape | ItemType::Connector => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{ItemId, ProjectId, UserId};
    use serde_json::json;

    fn row(item_type: &str, props: Value) -> ItemRow {
        ItemRow {
            id: ItemId::from_uuid(uuid::Uuid::nil()),
            project_id: ProjectId::from_uuid(uuid::Uuid::nil()),
            item_type: ItemType::parse(item_type).unwrap(),
            parent: canvas_items::Parent::Panel,
            properties: props,
            version: 1,
            created_by: UserId::from_uuid(uuid::Uuid::nil()),
            updated_by: UserId::from_uuid(uuid::Uuid::nil()),
            created_at: Utc::now(),
            updated_at: Utc::now(),
            content_key: None,
        }
    }

    #[test]
    fn a_region_meets_boxes_that_touch_or_overlap_it_and_no_others() {
        let region = Region::new(0.0, 0.0, 100.0, 100.0).unwrap();
        let only = ItemMatch::new(Some(region), None, None);
        let note = |x: f64, y: f64| {
            row("sticky-note", json!({"position": {"x": x, "y": y}, "size": {"width": 20, "height": 20}}))
        };
        assert!(only.matches(&note(50.0, 50.0)), "inside");
        assert!(only.matches(&note(-9.0, 50.0)), "overlapping the left edge");
        assert!(only.matches(&note(110.0, 50.0)), "touching the right edge");
        assert!(!only.matches(&note(111.0, 50.0)), "beyond it");
        assert!(Region::new(0.0, 0.0, -1.0, 5.0).is_err());
        assert!(Region::new(f64::NAN, 0.0, 1.0, 5.0).is_err());
    }

    #[test]
    fn text_is_found_in_the_text_without_markup_ignoring_case() {
        let find = |wanted: &str| ItemMatch::new(None, Some(wanted), None);
        let label = row("label", json!({"text": "<p>Hello <b>Wörld</b></p>"}));
        assert!(find("hello wÖrld").matches(&label));
        assert!(!find("<b>").matches(&label), "markup is not text");
        assert!(find("example.org").matches(&row("web", json!({"url": "https://example.org/"}))));
        assert!(!find("x").matches(&row("shape", json!({}))));
        assert!(find("   ").matches(&row("shape", json!({}))), "an empty filter filters nothing");
    }
}
