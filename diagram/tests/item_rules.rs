//! Every planned item passes the real item rules (`canvas_items::validate_create`, what
//! core-service applies to each item of a diagram's bulk create) and every reference is a valid
//! bulk `ref`: a laid-out diagram that breaks them is a 500 for the caller, so no source may
//! produce one. Checked on the goldens and on sources written to stress ids, titles, texts and
//! styles.

mod common;

use canvas_diagram::{layout, parse, to_items};
use canvas_vocabulary::limits::bulk::valid_ref;

/// Sources that once broke item rules, and constructs whose texts, ids or colours reach items.
const STRESS: &[&str] = &[
    "flowchart LR\nsubgraph Group Chat\n  A --> B\nend\nsubgraph \"Main\" timeline\n  C\nend\nB --> C",
    "graph TD\n日本語ノード[\"テキスト\"] --> ü[Ünïcödé]\nsubgraph 説明 [説明グループ]\n  ü\nend",
    "graph TD\nA[\"`**bold** _it_ and <tag>`\"] -->|\"`*x* & y`\"| B[\"a < b & c > d\"]",
    "graph TD\nclassDef hot fill:#ff990080,stroke:rgb(1,2,3),stroke-width:3px,color:rgba(0,0,0,0.5)\nA:::hot --> B\nstyle B fill:lavender,stroke:#f9f\nlinkStyle 0 stroke:#ff990080,stroke-width:4px,color:hsl(0,100%,50%)\nlinkStyle default stroke:bogus",
    "graph TD\nA@{ shape: text, label: \"just text\" } --> B@{ shape: sm-circ } --> C@{ shape: fork } --> D@{ shape: tri }\nE@{ shape: bolt } --> F@{ shape: brace, label: \"note\" }",
    "---\ntitle: A titled chart\n---\ngraph LR\nA --> S\nsubgraph S [Group with a rather long title that will not fit]\n  B --> C\nend\nS --> D\nS --> S2\nsubgraph S2\n  E\nend",
    "graph TD\nthis-is-a-very-long-node-identifier-that-goes-past-the-ref-limit-of-sixty-four-characters --> B",
    "graph TD\nA[\"line one\n  line two\"] --> B\nC[I #9829; you #quot;x#quot;]",
];

#[test]
fn every_planned_item_passes_the_item_rules() {
    let mut sources: Vec<(String, String)> = common::goldens();
    sources.extend(STRESS.iter().enumerate().map(|(i, s)| (format!("stress {i}"), (*s).to_owned())));
    let mut failures = Vec::new();
    for (name, source) in &sources {
        let diagram = parse(source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let items = to_items(&layout(&diagram), (-250.0, 75.5));
        let found = common::rules::problems(&items);
        if !found.is_empty() {
            failures.push(format!("{name}:\n  {}", found.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn invalid_mermaid_ids_become_valid_references() {
    let source = "graph TD\nsubgraph Group Chat\n  日本 --> B\nend";
    let items = to_items(&layout(&parse(source).unwrap()), (0.0, 0.0));
    assert!(
        items.iter().all(|i| valid_ref(&i.reference)),
        "{:?}",
        items.iter().map(|i| &i.reference).collect::<Vec<_>>()
    );
    let shape = items.iter().find(|i| i.node_id.as_deref() == Some("日本")).expect("the node keeps its Mermaid id");
    let connector = items.iter().find(|i| i.item_type == "connector").unwrap();
    assert_eq!(connector.properties["startPoint"]["itemId"], format!("ref:{}", shape.reference));
    let label = items.iter().find(|i| i.parent.as_deref() == Some(shape.reference.as_str())).unwrap();
    assert_eq!(label.properties["text"], "日本");
}
