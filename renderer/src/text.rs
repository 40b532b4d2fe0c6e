//! Label and sticky-note text: HTML reduced to plain paragraphs, then wrapped
//! into lines.
//!
//! core-service accepts "plain text or valid HTML" and rejects active content,
//! but the renderer never trusts markup: every tag is dropped, block elements
//! become paragraph breaks, entities are decoded, and what remains is escaped
//! again when written into the SVG. No markup from a client ever reaches the
//! output as markup.
//!
//! Widths are estimated from per-character em widths of a sans-serif face
//! rather than measured with a font: the output must be identical on every
//! machine (golden tests, browsers and the PNG rasteriser all get the same
//! lines), and an estimate is close enough to wrap sensibly.

/// Elements that start a new paragraph (or line) when they open or close.
const BLOCK: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
    "caption",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "td",
    "th",
    "tr",
    "ul",
];

/// Plain paragraphs of a label text (plain text or HTML). Runs of white space
/// collapse to one space, as HTML renders them; plain-text newlines are kept.
pub fn paragraphs(text: &str) -> Vec<String> {
    let looks_like_html = text.char_indices().any(|(i, c)| {
        c == '<' && text[i + 1..].chars().next().is_some_and(|n| n.is_ascii_alphabetic() || n == '/' || n == '!')
    });
    let raw = if looks_like_html { strip_tags(text) } else { text.to_owned() };
    let decoded = if looks_like_html { decode_entities(&raw) } else { raw };
    decoded.split('\n').map(|p| p.split_whitespace().collect::<Vec<_>>().join(" ")).filter(|p| !p.is_empty()).collect()
}

/// Drops every tag and comment; block elements leave a newline behind.
fn strip_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start].replace('\n', " "));
        rest = &rest[start..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let Some(end) = rest.find('>') else {
            // A lone '<' is text.
            out.push('<');
            rest = &rest[1..];
            continue;
        };
        let name: String = rest[1..end]
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if BLOCK.contains(&name.as_str()) {
            out.push('\n');
        }
        rest = &rest[end + 1..];
    }
    out.push_str(&rest.replace('\n', " "));
    out
}

/// Decodes the named entities labels use and every numeric one.
fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest.find(';').filter(|&e| e <= 12);
        let decoded = end.and_then(|e| entity(&rest[1..e]));
        match (end, decoded) {
            (Some(e), Some(c)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn entity(name: &str) -> Option<char> {
    let numeric = |digits: &str, radix| u32::from_str_radix(digits, radix).ok().and_then(char::from_u32);
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        "nbsp" => Some(' '),
        "mdash" => Some('—'),
        "ndash" => Some('–'),
        "hellip" => Some('…'),
        "copy" => Some('©'),
        _ => match name.strip_prefix('#') {
            Some(hex) if hex.starts_with(['x', 'X']) => numeric(&hex[1..], 16),
            Some(dec) => numeric(dec, 10),
            None => None,
        },
    }
}

/// Estimated advance of one character, in em.
fn char_em(c: char) -> f64 {
    match c {
        ' ' | 'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'I' => 0.28,
        'f' | 't' | 'r' | '(' | ')' | '-' | '[' | ']' | '"' => 0.36,
        'm' | 'w' | 'M' | 'W' | '@' => 0.85,
        c if c.is_ascii_uppercase() => 0.67,
        c if c.is_ascii() => 0.55,
        // CJK and other wide scripts take a full em.
        c if (c as u32) >= 0x1100 => 1.0,
        _ => 0.6,
    }
}

/// Estimated width of `text` at `font_size`.
pub fn width(text: &str, font_size: f64) -> f64 {
    text.chars().map(char_em).sum::<f64>() * font_size
}

/// Greedy word wrap of the paragraphs into lines no wider than `max_width`
/// (None: no wrapping). A word wider than the line is broken by characters.
pub fn wrap(paragraphs: &[String], font_size: f64, max_width: Option<f64>) -> Vec<String> {
    let Some(max_width) = max_width else { return paragraphs.to_vec() };
    let mut lines = Vec::new();
    for paragraph in paragraphs {
        let mut line = String::new();
        for word in paragraph.split(' ') {
            let candidate = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
            if width(&candidate, font_size) <= max_width {
                line = candidate;
                continue;
            }
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                if !line.is_empty() && width(&line, font_size) + char_em(c) * font_size > max_width {
                    lines.push(std::mem::take(&mut line));
                }
                line.push(c);
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_becomes_plain_paragraphs() {
        let html = "<h1>Plan</h1><p>Ship <b>fast</b> &amp; safe</p><ul><li>one</li><li>two&#x21;</li></ul>";
        assert_eq!(paragraphs(html), ["Plan", "Ship fast & safe", "one", "two!"]);
        assert_eq!(paragraphs("a < b\nc"), ["a < b", "c"], "plain text keeps '<' and newlines");
        assert_eq!(paragraphs("<p>x<!-- hidden --></p><br>&bogus; y"), ["x", "&bogus; y"]);
    }

    #[test]
    fn wrapping_keeps_lines_inside_the_width() {
        let text = vec!["the quick brown fox jumps over the lazy dog".to_owned()];
        let lines = wrap(&text, 10.0, Some(80.0));
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| width(l, 10.0) <= 80.0), "{lines:?}");
        assert_eq!(lines.join(" "), text[0]);
        let long = wrap(&["aaaaaaaaaaaaaaaaaaaa".to_owned()], 10.0, Some(30.0));
        assert!(long.len() > 1 && long.iter().all(|l| width(l, 10.0) <= 30.0), "{long:?}");
    }
}
