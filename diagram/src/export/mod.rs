//! The way back: canvas items, as the map holds them now, written as Mermaid. This module is
//! what the writers share; each writer lives with its kind (`flowchart/export.rs`,
//! `sequence/export.rs`, `mindmap/export.rs`).
//!
//! [`crate::export_flowchart`] writes any part of a map as a flowchart; [`crate::export_sequence`]
//! and [`crate::export_mindmap`] read back a sequence diagram or mind map that this crate drew (see
//! [`crate::to_items`]), with whatever people changed since: texts edited, items deleted,
//! connectors added. The input is the items as the REST API presents them ([`MapItem`],
//! [`MapItem::from_rest`]); `names` maps item ids to the Mermaid ids a diagram record keeps, so a
//! diagram read back keeps the ids of its source.
//!
//! Every function returns Mermaid that [`crate::parse`] reads, whatever the items hold: texts are
//! escaped ([`text`]), ids are Mermaid-safe and unique ([`ids`]), parents that loop or point
//! nowhere are read as the panel, connectors to missing items are left out. Nothing panics.
//!
//! - `mod.rs`: [`MapItem`] and [`Map`], the items indexed by id with their children and geometry.
//! - `text.rs`: label text (plain or HTML) to a Mermaid string. `ids.rs`: Mermaid ids.

pub(crate) mod ids;
pub(crate) mod text;

use canvas_vocabulary::items::ItemType;
use std::collections::{BTreeMap, HashMap};

use serde_json::{Map as JsonMap, Value};

/// One item of the map as the exporter reads it: what the REST API answers for an item.
#[derive(Debug, Clone, PartialEq)]
pub struct MapItem {
    /// The item id.
    pub id: String,
    /// `shape`, `label`, `sticky-note`, `connector`, `web`, `image`, `document` or `svg`.
    pub item_type: String,
    /// The container item's id; None for the panel.
    pub parent: Option<String>,
    /// The item's properties, camelCase, as the REST API answers them.
    pub properties: Value,
}

impl MapItem {
    /// Reads one item of the REST JSON (`itemId`, `itemType`, `parent`, every property at the top
    /// level, camelCase). None when it is not an object or has no `itemId`/`itemType`.
    pub fn from_rest(item: &Value) -> Option<MapItem> {
        let object = item.as_object()?;
        let id = object.get("itemId")?.as_str()?.to_owned();
        let item_type = object.get("itemType")?.as_str()?.to_owned();
        let parent = object.get("parent").and_then(Value::as_str).map(str::to_owned);
        let properties: JsonMap<String, Value> = object
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "itemId" | "itemType" | "parent"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Some(MapItem { id, item_type, parent, properties: Value::Object(properties) })
    }
}

/// An axis-aligned box in map units: centre and half extents.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Bounds {
    pub cx: f64,
    pub cy: f64,
    pub half_w: f64,
    pub half_h: f64,
}

impl Bounds {
    pub fn top(&self) -> f64 {
        self.cy - self.half_h
    }
    pub fn left(&self) -> f64 {
        self.cx - self.half_w
    }
    pub fn right(&self) -> f64 {
        self.cx + self.half_w
    }
}

/// The items indexed: by id, their effective parent (None when the parent is missing or the
/// chain of parents loops) and their children in input order.
pub(crate) struct Map<'a> {
    pub items: Vec<&'a MapItem>,
    index: HashMap<&'a str, usize>,
    parent: Vec<Option<usize>>,
    children: Vec<Vec<usize>>,
}

/// The panel and the inbox are not container items.
fn container_id(parent: &Option<String>) -> Option<&str> {
    let raw = parent.as_deref()?.trim();
    (!raw.is_empty() && !raw.eq_ignore_ascii_case("panel") && !raw.eq_ignore_ascii_case("inbox")).then_some(raw)
}

