//! The writers on small hand-made maps: what each item becomes, and hostile input.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use super::*;
use crate::parse;

fn item(id: &str, kind: &str, parent: Option<&str>, properties: Value) -> MapItem {
    MapItem { id: id.into(), item_type: kind.into(), parent: parent.map(str::to_owned), properties }
}

fn node(id: &str, x: f64, y: f64, text: &str) -> Vec<MapItem> {
    let at = json!({"x": x, "y": y});
    let size = json!({"width": 100, "height": 40});
    vec![
        item(id, "shape", None, json!({"position": at, "size": size, "type": "Rectangle"})),
        item(&format!("{id}-label"), "label", Some(id), json!({"position": at, "size": size, "text": text})),
    ]
}

fn link(id: &str, from: &str, to: &str) -> MapItem {
    item(
        id,
        "connector",
        None,
        json!({"startPoint": {"itemId": from, "decorator": "None"}, "endPoint": {"itemId": to, "decorator": "Arrow"}, "strokeThickness": 2}),
    )
}

#[test]
fn shapes_and_connectors_become_nodes_and_links() {
    let mut items = node("a", 0.0, 0.0, "Start");
    items.extend(node("b", 0.0, 100.0, "End"));
    items.push(link("c", "a", "b"));
    let names = BTreeMap::from([("a".to_owned(), "A".to_owned())]);
    let text = export_flowchart(&items, &names);
    assert_eq!(text, "flowchart TD\n    A[\"Start\"]\n    nb[\"End\"]\n    A --> nb\n");
    parse(&text).unwrap();
}
