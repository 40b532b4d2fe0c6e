//! Any part of a map written as a flowchart.
//!
//! - Nodes: shapes (their text is their first label child), sticky notes, labels that are not
//!   some item's text, and web, image, document and svg items (their URL or file name). The shape
//!   type picks the Mermaid shape nearest to it (the inverse of the crate's mapping; types with
//!   no Mermaid counterpart are rectangles).
//! - Subgraphs: items that hold other items (not only their text and links), and shapes whose only
//!   label sits in their top part (a subgraph whose nodes were all deleted): the label is the title.
//!   A frame holding nodes is a subgraph titled as the frame; an empty frame is not written.
//! - Links: connectors whose two ends are attached to exported items (a node's text label counts
//!   as its node). Decorators give the ends (`Arrow` and `ArrowLine` `>`, `Circle` `o`), a label
//!   child the text, thickness the stroke (at most 1 dotted, at least 4 thick).
//! - Direction: where most links point, on the map.
//!
//! Nodes are declared inside their subgraphs, links follow at the top level, so membership is
//! what the map says, whatever the links are.

use canvas_vocabulary::items::ItemType;
use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::Value;

use crate::export::ids::{Grammar, Ids};
use crate::export::text::{quoted, Place};
use crate::export::{given_name, Map, MapItem};

/// What an item is in the flowchart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Node,
    Subgraph,
    /// A link (connector), its text or a node's or subgraph's text: written with its owner.
    Part,
    /// Not written (unknown types).
    Skipped,
}

/// Types drawn as a node with their own text or file.
const MEDIA: &[ItemType] = &[ItemType::Web, ItemType::Image, ItemType::Document, ItemType::Svg];

/// Reads every item's role. A label is a part when it is the text of a shape or container or the
/// text of a link; every other label is a node.
fn roles(map: &Map<'_>) -> Vec<Role> {
    // Only members that are written make a subgraph: Mermaid has nothing to attach a link to in
    // an empty one, so a container holding none (or only items of unknown types) is a node.
    let holds_items = |i: usize| {
        map.children(i).iter().any(|&c| {
            matches!(map.kind(c), Some(ItemType::Shape | ItemType::StickyNote))
                || map.kind(c).is_some_and(|k| MEDIA.contains(&k))
        })
    };
    (0..map.len())
        .map(|i| match map.kind(i) {
            Some(ItemType::Connector) => Role::Part,
            Some(ItemType::Shape | ItemType::StickyNote | ItemType::Label | ItemType::Frame) if holds_items(i) => {
                Role::Subgraph
            }
            Some(ItemType::Shape | ItemType::StickyNote) => Role::Node,
            Some(ItemType::Label) => match map.parent(i) {
                Some(p) if map.kind(p) == Some(ItemType::Connector) || text_label(map, p) == Some(i) => Role::Part,
                _ => Role::Node,
            },
            Some(kind) if MEDIA.contains(&kind) => Role::Node,
            _ => Role::Skipped,
        })
        .collect()
}

/// The label that is the text of `owner` (a shape's or container's first label child).
fn text_label(map: &Map<'_>, owner: usize) -> Option<usize> {
    // A frame's text is its title: a label in it is one of its nodes.
    if map.kind(owner) == Some(ItemType::Frame) {
        return None;
    }
    if map.kind(owner) != Some(ItemType::Shape)
        && !map.children(owner).iter().any(|&c| map.kind(c) != Some(ItemType::Label))
    {
        return None;
    }
    map.children(owner).iter().copied().find(|&c| map.kind(c) == Some(ItemType::Label))
}

/// The text an item shows as a node or subgraph.
fn shown_text<'m>(map: &'m Map<'_>, i: usize) -> &'m str {
    match map.kind(i) {
        Some(ItemType::Shape) => text_label(map, i).map_or("", |l| map.str_prop(l, "text")),
        Some(ItemType::Label | ItemType::StickyNote) => map.str_prop(i, "text"),
        Some(ItemType::Web) => map.str_prop(i, "url"),
        Some(ItemType::Frame) => map.str_prop(i, "title"),
        kind => {
            let name = map.str_prop(i, "fileName");
            if name.is_empty() {
                kind.map_or("", ItemType::as_str)
            } else {
                name
            }
        }
    }
}

