//! Unit tests of the flowchart parser: each construct, each error.

use crate::model::{Direction, Flowchart, Head, NodeShape, Stroke};
use crate::{parse, Diagram, DiagramError};

fn chart(source: &str) -> Flowchart {
    match parse(source) {
        Ok(Diagram::Flowchart(chart)) => chart,
        other => panic!("{source}: {other:?}"),
    }
}

fn error(source: &str) -> DiagramError {
    parse(source).expect_err(source)
}

fn edges(chart: &Flowchart) -> Vec<(&str, &str)> {
    chart.edges.iter().map(|e| (chart.nodes[e.from].id.as_str(), chart.nodes[e.to].id.as_str())).collect()
}

#[test]
fn headers_and_directions() {
    for (header, direction) in [
        ("flowchart", Direction::TopDown),
        ("graph TD", Direction::TopDown),
        ("flowchart TB", Direction::TopDown),
        ("graph BT", Direction::BottomUp),
        ("flowchart LR", Direction::LeftRight),
        ("graph RL;", Direction::RightLeft),
    ] {
        assert_eq!(chart(&format!("{header}\nA")).direction, direction, "{header}");
    }
    assert_eq!(edges(&chart("graph LR; A-->B; B-->C")), [("A", "B"), ("B", "C")]);
}

#[test]
fn chains_ampersands_and_texts() {
    let c = chart("flowchart TD\n  A --> B --> C\n  D & E --> F & G\n  A -- label --> C\n  B -->|piped| D");
    assert_eq!(
        edges(&c),
        [("A", "B"), ("B", "C"), ("D", "F"), ("D", "G"), ("E", "F"), ("E", "G"), ("A", "C"), ("B", "D")]
    );
    assert_eq!(c.edges[6].text.as_deref(), Some("label"));
    assert_eq!(c.edges[7].text.as_deref(), Some("piped"));
    assert_eq!(c.edges[0].text, None);
}

#[test]
fn node_definitions_and_later_mentions() {
    let c = chart("graph TD\nA[\"Start (here)\"] --> B{Choice?}\nB -->|yes| C([Done])\nA --> B\nC:::done");
    let texts: Vec<(&str, NodeShape)> = c.nodes.iter().map(|n| (n.text.as_str(), n.shape)).collect();
    assert_eq!(
        texts,
        [("Start (here)", NodeShape::Rectangle), ("Choice?", NodeShape::Diamond), ("Done", NodeShape::Stadium)]
    );
    assert_eq!(chart("graph TD\nA[]").nodes[0].text, "A");
}

#[test]
fn link_styles_reach_the_edges() {
    let c = chart("graph LR\nA-.->B\nB==>C\nC<-->D\nD---E\nE~~~F\nF--oG\nG--xH\nH---->I");
    let kinds: Vec<(Stroke, Head, Head, usize)> =
        c.edges.iter().map(|e| (e.stroke, e.start, e.end, e.length)).collect();
    assert_eq!(
        kinds,
        [
            (Stroke::Dotted, Head::None, Head::Arrow, 1),
            (Stroke::Thick, Head::None, Head::Arrow, 1),
            (Stroke::Normal, Head::Arrow, Head::Arrow, 1),
            (Stroke::Normal, Head::None, Head::None, 1),
            (Stroke::Invisible, Head::None, Head::None, 1),
            (Stroke::Normal, Head::None, Head::Circle, 1),
            (Stroke::Normal, Head::None, Head::Cross, 1),
            (Stroke::Normal, Head::None, Head::Arrow, 3),
        ]
    );
}

#[test]
fn subgraphs_nest_and_hold_their_first_mentions() {
    let source = "flowchart TB\n  X --> A1\n  subgraph one [First one]\n    A1 --> A2\n    subgraph inner\n      I1\n    end\n  end\n  subgraph \"Second group\"\n    B1 --> A2\n  end\n  subgraph three\n  end";
    let c = chart(source);
    let subs: Vec<(&str, &str, Option<usize>)> =
        c.subgraphs.iter().map(|s| (s.id.as_str(), s.title.as_str(), s.parent)).collect();
    assert_eq!(
        subs,
        [
            ("one", "First one", None),
            ("inner", "inner", Some(0)),
            ("Second group", "Second group", None),
            ("three", "three", None)
        ]
    );
    let held: Vec<(&str, Option<usize>)> = c.nodes.iter().map(|n| (n.id.as_str(), n.subgraph)).collect();
    assert_eq!(held, [("X", None), ("A1", Some(0)), ("A2", Some(0)), ("I1", Some(1)), ("B1", Some(2))]);
    let words = chart("graph TD\nsubgraph Some words here\nA\nend");
    assert_eq!(words.subgraphs[0].title, "Some words here");
}

#[test]
fn styling_statements_are_ignored() {
    let source = "%%{init: {'theme': 'dark'}}%%\ngraph TD\n%% a comment\nclassDef hot fill:#f00\nclass A hot\nstyle A fill:#0f0\nlinkStyle 0 stroke:#fff\nclick A \"https://example.com\"\nA --> B\nsubgraph S\ndirection LR\nC\nend";
    let c = chart(source);
    assert_eq!(edges(&c), [("A", "B")]);
    assert_eq!(c.nodes.len(), 3);
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        ("graph XY\nA", 1, 7, "unknown direction 'XY'"),
        ("graph TD\nA --> B\nend", 3, 1, "`end` without an open `subgraph`"),
        ("graph TD\nsubgraph one\nA\n", 2, 1, "subgraph 'one' is not closed"),
        ("graph TD\n  A[open --> B", 2, 4, "unterminated '['"),
        ("graph TD\nA --> B C", 2, 9, "unexpected 'C'"),
        ("graph TD\nA -->", 2, 6, "expected a node id"),
        ("graph TD\nA -- text B", 2, 3, "unterminated link text"),
        ("graph TD\nsubgraph S\nA\nend\nB --> S", 5, 7, "'S' is a subgraph"),
        ("graph TD\nsubgraph S\nend\nsubgraph S\nend", 4, 10, "defined twice"),
        ("graph TD\nA --> B\n  A ==> ", 3, 9, "expected a node id"),
    ];
    for (source, line, column, message) in cases {
        let err = error(source);
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(message), "{source:?}: {err}");
    }
}
