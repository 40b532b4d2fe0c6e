//! Label text (plain text or the HTML the label rule allows) written as Mermaid text.
//!
//! A text is first read into lines of runs (bold, italic or neither): plain text at its line
//! breaks, HTML as a browser shows it (`<br>` and block elements end a line, `<b>`/`<strong>` and
//! `<i>`/`<em>` mark runs, character references decoded, other tags dropped). It is then written
//! with every character that could end the string or start a statement replaced by Mermaid's
//! entity codes (`#quot;`, `#35;`…), and line breaks as `<br>`: whatever the text holds, it
//! stays one string on one line.

use std::ops::ControlFlow;

use canvas_html::{classify, for_each_text, Kind, Text};

/// A stretch of text in one style.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Run {
    pub text: String,
    pub bold: bool,
    pub italic: bool,
}

/// Elements whose start or end begins a new line (as in a browser).
const BLOCKS: &[&str] = &[
    "p",
    "div",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "tr",
    "table",
    "blockquote",
    "pre",
    "dt",
    "dd",
    "dl",
    "hr",
    "section",
    "article",
    "header",
    "footer",
];

/// The lines of a label text, each a list of runs with white space collapsed; empty lines dropped.
pub(crate) fn lines(text: &str) -> Vec<Vec<Run>> {
    let mut out: Vec<Vec<Run>> = vec![Vec::new()];
    let (mut bold, mut italic) = (0usize, 0usize);
    let push = |out: &mut Vec<Vec<Run>>, chars: &str, bold: bool, italic: bool| {
        let line = out.last_mut().expect("never empty");
        match line.last_mut() {
            Some(run) if run.bold == bold && run.italic == italic => run.text.push_str(chars),
            _ => line.push(Run { text: chars.to_owned(), bold, italic }),
        }
    };
    if classify(text) == Kind::Plain {
        for (i, line) in text.split('\n').enumerate() {
            if i > 0 {
                out.push(Vec::new());
            }
            push(&mut out, line, false, false);
        }
        return tidy(out);
    }
    let mut rest = text;
    while !rest.is_empty() {
        let Some((before, tag, after)) = next_tag(rest) else {
            decode(rest, |chars| push(&mut out, chars, bold > 0, italic > 0));
            break;
        };
        decode(before, |chars| push(&mut out, chars, bold > 0, italic > 0));
        rest = after;
        let Some((closing, name)) = tag else { continue };
        let counter = match name.as_str() {
            "b" | "strong" => Some(&mut bold),
            "i" | "em" => Some(&mut italic),
            _ => None,
        };
        match counter {
            Some(count) if closing => *count = count.saturating_sub(1),
            Some(count) => *count += 1,
            None if name == "br" || BLOCKS.contains(&name.as_str()) => out.push(Vec::new()),
            None => {}
        }
    }
    tidy(out)
}

/// The next tag of `html`: the text before it, the tag (closing?, lower-case name; None for a
/// comment, doctype or processing instruction) and the text after it. None when there is no tag.
#[allow(clippy::type_complexity)]
fn next_tag(html: &str) -> Option<(&str, Option<(bool, String)>, &str)> {
    let mut from = 0;
    while let Some(at) = html[from..].find('<').map(|i| i + from) {
        let tail = &html[at + 1..];
        if let Some(comment) = tail.strip_prefix("!--") {
            let end = comment.find("-->").map_or(html.len(), |e| at + 4 + e + 3);
            return Some((&html[..at], None, &html[end.min(html.len())..]));
        }
        if tail.starts_with(['!', '?']) {
            let end = tail.find('>').map_or(html.len(), |e| at + 1 + e + 1);
            return Some((&html[..at], None, &html[end..]));
        }
        let closing = tail.starts_with('/');
        let name: String = tail[usize::from(closing)..].chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            from = at + 1;
            continue;
        }
        // The tag ends at the first `>` outside a quoted attribute value.
        let mut quote = None;
        let mut end = html.len();
        for (i, c) in tail.char_indices() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (None, '"' | '\'') => quote = Some(c),
                (None, '>') => {
                    end = at + 1 + i + 1;
                    break;
                }
                _ => {}
            }
        }
        return Some((&html[..at], Some((closing, name.to_ascii_lowercase())), &html[end..]));
    }
    None
}

/// Character references of a stretch of HTML text decoded as a browser decodes them.
fn decode(html: &str, mut each: impl FnMut(&str)) {
    if !html.contains('&') {
        each(html);
        return;
    }
    for_each_text(&format!("<span>{html}</span>"), |piece| {
        if let Text::Chars(chars) = piece {
            each(chars);
        }
        ControlFlow::Continue(())
    });
}

