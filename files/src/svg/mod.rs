//! SVG sanitising: parse with `roxmltree`, then write back only what the allow-lists in [`allow`] keep.
//!
//! Re-serialising from a parsed tree (instead of editing the text) means nothing the parser saw but the
//! writer did not choose can survive: comments, processing instructions (`<?xml-stylesheet?>` loads a
//! file), the doctype, unknown namespaces and their attributes all disappear by construction.

mod allow;
mod css;

use roxmltree::{Document, Node, ParsingOptions};

pub use allow::{ATTRIBUTES as SVG_ALLOWED_ATTRIBUTES, ELEMENTS as SVG_ALLOWED_ELEMENTS};

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Deeper nesting than this is refused rather than walked (the writer recurses).
const MAX_DEPTH: usize = 512;

/// Parses an SVG and returns a sanitised serialisation (UTF-8, with an XML declaration).
///
/// Removed: elements outside the allow-list with their subtree (`script`, `foreignObject`, `animate`,
/// `set`...), attributes outside it (every `on*` handler...), `href`/`xlink:href` values that are not
/// `#fragment` or `data:image/(png|jpeg|gif|webp)`, `url(...)` to anything else in `style`, `<style>`
/// and presentation attributes (replaced by `none`), `@import`, comments, processing instructions and
/// the doctype. Refused with `Err`: input that is not UTF-8 XML, whose root is not `<svg>`, that
/// declares entities (XXE, billion laughs), or that nests deeper than 512 elements.
pub fn sanitize_svg(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let text = svg_text(bytes)?;
    let document = parse_svg(text)?;
    let mut out = String::with_capacity(text.len());
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write_element(document.root_element(), 0, &mut out)?;
    out.push('\n');
    Ok(out.into_bytes())
}

/// The UTF-8 text of an SVG, without byte-order mark.
pub(crate) fn svg_text(bytes: &[u8]) -> Result<&str, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|_| "SVG is not UTF-8 text".to_string())
}

/// Parses SVG text, refusing entity declarations and roots other than `<svg>`.
pub(crate) fn parse_svg(text: &str) -> Result<Document<'_>, String> {
    // Entities are refused outright, by a byte search rather than by reading the doctype, so no
    // difference between two parsers' view of the doctype can let one through. `<!ENTITY` can appear
    // elsewhere only inside a comment or CDATA section; refusing those rare files is the price.
    if contains_ignore_ascii_case(text.as_bytes(), b"<!ENTITY") {
        return Err("SVG declares entities (refused: XXE and entity expansion)".to_string());
    }
    // A DTD is allowed so the common `<!DOCTYPE svg PUBLIC ...>` parses; roxmltree never fetches it.
    let options = ParsingOptions { allow_dtd: true, ..ParsingOptions::default() };
    let document =
        Document::parse_with_options(text, options).map_err(|e| format!("SVG is not well-formed XML: {e}"))?;
    let root = document.root_element();
    if root.tag_name().name() != "svg" || !in_svg_namespace(root) {
        return Err(format!("root element is <{}>, not <svg>", root.tag_name().name()));
    }
    Ok(document)
}

/// SVG elements are in the SVG namespace; files without any `xmlns` are read as SVG too, as viewers do.
pub(crate) fn in_svg_namespace(node: Node<'_, '_>) -> bool {
    matches!(node.tag_name().namespace(), None | Some(SVG_NS))
}

fn contains_ignore_ascii_case(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w.eq_ignore_ascii_case(needle))
}

/// Writes an allowed element, its kept attributes and its children. The caller checked the element.
fn write_element(node: Node<'_, '_>, depth: usize, out: &mut String) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err(format!("SVG nests deeper than {MAX_DEPTH} elements"));
    }
    let name = node.tag_name().name();
    out.push('<');
    out.push_str(name);
    if depth == 0 {
        // Namespaces are written fresh: the default is SVG, and xlink is declared for xlink:href.
        out.push_str(" xmlns=\"");
        out.push_str(SVG_NS);
        out.push_str("\" xmlns:xlink=\"");
        out.push_str(XLINK_NS);
        out.push('"');
    }
    for (qualified, value) in kept_attributes(node) {
        out.push(' ');
        out.push_str(&qualified);
        out.push_str("=\"");
        canvas_html::escape::xml_into(out, &value, true);
        out.push('"');
    }
    let children: Vec<Node<'_, '_>> = node.children().filter(|c| child_kept(*c)).collect();
    if children.is_empty() {
        out.push_str("/>");
        return Ok(());
    }
    out.push('>');
    if name == "style" {
        // Only the text of a stylesheet matters; it is CSS and goes through the CSS sanitiser.
        let css: String = children.iter().filter_map(|c| c.text()).collect();
        canvas_html::escape::xml_into(out, &css::sanitize_css(&css), false);
    } else {
        for child in children {
            if child.is_element() {
                write_element(child, depth + 1, out)?;
            } else if let Some(text) = child.text() {
                canvas_html::escape::xml_into(out, text, false);
            }
        }
    }
    out.push_str("</");
    out.push_str(name);
    out.push('>');
    Ok(())
}

/// Text nodes are kept; elements only when allowed. Comments and processing instructions never are.
fn child_kept(node: Node<'_, '_>) -> bool {
    if node.is_text() {
        return true;
    }
    node.is_element() && in_svg_namespace(node) && allow::element_allowed(node.tag_name().name())
}

/// The attributes written for an element, as (qualified name, value) pairs, after the allow-list, the
/// URL rule and the CSS sanitiser.
fn kept_attributes(node: Node<'_, '_>) -> Vec<(String, String)> {
    let element = node.tag_name().name();
    let mut kept = Vec::new();
    for attribute in node.attributes() {
        let name = attribute.name();
        let value = attribute.value();
        let qualified = match attribute.namespace() {
            None if allow::attribute_allowed(name) => name.to_string(),
            Some(XLINK_NS) if name == "href" => "xlink:href".to_string(),
            Some(XML_NS) if name == "space" || name == "lang" => format!("xml:{name}"),
            _ => continue,
        };
        if name == "href" && !allow::url_allowed(value) {
            continue;
        }
        if element == "animateTransform" && name == "attributeName" && !allow::ANIMATABLE.contains(&value.trim()) {
            continue;
        }
        if element == "style" && name == "type" && !value.trim().eq_ignore_ascii_case("text/css") {
            continue;
        }
        let value = if allow::URL_PROPERTIES.contains(&name) && attribute.namespace().is_none() {
            css::sanitize_css(value)
        } else {
            value.to_string()
        };
        kept.push((qualified, value));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_out_of_duplicates() {
        // A duplicate would hint at a copy-paste slip in the documented lists.
        let mut elements = SVG_ALLOWED_ELEMENTS.to_vec();
        elements.sort_unstable();
        elements.dedup();
        assert_eq!(elements.len(), SVG_ALLOWED_ELEMENTS.len());
        let mut attributes = SVG_ALLOWED_ATTRIBUTES.to_vec();
        attributes.sort_unstable();
        attributes.dedup();
        assert_eq!(attributes.len(), SVG_ALLOWED_ATTRIBUTES.len());
    }

    #[test]
    fn style_type_other_than_css_is_dropped_and_text_escaped() {
        let svg =
            br#"<svg xmlns="http://www.w3.org/2000/svg"><style type="text/xsl">a{}</style><text>a &lt; b</text></svg>"#;
        let out = String::from_utf8(sanitize_svg(svg).unwrap()).unwrap();
        assert!(out.contains("<style>a{}</style>"), "{out}");
        assert!(out.contains("<text>a &lt; b</text>"), "{out}");
    }
}
