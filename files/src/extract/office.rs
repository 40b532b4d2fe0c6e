//! Office documents: OOXML (DOCX, PPTX, XLSX) and OpenDocument (ODT, ODS, ODP).
//!
//! Both are zip packages of XML parts, read through [`Archive`] (zip-bomb bounds) and streamed through
//! [`text_of`]. Parts are found the way the formats define it (content types and relationships) rather
//! than by fixed names, with the conventional names as the fall-back for slide order.
//! XLSX is read here rather than with `calamine` so the same archive bounds apply to every part.

use quick_xml::events::Event;
use quick_xml::Reader;

use super::xml::{attribute, local, malformed, reference_text, relationships, text_of, Relationship, Rules};
use super::{ExtractError, Limits, TextOut};
use crate::archive::{rels_path, resolve_target, Archive};
use crate::sniff::{attribute_value, ooxml_main_part, MIME_DOCX, MIME_ODP, MIME_ODS, MIME_ODT, MIME_PPTX, MIME_XLSX};

/// WordprocessingML: runs' `w:t`; `mc:Fallback` repeats text-box content already in `mc:Choice`.
const DOCX: Rules =
    Rules { capture: &["t"], skip: &["Fallback"], block: &["p"], tab: &["tab"], line_break: &["br", "cr"], space: &[] };
/// DrawingML text in slides: `a:t` in `a:p` paragraphs.
const PPTX: Rules =
    Rules { capture: &["t"], skip: &["Fallback"], block: &["p"], tab: &[], line_break: &["br"], space: &[] };
/// OpenDocument: paragraphs and headings; deleted text kept for change tracking is skipped.
const ODF: Rules = Rules {
    capture: &["p", "h"],
    skip: &["tracked-changes"],
    block: &["p", "h"],
    tab: &["tab"],
    line_break: &["line-break"],
    space: &["s"],
};

/// DOCX: the main document part, then footnotes and endnotes.
pub(crate) fn docx(bytes: &[u8], limits: &Limits, out: &mut TextOut) -> Result<(), ExtractError> {
    let mut archive = Archive::open(bytes, limits.archive())?;
    let main = main_part(&mut archive, MIME_DOCX)?;
    let xml = required_text(&mut archive, &main)?;
    text_of(&xml, &DOCX, out)?;
    for rel in part_relationships(&mut archive, &main)? {
        if rel.kind.ends_with("/footnotes") || rel.kind.ends_with("/endnotes") {
            if let Some(xml) = resolve_target(&main, &rel.target).and_then(|p| archive.read_text(&p).transpose()) {
                out.line_break();
                text_of(&xml?, &DOCX, out)?;
            }
        }
    }
    Ok(())
}

/// PPTX: slides in presentation order (`p:sldIdLst`), one block per slide.
pub(crate) fn pptx(bytes: &[u8], limits: &Limits, out: &mut TextOut) -> Result<(), ExtractError> {
    let mut archive = Archive::open(bytes, limits.archive())?;
    let main = main_part(&mut archive, MIME_PPTX)?;
    let xml = required_text(&mut archive, &main)?;
    let rels = part_relationships(&mut archive, &main)?;
    let mut slides: Vec<String> = ordered_targets(&xml, "sldId", &rels, &main)?;
    if slides.is_empty() {
        slides = numbered_parts(&archive, "ppt/slides/slide");
    }
    for slide in slides {
        let Some(xml) = archive.read_text(&slide)? else { continue };
        text_of(&xml, &PPTX, out)?;
        out.line_break();
    }
    Ok(())
}

/// ODT, ODS, ODP: `content.xml`, whose paragraphs and headings hold the text of all three.
pub(crate) fn opendocument(bytes: &[u8], limits: &Limits, out: &mut TextOut) -> Result<(), ExtractError> {
    let mut archive = Archive::open(bytes, limits.archive())?;
    let declared = archive.read_text("mimetype")?.unwrap_or_default();
    if ![MIME_ODT, MIME_ODS, MIME_ODP].contains(&declared.trim()) {
        return Err(ExtractError::Malformed("not an OpenDocument package (mimetype entry)".into()));
    }
    let xml = required_text(&mut archive, "content.xml")?;
    text_of(&xml, &ODF, out)
}

/// XLSX: each sheet in workbook order, its name on a line, then one line per row with the cell
/// values (shared strings resolved, inline strings, numbers as stored, booleans) separated by tabs.
pub(crate) fn xlsx(bytes: &[u8], limits: &Limits, out: &mut TextOut) -> Result<(), ExtractError> {
    let mut archive = Archive::open(bytes, limits.archive())?;
    let main = main_part(&mut archive, MIME_XLSX)?;
    let workbook = required_text(&mut archive, &main)?;
    let rels = part_relationships(&mut archive, &main)?;
    let mut shared = Vec::new();
    if let Some(rel) = rels.iter().find(|r| r.kind.ends_with("/sharedStrings")) {
        if let Some(xml) = resolve_target(&main, &rel.target).map(|p| archive.read_text(&p)).transpose()?.flatten() {
            shared = shared_strings(&xml)?;
        }
    }
    let names = sheet_names(&workbook)?;
    let sheets = ordered_targets(&workbook, "sheet", &rels, &main)?;
    for (index, sheet) in sheets.iter().enumerate() {
        let Some(xml) = archive.read_text(sheet)? else { continue };
        if let Some(name) = names.get(index) {
            out.push(name);
            out.line_break();
        }
        sheet_text(&xml, &shared, out)?;
        out.line_break();
    }
    Ok(())
}

