//! A scene as the canvas items that draw it, in creation order: boxes (a
//! container before what it holds, a shape before its label), then lines,
//! then free texts. Each item's properties are exactly what one REST create
//! takes (the spec's tables: shapes have a `type` and no text, so a node is a
//! shape plus a label with the same box); where an item id belongs, the
//! value is `"ref:<reference>"` of an item earlier in the batch.
//!
//! Connector ends attach to their shapes with `edge: true` and a `position`
//! relative to the shape's centre that points at the port: core-service
//! puts such an end where the ray from the centre through that offset leaves
//! the shape's box, which for a point on the box is the point itself. So the
//! line is drawn exactly where the layout routed it, and still follows the
//! shape when it is moved.

pub mod element_keys;

use canvas_vocabulary::items::ItemType;
use serde_json::{json, Map, Value};

use crate::graph::Head;
use crate::scene::{BoxRole, End, LineKind, Owner, Point, Scene, SceneLine};

/// One item to create.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedItem {
    /// Unique within the batch, e.g. `n:A`, `label:n:A`, `edge:3`, `sg:cluster1`.
    pub reference: String,
    /// `shape`, `label`, `connector` or `sticky-note`.
    pub item_type: &'static str,
    /// None: the panel; Some(reference): a container planned earlier in the batch.
    pub parent: Option<String>,
    /// The JSON a single REST create of this type takes; item ids as `"ref:<reference>"`.
    pub properties: Value,
    /// The Mermaid node or participant id this item stands for (shapes only, not their labels).
    pub node_id: Option<String>,
    /// The Mermaid element this item draws, stable across edits of the source (`node:A`,
    /// `subgraph:S`, `edge:A->B#0`, …; see [`crate::elements`]): what a diagram record remembers.
    pub element: String,
    /// Which part of that element the item is: `shape`, `label`, `title`, `connector` or `note`.
    pub part: &'static str,
}

/// Two decimals: enough for a map, and no `0.30000000000000004` in the JSON.
fn round(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

fn point(p: Point, origin: (f64, f64)) -> Value {
    json!({"x": round(p.0 + origin.0), "y": round(p.1 + origin.1)})
}

fn decorator(head: Head) -> &'static str {
    match head {
        Head::None => "None",
        Head::Arrow => "Arrow",
        Head::Circle => "Circle",
        Head::Open | Head::Cross => "ArrowLine",
    }
}

/// The batch reference of a scene key. Keys are made from Mermaid ids (`n:<id>`), but a bulk
/// `ref` is 1 to 64 ASCII letters, digits, `_`, `-`, `.` and `:` (`valid_ref`), and a batch that
/// breaks that rule is refused as a whole: a key outside the rule keeps its allowed characters
/// (others become `_`, cut to 40) and gains a hash of the whole key, so it stays unique.
pub(crate) fn reference(key: &str) -> String {
    use canvas_vocabulary::limits::bulk::valid_ref;
    if valid_ref(key) {
        return key.to_owned();
    }
    let kept: String = key
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':') { c } else { '_' })
        .take(40)
        .collect();
    // FNV-1a: stable across runs and platforms, unlike the standard library's hasher.
    let hash = key.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{kept}.{hash:016x}")
}

/// The items drawing `scene`, moved by `origin`.
pub fn to_items(scene: &Scene, origin: (f64, f64)) -> Vec<PlannedItem> {
    let mut items = Vec::new();
    let parent_of = |container: Option<usize>| container.map(|c| reference(&scene.boxes[c].key));
    let mut pending: Vec<&SceneLine> =
        scene.lines.iter().filter(|l| l.start.attach.is_some() && l.end.attach.is_some()).collect();
    for (index, b) in scene.boxes.iter().enumerate() {
        // Connectors come as soon as the boxes they attach to exist, so boxes made
        // later (sequence notes over lifelines) are drawn over them.
        let ready = |l: &SceneLine| l.start.attach.max(l.end.attach).is_some_and(|last| last < index);
        items.extend(pending.iter().filter(|l| ready(l)).map(|l| connector(scene, l, origin)));
        pending.retain(|l| !ready(l));
        let centre = point(b.rect.centre(), origin);
        let size = json!({"width": round(b.rect.width), "height": round(b.rect.height)});
        if b.role == BoxRole::Note {
            items.push(PlannedItem {
                reference: reference(&b.key),
                item_type: ItemType::StickyNote.as_str(),
                parent: parent_of(b.container),
                properties: json!({"position": centre, "size": size, "text": b.text, "fontSize": b.font_size}),
                node_id: None,
                element: String::new(),
                part: "",
            });
            continue;
        }
        let mut shape = json!({
            "position": centre,
            "size": size,
            "type": b.shape,
            "fillColor": b.fill,
            "strokeColor": b.stroke,
            "strokeThickness": b.stroke_width,
        });
        if let Some(radius) = b.corner_radius {
            shape["cornerRadius"] = json!(round(radius));
        }
        items.push(PlannedItem {
            reference: reference(&b.key),
            item_type: ItemType::Shape.as_str(),
            parent: parent_of(b.container),
            properties: shape,
            node_id: b.node_id.clone(),
            element: String::new(),
            part: "",
        });
        if !b.text.is_empty() {
            items.push(PlannedItem {
                reference: reference(&format!("label:{}", b.key)),
                item_type: ItemType::Label.as_str(),
                parent: Some(reference(&b.key)),
                properties: label(centre, size, &b.text, b.font_size, &b.text_color, "#00000000", true),
                node_id: None,
                element: String::new(),
                part: "",
            });
        }
    }
    items.extend(pending.iter().map(|l| connector(scene, l, origin)));
    for line in scene.lines.iter().filter(|l| l.start.attach.is_none() || l.end.attach.is_none()) {
        items.push(connector(scene, line, origin));
    }
    for t in &scene.texts {
        let parent = match t.owner {
            Owner::Box(b) => Some(reference(&scene.boxes[b].key)),
            Owner::Line(l) => Some(reference(&scene.lines[l].key)),
            Owner::Free => None,
        };
        let size = json!({"width": round(t.rect.width), "height": round(t.rect.height)});
        let props =
            label(point(t.rect.centre(), origin), size, &t.text, t.font_size, &t.color, &t.background, t.centred);
        items.push(PlannedItem {
            reference: reference(&t.key),
            item_type: ItemType::Label.as_str(),
            parent,
            properties: props,
            node_id: None,
            element: String::new(),
            part: "",
        });
    }
    element_keys::assign(scene, items.iter_mut().map(|i| (i.reference.as_str(), &mut i.element, &mut i.part)));
    items
}

