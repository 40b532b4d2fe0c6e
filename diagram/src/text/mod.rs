//! Label text: Mermaid's markup reduced to plain text the service accepts, and
//! the size a text takes when drawn.
//!
//! Widths, wrapping, line height and padding are the renderer's own (`canvas-render`'s `text.rs`
//! and `label.rs`, without its PNG feature): the service has no font metrics, and sizing boxes
//! with the estimate the map is drawn with keeps every line inside its box. Texts are wrapped
//! here, with explicit line breaks, so the drawing never wraps them differently.

pub(crate) mod entities;
pub(crate) mod markdown;

use crate::limits::MAX_LABEL_CHARS;

/// Font size of node texts, the label default (points = map units at scale 1).
pub const FONT_SIZE: f64 = 14.0;
/// Font size of edge texts and titles.
pub const SMALL_FONT_SIZE: f64 = 12.0;
/// Line height as a multiple of the font size (the renderer's).
pub const LINE_HEIGHT: f64 = canvas_render::label::LINE_HEIGHT;
/// Inner padding of a label, in em (the renderer's).
pub const LABEL_PADDING: f64 = canvas_render::label::PADDING;
/// The widest a line of a node text grows before it wraps.
pub const WRAP_WIDTH: f64 = 200.0;

/// Estimated width of one line of `text` at `font_size` (the renderer's estimate).
pub fn width(text: &str, font_size: f64) -> f64 {
    canvas_render::text::width(text, font_size)
}

/// Mermaid label markup to the plain text a label item stores: `<br>` forms
/// become line breaks, Mermaid's `#quot;`-style codes their characters,
/// markdown back-ticks go, white space collapses, and the text is clipped to
/// [`MAX_LABEL_CHARS`]. Anything the service would read as HTML is reduced to
/// its visible text; what would still break its HTML rule is defused by
/// turning `<` into `‹`, so every text is accepted.
pub fn clean(raw: &str) -> String {
    let text = decode_entities(&replace_breaks(raw.trim()));
    let text = text.trim_matches('`');
    let lines: Vec<String> = text
        .split('\n')
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect();
    let mut text = lines.join("\n");
    if text.chars().count() > MAX_LABEL_CHARS {
        text = text.chars().take(MAX_LABEL_CHARS - 1).collect::<String>() + "…";
    }
    if canvas_html::classify(&text) == canvas_html::Kind::Html {
        text = canvas_html::to_text(&text);
    }
    if canvas_html::classify(&text) == canvas_html::Kind::Html || canvas_html::check(&text).is_err() {
        text = text.replace('<', "‹");
    }
    text
}

/// `text`, or `…` when it is empty (label items need a text).
pub fn nonempty(text: String) -> String {
    if text.is_empty() {
        "…".into()
    } else {
        text
    }
}

/// `<br>`, `<br/>`, `<br />` (any case) to `\n`.
pub fn replace_breaks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let close = tail.find('>').unwrap_or(0);
        let tag: String = tail[..=close].chars().filter(|c| !c.is_whitespace()).collect::<String>().to_lowercase();
        if close > 0 && (tag == "<br>" || tag == "<br/>") {
            out.push('\n');
            rest = &tail[close + 1..];
        } else {
            out.push('<');
            rest = &tail[1..];
        }
    }
    out.push_str(rest);
    out
}

