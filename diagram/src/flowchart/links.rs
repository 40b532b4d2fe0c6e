//! Flowchart links: `-->`, `---`, `-.->`, `==>`, `~~~` and their variants,
//! with `<`, `o`, `x` ends, extra dashes for length, an id (`e1@-->`), and text written inline
//! (`-- text -->`) or between pipes (`-->|text|`), plain, quoted or a markdown string.

use super::nodes;
use crate::error::DiagramError;
use crate::graph::{Head, Stroke};
use crate::source::Cursor;
use crate::text::markdown::Rich;

/// A parsed link.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// Decorator at the source.
    pub start: Head,
    /// Decorator at the target.
    pub end: Head,
    /// Line style.
    pub stroke: Stroke,
    /// Ranks it asks to span.
    pub length: usize,
    /// Its text.
    pub text: Option<Rich>,
}

/// An edge id written before a link (`e1@-->`): the id, and the position after its `@`.
pub fn edge_id(cur: &Cursor) -> Option<(String, usize)> {
    let mut probe = cur.clone();
    let id = probe.take_while(|c| !c.is_whitespace() && !matches!(c, '@' | '"' | '{' | '[' | '(' | '|' | ';'));
    if id.is_empty() || !probe.eat("@") || !at_link(&probe) {
        return None;
    }
    Some((id, probe.pos))
}

fn head_of(c: Option<char>) -> Option<Head> {
    match c? {
        '>' | '<' => Some(Head::Arrow),
        'o' => Some(Head::Circle),
        'x' => Some(Head::Cross),
        _ => None,
    }
}

/// Whether a link starts at the cursor.
pub fn at_link(cur: &Cursor) -> bool {
    // An end mark before the line: `<-->`, `o==o`, and the dotted `<.->` (Mermaid's dotted link
    // may leave out its first dash after the mark too).
    let marked =
        matches!(cur.peek_at(1), Some('-' | '=')) || (cur.peek_at(1) == Some('.') && dotted_run_closes(cur, 1));
    let skip = usize::from(matches!(cur.peek(), Some('<' | 'o' | 'x')) && marked);
    let (a, b) = (cur.peek_at(skip), cur.peek_at(skip + 1));
    matches!((a, b), (Some('-'), Some('-' | '.')) | (Some('='), Some('=')) | (Some('.'), Some('.' | '-')))
        || (skip == 0 && cur.starts_with("~~~"))
}

/// Whether the dots from `at` on are followed by a dash (`.->`, `..-`): a dotted link, not text.
fn dotted_run_closes(cur: &Cursor, at: usize) -> bool {
    let mut i = at;
    while cur.peek_at(i) == Some('.') {
        i += 1;
    }
    i > at && cur.peek_at(i) == Some('-')
}

/// Reads the link at the cursor (see [`at_link`]).
pub fn parse(cur: &mut Cursor) -> Result<Link, DiagramError> {
    let col = cur.col();
    if cur.eat("~~~") {
        cur.take_while(|c| c == '~');
        return Ok(Link { start: Head::None, end: Head::None, stroke: Stroke::Invisible, length: 1, text: None });
    }
    let start = if matches!(cur.peek(), Some('<' | 'o' | 'x')) {
        head_of(cur.bump()).unwrap_or(Head::None)
    } else {
        Head::None
    };
    let mut link = if cur.starts_with("-.") || cur.peek() == Some('.') {
        dotted(cur, col)?
    } else {
        let (mark, stroke) = if cur.peek() == Some('=') { ('=', Stroke::Thick) } else { ('-', Stroke::Normal) };
        solid(cur, mark, stroke, col)?
    };
    link.start = start;
    cur.skip_spaces();
    if cur.peek() == Some('|') {
        let bar = cur.pos;
        cur.bump();
        cur.skip_spaces();
        let text = if cur.peek() == Some('"') {
            let quote = cur.pos;
            cur.bump();
            let text = nodes::quoted(cur, quote)?;
            cur.skip_spaces();
            text
        } else {
            let Some(close) = cur.find_before("|", cur.line_end()) else {
                return Err(cur.error_at_pos(bar, "unterminated '|': expected a closing '|' after the link text"));
            };
            nodes::text_of(&cur.take_to(close))
        };
        if !cur.eat("|") {
            return Err(cur.error_at_pos(bar, "unterminated '|': expected a closing '|' after the link text"));
        }
        link.text = Some(text).filter(|t| !t.text.is_empty());
    }
    Ok(link)
}

