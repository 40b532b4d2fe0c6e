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

/// Shape data (`A@{ shape: bang, label: "…" }`) is YAML, where a backslash escapes: a text with
/// backslashes in any place must come back as written, not end the string early or become a
/// line break (found by `export_hostile` on CI: a text of one backslash wrote `label: "\"`).
#[test]
fn backslashes_in_shape_data_labels_come_back_as_written() {
    for text in ["\\", "a\\nb", "\\\"", "C:\\temp\\", "\\\\", "tab\\t", "<b>bold\\</b> and \\*"] {
        for shape in ["Star6", "LightningBolt", "Plaque"] {
            let mut items = node("a", 0.0, 0.0, text);
            items[0].properties["type"] = json!(shape);
            let written = export_flowchart(&items, &BTreeMap::new());
            let Ok(crate::model::Diagram::Flowchart(chart)) = parse(&written) else {
                panic!("{shape} {text:?} does not read back:\n{written}")
            };
            let expected = crate::export::text::visible(text);
            assert_eq!(chart.nodes[0].text, expected, "{shape} {text:?}:\n{written}");
        }
    }
}
