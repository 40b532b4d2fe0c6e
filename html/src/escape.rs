//! Text written into HTML or XML: the one place where its special characters become character
//! references. Four writers use it, each for what its output is read as:
//!
//! - [`text`] / [`text_char`]: element content (`&`, `<`, `>`), as canvas-diagram writes a label's
//!   HTML from Mermaid's markdown strings (quotes stay as typed: the label's text is stored).
//! - [`markup`]: element content and quoted attribute values (`&`, `<`, `>`, `"`, `'`), as the
//!   account site's pages write every value they show.
//! - [`svg_text`]: [`markup`] for an SVG document the renderer draws, which must stay well-formed
//!   XML 1.0: tabs and line breaks become spaces (a drawn line has none) and the characters XML 1.0
//!   cannot hold (other controls, U+FFFE, U+FFFF) are dropped.
//! - [`xml_into`]: the SVG sanitiser's re-serialisation (canvas-files), which keeps the text as it
//!   was parsed: `&`, `<`, `>` and a carriage return (which a parser would fold) everywhere, and in an
//!   attribute also `"` and the tab and line feed a parser would normalise to spaces.

/// `c` as element content, appended to `out`.
pub fn text_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        c => out.push(c),
    }
}

/// `text` safe as element content.
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    text.chars().for_each(|c| text_char(&mut out, c));
    out
}

/// `text` safe inside an element or a single- or double-quoted attribute.
pub fn markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => text_char(&mut out, c),
        }
    }
    out
}

/// `text` for an SVG document: [`markup`], with tabs and line breaks as spaces and what XML 1.0
/// cannot hold dropped.
pub fn svg_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => text_char(&mut out, c),
        }
    }
    out
}

/// `text` appended to `out` as XML that reads back as the same text: element content, or (with
/// `attribute`) a double-quoted attribute value.
pub fn xml_into(out: &mut String, text: &str, attribute: bool) {
    for c in text.chars() {
        match c {
            '"' if attribute => out.push_str("&quot;"),
            '\n' if attribute => out.push_str("&#10;"),
            '\t' if attribute => out.push_str("&#9;"),
            '\r' => out.push_str("&#13;"),
            c => text_char(out, c),
        }
    }
}

#[cfg(test)]
mod tests {
    use html5ever::tendril::TendrilSink;
    use markup5ever_rcdom::{Handle, NodeData, RcDom};
    use proptest::prelude::*;

    use super::*;

    /// The first `<p>` of `html` as a browser's tree builder reads it: its text and `title`.
    fn read_p(html: &str) -> (String, Option<String>) {
        fn find(node: &Handle) -> Option<Handle> {
            if let NodeData::Element { name, .. } = &node.data {
                if &*name.local == "p" {
                    return Some(node.clone());
                }
            }
            node.children.borrow().iter().find_map(find)
        }
        fn text_of(node: &Handle, out: &mut String) {
            for child in node.children.borrow().iter() {
                match &child.data {
                    NodeData::Text { contents } => out.push_str(&contents.borrow()),
                    _ => text_of(child, out),
                }
            }
        }
        let dom = html5ever::parse_document(RcDom::default(), Default::default()).one(html);
        let p = find(&dom.document).expect("a <p>");
        let mut text = String::new();
        text_of(&p, &mut text);
        let title = match &p.data {
            NodeData::Element { attrs, .. } => {
                attrs.borrow().iter().find(|a| &*a.name.local == "title").map(|a| a.value.to_string())
            }
            _ => None,
        };
        (text, title)
    }

    /// A character an XML 1.0 document may hold, other than the white space the SVG text drops.
    fn xml_1_0_char(c: char) -> bool {
        c == ' ' || (c as u32) >= 0x20 && c != '\u{FFFE}' && c != '\u{FFFF}'
    }

    /// Text a browser keeps as written: no NUL and no carriage return (the parser folds both).
    fn kept_text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just('&'),
                Just('<'),
                Just('>'),
                Just('"'),
                Just('\''),
                Just(';'),
                Just('#'),
                any::<char>().prop_filter("no NUL or CR", |c| *c != '\0' && *c != '\r'),
            ],
            0..40,
        )
        .prop_map(|chars| chars.into_iter().collect())
    }

    proptest! {
        /// What a browser reads back from the escaped text is the text, in an element and in both
        /// kinds of quoted attribute.
        #[test]
        fn a_browser_reads_back_what_was_escaped(raw in kept_text()) {
            let (inside, _) = read_p(&format!("<p>{}</p>", text(&raw)));
            prop_assert_eq!(&inside, &raw);
            let (inside, title) = read_p(&format!("<p title=\"{0}\">{0}</p>", markup(&raw)));
            prop_assert_eq!(&inside, &raw);
            prop_assert_eq!(title.as_deref(), Some(raw.as_str()));
            let (_, title) = read_p(&format!("<p title='{}'>x</p>", markup(&raw)));
            prop_assert_eq!(title.as_deref(), Some(raw.as_str()));
        }

        /// No escaped text can open a tag or end a quoted attribute.
        #[test]
        fn escaped_text_holds_no_markup(raw in ".*") {
            prop_assert!(!text(&raw).contains(['<', '>']));
            prop_assert!(!markup(&raw).contains(['<', '>', '"', '\'']));
            prop_assert!(!svg_text(&raw).contains(['<', '>', '"', '\'']));
            let mut xml = String::new();
            xml_into(&mut xml, &raw, true);
            prop_assert!(!xml.contains(['<', '>', '"', '\r', '\n', '\t']));
        }

        /// The SVG text holds only what XML 1.0 allows, and no line break.
        #[test]
        fn svg_text_is_xml_1_0(raw in ".*") {
            prop_assert!(svg_text(&raw).chars().all(xml_1_0_char));
        }
    }

    #[test]
    fn each_writer_escapes_what_its_reader_needs() {
        assert_eq!(text("a < b & \"c\""), "a &lt; b &amp; \"c\"");
        assert_eq!(markup("<a href='x'>\"&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt;");
        assert_eq!(svg_text("a\tb\nc\u{1}d\u{FFFF}e'"), "a b cde&#39;");
        let (mut content, mut attribute) = (String::new(), String::new());
        xml_into(&mut content, "a\"\n\t\r<", false);
        xml_into(&mut attribute, "a\"\n\t\r<", true);
        assert_eq!(content, "a\"\n\t&#13;&lt;");
        assert_eq!(attribute, "a&quot;&#10;&#9;&#13;&lt;");
    }
}