/// The connector item of `line`.
fn connector(scene: &Scene, line: &SceneLine, origin: (f64, f64)) -> PlannedItem {
    let parent_of = |container: Option<usize>| container.map(|c| reference(&scene.boxes[c].key));
    let end = |end: &End| {
        let mut p = Map::new();
        match end.attach {
            Some(b) => {
                let (cx, cy) = scene.boxes[b].rect.centre();
                p.insert("itemId".into(), json!(format!("ref:{}", reference(&scene.boxes[b].key))));
                p.insert("edge".into(), json!(true));
                p.insert("position".into(), json!({"x": round(end.at.0 - cx), "y": round(end.at.1 - cy)}));
            }
            None => {
                p.insert("position".into(), point(end.at, origin));
            }
        }
        p.insert("decorator".into(), json!(decorator(end.head)));
        Value::Object(p)
    };
    let mut props = json!({
        "type": match line.kind { LineKind::Straight => "Straight", LineKind::Angled => "Angled", LineKind::Curved => "Curved" },
        "strokeColor": line.color,
        "strokeThickness": line.thickness,
        "startPoint": end(&line.start),
        "endPoint": end(&line.end),
    });
    if line.kind == LineKind::Angled {
        props["cornerPoints"] = Value::Array(line.corners.iter().map(|&c| point(c, origin)).collect());
    }
    PlannedItem {
        reference: reference(&line.key),
        item_type: ItemType::Connector.as_str(),
        parent: parent_of(line.container),
        properties: props,
        node_id: None,
        element: String::new(),
        part: "",
    }
}

