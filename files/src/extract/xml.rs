//! Streaming XML-to-text for the office formats, with `quick-xml`.
//!
//! Streaming keeps memory flat on large parts (a 60 MB `document.xml` would cost several times that as
//! a tree). quick-xml never expands entities declared in a doctype, so XXE and entity expansion cannot
//! happen here: unknown entity references are simply skipped. Elements are matched by local name; the
//! parts each format reads use one vocabulary, so prefixes add nothing.

use quick_xml::events::{BytesRef, BytesStart, Event};
use quick_xml::Reader;

use super::{ExtractError, TextOut};
use crate::sniff::attribute_value;

/// Which elements carry text and which ones shape it, by local name.
pub(crate) struct Rules {
    /// Text is taken only inside these elements (`w:t`, `a:t`, `text:p`...).
    pub capture: &'static [&'static str],
    /// Text inside these is ignored even within a captured element (phonetic runs, deleted text...).
    pub skip: &'static [&'static str],
    /// The end of these ends a line (paragraphs, headings).
    pub block: &'static [&'static str],
    /// These stand for a tab.
    pub tab: &'static [&'static str],
    /// These stand for a line break.
    pub line_break: &'static [&'static str],
    /// These stand for spaces; an attribute `c` gives the count (OpenDocument `text:s`).
    pub space: &'static [&'static str],
}

/// The most spaces one `text:s` may stand for; more is padding, not content.
const MAX_REPEATED_SPACES: usize = 64;

/// Appends the text of `xml` to `out` following `rules`. Stops early once `out` is full.
pub(crate) fn text_of(xml: &str, rules: &Rules, out: &mut TextOut) -> Result<(), ExtractError> {
    let mut reader = Reader::from_str(xml);
    let mut captured = 0usize;
    let mut skipped = 0usize;
    loop {
        if out.is_full() {
            return Ok(());
        }
        let event = reader.read_event().map_err(malformed)?;
        match event {
            Event::Start(e) => {
                let name = local(&e);
                if rules.capture.contains(&name) {
                    captured += 1;
                }
                if rules.skip.contains(&name) {
                    skipped += 1;
                }
                shape(&e, rules, out);
            }
            Event::Empty(e) => {
                shape(&e, rules, out);
                if rules.block.contains(&local(&e)) {
                    out.line_break();
                }
            }
            Event::End(e) => {
                let name = e.local_name().into_inner();
                if rules.capture.contains(&name) {
                    captured = captured.saturating_sub(1);
                }
                if rules.skip.contains(&name) {
                    skipped = skipped.saturating_sub(1);
                }
                if rules.block.contains(&name) {
                    out.line_break();
                }
            }
            Event::Text(t) if captured > 0 && skipped == 0 => out.push(&t.xml10_content()),
            Event::CData(t) if captured > 0 && skipped == 0 => out.push(&t.xml10_content()),
            Event::GeneralRef(r) if captured > 0 && skipped == 0 => {
                if let Some(text) = reference_text(&r) {
                    out.push(&text);
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}

/// Emits what an element stands for (tab, break, spaces), whether captured or not: in DOCX a `w:tab`
/// sits beside `w:t`, not inside it.
fn shape(e: &BytesStart<'_>, rules: &Rules, out: &mut TextOut) {
    let name = local(e);
    if rules.tab.contains(&name) {
        out.push("\t");
    } else if rules.line_break.contains(&name) {
        out.push("\n");
    } else if rules.space.contains(&name) {
        let count = attribute(e, "c").and_then(|c| c.trim().parse::<usize>().ok()).unwrap_or(1);
        out.push(&" ".repeat(count.clamp(1, MAX_REPEATED_SPACES)));
    }
}

/// The local name of an element (`w:t` → `t`).
pub(crate) fn local<'a>(e: &'a BytesStart<'_>) -> &'a str {
    e.local_name().into_inner()
}

/// The unescaped value of the attribute with this local name, if present and well-formed.
pub(crate) fn attribute(e: &BytesStart<'_>, wanted: &str) -> Option<String> {
    e.attributes().flatten().find(|a| a.key.local_name().as_ref() == wanted).and_then(|a| attribute_value(&a))
}

/// The text of a character or predefined entity reference; `None` for undeclared entities.
pub(crate) fn reference_text(r: &BytesRef<'_>) -> Option<String> {
    if r.is_char_ref() {
        return r.resolve_char_ref().ok().flatten().map(String::from);
    }
    quick_xml::escape::resolve_xml_entity(r).map(str::to_string)
}

pub(crate) fn malformed(e: quick_xml::Error) -> ExtractError {
    ExtractError::Malformed(format!("XML: {e}"))
}

/// An OPC relationship (`_rels/*.rels`).
pub(crate) struct Relationship {
    /// `Id`, referenced from the source part (`r:id`).
    pub id: String,
    /// `Type`, a URI whose last segment names the kind (`.../worksheet`).
    pub kind: String,
    /// `Target`, relative to the source part's folder unless absolute.
    pub target: String,
}

/// The internal relationships of a `.rels` part (`TargetMode="External"` ones are left out).
pub(crate) fn relationships(xml: &str) -> Result<Vec<Relationship>, ExtractError> {
    let mut reader = Reader::from_str(xml);
    let mut found = Vec::new();
    loop {
        match reader.read_event().map_err(malformed)? {
            Event::Start(e) | Event::Empty(e) if local(&e) == "Relationship" => {
                if attribute(&e, "TargetMode").is_some_and(|m| m.eq_ignore_ascii_case("External")) {
                    continue;
                }
                if let (Some(id), Some(target)) = (attribute(&e, "Id"), attribute(&e, "Target")) {
                    found.push(Relationship { id, kind: attribute(&e, "Type").unwrap_or_default(), target });
                }
            }
            Event::Eof => return Ok(found),
            _ => {}
        }
    }
}