impl<'a> Map<'a> {
    /// Indexes `items`; a repeated id keeps its first item (ids are unique on a real map).
    pub fn new(items: &'a [MapItem]) -> Map<'a> {
        let mut index = HashMap::new();
        let mut kept = Vec::new();
        for item in items {
            if !index.contains_key(item.id.as_str()) {
                index.insert(item.id.as_str(), kept.len());
                kept.push(item);
            }
        }
        let direct: Vec<Option<usize>> =
            kept.iter().map(|i| container_id(&i.parent).and_then(|p| index.get(p).copied())).collect();
        // A parent counts only when following parents from it never comes back: a loop of parents
        // (which the service never stores, but a hand-made list may hold) is read as the panel.
        let parent: Vec<Option<usize>> = (0..kept.len())
            .map(|i| {
                let mut at = direct[i];
                for _ in 0..=kept.len() {
                    match at {
                        None => return direct[i],
                        Some(p) if p == i => return None,
                        Some(p) => at = direct[p],
                    }
                }
                None
            })
            .collect();
        let mut children = vec![Vec::new(); kept.len()];
        for (i, p) in parent.iter().enumerate() {
            if let Some(p) = p {
                children[*p].push(i);
            }
        }
        Map { items: kept, index, parent, children }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn find(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    /// The item's type; `None` for a name that is no type (such an item is skipped).
    pub fn kind(&self, i: usize) -> Option<ItemType> {
        ItemType::named(&self.items[i].item_type)
    }

    pub fn parent(&self, i: usize) -> Option<usize> {
        self.parent[i]
    }

    pub fn children(&self, i: usize) -> &[usize] {
        &self.children[i]
    }

    pub fn props(&self, i: usize) -> &Value {
        &self.items[i].properties
    }

    /// A string property, or "".
    pub fn str_prop(&self, i: usize, name: &str) -> &str {
        self.props(i).get(name).and_then(Value::as_str).unwrap_or("")
    }

    /// The first label child's text: a node's text, a container's title, a link's text.
    pub fn label_of(&self, i: usize) -> Option<&str> {
        self.children(i).iter().find(|&&c| self.kind(c) == Some(ItemType::Label)).map(|&c| self.str_prop(c, "text"))
    }

    /// The box the item is drawn in (its turn ignored), from `position` (the centre), `size`
    /// and `scale`; numbers that are missing or not finite count as 0 (scale 1).
    pub fn bounds(&self, i: usize) -> Bounds {
        let p = self.props(i);
        let (cx, cy) = point(p.get("position"));
        let scale = finite(p.get("scale")).filter(|s| *s > 0.0).unwrap_or(1.0);
        let size = |axis: &str| finite(p.get("size").and_then(|s| s.get(axis))).unwrap_or(0.0).abs() * scale;
        Bounds { cx, cy, half_w: size("width") / 2.0, half_h: size("height") / 2.0 }
    }

    /// The item a connector end is attached to, when it is on this list.
    pub fn attached(&self, i: usize, end: &str) -> Option<usize> {
        let id = self.props(i).get(end)?.get("itemId")?.as_str()?;
        self.find(id)
    }

    /// Where a connector end is drawn: the service's `absolutePosition` when present, else the
    /// attached item's centre moved by the end's offset, else the end's own position.
    pub fn end_point(&self, i: usize, end: &str) -> (f64, f64) {
        let Some(e) = self.props(i).get(end) else { return (0.0, 0.0) };
        if e.get("absolutePosition").is_some_and(Value::is_object) {
            return point(e.get("absolutePosition"));
        }
        let (x, y) = point(e.get("position"));
        match self.attached(i, end) {
            Some(item) => {
                let b = self.bounds(item);
                (b.cx + x, b.cy + y)
            }
            None => (x, y),
        }
    }

    /// The decorator name of a connector end (the spec's default, `ArrowLine`, when absent).
    pub fn decorator(&self, i: usize, end: &str) -> &str {
        self.props(i).get(end).and_then(|e| e.get("decorator")).and_then(Value::as_str).unwrap_or("ArrowLine")
    }
}

fn finite(value: Option<&Value>) -> Option<f64> {
    value.and_then(Value::as_f64).filter(|v| v.is_finite())
}

fn point(value: Option<&Value>) -> (f64, f64) {
    let at = |axis: &str| finite(value.and_then(|v| v.get(axis))).unwrap_or(0.0);
    (at("x"), at("y"))
}

/// The names a caller gave, for items that are on the list.
pub(crate) fn given_name<'n>(names: &'n BTreeMap<String, String>, id: &str) -> Option<&'n str> {
    names.get(id).map(String::as_str)
}
