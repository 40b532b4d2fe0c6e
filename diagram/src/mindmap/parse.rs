//! The mind map parser, written from Mermaid 11's grammar (`mindmap.jison`): one node per
//! line, its parent the last node above it indented less (indent = the count of white space
//! characters, a tab counting one, as Mermaid's lexer counts them; the first node is the root
//! wherever it starts). A node is plain text or `id` + a shape: `[sq]`, `(rounded)`,
//! `((circle))`, `))bang((`, `)cloud(`, `{{hex}}`, `(-plain-)`; its text may be a `"string"` or
//! a markdown string ``"`**bold** *italic*`"``, and a string or an unclosed text runs on over
//! the next lines. `::icon(…)` and `:::class` decorate the node above (read, not drawn);
//! `%%` after a node starts a comment.

use super::{MindNode, Mindmap};
use crate::error::DiagramError;
use crate::graph::NodeShape;
use crate::source::{Cursor, Line};
use crate::text;
use crate::text::markdown::{self, Rich};

/// Openers, longest first, with their closers and shapes.
const SHAPES: &[(&str, &str, NodeShape)] = &[
    ("((", "))", NodeShape::Circle),
    ("))", "((", NodeShape::Bang),
    ("{{", "}}", NodeShape::Hexagon),
    ("(-", "-)", NodeShape::Plain),
    (")", "(", NodeShape::Cloud),
    ("(", ")", NodeShape::Rounded),
    ("[", "]", NodeShape::Rectangle),
];

/// A node read from one or more lines.
struct Read {
    id: Option<String>,
    shape: NodeShape,
    text: Rich,
}

/// Parses a mind map from its lines (the first is the header).
pub fn parse(lines: &[Line<'_>]) -> Result<Mindmap, DiagramError> {
    let mut header = Cursor::new(lines[0]);
    header.skip_ws();
    header.take_while(|c| !c.is_whitespace());
    // A node may follow `mindmap` on its line: it is read at its own column.
    let first = format!("{}{}", " ".repeat(header.pos), header.rest());
    let mut all: Vec<Line<'_>> = Vec::with_capacity(lines.len());
    if !first.trim().is_empty() {
        all.push(Line { number: lines[0].number, text: &first });
    }
    all.extend_from_slice(&lines[1..]);
    let mut nodes: Vec<MindNode> = Vec::new();
    // The chain of open ancestors: indent and node index.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < all.len() {
        let line = all[at];
        let (read, next) = node(&all, at)?;
        at = next;
        let Some(Read { id, shape, text }) = read else { continue };
        // On the header line only the white space after `mindmap` counts, as Mermaid's lexer.
        let skip = if line.number == lines[0].number { header.pos } else { 0 };
        let indent = line.text.chars().take_while(|c| c.is_whitespace()).count().saturating_sub(skip);
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
        let Rich { text, marks: emphasis } = text;
        nodes.push(MindNode { id, text, shape, children: Vec::new(), emphasis });
        stack.push((indent, index));
    }
    if nodes.is_empty() {
        let end = lines[0].text.chars().count() + 1;
        return Err(DiagramError::new(lines[0].number, end, "the mind map has no root node"));
    }
    Ok(Mindmap { nodes })
}

/// Whether what follows a node is only a decoration or a comment.
fn is_trailer(rest: &str) -> bool {
    let rest = rest.trim();
    rest.is_empty() || rest.starts_with(":::") || rest.starts_with("::icon(") || rest.starts_with("%%")
}

/// Plain node text: a trailing `:::class`, `::icon(…)` or `%%` comment dropped, quotes taken off.
fn plain_text(raw: &str) -> Rich {
    let cut = [":::", "::icon(", "%%"].iter().filter_map(|m| raw.find(m)).min().unwrap_or(raw.len());
    let raw = raw[..cut].trim();
    if let Some(inner) = raw.strip_prefix("\"`").and_then(|r| r.strip_suffix("`\"")) {
        return markdown::markdown(inner);
    }
    let raw = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    markdown::plain(&text::decode_entities(raw))
}

