//! Mermaid's markdown strings (``"`**bold** and *italic*`"``) as label HTML: the visible text
//! is cleaned and wrapped like any label text (so boxes are sized by [`crate::text`]), then each
//! character gets back its emphasis and the wrapped lines become `<b>`/`<i>` runs joined by
//! `<br>`, markup the label rule (`canvas-html`) accepts.

use crate::text;

/// The emphasis of one character.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Emphasis {
    /// `**…**` or `__…__`.
    pub bold: bool,
    /// `*…*` or `_…_`.
    pub italic: bool,
}

/// A markdown string read: its visible text and the emphasis of each of its characters
/// (empty when nothing is emphasised).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rich {
    /// The visible text, cleaned as [`text::clean`] cleans.
    pub text: String,
    /// One per character of `text`, or none at all.
    pub emphasis: Vec<Emphasis>,
}

/// Reads markdown emphasis: `**`/`__` toggle bold, `*`/`_` italic (`_` only at a word's edge,
/// so `snake_case` stays). Line breaks and `<br>` end lines; the rest is cleaned as any text.
pub fn markdown(raw: &str) -> Rich {
    let chars: Vec<char> = raw.chars().collect();
    let mut visible = String::new();
    let mut styles = Vec::new();
    let mut now = Emphasis::default();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let double = chars.get(i + 1) == Some(&c);
        let word_edge = |at: usize| {
            let before = at.checked_sub(1).and_then(|b| chars.get(b)).is_none_or(|c| !c.is_alphanumeric());
            let after = chars.get(at + 1).is_none_or(|c| !c.is_alphanumeric());
            before || after
        };
        if (c == '*' || c == '_') && double && (c == '*' || word_edge(i) || word_edge(i + 1)) {
            now.bold = !now.bold;
            i += 2;
            continue;
        }
        if c == '*' || (c == '_' && word_edge(i)) {
            now.italic = !now.italic;
            i += 1;
            continue;
        }
        visible.push(c);
        styles.push(now);
        i += 1;
    }
    let cleaned = text::clean(&visible);
    let emphasised = styles.iter().any(|s| s.bold || s.italic);
    if !emphasised || cleaned.contains('‹') {
        return Rich { text: cleaned, emphasis: Vec::new() };
    }
    // Clean again keeping each visible character's emphasis: cleaning only drops and changes
    // white space (and turns `<br>` into a break), so the other characters keep their order.
    let mut emphasis = Vec::with_capacity(cleaned.chars().count());
    let mut source = visible.chars().zip(styles.iter().copied()).filter(|(c, _)| !c.is_whitespace());
    for c in cleaned.chars() {
        if c.is_whitespace() {
            emphasis.push(Emphasis::default());
            continue;
        }
        let style = source.by_ref().find(|(s, _)| *s == c).map(|(_, style)| style).unwrap_or_default();
        emphasis.push(style);
    }
    Rich { text: cleaned, emphasis }
}

fn escape(c: char, out: &mut String) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        c => out.push(c),
    }
}

/// The label of `rich` wrapped as `wrapped` (its text with line breaks, as [`text::block`] made
/// it): plain text when nothing is emphasised, else HTML.
pub fn label(rich: &Rich, wrapped: &str) -> String {
    if rich.emphasis.is_empty() {
        return wrapped.to_owned();
    }
    let mut styles =
        rich.text.chars().zip(rich.emphasis.iter().copied()).filter(|(c, _)| !c.is_whitespace()).peekable();
    let mut html = String::new();
    for (n, line) in wrapped.split('\n').enumerate() {
        if n > 0 {
            html.push_str("<br>");
        }
        let mut open = Emphasis::default();
        for c in line.chars() {
            // A space stays inside a run only when the run goes on after it.
            let want = if c.is_whitespace() {
                if styles.peek().map(|(_, e)| *e) == Some(open) {
                    open
                } else {
                    Emphasis::default()
                }
            } else {
                styles.by_ref().find(|(s, _)| *s == c).map(|(_, e)| e).unwrap_or_default()
            };
            if want != open {
                close(&mut html, open);
                if want.bold {
                    html.push_str("<b>");
                }
                if want.italic {
                    html.push_str("<i>");
                }
                open = want;
            }
            escape(c, &mut html);
        }
        close(&mut html, open);
    }
    html
}

fn close(html: &mut String, open: Emphasis) {
    if open.italic {
        html.push_str("</i>");
    }
    if open.bold {
        html.push_str("</b>");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emphasis_becomes_html_the_label_rule_accepts() {
        let rich = markdown("**Root** with\na *second* line & <more>");
        assert_eq!(rich.text, "Root with\na second line & <more>");
        let html = label(&rich, &rich.text);
        assert_eq!(html, "<b>Root</b> with<br>a <i>second</i> line &amp; &lt;more&gt;");
        assert!(canvas_html::check(&html).is_ok());
        assert_eq!(canvas_html::classify(&html), canvas_html::Kind::Html);
        assert_eq!(canvas_html::paragraphs(&html), ["Root with", "a second line & <more>"]);
    }

    #[test]
    fn wrapping_keeps_the_emphasis_and_plain_text_stays_plain() {
        let rich = markdown("a __very long__ bold run");
        assert_eq!(label(&rich, "a very\nlong bold run"), "a <b>very</b><br><b>long</b> bold run");
        let plain = markdown("snake_case and a_b_c");
        assert_eq!((plain.text.as_str(), plain.emphasis.len()), ("snake_case and a_b_c", 0));
        assert_eq!(label(&plain, "snake_case and\na_b_c"), "snake_case and\na_b_c");
        let both = markdown("***both***");
        assert_eq!(label(&both, "both"), "<b><i>both</i></b>");
    }
}
