//! The mind map parser: one node per line, its parent the nearest line above
//! indented less; shapes `[sq]`, `(rounded)`, `((circle))`, `))bang((`,
//! `)cloud(`, `{{hex}}`, with an optional id before them. `::icon(…)` lines
//! and `:::class` suffixes are ignored.

use crate::model::{MindNode, Mindmap, NodeShape};
use crate::source::{is_id_char, Cursor, Line};
use crate::text;
use crate::{Diagram, DiagramError};

/// Openers, longest first, with their closers and shapes.
const SHAPES: &[(&str, &str, NodeShape)] = &[
    ("((", "))", NodeShape::Circle),
    ("))", "((", NodeShape::Bang),
    (")", "(", NodeShape::Cloud),
    ("(", ")", NodeShape::Rounded),
    ("{{", "}}", NodeShape::Hexagon),
    ("[", "]", NodeShape::Rectangle),
];

/// Parses a mind map from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<Diagram, DiagramError> {
    let mut header = Cursor::new(lines[0]);
    header.skip_ws();
    header.take_while(|c| !c.is_whitespace());
    header.skip_ws();
    if !header.eof() {
        return Err(header.error(format!("unexpected {} after `mindmap`: nodes go on their own lines", header.token())));
    }
    let mut nodes: Vec<MindNode> = Vec::new();
    // The chain of open ancestors: indent and node index.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for line in &lines[1..] {
        let mut cur = Cursor::new(*line);
        cur.skip_ws();
        if cur.starts_with("::icon(") {
            continue;
        }
        if cur.starts_with(":::") {
            continue;
        }
        let indent = line.indent();
        let (id, shape, label) = node(&mut cur)?;
        while stack.last().is_some_and(|&(i, _)| i >= indent) {
            stack.pop();
        }
        let index = nodes.len();
        match stack.last() {
            Some(&(_, parent)) => nodes[parent].children.push(index),
            None if nodes.is_empty() => {}
            None => {
                return Err(DiagramError::new(
                    line.number,
                    indent + 1,
                    "a mind map has one root: indent this node under it",
                ))
            }
        }
        nodes.push(MindNode { id, text: label, shape, children: Vec::new() });
        stack.push((indent, index));
    }
    if nodes.is_empty() {
        return Err(DiagramError::new(lines[0].number, lines[0].text.len() + 1, "the mind map has no root node"));
    }
    Ok(Diagram::Mindmap(Mindmap { nodes }))
}

/// One node line: `id(shape)` or plain text.
fn node(cur: &mut Cursor) -> Result<(Option<String>, NodeShape, String), DiagramError> {
    let start = cur.clone();
    let id = cur.take_while(is_id_char);
    let opener = SHAPES.iter().find(|(open, ..)| cur.starts_with(open));
    let Some(&(open, close, shape)) = opener else {
        *cur = start;
        let raw = cur.take_rest();
        let raw = raw.split(":::").next().unwrap_or_default().trim();
        let raw = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
        return Ok((None, NodeShape::Plain, text::nonempty(text::clean(raw))));
    };
    let open_col = cur.col();
    cur.eat(open);
    let inner = cur.rest();
    let trimmed = inner.trim_start();
    let (raw, after) = if let Some(quoted) = trimmed.strip_prefix('"') {
        let end = quoted
            .find('"')
            .ok_or_else(|| cur.error_at(open_col + open.len(), "unterminated string: expected a closing '\"'"))?;
        (quoted[..end].to_owned(), quoted[end + 1..].trim_start().to_owned())
    } else {
        // The closer is the last one on the line: texts may hold the shape's own brackets.
        let end = inner
            .rfind(close)
            .ok_or_else(|| cur.error_at(open_col, format!("unterminated '{open}': expected '{close}'")))?;
        (inner[..end].to_owned(), inner[end..].to_owned())
    };
    let Some(rest) = after.strip_prefix(close) else {
        let col = open_col + open.chars().count() + inner.chars().count() - after.chars().count();
        return Err(cur.error_at(col, format!("expected '{close}' to close '{open}' opened at column {open_col}")));
    };
    let rest = rest.trim();
    if !rest.is_empty() && !rest.starts_with(":::") {
        let col = cur.col() + inner.chars().count() - rest.chars().count();
        return Err(cur.error_at(col, format!("unexpected '{rest}' after the node")));
    }
    let label = text::clean(&raw);
    let label = if label.is_empty() { text::clean(&id) } else { label };
    Ok((Some(id).filter(|id| !id.is_empty()), shape, text::nonempty(label)))
}

#[cfg(test)]
mod tests {
    use crate::model::{Mindmap, NodeShape};
    use crate::{parse, Diagram};

    fn map(source: &str) -> Mindmap {
        match parse(source) {
            Ok(Diagram::Mindmap(map)) => map,
            other => panic!("{source}: {other:?}"),
        }
    }

    #[test]
    fn indentation_makes_the_tree() {
        let m = map("mindmap\n  root((Centre))\n    A\n      A1\n      A2\n    B[Box]\n      ::icon(fa fa-book)\n      B1:::urgent\n");
        let tree: Vec<(&str, &[usize])> = m.nodes.iter().map(|n| (n.text.as_str(), n.children.as_slice())).collect();
        assert_eq!(
            tree,
            [
                ("Centre", &[1, 4][..]),
                ("A", &[2, 3][..]),
                ("A1", &[][..]),
                ("A2", &[][..]),
                ("Box", &[5][..]),
                ("B1", &[][..])
            ]
        );
    }

    #[test]
    fn every_shape_is_read() {
        let m =
            map("mindmap\nr\n a[sq]\n b(round)\n c((circle))\n d))bang((\n e)cloud(\n f{{hex}}\n plain text<br>two");
        let shapes: Vec<NodeShape> = m.nodes.iter().map(|n| n.shape).collect();
        use NodeShape::*;
        assert_eq!(shapes, [Plain, Rectangle, Rounded, Circle, Bang, Cloud, Hexagon, Plain]);
        assert_eq!(m.nodes[1].text, "sq");
        assert_eq!(m.nodes[7].text, "plain text\ntwo");
        assert_eq!(map("mindmap\nr\n  \"quoted (text)\"").nodes[1].text, "quoted (text)");
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases = [
            ("mindmap\nroot\nsecond root", 3, 1, "one root"),
            ("mindmap\nroot\n  a[open", 3, 4, "unterminated '['"),
            ("mindmap\nroot\n  a(\"open)", 3, 5, "unterminated string"),
            ("mindmap\nroot\n  a[x] trailing", 3, 8, "unexpected 'trailing'"),
            ("mindmap root", 1, 9, "own lines"),
            ("mindmap\n", 1, 8, "no root"),
        ];
        for (source, line, column, message) in cases {
            let err = parse(source).expect_err(source);
            assert_eq!((err.line, err.column), (line, column), "{source:?}: {err}");
            assert!(err.message.contains(message), "{source:?}: {err}");
        }
    }
}
