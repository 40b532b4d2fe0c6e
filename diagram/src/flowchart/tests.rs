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
            ("subGraph2", "Second group", None),
            ("three", "three", None)
        ]
    );
    let held: Vec<(&str, Option<usize>)> = c.nodes.iter().map(|n| (n.id.as_str(), n.subgraph)).collect();
    assert_eq!(held, [("X", None), ("A1", Some(0)), ("A2", Some(0)), ("I1", Some(1)), ("B1", Some(2))]);
}

#[test]
fn subgraph_headers_of_every_form() {
    let cases = [
        ("subgraph Group Chat", "subGraph0", "Group Chat"),
        ("subgraph id1 [Some title]", "id1", "Some title"),
        ("subgraph id1[\"Quoted [title]\"]", "id1", "Quoted [title]"),
        ("subgraph \"Main\" timeline", "subGraph0", "Main timeline"),
        ("subgraph \"`**Bold** title`\"", "subGraph0", "Bold title"),
        ("subgraph plain", "plain", "plain"),
        ("subgraph", "subGraph0", ""),
        ("subgraph a-b.c", "a-b.c", "a-b.c"),
    ];
    for (header, id, title) in cases {
        let c = chart(&format!("flowchart LR\n{header}\n  A --> B\nend"));
        assert_eq!((c.subgraphs[0].id.as_str(), c.subgraphs[0].title.as_str()), (id, title), "{header}");
        assert_eq!(c.nodes[0].subgraph, Some(0), "{header}");
    }
    let again = chart("graph TD\nsubgraph S\nA\nend\nsubgraph S\nB\nend");
    assert_eq!((again.subgraphs.len(), again.nodes[1].subgraph), (1, Some(0)), "a subgraph written again goes on");
    let c = chart("graph TD\nsubgraph S\ndirection LR\nC\nend\nsubgraph T\nD\nend");
    assert_eq!((c.subgraphs[0].direction, c.subgraphs[1].direction), (Some(Direction::LeftRight), None));
}

#[test]
fn links_to_and_from_subgraphs_attach_to_them() {
    let c =
        chart("graph TD\nA --> S\nsubgraph S\n  B --> C\nend\nS --> T\nsubgraph T\n  subgraph U\n    D\n  end\nend");
    let ids: Vec<&str> = c.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["A", "B", "C", "D"], "subgraph ids are not nodes");
    assert_eq!(edges(&c), [("A", "B"), ("B", "C"), ("B", "D")]);
    let ends: Vec<(Option<usize>, Option<usize>)> = c.edges.iter().map(|e| (e.from_subgraph, e.to_subgraph)).collect();
    assert_eq!(ends, [(None, Some(0)), (None, None), (Some(0), Some(1))]);
    assert_eq!(c.nodes[c.edges[2].to].id, "D", "a node inside, nested subgraphs included, stands for it");
    // An empty subgraph linked to is drawn as Mermaid draws it: a node titled like it, in its place.
    let c = chart(
        "graph TD\nsubgraph Outer\n  X\n  subgraph E [Empty box]\n  end\nend\nA --> E\nsubgraph F\nY\nend\nE --> F",
    );
    let ids: Vec<&str> = c.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["X", "A", "E", "Y"]);
    let e = &c.nodes[2];
    assert_eq!((e.text.as_str(), e.subgraph), ("Empty box", Some(0)), "inside Outer, titled");
    let subs: Vec<&str> = c.subgraphs.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(subs, ["Outer", "F"], "the empty subgraph is gone, the later one renumbered");
    assert_eq!((c.nodes[3].subgraph, c.edges[1].to_subgraph), (Some(1), Some(1)));
    assert_eq!(edges(&c), [("A", "E"), ("E", "Y")]);
    // A subgraph holding only empty subgraphs still has nothing a link could attach to.
    let err = error("graph TD\nsubgraph E\nsubgraph G\nend\nend\nA --> E");
    assert_eq!((err.line, err.column), (6, 7), "{err}");
    assert!(err.message.contains("no nodes"), "{err}");
}

#[test]
fn strings_run_over_lines_and_markdown_is_read() {
    let c = chart("graph TD\nA[\"first line\n   second line\"] --> B[\"`**bold** and _it_`\"]");
    assert_eq!(c.nodes[0].text, "first line\nsecond line");
    assert_eq!(c.nodes[1].text, "bold and it");
    assert_eq!(c.nodes[1].marks[0], crate::text::markdown::BOLD);
    assert_eq!(c.nodes[1].marks[9], crate::text::markdown::ITALIC);
    let c = chart("graph TD\nA -->|\"`a *b*`\"| B\nC[I #9829; you<br/>#quot;x#quot;]");
    assert_eq!(c.edges[0].text.as_deref(), Some("a b"));
    assert_eq!(c.nodes[2].text, "I ♥ you\n\"x\"");
}

