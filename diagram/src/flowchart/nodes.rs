//! Flowchart nodes: an id, optionally followed by a shape with its text
//! (`A[text]`, `A{{text}}`, `A[/text\]`…), shape data (`A@{ shape: doc, label: "x" }`) and
//! `:::class`. Texts may be quoted (`"…"`, running over lines) or markdown strings (`"`…`"`).

use crate::error::DiagramError;
use crate::graph::NodeShape;
use crate::source::Cursor;
use crate::text::markdown::{self, Rich};

use super::shape_names;

/// A node as written at one place.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRef {
    /// Its id.
    pub id: String,
    /// Position of the id.
    pub pos: usize,
    /// Shape and text, when written here (the text empty when only the shape is given).
    pub shape: Option<(NodeShape, Rich)>,
    /// Whether shape data (`@{…}`) was written here.
    pub data: bool,
    /// Classes given with `:::`.
    pub classes: Vec<String>,
}

/// Openers, longest first, with their closers and shapes. `[/` and `[\`
/// close with either slash, which decides the shape.
const OPENERS: &[(&str, &str, NodeShape)] = &[
    ("(((", ")))", NodeShape::DoubleCircle),
    ("((", "))", NodeShape::Circle),
    ("(-", "-)", NodeShape::Cloud),
    ("([", "])", NodeShape::Stadium),
    ("(", ")", NodeShape::Rounded),
    ("[[", "]]", NodeShape::Subroutine),
    ("[(", ")]", NodeShape::Cylinder),
    ("[/", "/]", NodeShape::Parallelogram),
    ("[\\", "\\]", NodeShape::ParallelogramAlt),
    ("[|", "]", NodeShape::Rectangle),
    ("[", "]", NodeShape::Rectangle),
    ("{{", "}}", NodeShape::Hexagon),
    ("{", "}", NodeShape::Diamond),
    (">", "]", NodeShape::Asymmetric),
];

/// Whether `c` may be part of an id (Mermaid's node strings: letters of any script, digits and
/// `_ ! # $ * + . ? \ / ' :`, with `-` and `=` handled by [`read_id`]).
fn id_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '!' | '#' | '$' | '*' | '+' | '.' | '?' | '\\' | '/' | '\'' | ':')
}

/// Reads an id. `-` belongs to it unless a link starts there (`-` before `-`, `>` or `.`), `=`
/// unless `==` follows, `.` unless it starts a dotted link, `:` unless it starts `:::`.
pub fn read_id(cur: &mut Cursor) -> String {
    let mut id = String::new();
    while let Some(c) = cur.peek() {
        let next = cur.peek_at(1);
        let takes = match c {
            '-' => !matches!(next, Some('-' | '>' | '.') | None) && next.is_some_and(|n| !n.is_whitespace()),
            '=' => next != Some('=') && next.is_some_and(|n| !n.is_whitespace()),
            '.' => next != Some('-'),
            ':' => !cur.starts_with(":::"),
            // `A/B` is an id, but `[/` and `[\` openers are not part of one.
            c => id_char(c),
        };
        if !takes {
            break;
        }
        id.push(c);
        cur.bump();
    }
    id
}

/// Reads a node at the cursor.
pub fn parse(cur: &mut Cursor) -> Result<NodeRef, DiagramError> {
    let pos = cur.pos;
    let id = read_id(cur);
    if id.is_empty() {
        return Err(cur.error(format!("expected a node id, found {}", cur.token())));
    }
    let mut node = NodeRef { id, pos, shape: shape(cur)?, data: false, classes: Vec::new() };
    loop {
        if cur.starts_with("@{") {
            let (shape, label) = shape_data(cur)?;
            node.data = true;
            match (&mut node.shape, shape) {
                (Some((old, text)), new) => {
                    *old = new.unwrap_or(*old);
                    if let Some(label) = label {
                        *text = label;
                    }
                }
                (None, new) => {
                    if new.is_some() || label.is_some() {
                        node.shape = Some((new.unwrap_or(NodeShape::Rectangle), label.unwrap_or_default()));
                    }
                }
            }
        } else if cur.eat(":::") {
            let class = cur.take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-'));
            if !class.is_empty() {
                node.classes.push(class);
            }
        } else {
            return Ok(node);
        }
    }
}