fn main_part(archive: &mut Archive<'_>, expected: &str) -> Result<String, ExtractError> {
    match ooxml_main_part(archive) {
        Some((part, mime, _)) if mime == expected => Ok(part),
        Some((_, mime, _)) => Err(ExtractError::Malformed(format!("the package is {mime}, not {expected}"))),
        None => Err(ExtractError::Malformed(format!("not an OOXML package of type {expected}"))),
    }
}

fn required_text(archive: &mut Archive<'_>, part: &str) -> Result<String, ExtractError> {
    archive.read_text(part)?.ok_or_else(|| ExtractError::Malformed(format!("the package has no {part}")))
}

fn part_relationships(archive: &mut Archive<'_>, part: &str) -> Result<Vec<Relationship>, ExtractError> {
    match archive.read_text(&rels_path(part))? {
        Some(xml) => relationships(&xml),
        None => Ok(Vec::new()),
    }
}

/// The parts referenced, in document order, by the elements named `element` through their
/// relationship id (`r:id`, a prefixed `id` attribute, as opposed to the plain numeric `id`).
fn ordered_targets(xml: &str, element: &str, rels: &[Relationship], base: &str) -> Result<Vec<String>, ExtractError> {
    let mut reader = Reader::from_str(xml);
    let mut targets = Vec::new();
    loop {
        match reader.read_event().map_err(malformed)? {
            Event::Start(e) | Event::Empty(e) if local(&e) == element => {
                let rel_id = e
                    .attributes()
                    .flatten()
                    .find(|a| a.key.prefix().is_some() && a.key.local_name().into_inner() == "id")
                    .and_then(|a| attribute_value(&a));
                let target = rel_id.and_then(|id| rels.iter().find(|r| r.id == id));
                if let Some(path) = target.and_then(|r| resolve_target(base, &r.target)) {
                    targets.push(path);
                }
            }
            Event::Eof => return Ok(targets),
            _ => {}
        }
    }
}

/// Entries named `{prefix}{number}.xml`, in numeric order.
fn numbered_parts(archive: &Archive<'_>, prefix: &str) -> Vec<String> {
    let mut numbered: Vec<(u32, String)> = archive
        .names()
        .into_iter()
        .filter_map(|name| {
            let number = name.strip_prefix(prefix)?.strip_suffix(".xml")?.parse().ok()?;
            Some((number, name))
        })
        .collect();
    numbered.sort();
    numbered.into_iter().map(|(_, name)| name).collect()
}

fn sheet_names(workbook: &str) -> Result<Vec<String>, ExtractError> {
    let mut reader = Reader::from_str(workbook);
    let mut names = Vec::new();
    loop {
        match reader.read_event().map_err(malformed)? {
            Event::Start(e) | Event::Empty(e) if local(&e) == "sheet" => {
                names.push(attribute(&e, "name").unwrap_or_default());
            }
            Event::Eof => return Ok(names),
            _ => {}
        }
    }
}

/// The shared-string table: one entry per `si`, its `t` texts joined, phonetic runs (`rPh`) left out.
fn shared_strings(xml: &str) -> Result<Vec<String>, ExtractError> {
    let mut reader = Reader::from_str(xml);
    let mut strings = Vec::new();
    let (mut current, mut in_t, mut in_phonetic) = (String::new(), false, false);
    loop {
        match reader.read_event().map_err(malformed)? {
            Event::Start(e) => match local(&e) {
                "t" => in_t = true,
                "rPh" => in_phonetic = true,
                _ => {}
            },
            Event::End(e) => match e.local_name().into_inner() {
                "t" => in_t = false,
                "rPh" => in_phonetic = false,
                "si" => strings.push(std::mem::take(&mut current)),
                _ => {}
            },
            Event::Empty(e) if local(&e) == "si" => strings.push(String::new()),
            Event::Text(t) if in_t && !in_phonetic => current.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if in_t && !in_phonetic => current.push_str(&reference_text(&r).unwrap_or_default()),
            Event::Eof => return Ok(strings),
            _ => {}
        }
    }
}

/// One sheet's cells, row by row.
fn sheet_text(xml: &str, shared: &[String], out: &mut TextOut) -> Result<(), ExtractError> {
    let mut reader = Reader::from_str(xml);
    let (mut cell_type, mut value) = (String::new(), String::new());
    let (mut in_value, mut in_inline_t, mut in_phonetic, mut first_in_row) = (false, false, false, true);
    loop {
        if out.is_full() {
            return Ok(());
        }
        match reader.read_event().map_err(malformed)? {
            Event::Start(e) => match local(&e) {
                "c" => {
                    cell_type = attribute(&e, "t").unwrap_or_default();
                    value.clear();
                }
                "v" => in_value = true,
                "t" => in_inline_t = true,
                "rPh" => in_phonetic = true,
                _ => {}
            },
            Event::End(e) => match e.local_name().into_inner() {
                "v" => in_value = false,
                "t" => in_inline_t = false,
                "rPh" => in_phonetic = false,
                "c" => {
                    let text = match cell_type.as_str() {
                        "s" => {
                            value.trim().parse::<usize>().ok().and_then(|i| shared.get(i)).cloned().unwrap_or_default()
                        }
                        "b" => if value.trim() == "1" { "TRUE" } else { "FALSE" }.to_string(),
                        "e" => String::new(),
                        _ => std::mem::take(&mut value),
                    };
                    if !text.trim().is_empty() {
                        if !first_in_row {
                            out.push("\t");
                        }
                        out.push(text.trim());
                        first_in_row = false;
                    }
                }
                "row" => {
                    out.line_break();
                    first_in_row = true;
                }
                _ => {}
            },
            Event::Text(t) if in_value || (in_inline_t && !in_phonetic) => value.push_str(&t.xml10_content()),
            Event::GeneralRef(r) if in_value || (in_inline_t && !in_phonetic) => {
                value.push_str(&reference_text(&r).unwrap_or_default())
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
    }
}