/// White space collapsed (control characters count as spaces), empty runs and lines dropped.
fn tidy(lines: Vec<Vec<Run>>) -> Vec<Vec<Run>> {
    let mut out = Vec::new();
    for line in lines {
        let mut runs: Vec<Run> = Vec::new();
        let mut space = false;
        for run in line {
            let mut text = String::new();
            for c in run.text.chars() {
                if c.is_whitespace() || c.is_control() {
                    space = true;
                    continue;
                }
                if space && (!text.is_empty() || !runs.is_empty()) {
                    text.push(' ');
                }
                space = false;
                text.push(c);
            }
            if !text.is_empty() {
                runs.push(Run { text, ..run });
            }
        }
        if !runs.is_empty() {
            out.push(runs);
        }
    }
    out
}

/// The text a reader sees: lines joined with `\n`, styles dropped.
pub(crate) fn visible(text: &str) -> String {
    lines(text)
        .iter()
        .map(|line| line.iter().map(|r| r.text.as_str()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// One character as Mermaid text: the ones that end a string, start a comment, entity or
/// statement, or are read as markup, as entity codes.
fn escape_char(c: char, out: &mut String, extra: &[char]) {
    match c {
        '"' => out.push_str("#quot;"),
        '#' => out.push_str("#35;"),
        '&' => out.push_str("#amp;"),
        '<' => out.push_str("#lt;"),
        '>' => out.push_str("#gt;"),
        c if extra.contains(&c) => out.push_str(&format!("#{};", u32::from(c))),
        c => out.push(c),
    }
}

fn escape(text: &str, extra: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    text.chars().for_each(|c| escape_char(c, &mut out, extra));
    out
}

/// Where a text goes, which decides what else must be escaped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Place {
    /// Inside `"…"`: a node text or subgraph title.
    Quoted,
    /// Inside `|"…"|`: a link text (`|` would end it).
    LinkText,
    /// The rest of a line, unquoted (sequence messages, notes, names; `;` ends a statement there).
    Line,
}

/// `text` as Mermaid text for `place`, without the quotes; bold and italic as markdown when the
/// place takes a markdown string (see [`quoted`]), else dropped. An empty text gives "".
pub(crate) fn mermaid(text: &str, place: Place, markdown: bool) -> String {
    // A back-tick only matters first or last (a markdown string's quote) and in markdown.
    let extra: &[char] = match (place, markdown) {
        (Place::Quoted, false) => &[],
        (Place::Quoted, true) => &['`'],
        (Place::LinkText, false) => &['|'],
        (Place::LinkText, true) => &['|', '`'],
        (Place::Line, _) => &[';'],
    };
    let break_tag = if markdown { "<br/>" } else { "<br>" };
    let mut out = Vec::new();
    for line in lines(text) {
        let mut written = String::new();
        for run in line {
            let body = escape(&run.text, extra);
            if !markdown || !(run.bold || run.italic) {
                written.push_str(&if markdown { escape_markdown(&body) } else { body });
                continue;
            }
            // Markdown emphasis must hug its text: spaces go outside the marks.
            let inner = body.trim();
            let mark = match (run.bold, run.italic) {
                (true, true) => "***",
                (true, false) => "**",
                _ => "*",
            };
            if body.starts_with(' ') {
                written.push(' ');
            }
            if !inner.is_empty() {
                written.push_str(&format!("{mark}{}{mark}", escape_markdown(inner)));
            }
            if body.ends_with(' ') && !inner.is_empty() {
                written.push(' ');
            }
        }
        out.push(written);
    }
    let mut joined = out.join(break_tag);
    if joined.starts_with('`') {
        joined.replace_range(..1, "#96;");
    }
    if joined.ends_with('`') {
        joined.replace_range(joined.len() - 1.., "#96;");
    }
    joined
}

/// Markdown's own marks in a markdown string are escaped with a backslash, so they stay text.
fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '*' | '_' | '\\' | '[' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Whether the text has bold or italic runs (then a flowchart writes it as a markdown string).
pub(crate) fn is_styled(text: &str) -> bool {
    lines(text).iter().flatten().any(|r| r.bold || r.italic)
}

/// `text` as a quoted flowchart string: `"…"`, or the markdown string ``"`…`"`` when it has bold
/// or italic runs. `fallback` is written when the text is empty (a node shows its id then).
pub(crate) fn quoted(text: &str, place: Place, fallback: &str) -> String {
    let markdown = is_styled(text);
    let mut body = mermaid(text, place, markdown);
    if body.is_empty() {
        body = escape(fallback, &['`', '|']);
    }
    if markdown {
        format!("\"`{body}`\"")
    } else {
        format!("\"{body}\"")
    }
}
