//! Text-like formats: plain text, Markdown, HTML fragments and the text of SVG images.

use pulldown_cmark::{Event, Options, Parser, TagEnd};

use super::{ExtractError, TextOut};
use crate::svg::{in_svg_namespace, parse_svg, svg_text};

/// Elements whose content is never text a reader sees.
const HTML_HIDDEN: &[&str] = &["script", "style", "template", "noscript", "head", "title"];
/// Elements that start or end a line.
const HTML_BLOCKS: &[&str] = &[
    "address",
    "article",
    "aside",
    "blockquote",
    "br",
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

/// UTF-8 text without a byte-order mark.
pub(crate) fn utf8(bytes: &[u8]) -> Result<String, ExtractError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    String::from_utf8(bytes.to_vec()).map_err(|_| ExtractError::InvalidUtf8)
}

pub(crate) fn plain(bytes: &[u8], out: &mut TextOut) -> Result<(), ExtractError> {
    out.push(&utf8(bytes)?.replace("\r\n", "\n"));
    Ok(())
}

/// Markdown reduced to its text: markup gone, blocks on their own lines, code kept (it is content),
/// link and image targets dropped (image alt text kept), embedded HTML reduced like [`html`].
pub(crate) fn markdown(bytes: &[u8], out: &mut TextOut) -> Result<(), ExtractError> {
    let source = utf8(bytes)?;
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for event in Parser::new_ext(&source, options) {
        if out.is_full() {
            break;
        }
        match event {
            Event::Text(text) | Event::Code(text) | Event::InlineMath(text) | Event::DisplayMath(text) => {
                out.push(&text)
            }
            Event::Html(html) | Event::InlineHtml(html) => self::html(&html, out),
            Event::SoftBreak => out.push(" "),
            Event::HardBreak | Event::Rule => out.line_break(),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Heading(_)
                | TagEnd::CodeBlock
                | TagEnd::Item
                | TagEnd::TableRow
                | TagEnd::TableHead
                | TagEnd::BlockQuote(_),
            ) => out.line_break(),
            Event::End(TagEnd::TableCell) => out.push("\t"),
            _ => {}
        }
    }
    Ok(())
}

/// An HTML fragment reduced to text. A tolerant scanner rather than an HTML parser: the input is
/// indexed, never rendered, so only the visible text matters. Tags are removed, hidden elements'
/// content dropped, blocks become line breaks, character references (all HTML5 names) decoded.
pub(crate) fn html(html: &str, out: &mut TextOut) {
    let mut rest = html;
    let mut hidden: Option<String> = None;
    while !rest.is_empty() && !out.is_full() {
        let Some(open) = rest.find('<') else {
            if hidden.is_none() {
                push_decoded(rest, out);
            }
            break;
        };
        if hidden.is_none() {
            push_decoded(&rest[..open], out);
        }
        rest = &rest[open..];
        // As in HTML, `<` starts markup only before a letter, `/`, `!` or `?`; otherwise it is text.
        if !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic() || matches!(c, '/' | '!' | '?')) {
            if hidden.is_none() {
                out.push("<");
            }
            rest = &rest[1..];
            continue;
        }
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |end| &comment[end + 3..]);
            continue;
        }
        let Some(close) = rest.find('>') else {
            // A lone `<` is text ("a < b").
            if hidden.is_none() {
                push_decoded(rest, out);
            }
            break;
        };
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        if name.is_empty() {
            // `<!doctype>`, `<?pi?>` and stray `< ` are not elements; drop the markup.
            continue;
        }
        match &hidden {
            Some(open_name) if closing && *open_name == name => hidden = None,
            Some(_) => {}
            None if !closing && HTML_HIDDEN.contains(&name.as_str()) && !tag.ends_with('/') => hidden = Some(name),
            None if HTML_BLOCKS.contains(&name.as_str()) => out.line_break(),
            None => {}
        }
    }
}

fn push_decoded(text: &str, out: &mut TextOut) {
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push(&rest[..amp]);
        rest = &rest[amp..];
        let end = rest[1..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '#')).map(|i| i + 1);
        let decoded = match end {
            Some(end) if rest[end..].starts_with(';') => decode_reference(&rest[1..end]).map(|d| (d, end + 1)),
            _ => None,
        };
        match decoded {
            Some((text, consumed)) => {
                out.push(&text);
                rest = &rest[consumed..];
            }
            None => {
                out.push("&");
                rest = &rest[1..];
            }
        }
    }
    out.push(rest);
}

fn decode_reference(name: &str) -> Option<String> {
    if let Some(number) = name.strip_prefix('#') {
        let value = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(value).filter(|c| *c != '\0').map(String::from);
    }
    quick_xml::escape::resolve_html5_entity(name).map(str::to_string)
}

/// The text of an SVG: `<title>`, `<desc>` and each `<text>` (with its `tspan`/`textPath`) on a line.
pub(crate) fn svg(bytes: &[u8], out: &mut TextOut) -> Result<(), ExtractError> {
    let text = svg_text(bytes).map_err(|_| ExtractError::InvalidUtf8)?;
    let document = parse_svg(text).map_err(ExtractError::Malformed)?;
    for node in document.descendants().filter(|n| n.is_element() && in_svg_namespace(*n)) {
        if !matches!(node.tag_name().name(), "text" | "title" | "desc") {
            continue;
        }
        // A title or desc inside a text element is already part of that element's text.
        if node.ancestors().skip(1).any(|a| a.is_element() && a.tag_name().name() == "text") {
            continue;
        }
        let content: String = node.descendants().filter(|d| d.is_text()).filter_map(|d| d.text()).collect();
        let content = content.split_whitespace().collect::<Vec<_>>().join(" ");
        if !content.is_empty() {
            out.push(&content);
            out.line_break();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html_text(input: &str) -> String {
        let mut out = TextOut::new(1 << 20);
        html(input, &mut out);
        out.finish().text
    }

    #[test]
    fn html_is_reduced_to_visible_text() {
        assert_eq!(
            html_text("<p>Hello <b>world</b></p><p>second&nbsp;line &amp; more</p>"),
            "Hello world\nsecond\u{a0}line & more"
        );
        assert_eq!(html_text("<script>alert(1)</script>Safe<style>p{}</style>"), "Safe");
        assert_eq!(html_text("a < b &unknown; &#x41;&#66;<br>c<!-- hidden -->"), "a < b &unknown; AB\nc");
    }
}
