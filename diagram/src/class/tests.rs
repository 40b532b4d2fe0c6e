use super::*;
use crate::scene::{BoxRole, Owner};
use crate::{layout, parse, planned_count, to_items, Diagram};

fn class(source: &str) -> ClassDiagram {
    match parse(source) {
        Ok(Diagram::Class(d)) => d,
        other => panic!("{other:?}"),
    }
}

fn find<'a>(d: &'a ClassDiagram, id: &str) -> &'a Class {
    d.classes.iter().find(|c| c.id == id).unwrap_or_else(|| panic!("no class {id}"))
}

#[test]
fn members_come_from_bodies_and_colon_lines_as_mermaid_shows_them() {
    let d = class(
        "classDiagram\nclass Square~Shape~{\n  int id\n  -List~int~ position\n  +setPoints(List~int~ points)$\n  \
         getPoints() List~int~\n  <<interface>>\n}\nSquare : +getDistanceMatrix() List~List~int~~\n\
         Square : ~String pkg*\nclass Animal[\"An animal\"]\n<<abstract>> Animal",
    );
    let square = find(&d, "Square");
    assert_eq!(square.name, "Square<Shape>");
    assert_eq!(square.annotations, ["interface"]);
    let attributes: Vec<&str> = square.attributes.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(attributes, ["int id", "-List<int> position", "~String pkg"]);
    assert_eq!(square.attributes[2].classifier, Classifier::Abstract);
    let methods: Vec<&str> = square.methods.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        methods,
        ["+setPoints(List<int> points)", "getPoints() : List<int>", "+getDistanceMatrix() : List<List<int>>"]
    );
    assert_eq!(square.methods[0].classifier, Classifier::Static);
    let animal = find(&d, "Animal");
    assert_eq!((animal.name.as_str(), animal.annotations.as_slice()), ("An animal", &["abstract".to_owned()][..]));
}

#[test]
fn every_relation_form_gives_its_ends_line_and_texts() {
    let d = class(
        "classDiagram\nA <|-- B\nC *-- D\nE o-- F\nG <-- H\nI -- J\nK ..> L\nM ..|> N\nO .. P\nQ <|--|> R\n\
         S \"1\" --> \"*\" T : owns\nU --o V\nW()--X\nY --() Z",
    );
    let ends: Vec<(RelEnd, bool, RelEnd)> = d.relations.iter().map(|r| (r.start, r.dotted, r.end)).collect();
    use RelEnd::*;
    assert_eq!(
        ends,
        [
            (Inheritance, false, None),
            (Composition, false, None),
            (Aggregation, false, None),
            (Arrow, false, None),
            (None, false, None),
            (None, true, Arrow),
            (None, true, Inheritance),
            (None, true, None),
            (Inheritance, false, Inheritance),
            (None, false, Arrow),
            (None, false, Aggregation),
            (Lollipop, false, None),
            (None, false, Lollipop),
        ]
    );
    let owns = &d.relations[9];
    assert_eq!(
        (owns.start_card.as_deref(), owns.end_card.as_deref(), owns.label.as_deref()),
        (Some("1"), Some("*"), Some("owns"))
    );
    // `W ()-- X`: W is a lollipop interface on X, not a class.
    let lollipop = &d.classes[d.relations[11].from];
    assert!(lollipop.lollipop && lollipop.name == "W");
    assert!(d.classes.iter().all(|c| c.id != "W" && c.id != "Z"));
}

#[test]
fn namespaces_notes_direction_and_ignored_statements() {
    let d = class(
        "classDiagram-v2\ndirection RL\nnamespace Shapes {\n  class Triangle\n  namespace Inner {\n    class Dot\n  }\n}\n\
         note for Triangle \"three\\nsides\"\nnote \"free\"\nclassDef hot fill:#f00\nstyle Dot fill:#0f0\n\
         cssClass \"Dot\" hot\nclick Dot href \"https://x\"\nlink Dot \"https://x\"\ncallback Dot \"cb\"\nclass Dot:::hot\n\
         accTitle: t\naccDescr {\n  many\n  lines\n}\nTriangle",
    );
    assert_eq!(d.direction, Direction::RightLeft);
    assert_eq!(d.namespaces.len(), 2);
    assert_eq!(d.namespaces[1].parent, Some(0));
    assert_eq!(find(&d, "Triangle").namespace, Some(0));
    assert_eq!(find(&d, "Dot").namespace, Some(1), "a later `class Dot:::hot` outside keeps it inside");
    assert_eq!(d.notes[0].text, "three\nsides");
    assert_eq!(d.notes[0].class, Some(0));
    assert_eq!(d.notes[1].class, Option::None);
}