fn edge_text(raw: &str) -> Option<Rich> {
    let raw = raw.trim();
    let text = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(quoted) => nodes::text_of(quoted),
        None => nodes::text_of(raw),
    };
    Some(text).filter(|t| !t.text.is_empty())
}

/// Where an inline link text may end: the end of its line, or of a quoted string starting it
/// (which may run over lines).
fn text_limit(cur: &Cursor) -> usize {
    let mut probe = cur.clone();
    probe.skip_spaces();
    if probe.peek() == Some('"') {
        probe.bump();
        if let Some(close) = probe.find("\"") {
            probe.pos = close;
        }
    }
    probe.line_end()
}

/// `--`/`==` links: `-->`, `---`, `--o`, `-- text -->` and the thick forms.
fn solid(cur: &mut Cursor, mark: char, stroke: Stroke, col: usize) -> Result<Link, DiagramError> {
    let run = cur.take_while(|c| c == mark).chars().count();
    if let Some(end) = head_of(cur.peek()).filter(|_| cur.peek() != Some('<')) {
        cur.bump();
        return Ok(Link { start: Head::None, end, stroke, length: run - 1, text: None });
    }
    if run >= 3 {
        return Ok(Link { start: Head::None, end: Head::None, stroke, length: run - 2, text: None });
    }
    // `-- text -->`: the text runs to the closing run of marks.
    let text_start = cur.pos;
    let double: String = [mark, mark].iter().collect();
    let limit = text_limit(cur);
    loop {
        let Some(at) = cur.find_before(&double, limit) else {
            let shown: String = [mark, mark, '>'].iter().collect();
            return Err(cur.error_at(col, format!("unterminated link text: expected a closing `{shown}`")));
        };
        let mut probe = cur.clone();
        probe.pos = at;
        let closing = probe.take_while(|c| c == mark).chars().count();
        let head = head_of(probe.peek()).filter(|_| probe.peek() != Some('<'));
        if head.is_some() || closing >= 3 {
            cur.pos = text_start;
            let raw = cur.take_to(at);
            cur.pos = probe.pos + usize::from(head.is_some());
            let length = if head.is_some() { closing - 1 } else { closing - 2 };
            return Ok(Link {
                start: Head::None,
                end: head.unwrap_or(Head::None),
                stroke,
                length: length.max(1),
                text: edge_text(&raw),
            });
        }
        cur.pos = probe.pos;
    }
}

