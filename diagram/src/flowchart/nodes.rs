//! Flowchart nodes: an id, optionally followed by a shape with its text
//! (`A[text]`, `A{{text}}`, `A[/text\]`…), and an ignored `:::class`.

use crate::model::NodeShape;
use crate::source::{is_id_char, Cursor};
use crate::text;
use crate::DiagramError;

/// A node as written at one place.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRef {
    /// Its id.
    pub id: String,
    /// Column of the id.
    pub column: usize,
    /// Shape and text, when written here.
    pub shape: Option<(NodeShape, String)>,
}

/// Openers, longest first, with their closers and shapes. `[/` and `[\`
/// close with either slash, which decides the shape.
const OPENERS: &[(&str, &str, NodeShape)] = &[
    ("(((", ")))", NodeShape::DoubleCircle),
    ("((", "))", NodeShape::Circle),
    ("([", "])", NodeShape::Stadium),
    ("(", ")", NodeShape::Rounded),
    ("[[", "]]", NodeShape::Subroutine),
    ("[(", ")]", NodeShape::Cylinder),
    ("[/", "/]", NodeShape::Parallelogram),
    ("[\\", "\\]", NodeShape::ParallelogramAlt),
    ("[", "]", NodeShape::Rectangle),
    ("{{", "}}", NodeShape::Hexagon),
    ("{", "}", NodeShape::Diamond),
    (">", "]", NodeShape::Asymmetric),
];

/// Reads an id: letters, digits, `_`, and `-` or `.` between such characters
/// (so `my-node` is one id while `A-->B` is not).
pub fn read_id(cur: &mut Cursor) -> String {
    let mut id = String::new();
    while let Some(c) = cur.peek() {
        let joins = matches!(c, '-' | '.') && !id.is_empty() && cur.peek_at(1).is_some_and(is_id_char);
        if is_id_char(c) || joins {
            id.push(c);
            cur.bump();
        } else {
            break;
        }
    }
    id
}

/// Reads a node at the cursor.
pub fn parse(cur: &mut Cursor) -> Result<NodeRef, DiagramError> {
    let column = cur.col();
    let id = read_id(cur);
    if id.is_empty() {
        return Err(cur.error(format!("expected a node id, found {}", cur.token())));
    }
    let shape = shape(cur)?;
    if shape.is_none() && cur.peek() == Some('@') {
        return Err(cur.error("node shapes written as `@{…}` are not supported: use brackets such as `A[text]`"));
    }
    if cur.eat(":::") {
        cur.take_while(|c| is_id_char(c) || c == '-');
    }
    Ok(NodeRef { id, column, shape })
}

/// A shape with its text at the cursor (`[text]`, `((text))`…), if one starts there.
pub fn shape(cur: &mut Cursor) -> Result<Option<(NodeShape, String)>, DiagramError> {
    let Some(&(open, close, kind)) = OPENERS.iter().find(|(open, ..)| cur.starts_with(open)) else {
        return Ok(None);
    };
    let open_col = cur.col();
    cur.eat(open);
    shape_text(cur, open, close, kind, open_col).map(Some)
}

