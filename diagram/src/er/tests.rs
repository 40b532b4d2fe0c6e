use super::*;
use crate::scene::Owner;
use crate::{layout, parse, planned_count, to_items, Diagram};

fn er(source: &str) -> ErDiagram {
    match parse(source) {
        Ok(Diagram::Er(d)) => d,
        other => panic!("{other:?}"),
    }
}

#[test]
fn entities_aliases_and_attribute_blocks() {
    let d = er("erDiagram\n  CUSTOMER ||--o{ ORDER : places\n  p[Person] {\n    string firstName PK \"the given name\"\n    \
                int age\n    string[] tags FK, UK\n    varchar(255) email UK\n  }\n  \"LINE ITEM\" { int qty }\n  EMPTY {}\n  ALONE");
    let names: Vec<(&str, &str)> = d.entities.iter().map(|e| (e.id.as_str(), e.title.as_str())).collect();
    assert_eq!(
        names,
        [
            ("CUSTOMER", "CUSTOMER"),
            ("ORDER", "ORDER"),
            ("p", "Person"),
            ("LINE ITEM", "LINE ITEM"),
            ("EMPTY", "EMPTY"),
            ("ALONE", "ALONE")
        ]
    );
    let person = &d.entities[2];
    assert_eq!(person.attributes.len(), 4);
    assert_eq!(
        person.attributes[0],
        Attribute {
            kind: "string".into(),
            name: "firstName".into(),
            keys: vec!["PK".into()],
            comment: Some("the given name".into())
        }
    );
    assert_eq!(person.attributes[2].keys, ["FK", "UK"]);
    assert_eq!(person.attributes[3].kind, "varchar(255)");
    assert_eq!(d.entities[3].attributes[0].name, "qty", "a block on one line");
}

#[test]
fn every_cardinality_and_line_form() {
    use Cardinality::*;
    let d = er("erDiagram\nA |o--o| B : a\nA ||..|| B : b\nA }o--o{ B : c\nA }|.-|{ B : d\nA one or more to zero or many B : e\n\
                A only one optionally to many(1) B : \"f g\"\nA 1+ -. 0+ B : h\nA u--|| B : i\nA 1 to 1 B : \"\"");
    let got: Vec<(Cardinality, bool, Cardinality, &str)> =
        d.relationships.iter().map(|r| (r.from_card, r.identifying, r.to_card, r.label.as_str())).collect();
    assert_eq!(
        got,
        [
            (ZeroOrOne, true, ZeroOrOne, "a"),
            (ExactlyOne, false, ExactlyOne, "b"),
            (ZeroOrMore, true, ZeroOrMore, "c"),
            (OneOrMore, false, OneOrMore, "d"),
            (OneOrMore, true, ZeroOrMore, "e"),
            (ExactlyOne, false, OneOrMore, "f g"),
            (OneOrMore, false, ZeroOrMore, "h"),
            (Parent, true, ExactlyOne, "i"),
            (ExactlyOne, true, ExactlyOne, ""),
        ]
    );
}

#[test]
fn refusals_name_line_and_column() {
    for (source, line, column, needle) in [
        ("erDiagram\nA {\n  string name", 2, 3, "not closed"),
        ("erDiagram\nA ||--o{ B", 2, 11, "expected `: role`"),
        ("erDiagram\nA ==> B : x", 2, 3, "expected `{`, a relationship"),
        ("erDiagram\nA || o{ B : x", 2, 6, "expected `--`"),
        ("erDiagram\nA ||-- B : x", 2, 8, "expected a cardinality"),
        ("erDiagram\nA {\n  string\n}", 3, 3, "a type and a name"),
        ("erDiagram\n\"open ||--o{ B : x", 2, 1, "unterminated string"),
        ("erDiagram\nA {\n  int x \"open\n}", 3, 9, "unterminated string"),
    ] {
        let err = parse(source).unwrap_err();
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(needle), "{source:?}: {err}");
    }
}

#[test]
fn an_entity_is_a_title_over_a_table_whose_rows_line_up() {
    let source =
        "erDiagram\nCAR ||--o{ NAMED-DRIVER : allows\nCAR {\n  string registrationNumber PK\n  string make\n  \
                  string model \"as sold\"\n}\nPERSON }|..|{ NAMED-DRIVER : is";
    let diagram = parse(source).unwrap();
    let scene = layout(&diagram);
    let car = scene.boxes.iter().position(|b| b.node_id.as_deref() == Some("CAR")).unwrap();
    let texts: Vec<&crate::scene::SceneText> = scene.texts.iter().filter(|t| t.owner == Owner::Box(car)).collect();
    let shown: Vec<&str> = texts.iter().map(|t| t.text.as_str()).collect();
    // Type and name columns whole; the sparse key and comment columns cell by cell.
    assert_eq!(shown, ["CAR", "string\nstring\nstring", "registrationNumber\nmake\nmodel", "PK", "as sold"]);
    let line = crate::text::LINE_HEIGHT * crate::text::SMALL_FONT_SIZE;
    let types = texts[1];
    let first_row = types.rect.centre().1 - line;
    assert!((texts[3].rect.centre().1 - first_row).abs() < 1e-6, "PK on row 1");
    assert!((texts[4].rect.centre().1 - (first_row + 2.0 * line)).abs() < 1e-6, "the comment on row 3");
    let items = to_items(&scene, (0.0, 0.0));
    assert_eq!(items.len(), planned_count(&diagram));
    let ends: Vec<&str> = items
        .iter()
        .filter(|i| i.reference == "from:edge:1" || i.reference == "to:edge:1")
        .filter_map(|i| i.properties["text"].as_str())
        .collect();
    assert_eq!(ends, ["1..*", "1..*"]);
    let dashed = &items.iter().find(|i| i.reference == "edge:1").unwrap().properties;
    let solid = &items.iter().find(|i| i.reference == "edge:0").unwrap().properties;
    assert!(dashed["strokeThickness"].as_f64() < solid["strokeThickness"].as_f64(), "non-identifying is thinner");
    assert_eq!(solid["endPoint"]["decorator"], "None");
}
