//! The ER writer reads back what the map shows: source → parse → layout → items (ids given,
//! `ref:` resolved, as core-service presents them) → `export_er` → parse gives the same entities,
//! titles, attributes and relationships, on every valid ER file of the real-world corpus; and the
//! edits people make (deleting, retitling, editing cells, drawing connectors) show in the text.

mod common;
mod corpus_support;

use std::collections::BTreeMap;

use canvas_diagram::er::{Cardinality, ErDiagram};
use canvas_diagram::model::Diagram;
use canvas_diagram::{export_er, layout, parse, to_items, MapItem};
use proptest::prelude::*;
use serde_json::{json, Value};

fn drawn(source: &str) -> (Vec<MapItem>, BTreeMap<String, String>) {
    common::drawn_as_recorded(source)
}

fn er(diagram: &Diagram) -> &ErDiagram {
    match diagram {
        Diagram::Er(d) => d,
        other => panic!("not an ER diagram: {other:?}"),
    }
}

fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A table cell as the map holds it: one line, cut with `…` past 220 units (`section_boxes`).
fn cell(text: &str) -> String {
    words(&canvas_diagram::text::fit(text, canvas_diagram::text::SMALL_FONT_SIZE, 220.0))
}

type Attr = (String, String, Vec<String>, Option<String>);
type Rel = (String, String, Cardinality, Cardinality, bool, String);
type Ent = (String, String, Vec<Attr>);

/// What an ER diagram says, as the map can hold it: entities (id, title, attributes) in order,
/// relationships (ends by id, cardinalities, identifying, role) in order, and the direction.
fn facts(d: &ErDiagram) -> (Vec<Ent>, Vec<Rel>, String) {
    let entities = d
        .entities
        .iter()
        .map(|e| {
            let attributes = e
                .attributes
                .iter()
                .map(|a| (cell(&a.kind), cell(&a.name), a.keys.clone(), a.comment.as_deref().map(cell)))
                .collect();
            (e.id.clone(), words(&e.title), attributes)
        })
        .collect();
    let id = |e: usize| d.entities[e].id.clone();
    let relationships = d
        .relationships
        .iter()
        .map(|r| (id(r.from), id(r.to), r.from_card, r.to_card, r.identifying, words(&r.label)))
        .collect();
    (entities, relationships, format!("{:?}", d.direction))
}

/// Planned items compared by what they create: type, parent, properties and element key.
fn plan(source: &str) -> Vec<(String, Option<String>, Value, String, String)> {
    to_items(&layout(&parse(source).unwrap()), (40.0, 60.0))
        .into_iter()
        .map(|p| (p.item_type.to_owned(), p.parent, p.properties, p.element, p.part.to_owned()))
        .collect()
}