/// The text after an opener, up to its closer.
fn shape_text(
    cur: &mut Cursor,
    open: &str,
    close: &str,
    kind: NodeShape,
    open_col: usize,
) -> Result<(NodeShape, String), DiagramError> {
    // `[/…/]` and `[/…\]` (and the mirrored pair) share an opener.
    let closers: Vec<(&str, NodeShape)> = match kind {
        NodeShape::Parallelogram => vec![("/]", NodeShape::Parallelogram), ("\\]", NodeShape::Trapezoid)],
        NodeShape::ParallelogramAlt => vec![("\\]", NodeShape::ParallelogramAlt), ("/]", NodeShape::TrapezoidAlt)],
        _ => vec![(close, kind)],
    };
    let unterminated = |cur: &Cursor| {
        let wanted: Vec<String> = closers.iter().map(|(c, _)| format!("'{c}'")).collect();
        cur.error_at(open_col, format!("unterminated '{open}': expected {}", wanted.join(" or ")))
    };
    let first = cur.clone();
    let mut probe = cur.clone();
    probe.skip_ws();
    let raw = if probe.peek() == Some('"') {
        let quote_col = probe.col();
        probe.bump();
        let Some(end) = probe.find("\"") else {
            return Err(probe.error_at(quote_col, "unterminated string: expected a closing '\"'"));
        };
        let raw = probe.take_to(end);
        probe.bump();
        probe.skip_ws();
        *cur = probe;
        raw
    } else {
        let end = closers.iter().filter_map(|(c, _)| first.find(c)).min().ok_or_else(|| unterminated(cur))?;
        cur.take_to(end)
    };
    let Some(&(closer, shape)) = closers.iter().find(|(c, _)| cur.starts_with(c)) else {
        if cur.eof() {
            return Err(unterminated(cur));
        }
        let wanted: Vec<String> = closers.iter().map(|(c, _)| format!("'{c}'")).collect();
        return Err(cur.error(format!(
            "expected {} to close '{open}' opened at column {open_col}, found {}",
            wanted.join(" or "),
            cur.token()
        )));
    };
    cur.eat(closer);
    Ok((shape, text::clean(&raw)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Line;

    fn node(text: &str) -> Result<(NodeRef, String), DiagramError> {
        let mut cur = Cursor::new(Line { number: 1, text });
        let node = parse(&mut cur)?;
        Ok((node, cur.rest()))
    }

    #[test]
    fn every_shape_is_read() {
        let cases = [
            ("A[rect]", NodeShape::Rectangle),
            ("A(round)", NodeShape::Rounded),
            ("A([pill])", NodeShape::Stadium),
            ("A((circle))", NodeShape::Circle),
            ("A(((double)))", NodeShape::DoubleCircle),
            ("A{rhombus}", NodeShape::Diamond),
            ("A{{hex}}", NodeShape::Hexagon),
            ("A[/para/]", NodeShape::Parallelogram),
            ("A[\\alt\\]", NodeShape::ParallelogramAlt),
            ("A[/trap\\]", NodeShape::Trapezoid),
            ("A[\\inv/]", NodeShape::TrapezoidAlt),
            ("A[(db)]", NodeShape::Cylinder),
            ("A[[sub]]", NodeShape::Subroutine),
            ("A>flag]", NodeShape::Asymmetric),
        ];
        for (text, shape) in cases {
            let (n, rest) = node(text).unwrap();
            assert_eq!((n.id.as_str(), n.shape.map(|s| s.0), rest.as_str()), ("A", Some(shape), ""), "{text}");
        }
    }

    #[test]
    fn ids_texts_and_classes() {
        let (n, rest) = node("my-node.x[\"text with (parens) and ]\"]:::hot --> B").unwrap();
        assert_eq!(n.id, "my-node.x");
        assert_eq!(n.shape, Some((NodeShape::Rectangle, "text with (parens) and ]".into())));
        assert_eq!(rest, " --> B");
        let (n, rest) = node("A-->B").unwrap();
        assert_eq!((n.id.as_str(), n.shape, rest.as_str()), ("A", None, "-->B"));
        let (n, _) = node("B[one<br/>two]").unwrap();
        assert_eq!(n.shape.unwrap().1, "one\ntwo");
    }

    #[test]
    fn broken_nodes_are_errors_at_their_token() {
        let cases = [
            ("A[open", 2, "unterminated '['"),
            ("A((open)", 2, "unterminated '(('"),
            ("A[\"open]", 3, "unterminated string"),
            ("A[\"text\" x]", 10, "expected ']' to close '['"),
            ("-->B", 1, "expected a node id"),
            ("A@{ shape: rect }", 2, "not supported"),
        ];
        for (text, col, message) in cases {
            let err = node(text).unwrap_err();
            assert_eq!(err.column, col, "{text}: {err}");
            assert!(err.message.contains(message), "{text}: {err}");
        }
    }
}