/// `-.->`, `-.-`, `-..->` and `-. text .->`.
fn dotted(cur: &mut Cursor, col: usize) -> Result<Link, DiagramError> {
    // Mermaid's dotted link may leave out its first dash (`.->`).
    if cur.peek() == Some('-') {
        cur.bump();
    }
    let dots = cur.take_while(|c| c == '.').chars().count();
    let mut text = None;
    let length;
    if cur.peek() == Some('-') {
        cur.bump();
        length = dots;
    } else {
        let limit = text_limit(cur);
        let Some(at) = cur.find_before(".-", limit) else {
            return Err(cur.error_at(col, "unterminated link text: expected a closing `.->`"));
        };
        let raw = cur.take_to(at);
        let closing = cur.take_while(|c| c == '.').chars().count();
        cur.bump();
        length = closing;
        text = edge_text(&raw);
    }
    let end = match head_of(cur.peek()).filter(|_| cur.peek() != Some('<')) {
        Some(head) => {
            cur.bump();
            head
        }
        None => Head::None,
    };
    Ok(Link { start: Head::None, end, stroke: Stroke::Dotted, length: length.max(1), text })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Line;

    fn text(l: &Link) -> Option<String> {
        l.text.as_ref().map(|t| t.text.clone())
    }

    fn link(text: &str) -> (Link, String) {
        let mut cur = Cursor::new(Line { number: 1, text });
        assert!(at_link(&cur), "{text}");
        let link = parse(&mut cur).unwrap();
        (link, cur.rest())
    }

    #[test]
    fn arrows_and_their_ends() {
        let (l, rest) = link("-->B");
        assert_eq!(
            (l.start, l.end, l.stroke, l.length, rest.as_str()),
            (Head::None, Head::Arrow, Stroke::Normal, 1, "B")
        );
        let (l, _) = link("---B");
        assert_eq!((l.end, l.length), (Head::None, 1));
        let (l, _) = link("---->B");
        assert_eq!((l.end, l.length), (Head::Arrow, 3));
        let (l, _) = link("<-->B");
        assert_eq!((l.start, l.end), (Head::Arrow, Head::Arrow));
        let (l, _) = link("o--o B");
        assert_eq!((l.start, l.end), (Head::Circle, Head::Circle));
        let (l, _) = link("x--x B");
        assert_eq!((l.start, l.end), (Head::Cross, Head::Cross));
        let (l, _) = link("==> B");
        assert_eq!((l.stroke, l.end), (Stroke::Thick, Head::Arrow));
        let (l, _) = link("-.-> B");
        assert_eq!((l.stroke, l.end, l.length), (Stroke::Dotted, Head::Arrow, 1));
        let (l, _) = link("-..- B");
        assert_eq!((l.stroke, l.end, l.length), (Stroke::Dotted, Head::None, 2));
        let (l, _) = link(".-> B");
        assert_eq!((l.stroke, l.end, l.length), (Stroke::Dotted, Head::Arrow, 1));
        let (l, _) = link("~~~ B");
        assert_eq!(l.stroke, Stroke::Invisible);
        // Mermaid's own docs (flowchart.md's link lengths): `R2 <.-> C`, its first dash left out.
        let (l, rest) = link("<.-> C");
        assert_eq!(
            (l.start, l.end, l.stroke, l.length, rest.as_str()),
            (Head::Arrow, Head::Arrow, Stroke::Dotted, 1, "C")
        );
        let (l, _) = link("o..-o C");
        assert_eq!((l.start, l.end, l.length), (Head::Circle, Head::Circle, 2));
        let at = |text: &str| at_link(&Cursor::new(Line { number: 1, text }));
        assert!(at("<.-> C") && at("x.-x C") && at("<-.-> C"));
        assert!(!at("<. text") && !at("o.x") && !at("x."), "a mark and dots without a dash is no link");
    }

    #[test]
    fn link_texts_inline_and_piped() {
        let (l, rest) = link("-- some text -->B");
        assert_eq!((text(&l).as_deref(), l.end, rest.as_str()), (Some("some text"), Head::Arrow, "B"));
        let (l, _) = link("== heavy ==> B");
        assert_eq!((text(&l).as_deref(), l.stroke), (Some("heavy"), Stroke::Thick));
        let (l, _) = link("-. maybe .-> B");
        assert_eq!((text(&l).as_deref(), l.stroke, l.end), (Some("maybe"), Stroke::Dotted, Head::Arrow));
        let (l, rest) = link("-->|\"yes (sure)\"| B");
        assert_eq!((text(&l).as_deref(), rest.as_str()), (Some("yes (sure)"), " B"));
        let (l, _) = link("-- a -- b --- C");
        assert_eq!((text(&l).as_deref(), l.end), (Some("a -- b"), Head::None));
        let (l, _) = link("-- \"`**md**`\" --> C");
        assert_eq!(
            (text(&l).as_deref(), l.text.unwrap().marks.first().copied()),
            (Some("md"), Some(crate::text::markdown::BOLD))
        );
        let (l, _) = link("<-- back --- C");
        assert_eq!((l.start, l.end, text(&l).as_deref()), (Head::Arrow, Head::None, Some("back")));
    }

    #[test]
    fn edge_ids_are_read_before_the_link() {
        let cur = Cursor::new(Line { number: 1, text: "e1@--> B" });
        assert_eq!(edge_id(&cur), Some(("e1".to_owned(), 3)));
        let cur = Cursor::new(Line { number: 1, text: "e1@{ animate: true }" });
        assert_eq!(edge_id(&cur), None);
    }

    #[test]
    fn unterminated_link_texts_are_errors() {
        for (text, col) in [("A -- text", 3), ("A -->|text", 6), ("A -. text", 3)] {
            let mut cur = Cursor::new(Line { number: 2, text });
            cur.pos = 2;
            let err = parse(&mut cur).unwrap_err();
            assert_eq!((err.line, err.column), (2, col), "{text}: {err}");
        }
    }
}