/// A shape with its text at the cursor (`[text]`, `((text))`…), if one starts there.
pub fn shape(cur: &mut Cursor) -> Result<Option<(NodeShape, Rich)>, DiagramError> {
    let Some(&(open, close, kind)) = OPENERS.iter().find(|(open, ..)| cur.starts_with(open)) else {
        return Ok(None);
    };
    let open_pos = cur.pos;
    cur.eat(open);
    if open == "[|" {
        // `A[|field:value|text]`: the field is Mermaid's, the text is ours.
        let Some(bar) = cur.find_before("|", cur.line_end()) else {
            return Err(cur.error_at_pos(open_pos, "unterminated '[|': expected a closing '|'"));
        };
        cur.pos = bar + 1;
    }
    shape_text(cur, open, close, kind, open_pos).map(Some)
}

/// A quoted string at the cursor (after its opening `"`), read to its closing quote, which may
/// be lines further: a markdown string when back-ticks wrap it.
pub fn quoted(cur: &mut Cursor, quote_pos: usize) -> Result<Rich, DiagramError> {
    let Some(end) = cur.find("\"") else {
        return Err(cur.error_at_pos(quote_pos, "unterminated string: expected a closing '\"'"));
    };
    let raw = cur.take_to(end);
    cur.bump();
    Ok(text_of(&raw))
}

/// A text as written: a markdown string (back-ticks) is read for bold and italic, any other is
/// plain text.
pub fn text_of(raw: &str) -> Rich {
    let trimmed = raw.trim();
    match trimmed.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        Some(markdown) => markdown::markdown(markdown),
        None => markdown::plain(raw),
    }
}

/// The text after an opener, up to its closer.
fn shape_text(
    cur: &mut Cursor,
    open: &str,
    close: &str,
    kind: NodeShape,
    open_pos: usize,
) -> Result<(NodeShape, Rich), DiagramError> {
    // `[/…/]` and `[/…\]` (and the mirrored pair) share an opener.
    let closers: Vec<(&str, NodeShape)> = match kind {
        NodeShape::Parallelogram => vec![("/]", NodeShape::Parallelogram), ("\\]", NodeShape::Trapezoid)],
        NodeShape::ParallelogramAlt => vec![("\\]", NodeShape::ParallelogramAlt), ("/]", NodeShape::TrapezoidAlt)],
        _ => vec![(close, kind)],
    };
    let wanted = || closers.iter().map(|(c, _)| format!("'{c}'")).collect::<Vec<_>>().join(" or ");
    let mut probe = cur.clone();
    probe.skip_ws();
    let text = if probe.peek() == Some('"') {
        let quote_pos = probe.pos;
        probe.bump();
        let text = quoted(&mut probe, quote_pos)?;
        probe.skip_ws();
        *cur = probe;
        text
    } else {
        // Unquoted text runs to the closer, over lines if it must (Mermaid's text does).
        let end = closers.iter().filter_map(|(c, _)| cur.find(c)).min();
        let Some(end) = end else {
            return Err(cur.error_at_pos(open_pos, format!("unterminated '{open}': expected {}", wanted())));
        };
        text_of(&cur.take_to(end))
    };
    let Some(&(closer, shape)) = closers.iter().find(|(c, _)| cur.starts_with(c)) else {
        if cur.eof() {
            return Err(cur.error_at_pos(open_pos, format!("unterminated '{open}': expected {}", wanted())));
        }
        let (_, col) = cur.place(open_pos);
        return Err(cur.error(format!(
            "expected {} to close '{open}' opened at column {col}, found {}",
            wanted(),
            cur.token()
        )));
    };
    cur.eat(closer);
    Ok((shape, text))
}

