//! Whatever the items hold (hostile texts, parents that loop or point nowhere, connectors to
//! missing items, repeated ids, odd names), the export is Mermaid that `canvas_diagram::parse`
//! reads, and never panics. The only refusals are the documented ones: links to a subgraph
//! (today's flowchart parser does not take them), a flowchart with no node and a sequence with no
//! participant left (nothing to draw).

use std::collections::BTreeMap;

use canvas_diagram::model::Diagram;
use canvas_diagram::{export_flowchart, export_mindmap, export_sequence, parse, MapItem};
use proptest::prelude::*;
use serde_json::{json, Value};

const IDS: &[&str] = &["a", "b", "c", "d", "e", "f", "end", "x y", "", "panel", "inbox"];
const KINDS: &[&str] =
    &["shape", "shape", "label", "label", "sticky-note", "connector", "connector", "web", "image", "blob"];
const SHAPE_TYPES: &[&str] = &["Rectangle", "RoundedRectangle", "Ellipse", "Diamond", "Star6", "Frame", "nonsense", ""];
const DECORATORS: &[&str] = &["None", "Arrow", "ArrowLine", "Circle", "odd"];
const PIECES: &[&str] = &[
    "\"",
    "\n",
    "end",
    "\nend\nA-->B",
    "]",
    "[",
    "|",
    ";",
    "#",
    "#quot;",
    "%%",
    "<b>",
    "</b>",
    "<br>",
    "<i>x</i>",
    "&amp;",
    "`",
    "-->",
    "subgraph",
    ":::",
    "((",
    "))",
    "{",
    "}",
    ":",
    ",",
    "participant",
    "Note over",
    "\t",
    "\r",
    "é",
    " ",
    "*",
    "_",
    "\\",
    "<p>a</p>",
    "x<y",
    "<strong>bold **",
    "as",
    "loop",
    "else",
    "\u{0}",
    "\u{202e}",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.concat()), any::<String>(),]
}

fn coordinate() -> impl Strategy<Value = f64> {
    prop_oneof![-2000.0..2000.0f64, Just(0.0), Just(1e300)]
}

fn end_point() -> impl Strategy<Value = Value> {
    (prop::option::of(prop::sample::select(IDS)), prop::sample::select(DECORATORS), coordinate(), coordinate())
        .prop_map(|(id, decorator, x, y)| json!({"itemId": id, "decorator": decorator, "position": {"x": x, "y": y}}))
}

fn item() -> impl Strategy<Value = MapItem> {
    let props = (
        (coordinate(), coordinate(), 0.0..400.0f64, 0.0..400.0f64),
        text(),
        prop::sample::select(SHAPE_TYPES),
        (end_point(), end_point(), prop::option::of(0.0..6.0f64), prop::option::of(0.0..200.0f64)),
    );
    (prop::sample::select(IDS), prop::sample::select(KINDS), prop::option::of(prop::sample::select(IDS)), props)
        .prop_map(|(id, kind, parent, ((x, y, w, h), text, shape, (start, end, thickness, radius)))| MapItem {
            id: id.into(),
            item_type: kind.into(),
            parent: parent.map(str::to_owned),
            properties: json!({
                "position": {"x": x, "y": y}, "size": {"width": w, "height": h}, "text": text, "type": shape,
                "startPoint": start, "endPoint": end, "strokeThickness": thickness, "cornerRadius": radius,
                "url": "https://example.com/\"]\nend", "fileName": "a\"b.png", "fillColor": "#1A60A5FA",
            }),
        })
}

fn names() -> impl Strategy<Value = BTreeMap<String, String>> {
    prop::collection::btree_map(prop::sample::select(IDS).prop_map(str::to_owned), text(), 0..4)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_items_export_as_a_flowchart_parse_reads(items in prop::collection::vec(item(), 0..14), names in names()) {
        let text = export_flowchart(&items, &names);
        match parse(&text) {
            Ok(diagram) => prop_assert!(matches!(diagram, Diagram::Flowchart(_))),
            Err(e) => prop_assert!(
                e.message.contains("is a subgraph: links to subgraphs") || e.message.contains("has no nodes"),
                "{e}\n{text}"
            ),
        }
    }

    #[test]
    fn any_items_export_as_a_sequence_parse_reads(items in prop::collection::vec(item(), 0..14), names in names()) {
        let text = export_sequence(&items, &names);
        match parse(&text) {
            Ok(diagram) => prop_assert!(matches!(diagram, Diagram::Sequence(_))),
            Err(e) => prop_assert!(e.message.contains("no participants"), "{e}\n{text}"),
        }
    }

    #[test]
    fn any_items_export_as_a_mind_map_parse_reads(items in prop::collection::vec(item(), 0..14), names in names()) {
        let text = export_mindmap(&items, &names);
        let parsed = parse(&text);
        prop_assert!(matches!(parsed, Ok(Diagram::Mindmap(_))), "{parsed:?}\n{text}");
    }
}