/// A label with a fixed box: auto-size off (so the box is the one laid out), text centred vertically.
fn label(position: Value, size: Value, text: &str, font: f64, color: &str, background: &str, centred: bool) -> Value {
    json!({
        "position": position,
        "size": size,
        "text": text,
        "fontSize": font,
        "textColor": color,
        "backgroundColor": background,
        "isAutoSizeWidth": false,
        "isAutoSizeHeight": false,
        "horizontalTextAlignment": if centred { "Center" } else { "Left" },
        "verticalTextAlignment": "Center",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{layout, parse, planned_count};

    fn items(source: &str) -> Vec<PlannedItem> {
        to_items(&layout(&parse(source).unwrap()), (100.0, 200.0))
    }

    fn find<'a>(items: &'a [PlannedItem], reference: &str) -> &'a PlannedItem {
        items.iter().find(|i| i.reference == reference).unwrap_or_else(|| panic!("no {reference}"))
    }

    #[test]
    fn nodes_are_a_shape_and_a_label_in_the_same_box() {
        let items = items("graph TD\nA([Pill]) --> B");
        let (shape, label) = (find(&items, "n:A"), find(&items, "label:n:A"));
        assert_eq!(shape.properties["type"], "RoundedRectangle");
        let height = shape.properties["size"]["height"].as_f64().unwrap();
        assert_eq!(shape.properties["cornerRadius"].as_f64(), Some(height / 2.0), "a pill");
        assert!(shape.properties.get("text").is_none(), "shapes have no text");
        assert_eq!(
            (label.properties["position"].clone(), label.properties["size"].clone()),
            (shape.properties["position"].clone(), shape.properties["size"].clone())
        );
        assert_eq!(label.properties["isAutoSizeWidth"], false);
        assert_eq!(label.properties["horizontalTextAlignment"], "Center");
        assert_eq!(label.properties["verticalTextAlignment"], "Center");
        // Moved by the origin: the drawing starts at (100, 200).
        let left = shape.properties["position"]["x"].as_f64().unwrap()
            - shape.properties["size"]["width"].as_f64().unwrap() / 2.0;
        assert!(left >= 100.0 - 1e-6, "{left}");
    }

    #[test]
    fn link_styles_become_decorators_and_strokes() {
        let items = items("graph LR\nA --> B\nB --- C\nC <--> D\nD -.-> E\nE ==> F\nF --o G\nG --x H");
        let ends = |i: usize| {
            let p = &find(&items, &format!("edge:{i}")).properties;
            (
                p["startPoint"]["decorator"].as_str().unwrap().to_owned(),
                p["endPoint"]["decorator"].as_str().unwrap().to_owned(),
                p["strokeThickness"].as_f64().unwrap(),
            )
        };
        assert_eq!(ends(0), ("None".into(), "Arrow".into(), 2.0));
        assert_eq!(ends(1), ("None".into(), "None".into(), 2.0));
        assert_eq!(ends(2), ("Arrow".into(), "Arrow".into(), 2.0));
        assert_eq!(ends(3), ("None".into(), "Arrow".into(), 1.0), "dotted: thinner");
        assert_eq!(ends(4), ("None".into(), "Arrow".into(), 4.0), "thick");
        assert_eq!(ends(5).1, "Circle");
        assert_eq!(ends(6).1, "ArrowLine");
        let edge = &find(&items, "edge:0").properties;
        assert_eq!(edge["startPoint"]["itemId"], "ref:n:A");
        assert_eq!(edge["startPoint"]["edge"], true);
    }

    #[test]
    fn edge_texts_and_titles_are_labels_of_their_owner() {
        let items = items("graph TD\nsubgraph S [Title]\nA -->|yes| B\nend");
        assert_eq!(find(&items, "label:edge:0").parent.as_deref(), Some("edge:0"));
        assert_eq!(find(&items, "label:edge:0").properties["text"], "yes");
        assert_eq!(find(&items, "title:sg:S").parent.as_deref(), Some("sg:S"));
        assert_eq!(find(&items, "edge:0").parent.as_deref(), Some("sg:S"));
        let container = &find(&items, "sg:S").properties;
        assert_eq!(container["fillColor"].as_str().map(|c| c.len()), Some(9), "a faint #AARRGGBB fill");
    }

    #[test]
    fn sequence_parts_become_boxes_lifelines_free_messages_and_notes() {
        let items = items("sequenceDiagram\nA->>B: hello\nNote over A,B: a note");
        let life = &find(&items, "life:0").properties;
        assert_eq!(
            (life["startPoint"]["itemId"].as_str(), life["endPoint"]["itemId"].as_str()),
            (Some("ref:p:0"), Some("ref:pb:0"))
        );
        let message = items.iter().find(|i| i.reference.starts_with("msg:")).unwrap();
        assert!(message.properties["startPoint"].get("itemId").is_none(), "messages have free ends");
        assert_eq!(message.properties["endPoint"]["decorator"], "Arrow");
        let note = items.iter().find(|i| i.item_type == "sticky-note").unwrap();
        assert_eq!(note.properties["text"], "a note");
        assert_eq!(find(&items, "p:0").node_id.as_deref(), Some("A"));
        assert_eq!(find(&items, "pb:0").node_id, None);
        // The note comes after the lifelines, so it is drawn over them.
        let at = |r: &str| items.iter().position(|i| i.reference == r).unwrap();
        assert!(at("life:0") < at(&note.reference));
    }

    #[test]
    fn every_key_becomes_a_valid_unique_reference() {
        use canvas_vocabulary::limits::bulk::valid_ref;
        let keys = ["n:A", "sg:Group Chat", "sg:Group_Chat", "n:é", &format!("n:{}", "x".repeat(80))];
        let refs: Vec<String> = keys.iter().map(|k| reference(k)).collect();
        assert_eq!(refs[0], "n:A", "valid keys stay as they are");
        assert!(refs.iter().all(|r| valid_ref(r)), "{refs:?}");
        assert_ne!(refs[1], refs[2]);
        let items = items("graph TD\nsubgraph Group Chat\nA --> B\nend");
        assert!(items.iter().all(|i| valid_ref(&i.reference)), "{items:?}");
    }

    #[test]
    fn counts_are_known_before_the_layout() {
        for source in [
            "graph TD\nA-->B\nA~~~C\nB-->|t|C",
            "mindmap\n r\n  a\n  b",
            "sequenceDiagram\nA->>B: x\nloop l\nB->>A: y\nelse\nA->>A\nend\nrect rgb(1,2,3)\nNote left of A: n\nend",
        ] {
            let diagram = parse(source).unwrap();
            assert_eq!(to_items(&layout(&diagram), (0.0, 0.0)).len(), planned_count(&diagram), "{source}");
        }
    }
}