/// `@{ shape: doc, label: "text", … }`: the shape (by any of Mermaid's names) and the label;
/// the other keys (`icon`, `img`, `pos`, `w`, `h`, `animate`…) are read and ignored.
pub fn shape_data(cur: &mut Cursor) -> Result<(Option<NodeShape>, Option<Rich>), DiagramError> {
    let start = cur.pos;
    cur.eat("@{");
    let mut shape = None;
    let mut label = None;
    loop {
        // Entries are separated by commas or line breaks.
        while cur.peek().is_some_and(|c| c.is_whitespace() || c == ',') {
            cur.bump();
        }
        match cur.peek() {
            None => return Err(cur.error_at_pos(start, "unterminated '@{': expected a closing '}'")),
            Some('}') => {
                cur.bump();
                return Ok((shape, label));
            }
            _ => {}
        }
        let key_pos = cur.pos;
        let key = cur.take_while(|c| !matches!(c, ':' | '}' | ',' | '\n'));
        if !cur.eat(":") {
            return Err(cur.error_at_pos(key_pos, format!("expected `key: value` in '@{{…}}', found '{}'", key.trim())));
        }
        cur.skip_spaces();
        let value_pos = cur.pos;
        let value = match cur.peek() {
            Some(q @ ('"' | '\'')) => {
                cur.bump();
                let Some(raw) = yaml_string(cur, q) else {
                    return Err(cur.error_at_pos(value_pos, format!("unterminated string: expected a closing '{q}'")));
                };
                // A string over lines is one text, its lines its lines.
                text_of(&raw.split('\n').map(str::trim).collect::<Vec<_>>().join("\n"))
            }
            _ => {
                let raw = cur.take_while(|c| !matches!(c, ',' | '}' | '\n'));
                // A label read like any node text (markup cleaned), a shape name as written.
                if key.trim() == "label" {
                    text_of(raw.trim())
                } else {
                    Rich { text: raw.trim().to_owned(), marks: Vec::new() }
                }
            }
        };
        match key.trim() {
            "shape" => {
                let name = value.text.trim();
                shape = Some(shape_names::shape(name).ok_or_else(|| {
                    cur.error_at_pos(value_pos, format!("unknown shape '{name}': expected one of Mermaid's shape names such as rect, rounded, diam, cyl, doc"))
                })?);
            }
            "label" => label = Some(value),
            _ => {}
        }
    }
}

