//! Bold and italic text: Mermaid's markdown strings (`"`**bold** _it_`"`) read into plain text
//! with a mark per character, and that text, once wrapped for its box, written as the label HTML
//! the service's rule accepts (`<b>`, `<i>`, `<br>`, characters escaped).
//!
//! Wrapping works on the plain text (the renderer measures plain text), so the marks are carried
//! across by walking the wrapped text and the plain text side by side: wrapping only turns spaces
//! into line breaks or adds a break inside a long word.

use crate::text;

/// Bold mark.
pub const BOLD: u8 = 1;
/// Italic mark.
pub const ITALIC: u8 = 2;

/// Plain text and a mark per character (empty when nothing is marked).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rich {
    /// The text as plain text, `\n` for line breaks, cleaned like [`text::clean`].
    pub text: String,
    /// [`BOLD`] | [`ITALIC`] per character of `text`, or empty.
    pub marks: Vec<u8>,
}

/// A markdown string's text: `**`/`__` bold, `*`/`_` italic (an `_` inside a word is a
/// character), line breaks kept; markers without a partner are characters.
pub fn markdown(raw: &str) -> Rich {
    let decoded = text::decode_entities(&text::replace_breaks(raw.trim()));
    // A backslash before ASCII punctuation makes it a character (CommonMark's escapes, which
    // Mermaid's markdown reader follows): `\*` is a star, `\\` a backslash.
    let mut chars: Vec<char> = Vec::with_capacity(decoded.len());
    let mut escaped: Vec<bool> = Vec::with_capacity(decoded.len());
    let mut source = decoded.chars().peekable();
    while let Some(c) = source.next() {
        match source.peek() {
            Some(&next) if c == '\\' && next.is_ascii_punctuation() => {
                source.next();
                chars.push(next);
                escaped.push(true);
            }
            _ => {
                chars.push(c);
                escaped.push(false);
            }
        }
    }
    // Markers: (index, length, mark).
    let mut markers: Vec<(usize, usize, u8)> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if (c == '*' || c == '_') && !escaped[i] {
            let double = chars.get(i + 1) == Some(&c) && !escaped[i + 1];
            let len = if double { 2 } else { 1 };
            let before = i.checked_sub(1).and_then(|j| chars.get(j)).is_some_and(|c| c.is_alphanumeric());
            let after = chars.get(i + len).is_some_and(|c| c.is_alphanumeric());
            // An underscore between letters (snake_case) is text.
            if !(c == '_' && before && after) {
                markers.push((i, len, if double { BOLD } else { ITALIC }));
            }
            i += len;
        } else {
            i += 1;
        }
    }
    // Pair markers of the same kind; unpaired ones stay text.
    let mut paired = vec![false; markers.len()];
    let mut open: Vec<usize> = Vec::new();
    for m in 0..markers.len() {
        let (at, len, mark) = markers[m];
        if let Some(pos) = open.iter().rposition(|&o| markers[o].2 == mark && chars[markers[o].0] == chars[at]) {
            let o = open[pos];
            if markers[o].0 + markers[o].1 < at {
                paired[o] = true;
                paired[m] = true;
                open.truncate(pos);
                continue;
            }
        }
        let _ = len;
        open.push(m);
    }
    let mut out: Vec<(char, u8)> = Vec::with_capacity(chars.len());
    let mut current = 0u8;
    let mut next_marker = 0;
    let mut i = 0;
    while i < chars.len() {
        if next_marker < markers.len() && markers[next_marker].0 == i {
            let (_, len, mark) = markers[next_marker];
            let is_pair = paired[next_marker];
            next_marker += 1;
            if is_pair {
                current ^= mark;
                i += len;
                continue;
            }
        }
        out.push((chars[i], current));
        i += 1;
    }
    finish(out)
}

/// Plain text with no marks, cleaned.
pub fn plain(raw: &str) -> Rich {
    Rich { text: text::clean(raw), marks: Vec::new() }
}