/// Mermaid's character codes (`#quot;`, `#9829;`, written with `#` because `&` and `;` mean
/// something else in its grammar) and HTML's (`&amp;`, `&#9829;`, `&#x2665;`) as the characters
/// they stand for. Unknown names are left as written.
pub fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['#', '&']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let body_start = if tail.starts_with("&#") { 2 } else { 1 };
        let end = tail[body_start..].find(';').map(|e| e + body_start).filter(|&e| e > body_start && e <= 12);
        let decoded = end.and_then(|end| {
            let body = &tail[body_start..end];
            let number = if tail.starts_with('&') && body_start == 1 {
                None
            } else if let Some(hex) = body.strip_prefix(['x', 'X']).filter(|_| body_start == 2) {
                u32::from_str_radix(hex, 16).ok()
            } else {
                body.parse::<u32>().ok()
            };
            match number {
                // Control characters (but line breaks and tabs) stay written: a code is no way to smuggle one.
                Some(code) => {
                    char::from_u32(code).filter(|c| !c.is_control() || *c == '\n' || *c == '\t').map(String::from)
                }
                None => entities::named(body).map(String::from),
            }
            .map(|text| (text, end))
        });
        match decoded {
            Some((text, end)) => {
                out.push_str(&text);
                rest = &tail[end + 1..];
            }
            None => {
                out.push_str(&tail[..1]);
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every line of `text` wrapped to `max_width` as the renderer wraps it (a word wider than the
/// line is cut by characters).
pub fn wrap(text: &str, font_size: f64, max_width: f64) -> Vec<String> {
    let paragraphs: Vec<String> = text.split('\n').map(str::to_owned).collect();
    let lines = canvas_render::text::wrap(&paragraphs, font_size, Some(max_width));
    keep_tag_starts_whole(lines.into_iter().filter(|l| !l.is_empty()).collect())
}

/// A break right after `<` and a name would make the text read as a tag once its lines are joined
/// by `\n` (`A&<<i` + `nterface>>` is `<i nterface>`, an `<i>` to the label rule, and the label is
/// refused): such a line's `<…` tail starts the next line instead, a few characters wider.
fn keep_tag_starts_whole(mut lines: Vec<String>) -> Vec<String> {
    for i in 1..lines.len() {
        if let Some(at) = tag_start(&lines[i - 1]) {
            let tail = lines[i - 1].split_off(at);
            lines[i].insert_str(0, &tail);
        }
    }
    lines.retain(|line| !line.is_empty());
    lines
}

/// Where `line` ends in the start of a tag: `<` or `</` then letters and digits only.
fn tag_start(line: &str) -> Option<usize> {
    let name = line.trim_end_matches(|c: char| c.is_ascii_alphanumeric());
    if name.len() == line.len() {
        return None;
    }
    let open = name.strip_suffix('/').unwrap_or(name);
    let at = open.strip_suffix('<')?.len();
    // `</` and nothing after is not a start; `<` then a letter is.
    line[at..].chars().find(|c| *c != '<' && *c != '/').filter(char::is_ascii_alphabetic).map(|_| at)
}

/// A text wrapped for a box: its lines joined by `\n`, and the size of the
/// block they take (without the label's padding).
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The wrapped text.
    pub text: String,
    /// Width of the widest line.
    pub width: f64,
    /// Height of the lines.
    pub height: f64,
}

/// Wraps `text` at `max_width` and measures it.
pub fn block(text: &str, font_size: f64, max_width: f64) -> Block {
    let lines = wrap(text, font_size, max_width);
    let widest = lines.iter().map(|l| width(l, font_size)).fold(0.0, f64::max);
    let count = lines.len().max(1) as f64;
    Block { text: lines.join("\n"), width: widest.max(font_size), height: count * LINE_HEIGHT * font_size }
}

/// The size of a label box that shows `block` without cutting it: the block
/// plus the renderer's padding, plus a little slack against rounding.
pub fn label_size(block: &Block, font_size: f64) -> (f64, f64) {
    let pad = 2.0 * LABEL_PADDING * font_size;
    ((block.width + pad + 4.0).ceil(), (block.height + pad + 2.0).ceil())
}

/// `text` on one line no wider than `max_width`, cut with `…` when it is not.
pub fn fit(text: &str, font_size: f64, max_width: f64) -> String {
    let line = text.replace('\n', " ");
    if width(&line, font_size) <= max_width {
        return line;
    }
    let mut out = String::new();
    for c in line.chars() {
        if width(&format!("{out}{c}…"), font_size) > max_width {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_owned() + "…"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn breaks_codes_and_space_are_cleaned() {
        assert_eq!(clean("one<br>two<BR/>three<br />four"), "one\ntwo\nthree\nfour");
        assert_eq!(clean("say #quot;hi#quot;  now"), "say \"hi\" now");
        assert_eq!(clean("`markdown`"), "markdown");
        assert_eq!(clean("if a < b then"), "if a < b then");
        assert_eq!(clean("I #9829; you #35;1 &amp; &#x41; #unknown; # 5;"), "I ♥ you #1 & A #unknown; # 5;");
    }

    #[test]
    fn html_is_reduced_and_active_content_defused() {
        assert_eq!(clean("<b>bold</b> text"), "bold text");
        let defused = clean("<x onclick=alert(1)>hi");
        assert!(canvas_html::check(&defused).is_ok(), "{defused}");
        assert_eq!(canvas_html::classify(&defused), canvas_html::Kind::Plain);
    }

    #[test]
    fn long_texts_are_clipped() {
        let long = "a".repeat(MAX_LABEL_CHARS * 2);
        let clipped = clean(&long);
        assert_eq!(clipped.chars().count(), MAX_LABEL_CHARS);
        assert!(clipped.ends_with('…'));
    }

    #[test]
    fn a_break_never_follows_the_start_of_a_tag() {
        let lines = keep_tag_starts_whole(vec!["A&<<i".into(), "nterface>>".into()]);
        assert_eq!(lines, ["A&<", "<interface>>"]);
        let lines = keep_tag_starts_whole(vec!["x </b".into(), "y>".into(), "<em".into(), "z".into()]);
        assert_eq!(lines, ["x ", "</by>", "<emz"]);
        // Not a tag's start: a bare `<`, `<` then a digit or a space, a name without `<`.
        for line in ["a <", "a <1", "a < b", "name", "a </"] {
            assert_eq!(tag_start(line), None, "{line}");
        }
        assert_eq!(keep_tag_starts_whole(vec!["<i".into(), "x".into()]), ["<ix"]);
    }

    #[test]
    fn fitting_cuts_with_an_ellipsis() {
        assert_eq!(fit("short", 12.0, 100.0), "short");
        let cut = fit("a rather long title for a small box", 12.0, 80.0);
        assert!(cut.ends_with('…') && width(&cut, 12.0) <= 80.0, "{cut}");
    }

    #[test]
    fn wrapping_keeps_lines_inside_the_width() {
        let lines = wrap("the quick brown fox jumps over the lazy dog", 14.0, 100.0);
        assert!(lines.len() > 2 && lines.iter().all(|l| width(l, 14.0) <= 100.0), "{lines:?}");
        let block = block("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 14.0, 100.0);
        assert!(block.width <= 100.0 && block.text.contains('\n'), "{block:?}");
    }
}