/// Mermaid's brackets for the shape an item is drawn with.
fn brackets(map: &Map<'_>, i: usize) -> (&'static str, &'static str) {
    if map.kind(i) != Some(ItemType::Shape) {
        return ("[", "]");
    }
    match map.str_prop(i, "type").to_ascii_lowercase().as_str() {
        "roundedrectangle" => {
            let b = map.bounds(i);
            let radius = map.props(i).get("cornerRadius").and_then(Value::as_f64).unwrap_or(0.0);
            if radius >= 0.45 * (2.0 * b.half_w.min(b.half_h)) && radius > 0.0 {
                ("([", "])")
            } else {
                ("(", ")")
            }
        }
        "ellipse" => ("((", "))"),
        "diamond" => ("{", "}"),
        "hexagon" => ("{{", "}}"),
        "parallelogram" => ("[/", "/]"),
        "trapezoid" => ("[/", "\\]"),
        "twosamesideroundcornerrectangle" => ("[(", ")]"),
        "frame" => ("[[", "]]"),
        "directionarrowright" => (">", "]"),
        // Shapes Mermaid writes only by name (`A@{ shape: doc, label: "…" }`).
        "star6" => ("@{ shape: bang, label: ", " }"),
        "onesnipcornerrectangle" => ("@{ shape: card, label: ", " }"),
        "oneroundcornerrectangle" => ("@{ shape: doc, label: ", " }"),
        "triangle" => ("@{ shape: hourglass, label: ", " }"),
        "lightningbolt" => ("@{ shape: bolt, label: ", " }"),
        "halfframe" => ("@{ shape: brace, label: ", " }"),
        "twosamesidesnipcornerrectangle" => ("@{ shape: notch-pent, label: ", " }"),
        "plaque" => ("@{ shape: bow-rect, label: ", " }"),
        _ => ("[", "]"),
    }
}

/// The Mermaid end marks of a decorator at the start and at the end of a link.
fn head(decorator: &str, at_start: bool) -> &'static str {
    match (decorator.to_ascii_lowercase().as_str(), at_start) {
        ("none", _) => "",
        ("circle", _) => "o",
        (_, true) => "<",
        (_, false) => ">",
    }
}

/// A connector as a Mermaid link: `-->`, `<-.->`, `==o`…, and whether it is written the other way
/// round (Mermaid has no link with a mark only at its start, so `A <-- B` is written `B --> A`).
/// Mixed marks (an arrow at one end, a circle at the other) keep the end's mark only: Mermaid's
/// documented two-ended links have the same mark at both ends.
fn arrow(map: &Map<'_>, connector: usize) -> (String, bool) {
    let start = head(map.decorator(connector, "startPoint"), true);
    let end = head(map.decorator(connector, "endPoint"), false);
    let thickness = map.props(connector).get("strokeThickness").and_then(Value::as_f64).unwrap_or(3.0);
    let mirror = |mark: &'static str| if mark == "<" { ">" } else { mark };
    let (start, end, reversed) = match (start, end) {
        ("", "") => ("", "", false),
        (s, "") => ("", mirror(s), true),
        ("<", ">") | ("o", "o") => (start, end, false),
        (_, e) => ("", e, false),
    };
    let (line, open_tail) = if thickness <= 1.0 {
        ("-.-", "-.-")
    } else if thickness >= 4.0 {
        ("==", "===")
    } else {
        ("--", "---")
    };
    let body = if end.is_empty() { open_tail.to_owned() } else { format!("{start}{line}{end}") };
    (body, reversed)
}