#[test]
fn links_continue_on_the_next_line_and_have_ids() {
    let c = chart("graph LR\nA -->\n  B\nB\n  --> C\nC e1@--> D\ne1@{ animate: true }\nD e2@-- text --> E");
    assert_eq!(edges(&c), [("A", "B"), ("B", "C"), ("C", "D"), ("D", "E")]);
    assert_eq!(c.edges[2].id.as_deref(), Some("e1"));
    assert_eq!((c.edges[3].id.as_deref(), c.edges[3].text.as_deref()), (Some("e2"), Some("text")));
    assert_eq!(c.nodes.len(), 5, "edge metadata makes no node");
    let c = chart("graph TD\nA\no --> B");
    assert_eq!(edges(&c), [("o", "B")], "o on a new line is a node");
}

#[test]
fn shape_data_and_every_named_shape() {
    for (names, shape) in super::shape_names::SHAPES {
        for name in *names {
            let c = chart(&format!("flowchart TD\nA@{{ shape: {name}, label: \"Text\" }} --> B"));
            assert_eq!((c.nodes[0].shape, c.nodes[0].text.as_str()), (*shape, "Text"), "{name}");
        }
    }
    let c = chart("flowchart TD\nA@{ shape: doc,\n  label: \"Two\n  lines\" }\nB@{ shape: rounded }");
    assert_eq!((c.nodes[0].text.as_str(), c.nodes[1].text.as_str()), ("Two\nlines", "B"));
}

#[test]
fn statements_that_draw_nothing_are_read() {
    let source = "---\ntitle: My chart\nconfig:\n  flowchart:\n    curve: linear\n---\n%%{init: {'theme': 'dark'}}%%\nflowchart-elk TD\n%% a comment\naccTitle: The title\naccDescr: One line\naccDescr {\n  many\n  lines\n}\nclick A \"https://example.com\" \"tip\" _blank\nclick B call back(1)\nA --> B; B --> C;\nsubgraph S\ndirection LR\nC\nend";
    let c = chart(source);
    assert_eq!(edges(&c), [("A", "B"), ("B", "C")]);
    assert_eq!(c.title.as_deref(), Some("My chart"));
    assert_eq!(c.nodes.len(), 3);
}

#[test]
fn styles_reach_nodes_subgraphs_and_edges() {
    let source = "graph TD\nclassDef hot fill:#f00,color:white\nclassDef default stroke:#0f0\nclassDef a,b stroke-width:3px\nA:::hot --> B\nclass B,S hot\nstyle A fill:#00f\nlinkStyle 0 stroke:#ff990080,stroke-width:5px\nlinkStyle default stroke:orange\nlinkStyle 7 stroke:red\nB --> C\nsubgraph S\nC\nend\nclass C a";
    let c = chart(source);
    let hex = |c: Option<crate::styling::Color>| c.map(|c| c.hex_argb());
    assert_eq!(hex(c.nodes[0].style.fill).as_deref(), Some("#0000FF"), "style wins over the class");
    assert_eq!(hex(c.nodes[0].style.color).as_deref(), Some("#FFFFFF"));
    assert_eq!(hex(c.nodes[0].style.stroke).as_deref(), Some("#00FF00"), "default applies to every node");
    assert_eq!(hex(c.nodes[1].style.fill).as_deref(), Some("#FF0000"));
    assert_eq!(c.nodes[2].style.stroke_width, Some(3.0));
    assert_eq!(hex(c.subgraphs[0].style.fill).as_deref(), Some("#FF0000"));
    assert_eq!(hex(c.edges[0].style.stroke).as_deref(), Some("#80FF9900"));
    assert_eq!(c.edges[0].style.stroke_width, Some(5.0));
    assert_eq!(hex(c.edges[1].style.stroke).as_deref(), Some("#FFA500"), "default, out-of-range index ignored");
}

#[test]
fn ids_may_hold_keywords_and_other_scripts() {
    let c = chart("graph TD\na-end-node --> a.class.node\nnode_subgraph --> 节点1\nendpoint --> styles");
    let ids: Vec<&str> = c.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["a-end-node", "a.class.node", "node_subgraph", "节点1", "endpoint", "styles"]);
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
        ("graph TD\nA --> B\n  A ==> ", 3, 9, "expected a node id"),
        ("graph TD\nA[\"open\n\nB --> C", 2, 3, "unterminated string"),
        ("graph TD\nA@{ shape: nope }", 2, 12, "unknown shape 'nope'"),
        ("graph TD\naccDescr {\nnever closed", 2, 1, "unterminated `accDescr {`"),
        ("graph TD\nsubgraph S\ndirection XY\nend", 3, 11, "unknown direction 'XY'"),
    ];
    for (source, line, column, message) in cases {
        let err = error(source);
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(message), "{source:?}: {err}");
    }
}
