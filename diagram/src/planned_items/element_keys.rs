//! Element keys: which Mermaid element each planned item draws, named so that the same element
//! of an edited source gets the same key. A diagram record (core-service) keeps the item ids by
//! `(element, part)`, and an edited source is matched against it by these keys, so they must not
//! depend on item order or layout.
//!
//! - A node is `node:<id>`, a sequence participant `participant:<id>` (its top box; the bottom
//!   box and the lifeline keep their layout key, which follows the participant's order).
//! - A subgraph is `subgraph:<id>`.
//! - An edge between two boxes is `edge:<from>-><to>#<n>`, `<from>`/`<to>` the Mermaid ids of its
//!   ends (a subgraph end `subgraph:<id>`) and `n` its rank among the edges between the same two
//!   ends, in source order: adding an edge elsewhere never renames it.
//! - Anything else (sequence messages, notes and frames, mind map nodes without an id) keeps its
//!   layout key, which counts in source order.
//!
//! The part says which item of the element it is: `shape` (or `note` for a sticky note), `label`
//! (a node's text, an edge's text), `title` (a container's title) or `connector`.

use std::collections::HashMap;

use super::reference;
use crate::scene::{BoxRole, Owner, Scene};

/// Fills in the element and part of the items planned for `scene`, given as (reference, element,
/// part) in plan order and matched by their reference (the scene key). `(element, part)` is unique
/// within the plan: a repeat (a Mermaid id written twice in a mind map) gets `~2`, `~3`… in order.
pub(crate) fn assign<'a>(scene: &Scene, items: impl Iterator<Item = (&'a str, &'a mut String, &'a mut &'static str)>) {
    let boxes: Vec<String> = (0..scene.boxes.len()).map(|b| box_element(scene, b)).collect();
    let mut lines: Vec<String> = Vec::with_capacity(scene.lines.len());
    let mut parallel: HashMap<(String, String), usize> = HashMap::new();
    for line in &scene.lines {
        let ends = (line.start.attach, line.end.attach);
        let element = match ends {
            (Some(a), Some(b)) if line.key.starts_with("edge:") => {
                let (from, to) = (end_name(scene, &boxes, a), end_name(scene, &boxes, b));
                let n = parallel.entry((from.clone(), to.clone())).or_default();
                *n += 1;
                format!("edge:{from}->{to}#{}", *n - 1)
            }
            _ => line.key.clone(),
        };
        lines.push(element);
    }
    // Keyed by the batch reference `planned_items/mod.rs` made of each scene key.
    let mut by_reference: HashMap<String, (String, &'static str)> = HashMap::new();
    let labels: Vec<String> = scene.boxes.iter().map(|b| format!("label:{}", b.key)).collect();
    for (b, scene_box) in scene.boxes.iter().enumerate() {
        let part = if scene_box.role == BoxRole::Note { "note" } else { "shape" };
        by_reference.insert(reference(&scene_box.key), (boxes[b].clone(), part));
        by_reference.insert(reference(&labels[b]), (boxes[b].clone(), "label"));
    }
    for (l, line) in scene.lines.iter().enumerate() {
        by_reference.insert(reference(&line.key), (lines[l].clone(), "connector"));
    }
    for text in &scene.texts {
        let owned = match text.owner {
            Owner::Box(b) => (boxes[b].clone(), "title"),
            Owner::Line(l) => (lines[l].clone(), "label"),
            Owner::Free => (text.key.clone(), "label"),
        };
        by_reference.insert(reference(&text.key), owned);
    }
    let mut seen: HashMap<(String, &'static str), usize> = HashMap::new();
    for (reference, item_element, item_part) in items {
        let (element, part) = by_reference.get(reference).cloned().unwrap_or_else(|| (reference.to_owned(), "shape"));
        let count = seen.entry((element.clone(), part)).or_default();
        *count += 1;
        *item_element = if *count == 1 { element } else { format!("{element}~{count}") };
        *item_part = part;
    }
}

/// The element of box `b`: by its Mermaid id where it has one.
fn box_element(scene: &Scene, b: usize) -> String {
    let scene_box = &scene.boxes[b];
    match (&scene_box.node_id, scene_box.role) {
        (Some(id), BoxRole::Participant) => format!("participant:{id}"),
        (Some(id), _) => format!("node:{id}"),
        (None, BoxRole::Container) => match scene_box.key.strip_prefix("sg:") {
            Some(id) => format!("subgraph:{id}"),
            None => scene_box.key.clone(),
        },
        (None, _) => scene_box.key.clone(),
    }
}

/// How an edge names one of its ends: the node's Mermaid id, else the box's element.
fn end_name(scene: &Scene, boxes: &[String], b: usize) -> String {
    scene.boxes[b].node_id.clone().unwrap_or_else(|| boxes[b].clone())
}

#[cfg(test)]
mod tests {
    use crate::{layout, parse, to_items, PlannedItem};

    fn plan(source: &str) -> Vec<PlannedItem> {
        to_items(&layout(&parse(source).unwrap()), (0.0, 0.0))
    }

    fn keys(items: &[PlannedItem]) -> Vec<(String, &'static str)> {
        items.iter().map(|i| (i.element.clone(), i.part)).collect()
    }

    #[test]
    fn nodes_edges_and_subgraphs_are_keyed_by_their_mermaid_ids() {
        let items = plan("graph TD\nsubgraph S [Title]\nA -->|yes| B\nend\nA --> B\nB --> C");
        let keys = keys(&items);
        for wanted in [
            ("node:A", "shape"),
            ("node:A", "label"),
            ("subgraph:S", "shape"),
            ("subgraph:S", "title"),
            ("edge:A->B#0", "connector"),
            ("edge:A->B#0", "label"),
            ("edge:A->B#1", "connector"),
            ("edge:B->C#0", "connector"),
        ] {
            assert!(keys.contains(&(wanted.0.to_owned(), wanted.1)), "{wanted:?} in {keys:?}");
        }
        let mut unique = keys.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "(element, part) is unique");
    }

    #[test]
    fn keys_do_not_move_when_other_parts_of_the_source_change() {
        let before = plan("graph LR\nA --> B\nB --> C\nC --> D");
        let after = plan("graph LR\nX --> A\nA --> B\nB --> D\nC --> D");
        let has = |items: &[PlannedItem], element: &str| items.iter().any(|i| i.element == element);
        for kept in ["node:A", "node:B", "node:C", "node:D", "edge:A->B#0", "edge:C->D#0"] {
            assert!(has(&before, kept) && has(&after, kept), "{kept}");
        }
        assert!(has(&before, "edge:B->C#0") && !has(&after, "edge:B->C#0"));
    }

    #[test]
    fn every_kind_gets_unique_keys() {
        for source in [
            "mindmap\n root\n  a\n  b\n  id1[c]",
            "sequenceDiagram\nparticipant A\nA->>B: x\nNote over A: n\nloop l\nB->>A: y\nend",
        ] {
            let keys = keys(&plan(source));
            assert!(keys.iter().all(|(e, p)| !e.is_empty() && !p.is_empty()), "{keys:?}");
            let mut unique = keys.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), keys.len(), "{source}: {keys:?}");
        }
        assert!(keys(&plan("sequenceDiagram\nA->>B: x")).contains(&("participant:A".into(), "shape")));
        assert!(keys(&plan("mindmap\n root\n  id1[c]")).contains(&("node:id1".into(), "shape")));
    }
}
