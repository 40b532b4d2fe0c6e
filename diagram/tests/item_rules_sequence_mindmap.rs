//! Every planned item of the goldens and of sources written to stress names and texts passes
//! the rules core-service applies when it creates the batch (see `common/rules.rs`): a diagram
//! that parses is always created, never answered with a 500.

mod common;

use canvas_diagram::{layout, parse, to_items};

/// Sources with the names and texts that once broke item rules, and every construct.
const STRESS: &[&str] = &[
    "sequenceDiagram\nparticipant Cluster creator\nA B->>Cluster creator: hi\nCluster creator-->>A B: ok",
    "sequenceDiagram\nparticipant Pod (main)\nparticipant X@{ \"type\": \"database\" }\nA->>X: q\nNote over Pod (main): n",
    "sequenceDiagram\nparticipant Ünïcødé 名前\nÜnïcødé 名前->>B: x",
    "sequenceDiagram\nparticipant AVeryLongParticipantNameThatGoesOnAndOnForMoreThanSixtyFourCharactersInAll\nAVeryLongParticipantNameThatGoesOnAndOnForMoreThanSixtyFourCharactersInAll->>B: x",
    "sequenceDiagram\ntitle T\nbox Aqua Team A\nparticipant A\nactor U as User\nend\nbox rgb(20,30,40)\nparticipant B@{ \"type\": \"queue\" }\nend\n\
     autonumber 5 5\nA->>+B: a\ncreate participant C\nB->>C: make\nrect rgba(0,0,255,.2)\nC-->>-A: back\nend\n\
     alt x\nA-xB: y\nelse z\nA--)B: w\nend\npar_over p\nA<<->>B: both\nand q\nA/|-B: rev\nend\n\
     critical c\nA-|\\B: half\noption o\nA--//B: stick\nend\nbreak b\ndestroy C\nA->>C: bye\nend\n\
     Note over A,B: n<br>two\nactivate A\nA->>A: self\ndeactivate A\nautonumber off\nA->>B: <b>bold</b> & <script>x</script>",
    "mindmap\n  root((Ünïcødé root))\n    id1[\"`**Bold** and *italic* & <tags>`\"]\n      id2[\"a\nmulti-line string\"]\n    ::icon(fa fa-book)\n    An id with spaces (Rounded)\n      ))bang((\n      )cloud(\n      {{hex}}\n    \tTabbed",
];

#[test]
fn every_planned_sequence_and_mind_map_item_passes_the_rules_core_service_applies() {
    let mut failures = Vec::new();
    let goldens = common::goldens();
    let sources = goldens.iter().map(|(name, s)| (name.clone(), s.as_str()));
    let stress = STRESS.iter().enumerate().map(|(i, s)| (format!("stress {i}"), *s));
    for (name, source) in sources.chain(stress) {
        let diagram = parse(source).unwrap_or_else(|e| panic!("{name}: {e}"));
        let items = to_items(&layout(&diagram), (100.0, -40.0));
        let problems = common::rules::problems(&items);
        if !problems.is_empty() {
            failures.push(format!("{name}:\n  {}", problems.join("\n  ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
