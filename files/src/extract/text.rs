//! Text-like formats: plain text, Markdown, HTML fragments and the text of SVG images.

use std::ops::ControlFlow;

use pulldown_cmark::{Event, Options, Parser, TagEnd};

use super::{ExtractError, TextOut};
use crate::svg::{in_svg_namespace, parse_svg, svg_text};

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

/// An HTML fragment or document reduced to the text a reader sees, by `canvas-html` (the workspace's one
/// HTML reader): tags removed, hidden elements' content dropped, blocks as line breaks, character
/// references decoded as a browser decodes them.
pub(crate) fn html(html: &str, out: &mut TextOut) {
    canvas_html::for_each_text(html, |piece| {
        match piece {
            canvas_html::Text::Chars(text) => out.push(text),
            canvas_html::Text::Break => out.line_break(),
        }
        if out.is_full() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
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