#[test]
fn refusals_name_line_and_column() {
    for (source, line, column, needle) in [
        ("classDiagram\nclass A {\n  int x", 2, 9, "not closed"),
        ("classDiagram\nnamespace N {\nclass A", 2, 1, "namespace is not closed"),
        ("classDiagram\n}", 2, 1, "without an open namespace"),
        ("classDiagram\nA~T --> B", 2, 2, "unterminated generic"),
        ("classDiagram\nA --> ", 2, 7, "expected a class name"),
        ("classDiagram\nA => B", 2, 3, "expected a relation"),
        ("classDiagram\nnote for A \"open", 2, 12, "unterminated string"),
        ("classDiagram A", 1, 14, "own lines"),
        ("classDiagram\nclass A {\n  x {\n}", 3, 5, "inside a class body"),
        ("classDiagram\nA --> B extra", 2, 9, "unexpected"),
    ] {
        let err = parse(source).unwrap_err();
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(needle), "{source:?}: {err}");
    }
}

#[test]
fn a_class_is_a_box_with_its_compartments_stacked_inside() {
    let source = "classDiagram\nclass Duck{\n  <<bird>>\n  +String beak\n  +swim()\n  +quack()\n}\nAnimal <|-- Duck\n\
                  Duck \"1\" *-- \"many\" Egg : lays\nnote for Duck \"quacks\"";
    let diagram = parse(source).unwrap();
    let scene = layout(&diagram);
    let duck = scene.boxes.iter().position(|b| b.node_id.as_deref() == Some("Duck")).unwrap();
    let rect = scene.boxes[duck].rect;
    let parts: Vec<&crate::scene::SceneText> = scene.texts.iter().filter(|t| t.owner == Owner::Box(duck)).collect();
    assert_eq!(
        parts.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
        ["«bird»\nDuck", "+String beak", "+swim()\n+quack()"]
    );
    for pair in parts.windows(2) {
        assert!((pair[0].rect.bottom() - pair[1].rect.y).abs() < 1e-6, "stacked");
    }
    assert!(parts.iter().all(|t| rect.grow(0.5).contains(&t.rect)), "inside the box");
    assert!(parts[0].centred && !parts[1].centred);
    let dividers = scene.lines.iter().filter(|l| l.container == Some(duck) && l.start.attach.is_none()).count();
    assert_eq!(dividers, 2);
    assert!(scene.boxes.iter().any(|b| b.role == BoxRole::Note && b.text == "quacks"));
    let items = to_items(&scene, (0.0, 0.0));
    assert_eq!(items.len(), planned_count(&diagram));
    let edge = |i: usize| &items.iter().find(|p| p.reference == format!("edge:{i}")).unwrap().properties;
    assert_eq!(edge(0)["startPoint"]["decorator"], "Arrow", "inheritance");
    assert_eq!(edge(1)["startPoint"]["decorator"], "Circle", "composition");
    let texts: Vec<&str> = items
        .iter()
        .filter(|i| i.reference == "from:edge:1" || i.reference == "to:edge:1")
        .filter_map(|i| i.properties["text"].as_str())
        .collect();
    assert_eq!(texts, ["◆ 1", "many"]);
    assert!(items.iter().any(|i| i.reference == "label:edge:1" && i.properties["text"] == "lays"));
}

#[test]
fn generics_read_as_html_tags_stay_readable() {
    let d = class("classDiagram\nclass Box~B~\nBox : +List~I~ items");
    assert_eq!(d.classes[0].name, "Box‹B›");
    assert_eq!(d.classes[0].attributes[0].text, "+List‹I› items");
    assert_eq!(canvas_html::classify(&d.classes[0].name), canvas_html::Kind::Plain);
}
