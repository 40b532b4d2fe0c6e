//! The writer on hand-made items: what the integration tests (`tests/export_roundtrip_class.rs`)
//! cannot build from a source.

use std::collections::BTreeMap;

use canvas_vocabulary::items::ItemType;
use serde_json::json;

use super::export_class;
use crate::export::MapItem;
use crate::Diagram;

fn item(id: &str, item_type: &str, parent: Option<&str>, properties: serde_json::Value) -> MapItem {
    MapItem { id: id.into(), item_type: item_type.into(), parent: parent.map(str::to_owned), properties }
}

fn class_box(id: &str, x: f64, y: f64) -> MapItem {
    item(
        id,
        "shape",
        None,
        json!({"type": "Rectangle", "position": {"x": x, "y": y}, "size": {"width": 90, "height": 36}}),
    )
}

fn title(id: &str, parent: &str, text: &str) -> MapItem {
    item(id, "label", Some(parent), json!({"text": text, "horizontalTextAlignment": "Center"}))
}

#[test]
fn the_last_resort_is_an_empty_class_diagram() {
    assert!(matches!(crate::parse("classDiagram\n"), Ok(Diagram::Class(c)) if c.classes.is_empty()));
}

#[test]
fn a_connector_people_drew_between_two_boxes_becomes_a_relation() {
    let items = vec![
        class_box("a", 0.0, 0.0),
        title("a-name", "a", "Animal"),
        class_box("b", 0.0, 200.0),
        title("b-name", "b", "Duck"),
        item(
            "c",
            "connector",
            None,
            json!({
                "startPoint": {"itemId": "b", "decorator": "None"},
                "endPoint": {"itemId": "a-name", "decorator": "Arrow"},
            }),
        ),
    ];
    let text = export_class(&items, &BTreeMap::new());
    let Ok(Diagram::Class(d)) = crate::parse(&text) else { panic!("{text}") };
    let names: Vec<&str> = d.classes.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(names, ["Animal", "Duck"], "{text}");
    let r = &d.relations[0];
    assert_eq!((r.from, r.to, r.end), (1, 0, crate::class::RelEnd::Inheritance), "{text}");
    assert!(text.contains("direction BT"), "Duck below Animal, pointing up: {text}");
}

#[test]
fn parents_that_loop_and_ends_that_point_nowhere_still_give_a_class_diagram() {
    let items = vec![
        item("x", "shape", Some("y"), json!({"type": "Rectangle"})),
        item("y", "shape", Some("x"), json!({"type": "Rectangle"})),
        title("t", "x", "«a»\n\"q\" {b} %% ~c~"),
        item("c", "connector", None, json!({"startPoint": {"itemId": "gone"}, "endPoint": {"itemId": "x"}})),
        item("n", ItemType::StickyNote.as_str(), Some("x"), json!({"text": "<b>hi</b>\" } note for"})),
    ];
    let names = BTreeMap::from([("x".to_owned(), "note".to_owned()), ("y".to_owned(), "a b".to_owned())]);
    let text = export_class(&items, &names);
    assert!(matches!(crate::parse(&text), Ok(Diagram::Class(_))), "{text}");
}