#[test]
fn corpus_er_files_come_back_with_the_same_model_and_the_same_plan() {
    let files: Vec<_> = corpus_support::valid_files().into_iter().filter(|f| f.kind == "er").collect();
    assert!(files.len() >= 30, "the corpus has its ER files: {}", files.len());
    let (mut same_model, mut same_plan) = (0, 0);
    let mut failures = Vec::new();
    for file in &files {
        let (items, names) = drawn(&file.source);
        let exported = export_er(&items, &names);
        let again = parse(&exported).unwrap_or_else(|e| panic!("{}: {e}\n{exported}", file.name));
        let before = parse(&file.source).unwrap();
        let (before, again) = (er(&before), er(&again));
        if facts(before) == facts(again) {
            same_model += 1;
        } else {
            failures.push(format!(
                "{}\n{}\n--- exported ---\n{exported}\n{:?}\n{:?}",
                file.name,
                file.source,
                facts(before),
                facts(again)
            ));
        }
        if plan(&file.source) == plan(&exported) {
            same_plan += 1;
        } else {
            failures.push(format!("{}: re-planned differently\n--- exported ---\n{exported}", file.name));
        }
    }
    println!("ER corpus: {} valid files, {} same model, {} same plan", files.len(), same_model, same_plan);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn golden_er_diagrams_come_back_with_the_same_model_and_plan() {
    for (name, source) in common::goldens().iter().filter(|(n, _)| n.starts_with('e')) {
        let (items, names) = drawn(source);
        let exported = export_er(&items, &names);
        let again = parse(&exported).unwrap_or_else(|e| panic!("{name}: {e}\n{exported}"));
        assert_eq!(facts(er(&parse(source).unwrap())), facts(er(&again)), "{name}\n{exported}");
        assert!(plan(source) == plan(&exported), "{name}: re-planned differently\n{exported}");
    }
}

/// The item of the box drawing entity `id`.
fn box_of(names: &BTreeMap<String, String>, id: &str) -> String {
    names.iter().find(|(_, name)| *name == id).map(|(item, _)| item.clone()).unwrap_or_else(|| panic!("no {id}"))
}

/// Sets the text of the label child of `parent` that shows `old`.
fn edit(items: &mut [MapItem], parent: &str, old: &str, new: &str) {
    let label = items
        .iter_mut()
        .find(|i| i.parent.as_deref() == Some(parent) && i.properties["text"] == old)
        .unwrap_or_else(|| panic!("no label {old:?} in {parent}"));
    label.properties["text"] = json!(new);
}

const SHOP: &str = "erDiagram
    CUSTOMER ||--o{ ORDER : places
    ORDER ||--|{ LINE-ITEM : contains
    CUSTOMER {
        string name PK
        string email UK \"login\"
        int age
    }
    ORDER {
        int number PK
    }
";

#[test]
fn a_deleted_entity_goes_with_its_relationships() {
    let (mut items, names) = drawn(SHOP);
    let order = box_of(&names, "ORDER");
    // Deleting a box deletes what it holds; its connectors stay on the map, attached to nothing.
    items.retain(|i| i.id != order && i.parent.as_deref() != Some(order.as_str()));
    let d = parse(&export_er(&items, &names)).unwrap();
    let d = er(&d);
    let ids: Vec<&str> = d.entities.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(ids, ["CUSTOMER", "LINE-ITEM"]);
    assert!(d.relationships.is_empty());
}

#[test]
fn edited_titles_and_cells_show_their_new_text() {
    let (mut items, names) = drawn(SHOP);
    let customer = box_of(&names, "CUSTOMER");
    edit(&mut items, &customer, "CUSTOMER", "Client \"VIP\" {x}");
    edit(&mut items, &customer, "string\nstring\nint", "string\nvarchar(99)\nint\nbool");
    edit(&mut items, &customer, "name\nemail\nage", "full name\nemail\nage\nactive");
    let exported = export_er(&items, &names);
    let d = parse(&exported).unwrap();
    let c = &er(&d).entities[0];
    assert_eq!((c.id.as_str(), c.title.as_str()), ("CUSTOMER", "Client \"VIP\" {x}"), "{exported}");
    let rows: Vec<(&str, &str)> = c.attributes.iter().map(|a| (a.kind.as_str(), a.name.as_str())).collect();
    assert_eq!(rows, [("string", "full_name"), ("varchar(99)", "email"), ("int", "age"), ("bool", "active")]);
    assert_eq!(c.attributes[1].comment.as_deref(), Some("login"), "the sparse comment stays on its row");
    assert_eq!(c.attributes[1].keys, ["UK"]);
}

#[test]
fn a_connector_drawn_between_boxes_is_a_one_to_many_relationship() {
    let (mut items, names) = drawn(SHOP);
    let (customer, item) = (box_of(&names, "CUSTOMER"), box_of(&names, "LINE-ITEM"));
    let connector = |id: &str, end_decorator: &str| {
        MapItem::from_rest(&json!({
            "itemId": id, "itemType": "connector", "parent": "panel",
            "startPoint": {"itemId": customer, "position": {"x": 0, "y": 0}},
            "endPoint": {"itemId": item, "position": {"x": 0, "y": 0}, "decorator": end_decorator},
        }))
        .unwrap()
    };
    items.push(connector("drawn-1", "Arrow"));
    items.push(connector("drawn-2", "Circle"));
    items.push(
        MapItem::from_rest(&json!({"itemId": "role", "itemType": "label", "parent": "drawn-1", "text": "buys"}))
            .unwrap(),
    );
    let exported = export_er(&items, &names);
    let d = parse(&exported).unwrap();
    let d = er(&d);
    let drawn: Vec<_> = d.relationships[2..]
        .iter()
        .map(|r| {
            (d.entities[r.from].id.as_str(), d.entities[r.to].id.as_str(), r.from_card, r.to_card, r.label.as_str())
        })
        .collect();
    assert_eq!(
        drawn,
        [
            ("CUSTOMER", "LINE-ITEM", Cardinality::ExactlyOne, Cardinality::ZeroOrMore, "buys"),
            ("CUSTOMER", "LINE-ITEM", Cardinality::ExactlyOne, Cardinality::ZeroOrOne, ""),
        ],
        "{exported}"
    );
    assert!(exported.contains("CUSTOMER ||--o{ LINE-ITEM : buys"), "{exported}");
}

#[test]
fn edited_cardinalities_and_dotted_lines_are_read_back() {
    let source = "erDiagram\n    A ||--o{ B : has\n    C }|..|{ B : uses\n";
    let (mut items, names) = drawn(source);
    let connectors: Vec<String> = items.iter().filter(|i| i.item_type == "connector").map(|i| i.id.clone()).collect();
    let has = connectors
        .iter()
        .find(|c| items.iter().any(|i| i.parent.as_ref() == Some(c) && i.properties["text"] == "has"))
        .unwrap()
        .clone();
    edit(&mut items, &has, "0..*", "one or more");
    edit(&mut items, &has, "1", "parent");
    let d = parse(&export_er(&items, &names)).unwrap();
    let d = er(&d);
    let r = &d.relationships[0];
    assert_eq!((r.from_card, r.to_card, r.identifying), (Cardinality::Parent, Cardinality::OneOrMore, true));
    assert!(!d.relationships[1].identifying, "a dotted line stays non-identifying");
}

#[test]
fn given_ids_are_kept_and_other_boxes_get_names() {
    let (mut items, names) = drawn("erDiagram\n    p[Person]\n    \"Customer Account\" ||--|| p : is\n");
    items.push(MapItem::from_rest(&json!({"itemId": "new-box", "itemType": "shape", "parent": "panel", "position": {"x": 900, "y": 0}, "size": {"width": 100, "height": 40}})).unwrap());
    items.push(MapItem::from_rest(&json!({"itemId": "new-title", "itemType": "label", "parent": "new-box", "text": "Invoice", "horizontalTextAlignment": "Center"})).unwrap());
    let exported = export_er(&items, &names);
    let d = parse(&exported).unwrap();
    let entities: Vec<(&str, &str)> = er(&d).entities.iter().map(|e| (e.id.as_str(), e.title.as_str())).collect();
    assert_eq!(
        entities,
        [("p", "Person"), ("Customer Account", "Customer Account"), ("Invoice", "Invoice")],
        "{exported}"
    );
}

#[test]
fn a_moved_box_keeps_its_relationships_and_their_texts() {
    let (mut items, names) = drawn(SHOP);
    let order = box_of(&names, "ORDER");
    for item in &mut items {
        if item.id == order || item.parent.as_deref() == Some(order.as_str()) {
            if let Some(x) = item.properties["position"]["x"].as_f64() {
                item.properties["position"]["x"] = json!(x + 600.0);
            }
        }
        // Connector ends follow their box: drawn from the box's centre and the end's offset.
        for end in ["startPoint", "endPoint"] {
            if let Some(end) = item.properties.get_mut(end).and_then(Value::as_object_mut) {
                end.remove("absolutePosition");
            }
        }
    }
    let (before, after) = (parse(SHOP).unwrap(), parse(&export_er(&items, &names)).unwrap());
    let (_, relationships, _) = facts(er(&after));
    assert_eq!(facts(er(&before)).1, relationships);
}

const HOSTILE: &[&str] = &[
    "\"",
    "\n",
    "{",
    "}",
    "%%",
    "%% x",
    "#quot;",
    "#",
    ";",
    ":",
    "[",
    "]",
    "<b>x</b>",
    "<br>",
    "&amp;",
    "||--o{",
    "--",
    "..",
    "u",
    "parent",
    "PK",
    "FK",
    "0..*",
    "1",
    "direction LR",
    "style",
    "classDef x fill:red",
    "é",
    " ",
    "~T~",
    "<T>",
    "`",
    "\\",
    "\t",
    "\u{0}",
    "A",
    "x y",
];

fn hostile_text() -> impl Strategy<Value = String> {
    prop_oneof![prop::collection::vec(prop::sample::select(HOSTILE), 0..6).prop_map(|p| p.concat()), any::<String>()]
}

const SOURCES: &[&str] = &[
    SHOP,
    "erDiagram\n    p[Person] {\n        string firstName\n    }\n    a[\"Customer Account\"] {\n        string email PK \"c\"\n    }\n    p ||--o| a : \"has<br />one\"\n    PROJECT u--o{ TEAM_MEMBER : \"parent\"\n",
    "erDiagram\n    direction LR\n    A ||--|{ B : likes\n    B ||..|{ C : likes\n    C ||--|{ A : likes\n",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_always_export_to_a_diagram_without_the_deleted_entities(
        source in prop::sample::select(SOURCES),
        deleted in prop::collection::vec(any::<prop::sample::Index>(), 0..6),
        texts in prop::collection::vec((any::<prop::sample::Index>(), hostile_text()), 0..8),
        drawn_ends in prop::option::of((any::<prop::sample::Index>(), any::<prop::sample::Index>())),
        moved_into in prop::option::of((any::<prop::sample::Index>(), any::<prop::sample::Index>())),
    ) {
        let (mut items, names) = drawn(source);
        if let Some((a, b)) = drawn_ends {
            // A connector someone drew, between any two items (or to one deleted below).
            let (a, b) = (items[a.index(items.len())].id.clone(), items[b.index(items.len())].id.clone());
            let connector = json!({"itemId": "drawn", "itemType": "connector", "parent": "panel",
                "startPoint": {"itemId": a, "decorator": "Circle"}, "endPoint": {"itemId": b}});
            items.extend(MapItem::from_rest(&connector));
        }
        if let Some((child, parent)) = moved_into {
            // Any item put into any other, loops of parents included.
            let parent = items[parent.index(items.len())].id.clone();
            let child = child.index(items.len());
            items[child].parent = Some(parent);
        }
        for (at, text) in texts {
            let labels: Vec<usize> = (0..items.len()).filter(|&i| items[i].item_type == "label").collect();
            let label = labels[at.index(labels.len())];
            items[label].properties["text"] = json!(text);
        }
        let mut gone = Vec::new();
        for at in deleted {
            if items.is_empty() {
                break;
            }
            let item = items.remove(at.index(items.len()));
            if let Some(name) = names.get(&item.id) {
                gone.push(name.clone());
            }
        }
        let exported = export_er(&items, &names);
        let d = parse(&exported).map_err(|e| TestCaseError::fail(format!("{e}\n{exported}")))?;
        let d = er(&d);
        let shapes = items.iter().filter(|i| i.item_type == "shape").count();
        prop_assert_eq!(d.entities.len(), shapes, "every box is an entity\n{}", exported);
        for name in &gone {
            prop_assert!(d.entities.iter().all(|e| &e.id != name), "{} was deleted\n{}", name, exported);
        }
    }
}