/// The node starting on `lines[at]` (None for a decoration line) and the index of the line
/// after it.
fn node(lines: &[Line<'_>], at: usize) -> Result<(Option<Read>, usize), DiagramError> {
    let mut cur = Cursor::new(lines[at]);
    cur.skip_ws();
    if cur.starts_with("::icon(") || cur.starts_with(":::") {
        return Ok((None, at + 1));
    }
    if cur.peek() == Some('"') {
        return Ok((Some(Read { id: None, shape: NodeShape::Plain, text: nonempty(plain_text(&cur.rest())) }), at + 1));
    }
    let id = cur.take_while(|c| !matches!(c, '(' | '[' | ')' | '{' | '}'));
    // `(-` opens a plain node only when `-)` closes it (`(-5 °C)` is a rounded node).
    let opener =
        SHAPES.iter().find(|(open, close, _)| cur.starts_with(open) && (*open != "(-" || cur.rest().contains(close)));
    let Some(&(open, close, shape)) = opener else {
        if matches!(cur.peek(), Some('{' | '}')) {
            return Err(
                cur.error(format!("unexpected '{}': a hexagon is written `{{{{text}}}}`", cur.peek().unwrap_or('{')))
            );
        }
        return Ok((Some(Read { id: None, shape: NodeShape::Plain, text: nonempty(plain_text(&id)) }), at + 1));
    };
    let open_col = cur.col();
    cur.eat(open);
    // The text runs from here to the closer, over more lines when it is not closed on this one.
    let mut body = cur.rest();
    let mut last = at;
    let trimmed = body.trim_start();
    let (raw, markdown, after) = if let Some(quoted) = trimmed.strip_prefix('"') {
        let (markdown, end_mark) = if quoted.starts_with('`') { (true, "`\"") } else { (false, "\"") };
        let start = body.len() - quoted.len() + usize::from(markdown);
        loop {
            if let Some(end) = body[start..].find(end_mark) {
                let raw = body[start..start + end].to_owned();
                break (raw, markdown, body[start + end + end_mark.len()..].trim_start().to_owned());
            }
            last += 1;
            let Some(more) = lines.get(last) else {
                return Err(cur.error_at(open_col + open.len(), "unterminated string: expected a closing '\"'"));
            };
            body = format!("{body}\n{}", more.text);
        }
    } else {
        loop {
            // The closer is the last one on its line: texts may hold the shape's own brackets.
            let line_start = body.rfind('\n').map_or(0, |i| i + 1);
            if let Some(end) = body[line_start..].rfind(close).map(|i| line_start + i) {
                break (body[..end].to_owned(), false, body[end..].to_owned());
            }
            last += 1;
            match lines.get(last) {
                Some(more) if !more.text.contains(open) || more.text.contains(close) => {
                    body = format!("{body}\n{}", more.text)
                }
                _ => return Err(cur.error_at(open_col, format!("unterminated '{open}': expected '{close}'"))),
            }
        }
    };
    let Some(rest) = after.strip_prefix(close) else {
        let line = lines[last];
        let col = line.text.chars().count() - after.chars().count() + 1;
        let message = format!("expected '{close}' to close '{open}' opened at line {}, column {open_col}", cur.line);
        return Err(DiagramError::new(line.number, col, message));
    };
    if !is_trailer(rest) {
        let line = lines[last];
        let col = line.text.chars().count() - rest.trim_start().chars().count() + 1;
        return Err(DiagramError::new(line.number, col, format!("unexpected '{}' after the node", rest.trim())));
    }
    let decoded = text::decode_entities(&raw);
    let mut text = if markdown { markdown::markdown(&decoded) } else { markdown::plain(&decoded) };
    let id = id.trim();
    if text.text.is_empty() {
        text = markdown::plain(id);
    }
    let id = Some(id.to_owned()).filter(|id| !id.is_empty());
    Ok((Some(Read { id, shape, text: nonempty(text) }), last + 1))
}

fn nonempty(rich: Rich) -> Rich {
    if rich.text.is_empty() {
        Rich { text: text::nonempty(String::new()), marks: Vec::new() }
    } else {
        rich
    }
}
