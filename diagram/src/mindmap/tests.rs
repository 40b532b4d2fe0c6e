//! Unit tests of the mind map parser: Mermaid's own fixtures (`mindmap.spec.ts`, MMP-*) and
//! the syntax page's forms, each error.

use crate::model::{Mindmap, NodeShape};
use crate::{parse, Diagram};

fn map(source: &str) -> Mindmap {
    match parse(source) {
        Ok(Diagram::Mindmap(map)) => map,
        other => panic!("{source}: {other:?}"),
    }
}

fn tree(m: &Mindmap) -> Vec<(&str, Vec<usize>)> {
    m.nodes.iter().map(|n| (n.text.as_str(), n.children.clone())).collect()
}

#[test]
fn indentation_makes_the_tree() {
    let m = map("mindmap\n  root((Centre))\n    A\n      A1\n      A2\n    B[Box]\n      ::icon(fa fa-book)\n      B1:::urgent\n");
    assert_eq!(
        tree(&m),
        [("Centre", vec![1, 4]), ("A", vec![2, 3]), ("A1", vec![]), ("A2", vec![]), ("Box", vec![5]), ("B1", vec![])]
    );
}

#[test]
fn indentation_edge_cases() {
    // Blank lines and lines of spaces (MMP-20, MMP-23), rows above the header (MMP-24/25).
    let m = map("\n \nmindmap\nroot\n A\n \n\n B");
    assert_eq!(tree(&m), [("root", vec![1, 2]), ("A", vec![]), ("B", vec![])]);
    // A tab counts one, as in Mermaid's lexer: the tab-indented node is shallower than the
    // two-space one, so it is the root's second child, not the grandchild.
    let m = map("mindmap\nroot\n  a\n\tb\n\t\tc");
    assert_eq!(tree(&m), [("root", vec![1, 2]), ("a", vec![]), ("b", vec![3]), ("c", vec![])]);
    // The root need not start at column 1; a dedent finds the last node indented less.
    let m = map("mindmap\n        root\n            a\n                a1\n              b\n          c");
    assert_eq!(tree(&m), [("root", vec![1, 4]), ("a", vec![2, 3]), ("a1", vec![]), ("b", vec![]), ("c", vec![])]);
    // A node on the header line is read at its column.
    assert_eq!(tree(&map("mindmap root\n  child")), [("root", vec![1]), ("child", vec![])]);
}

#[test]
fn every_shape_is_read() {
    let m = map(
        "mindmap\nr\n a[sq]\n b(round)\n c((circle))\n d))bang((\n e)cloud(\n f{{hex}}\n plain text<br>two\n (-dashes-)\n [no id]",
    );
    let shapes: Vec<NodeShape> = m.nodes.iter().map(|n| n.shape).collect();
    use NodeShape::*;
    assert_eq!(shapes, [Plain, Rectangle, Rounded, Circle, Bang, Cloud, Hexagon, Plain, Plain, Rectangle]);
    assert_eq!(m.nodes[1].text, "sq");
    assert_eq!(m.nodes[1].id.as_deref(), Some("a"));
    assert_eq!(m.nodes[7].text, "plain text\ntwo");
    assert_eq!((m.nodes[9].text.as_str(), m.nodes[9].id.as_deref()), ("no id", None));
    assert_eq!(map("mindmap\nr\n  \"quoted (text)\"").nodes[1].text, "quoted (text)");
    // MMP-17/18: brackets inside strings.
    let m = map("mindmap\n    root[\"String containing []\"]\n      child1[\"String containing ()\"]");
    assert_eq!(tree(&m), [("String containing []", vec![1]), ("String containing ()", vec![])]);
    // An id with spaces before its shape, as Mermaid reads `A text (x)`.
    let m = map("mindmap\nroot\n  My id (Text)");
    assert_eq!((m.nodes[1].id.as_deref(), m.nodes[1].text.as_str()), (Some("My id"), "Text"));
}

#[test]
fn decorations_comments_and_classes() {
    // MMP-13..16, MMP-19, MMP-21, MMP-22.
    let m = map(
        "mindmap\n  root(Root)\n    Child(Child)\n    :::hot\n      a(a) %% a comment\n      %% a comment line\n      b[New Stuff]\n    ::icon(bomb)\n    :::m-4 p-8",
    );
    assert_eq!(tree(&m), [("Root", vec![1]), ("Child", vec![2, 3]), ("a", vec![]), ("New Stuff", vec![])]);
}

#[test]
fn strings_span_lines_and_markdown_becomes_emphasis() {
    use crate::text::markdown::{BOLD, ITALIC};
    let m = map("mindmap\n    id1[\"`**Root** with\na second line\nUnicode works too: 🤓`\"]\n      id2[\"`The dog in **the** hog... a *very long text*`\"]\n      id3[plain\n      over two lines]\n      id4[\"a #quot;string#quot;\n   on two\"]");
    assert_eq!(m.nodes[0].text, "Root with\na second line\nUnicode works too: 🤓");
    assert!(m.nodes[0].emphasis[0] & BOLD != 0 && m.nodes[0].emphasis[5] & BOLD == 0);
    assert_eq!(m.nodes[0].children, [1, 2, 3]);
    assert!(m.nodes[1].emphasis.iter().any(|mark| mark & ITALIC != 0));
    assert_eq!(m.nodes[2].text, "plain\nover two lines");
    assert!(m.nodes[2].emphasis.is_empty());
    assert_eq!(m.nodes[3].text, "a \"string\"\non two");
    // A plain markdown line without a shape.
    assert!(map("mindmap\nr\n  \"`**b**`\"").nodes[1].emphasis[0] & BOLD != 0);
}

#[test]
fn errors_name_line_and_column() {
    let cases = [
        ("mindmap\nroot\nsecond root", 3, 1, "one root"),
        ("mindmap\n          root\n        fakeRoot\n    realRootWrongPlace", 3, 9, "one root"),
        ("mindmap\nroot\n  a[open", 3, 4, "unterminated '['"),
        ("mindmap\nroot\n  a[open\n  b[x", 3, 4, "unterminated '['"),
        ("mindmap\nroot\n  a(\"open)", 3, 5, "unterminated string"),
        ("mindmap\nroot\n  a[x] trailing", 3, 8, "unexpected 'trailing'"),
        ("mindmap\nroot\n  a[\"x\" y]", 3, 9, "expected ']'"),
        ("mindmap\nroot\n  a{x}", 3, 4, "unexpected '{'"),
        ("mindmap\n", 1, 8, "no root"),
    ];
    for (source, line, column, message) in cases {
        let err = parse(source).expect_err(source);
        assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
        assert!(err.message.contains(message), "{source:?}: {err}");
    }
}
