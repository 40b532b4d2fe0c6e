//! A mind map drawn by this crate, read back from its items as they are now.
//!
//! The layout drew each node as a shape with a label child and joined every parent to each child
//! by a connector from the parent to the child. Read back: every shape is a node (its text its
//! first label); every connector attached at both ends to nodes (or their labels) makes its end
//! a child of its start. The tree is taken from there: roots are the nodes nothing points at
//! (then any node left over, for cycles), a node's first parent wins, children keep the map's
//! order. One tree gives its root; several (the root was deleted, a shape was added apart) hang
//! under an added root `((…))`, since a mind map has one root.

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;
use std::fmt::Write;

use crate::export::ids::{Grammar, Ids};
use crate::export::text::{quoted, visible, Place};
use crate::export::{given_name, Map, MapItem};

/// The mind map drawn by canvas-diagram, read back from its items as they are now. `names` maps a
/// node's shape id to its Mermaid id.
pub fn export_mindmap(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let nodes: Vec<usize> = (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Shape)).collect();
    let node_of = |item: usize| -> Option<usize> {
        let item = if map.kind(item) == Some(ItemType::Label) { map.parent(item)? } else { item };
        nodes.iter().position(|&n| n == item)
    };
    let mut out_edges: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut pointed = vec![false; nodes.len()];
    for c in (0..map.len()).filter(|&i| map.kind(i) == Some(ItemType::Connector)) {
        let ends = (map.attached(c, "startPoint").and_then(node_of), map.attached(c, "endPoint").and_then(node_of));
        if let (Some(from), Some(to)) = ends {
            if from != to {
                out_edges[from].push(to);
                pointed[to] = true;
            }
        }
    }
    // Depth-first from each root in turn; a node joins the first tree that reaches it.
    let starts: Vec<usize> = (0..nodes.len()).filter(|&n| !pointed[n]).chain(0..nodes.len()).collect();
    let mut seen = vec![false; nodes.len()];
    let mut trees: Vec<Vec<(usize, usize)>> = Vec::new();
    for start in starts {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut tree = Vec::new();
        let mut stack = vec![(start, 0usize)];
        while let Some((n, depth)) = stack.pop() {
            tree.push((n, depth));
            let fresh: Vec<usize> = out_edges[n].iter().copied().filter(|&c| !seen[c]).collect();
            for &c in &fresh {
                seen[c] = true;
            }
            stack.extend(fresh.iter().rev().map(|&c| (c, depth + 1)));
        }
        trees.push(tree);
    }
    let mut ids = Ids::new(Grammar::Mindmap);
    let id_of: Vec<Option<String>> = nodes.iter().map(|&n| ids.reserve(given_name(names, &map.items[n].id))).collect();
    let mut out = String::from("mindmap\n");
    let extra = usize::from(trees.len() != 1);
    if extra == 1 {
        let _ = writeln!(out, "  ((\"…\"))");
    }
    for (n, depth) in trees.into_iter().flatten() {
        let item = nodes[n];
        let text = map.label_of(item).unwrap_or("");
        let indent = "  ".repeat(depth + extra + 1);
        let shape = map.str_prop(item, "type").to_ascii_lowercase();
        if id_of[n].is_none() && shape == "roundedrectangle" && plain_safe(text) {
            let _ = writeln!(out, "{indent}{}", visible(text));
            continue;
        }
        // Mermaid's mind map takes a shape without an id: only given names are written.
        let id = id_of[n].clone().unwrap_or_default();
        let (open, close) = match shape.as_str() {
            "roundedrectangle" => ("(", ")"),
            "ellipse" => ("((", "))"),
            "star6" => ("))", "(("),
            "hexagon" => ("{{", "}}"),
            _ => ("[", "]"),
        };
        let _ = writeln!(out, "{indent}{id}{open}{}{close}", quoted(text, Place::Quoted, " "));
    }
    out
}

/// Whether a text can be written as a plain mind map node (no id, no brackets): one line of
/// letters, digits, spaces and punctuation no grammar reads, starting with a letter or digit.
fn plain_safe(text: &str) -> bool {
    let shown = visible(text);
    !shown.is_empty()
        && shown.chars().next().is_some_and(char::is_alphanumeric)
        && !crate::export::text::is_styled(text)
        && shown.chars().all(|c| c.is_alphanumeric() || " .,!?'-/+_".contains(c))
}