/// Any part of the map as a flowchart: shapes, sticky notes, free labels and web/image items as
/// nodes, attached connectors between exported items as links, containers as subgraphs with their
/// title, direction guessed from geometry. `names` maps item id to preferred Mermaid id (a diagram
/// record keeps the source's ids); others get stable short ids.
pub fn export_flowchart(items: &[MapItem], names: &BTreeMap<String, String>) -> String {
    let map = Map::new(items);
    let roles = roles(&map);
    let exported = |i: usize| matches!(roles[i], Role::Node | Role::Subgraph);
    // Given names first, so no generated id takes one.
    let mut ids = Ids::new(Grammar::Flowchart);
    let mut id_of: Vec<Option<String>> = (0..map.len())
        .map(|i| if exported(i) { ids.reserve(given_name(names, &map.items[i].id)) } else { None })
        .collect();
    for i in 0..map.len() {
        if exported(i) && id_of[i].is_none() {
            let prefix = if roles[i] == Role::Subgraph { "sg" } else { "n" };
            id_of[i] = Some(ids.generate(prefix, &map.items[i].id));
        }
    }
    // The exported item a connector end stands for: the item, or the owner of a text label.
    let target = |i: usize| -> Option<usize> {
        if exported(i) {
            return Some(i);
        }
        map.parent(i).filter(|&p| map.kind(i) == Some(ItemType::Label) && exported(p) && text_label(&map, p) == Some(i))
    };
    let links: Vec<(usize, usize, usize)> = (0..map.len())
        .filter(|&i| map.kind(i) == Some(ItemType::Connector))
        .filter_map(|i| Some((i, target(map.attached(i, "startPoint")?)?, target(map.attached(i, "endPoint")?)?)))
        .collect();
    let mut out = format!("flowchart {}\n", direction(&map, &links));
    // Top level first, then each subgraph's members inside it, in the map's order.
    let top: Vec<usize> = (0..map.len()).filter(|&i| exported(i) && !map.parent(i).is_some_and(exported)).collect();
    let mut stack: Vec<(usize, bool)> = top.iter().rev().map(|&i| (i, false)).collect();
    while let Some((i, closing)) = stack.pop() {
        let depth = {
            let mut d = 1;
            let mut at = map.parent(i);
            while let Some(p) = at.filter(|&p| exported(p)) {
                d += 1;
                at = map.parent(p);
            }
            d
        };
        let indent = "    ".repeat(depth);
        let id = id_of[i].as_deref().unwrap_or_default();
        if closing {
            let _ = writeln!(out, "{indent}end");
            continue;
        }
        if roles[i] == Role::Subgraph {
            let title = shown_text(&map, i);
            if title.trim().is_empty() {
                let _ = writeln!(out, "{indent}subgraph {id}");
            } else {
                let _ = writeln!(out, "{indent}subgraph {id} [{}]", quoted(title, Place::Quoted, id));
            }
            stack.push((i, true));
            let members: Vec<usize> = map.children(i).iter().copied().filter(|&c| exported(c)).collect();
            stack.extend(members.iter().rev().map(|&c| (c, false)));
        } else {
            let (open, close) = brackets(&map, i);
            let mut text = quoted(shown_text(&map, i), Place::Quoted, " ");
            if open.starts_with("@{") {
                // Shape data is YAML, where a backslash escapes the next character (`\"` would
                // not end the string, `\n` would break the line): each one is written doubled.
                text = text.replace('\\', "\\\\");
            }
            let _ = writeln!(out, "{indent}{id}{open}{text}{close}");
        }
    }
    for &(connector, from, to) in &links {
        let (body, reversed) = arrow(&map, connector);
        let (from, to) = if reversed { (to, from) } else { (from, to) };
        let (a, b) = (id_of[from].as_deref().unwrap_or_default(), id_of[to].as_deref().unwrap_or_default());
        match map.label_of(connector).filter(|t| !crate::export::text::visible(t).is_empty()) {
            Some(text) => {
                let _ = writeln!(out, "    {a} {body}|{}| {b}", quoted(text, Place::LinkText, ""));
            }
            None => {
                let _ = writeln!(out, "    {a} {body} {b}");
            }
        }
    }
    out
}

/// `TD`, `BT`, `LR` or `RL`: the way most links run on the map (`TD` when none say).
fn direction(map: &Map<'_>, links: &[(usize, usize, usize)]) -> &'static str {
    let mut votes = [0usize; 4];
    for &(_, from, to) in links {
        let (a, b) = (map.bounds(from), map.bounds(to));
        let (dx, dy) = (b.cx - a.cx, b.cy - a.cy);
        if dx == 0.0 && dy == 0.0 {
            continue;
        }
        let at = if dy.abs() >= dx.abs() { usize::from(dy < 0.0) } else { 2 + usize::from(dx < 0.0) };
        votes[at] += 1;
    }
    let best = (0..4).max_by_key(|&i| (votes[i], std::cmp::Reverse(i))).unwrap_or(0);
    ["TD", "BT", "LR", "RL"][best]
}

#[cfg(test)]
mod tests;