/// Collapses white space per line, clips, and falls back to plain text when what remains would
/// read as HTML.
fn finish(chars: Vec<(char, u8)>) -> Rich {
    let mut lines: Vec<Vec<(char, u8)>> = vec![Vec::new()];
    for (c, m) in chars {
        if c == '\n' {
            lines.push(Vec::new());
        } else {
            lines.last_mut().expect("never empty").push((c, m));
        }
    }
    let mut out: Vec<(char, u8)> = Vec::new();
    for line in lines {
        let mut collapsed: Vec<(char, u8)> = Vec::new();
        for (c, m) in line {
            if c.is_whitespace() {
                if collapsed.last().is_some_and(|(p, _)| *p != ' ') {
                    collapsed.push((' ', m));
                }
            } else {
                collapsed.push((c, m));
            }
        }
        while collapsed.last().is_some_and(|(c, _)| *c == ' ') {
            collapsed.pop();
        }
        if collapsed.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(('\n', 0));
        }
        out.extend(collapsed);
    }
    if out.len() > crate::limits::MAX_LABEL_CHARS {
        out.truncate(crate::limits::MAX_LABEL_CHARS - 1);
        out.push(('…', 0));
    }
    let text: String = out.iter().map(|(c, _)| *c).collect();
    let cleaned = text::clean(&text);
    if cleaned != text {
        // HTML in the text, or a character the rule would refuse: the plain cleaning decides.
        return Rich { text: cleaned, marks: Vec::new() };
    }
    let marks: Vec<u8> = out.iter().map(|(_, m)| *m).collect();
    let marks = if marks.iter().any(|&m| m != 0) { marks } else { Vec::new() };
    Rich { text, marks }
}

/// The label text of `wrapped` (the plain `rich.text` wrapped for its box): plain when nothing is
/// marked, else HTML with `<b>`, `<i>` and `<br>` that passes the label rule.
pub fn label_text(wrapped: &str, rich: &Rich) -> String {
    if rich.marks.is_empty() {
        return wrapped.to_owned();
    }
    let plain: Vec<char> = rich.text.chars().collect();
    let mut html = String::new();
    let mut j = 0;
    let mut open = 0u8;
    let set = |html: &mut String, open: &mut u8, want: u8| {
        if *open == want {
            return;
        }
        if *open & ITALIC != 0 {
            html.push_str("</i>");
        }
        if *open & BOLD != 0 {
            html.push_str("</b>");
        }
        if want & BOLD != 0 {
            html.push_str("<b>");
        }
        if want & ITALIC != 0 {
            html.push_str("<i>");
        }
        *open = want;
    };
    for c in wrapped.chars() {
        if c == '\n' {
            // The break takes the marks of the space it replaces (none when it cuts a word).
            if plain.get(j).is_some_and(|p| *p == ' ' || *p == '\n') {
                set(&mut html, &mut open, rich.marks.get(j).copied().unwrap_or(0));
                j += 1;
            }
            html.push_str("<br>");
            continue;
        }
        while plain.get(j).is_some_and(|p| *p != c && p.is_whitespace()) {
            j += 1;
        }
        let mark = if plain.get(j) == Some(&c) { rich.marks.get(j).copied().unwrap_or(0) } else { open };
        set(&mut html, &mut open, mark);
        canvas_html::escape::text_char(&mut html, c);
        if plain.get(j) == Some(&c) {
            j += 1;
        }
    }
    set(&mut html, &mut open, 0);
    if canvas_html::check(&html).is_ok() && canvas_html::classify(&html) == canvas_html::Kind::Html {
        html
    } else {
        wrapped.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_marks_bold_and_italic() {
        let rich = markdown("**bold** and _it_ with snake_case");
        assert_eq!(rich.text, "bold and it with snake_case");
        assert_eq!(rich.marks[0], BOLD);
        assert_eq!(rich.marks[9], ITALIC);
        assert_eq!(rich.marks[5], 0);
        let unpaired = markdown("2 * 3 = 6");
        assert_eq!((unpaired.text.as_str(), unpaired.marks.len()), ("2 * 3 = 6", 0));
        let lines = markdown("line one\n   **line** two");
        assert_eq!(lines.text, "line one\nline two");
    }

    #[test]
    fn backslash_escapes_make_marks_characters() {
        let rich = markdown(r"\*not italic\* **bold\*star** a\\b \q");
        assert_eq!(rich.text, r"*not italic* bold*star a\b \q");
        assert_eq!(rich.marks[0], 0);
        assert_eq!(rich.marks[13], BOLD);
        assert_eq!(rich.marks[17], BOLD);
    }

    #[test]
    fn wrapped_marked_text_becomes_label_html() {
        let rich = markdown("**a < b** then _c & d_");
        let html = label_text("a < b\nthen c & d", &rich);
        assert_eq!(html, "<b>a &lt; b</b><br>then <i>c &amp; d</i>");
        assert!(canvas_html::check(&html).is_ok());
        assert_eq!(canvas_html::to_text(&html), "a < b\nthen c & d");
        assert_eq!(label_text("plain", &plain("plain")), "plain");
    }
}