/// The rest of a quoted value of shape data, which Mermaid reads as YAML: in double quotes `\"`,
/// `\\` and `\/` stand for the character and `\n`, `\t` for a line break and a tab (any other
/// backslash is kept as written); in single quotes `''` stands for one quote. Leaves the cursor
/// after the closing quote; None when there is none.
fn yaml_string(cur: &mut Cursor, quote: char) -> Option<String> {
    let mut out = String::new();
    loop {
        let c = cur.bump()?;
        if c == quote {
            if quote == '\'' && cur.peek() == Some('\'') {
                cur.bump();
                out.push('\'');
                continue;
            }
            return Some(out);
        }
        if c == '\\' && quote == '"' {
            match cur.peek() {
                Some(e @ ('"' | '\\' | '/')) => {
                    cur.bump();
                    out.push(e);
                }
                Some('n') => {
                    cur.bump();
                    out.push('\n');
                }
                Some('t') => {
                    cur.bump();
                    out.push('\t');
                }
                _ => out.push(c),
            }
            continue;
        }
        out.push(c);
    }
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

    fn text(n: &NodeRef) -> String {
        n.shape.as_ref().map(|s| s.1.text.clone()).unwrap_or_default()
    }

    #[test]
    fn every_shape_is_read() {
        let cases = [
            ("A[rect]", NodeShape::Rectangle),
            ("A(round)", NodeShape::Rounded),
            ("A([pill])", NodeShape::Stadium),
            ("A((circle))", NodeShape::Circle),
            ("A(((double)))", NodeShape::DoubleCircle),
            ("A(-ellipse-)", NodeShape::Cloud),
            ("A{rhombus}", NodeShape::Diamond),
            ("A{{hex}}", NodeShape::Hexagon),
            ("A[/para/]", NodeShape::Parallelogram),
            ("A[\\alt\\]", NodeShape::ParallelogramAlt),
            ("A[/trap\\]", NodeShape::Trapezoid),
            ("A[\\inv/]", NodeShape::TrapezoidAlt),
            ("A[(db)]", NodeShape::Cylinder),
            ("A[[sub]]", NodeShape::Subroutine),
            ("A>flag]", NodeShape::Asymmetric),
            ("A[|borders:lt|props]", NodeShape::Rectangle),
        ];
        for (written, shape) in cases {
            let (n, rest) = node(written).unwrap();
            assert_eq!(
                (n.id.as_str(), n.shape.as_ref().map(|s| s.0), rest.as_str()),
                ("A", Some(shape), ""),
                "{written}"
            );
        }
    }

    #[test]
    fn ids_texts_and_classes() {
        let (n, rest) = node("my-node.x[\"text with (parens) and ]\"]:::hot --> B").unwrap();
        assert_eq!(
            (n.id.as_str(), text(&n).as_str(), n.classes.as_slice()),
            ("my-node.x", "text with (parens) and ]", ["hot".to_owned()].as_slice())
        );
        assert_eq!(rest, " --> B");
        let (n, rest) = node("A-->B").unwrap();
        assert_eq!((n.id.as_str(), n.shape.is_none(), rest.as_str()), ("A", true, "-->B"));
        let (n, _) = node("B[one<br/>two]").unwrap();
        assert_eq!(text(&n), "one\ntwo");
        for id in ["a-end-node", "a.class.node", "node_subgraph", "#", "node*", "\\x", "/path", "ü日本"] {
            assert_eq!(node(id).unwrap().0.id, id);
        }
        let (n, rest) = node("A-.->B").unwrap();
        assert_eq!((n.id.as_str(), rest.as_str()), ("A", "-.->B"));
        let (n, _) = node("A[\"`**bold** text`\"]").unwrap();
        assert_eq!((text(&n).as_str(), n.shape.unwrap().1.marks[0]), ("bold text", markdown::BOLD));
    }

    #[test]
    fn shape_data_sets_shape_and_label() {
        let (n, rest) = node("A@{ shape: doc, label: \"Report, final\" } --> B").unwrap();
        assert_eq!(n.shape.as_ref().map(|s| (s.0, s.1.text.as_str())), Some((NodeShape::Document, "Report, final")));
        assert_eq!(rest, " --> B");
        let (n, _) = node("A[Old]@{ shape: diamond }").unwrap();
        assert_eq!(n.shape.as_ref().map(|s| (s.0, s.1.text.as_str())), Some((NodeShape::Diamond, "Old")));
        let (n, _) = node("A@{ icon: \"fa:user\", form: square }").unwrap();
        // Quoted values are YAML strings (opentofu's docs: `label: "provider[\"hashicorp/aws\"]"`).
        let (q, rest) = node(r#"A@{ label: "provider[\"aws\"] \\ x", shape: rect } --> B"#).unwrap();
        assert_eq!(text(&q), r#"provider["aws"] \ x"#);
        assert_eq!(rest.trim(), "--> B");
        let (q, _) = node("A@{ label: 'it''s' }").unwrap();
        assert_eq!(text(&q), "it's");
        assert!(n.data && n.shape.is_none());
        // An unquoted label is node text like any other: markup is cleaned (a label `<b>Odd`
        // once reached the item rules unclosed, a 500 for a diagram Mermaid accepts).
        for source in ["A@{ shape: odd, label: <b>Odd }", "A@{ shape: odd, label: <b> \"Odd shape\" }"] {
            let (n, _) = node(source).unwrap();
            let text = text(&n);
            assert!(!text.contains('<') && text.contains("Odd"), "{source}: {text:?}");
        }
    }

    #[test]
    fn broken_nodes_are_errors_at_their_token() {
        let cases = [
            ("A[open", 2, "unterminated '['"),
            ("A((open)", 2, "unterminated '(('"),
            ("A[\"open]", 3, "unterminated string"),
            ("A[\"text\" x]", 10, "expected ']' to close '['"),
            ("-->B", 1, "expected a node id"),
            ("A@{ shape: blob }", 12, "unknown shape 'blob'"),
            ("A@{ shape: rect", 2, "unterminated '@{'"),
            ("A@{ shape }", 5, "expected `key: value`"),
        ];
        for (written, col, message) in cases {
            let err = node(written).unwrap_err();
            assert_eq!(err.column, col, "{written}: {err}");
            assert!(err.message.contains(message), "{written}: {err}");
        }
    }
}
