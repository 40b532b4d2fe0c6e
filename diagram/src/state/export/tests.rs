//! Unit tests of the state writer: small maps drawn by the crate, read back.

use std::collections::BTreeMap;

use super::*;
use crate::{layout, parse, to_items};

/// The items drawing `source` (ids `i0`, `i1`… in plan order, refs resolved) and the names a
/// diagram record keeps.
fn drawn(source: &str) -> (Vec<MapItem>, BTreeMap<String, String>) {
    let planned = to_items(&layout(&parse(source).unwrap()), (0.0, 0.0));
    let id: BTreeMap<String, String> =
        planned.iter().enumerate().map(|(i, p)| (p.reference.clone(), format!("i{i}"))).collect();
    let text = serde_json::to_string(&planned.iter().map(|p| p.properties.clone()).collect::<Vec<_>>()).unwrap();
    let mut resolved = text;
    for (reference, item) in &id {
        resolved = resolved.replace(&format!("\"ref:{reference}\""), &format!("\"{item}\""));
    }
    let props: Vec<serde_json::Value> = serde_json::from_str(&resolved).unwrap();
    let items = planned
        .iter()
        .zip(props)
        .map(|(p, properties)| MapItem {
            id: id[&p.reference].clone(),
            item_type: p.item_type.to_owned(),
            parent: p.parent.as_ref().map(|r| id[r].clone()),
            properties,
        })
        .collect();
    let names = planned
        .iter()
        .filter(|p| p.part == "shape")
        .filter_map(|p| Some((id[&p.reference].clone(), p.element.split_once(':')?.1.to_owned())))
        .collect();
    (items, names)
}

#[test]
fn a_simple_diagram_reads_back_as_it_was_written() {
    let source =
        "stateDiagram-v2\n    [*] --> Still\n    Still --> [*]\n    Still --> Moving : push\n    Moving --> Still\n";
    let (items, names) = drawn(source);
    assert_eq!(export_state(&items, &names), source);
}

#[test]
fn composites_regions_pseudo_states_and_notes_come_back() {
    let source =
        "stateDiagram-v2\n    direction LR\n    [*] --> Active\n    state Active {\n        [*] --> A1\n        \
                  A1 --> [*]\n        --\n        [*] --> B1\n    }\n    Active --> c\n    state c <<choice>>\n    \
                  c --> Done : yes\n    Done : All done\n    note left of Done : a note\n";
    let (items, names) = drawn(source);
    let text = export_state(&items, &names);
    let again = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, parse(source).unwrap(), "{text}");
}

#[test]
fn wraps_the_layout_made_are_taken_out_and_breaks_people_wrote_stay() {
    let name = |t: &str| crate::node_boxes::node_box(crate::graph::NodeShape::Rounded, t).text;
    let long = "ProvisionallyCompletedAfterAccepted";
    let shown = name(long);
    assert!(shown.contains('\n'), "{shown}");
    assert_eq!(read::unwrap(&shown, name), long);
    let edge = read::wrapped_transition_text;
    for text in ["Send(includeAlreadySent=true)", "Received a /refresh_configuration request, compute node will pull"] {
        assert_eq!(read::unwrap(&edge(text), edge), text);
    }
    assert_eq!(read::unwrap("a\nb", edge), "a\nb");
}

#[test]
fn a_note_with_colons_is_written_so_mermaid_reads_one_note() {
    // Mermaid refuses `note right of S : Terminal states: done` (a second `:`), found by
    // `mermaid.parse` on the corpus written back (diagram/tests/corpus_export.rs).
    let source = "stateDiagram-v2\n    S --> [*]\n    note right of S\n        Terminal states: done\n    end note\n";
    let (items, names) = drawn(source);
    let text = export_state(&items, &names);
    assert!(text.contains("note right of S : Terminal states#58; done\n"), "{text}");
    let again = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(again, parse(source).unwrap(), "{text}");
}
