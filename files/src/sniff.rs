//! Content-type detection from the bytes of an upload, and image dimensions from the same headers.
//!
//! The client's file name and declared type are never trusted, with one exception the contract asks
//! for: valid UTF-8 text is Markdown rather than plain text when the name ends in `.md`/`.markdown`
//! (Markdown has no signature of its own, and serving it as either type is harmless).
//! Order matters: binary signatures first, then zip-based formats by their contents, then SVG (which is
//! also valid text), then text.

use quick_xml::events::attributes::Attribute;
use quick_xml::events::Event;
use quick_xml::{Reader, XmlVersion};

use crate::archive::{Archive, ArchiveLimits};
use crate::{FileKind, Sniffed};

/// Media type of Word documents (`.docx`).
pub const MIME_DOCX: &str = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
/// Media type of PowerPoint presentations (`.pptx`).
pub const MIME_PPTX: &str = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
/// Media type of Excel workbooks (`.xlsx`).
pub const MIME_XLSX: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/// Media type of OpenDocument text (`.odt`).
pub const MIME_ODT: &str = "application/vnd.oasis.opendocument.text";
/// Media type of OpenDocument spreadsheets (`.ods`).
pub const MIME_ODS: &str = "application/vnd.oasis.opendocument.spreadsheet";
/// Media type of OpenDocument presentations (`.odp`).
pub const MIME_ODP: &str = "application/vnd.oasis.opendocument.presentation";
/// Media type of Markdown text (`.md`).
pub const MIME_MARKDOWN: &str = "text/markdown";

/// The OOXML main-part content types in `[Content_Types].xml`, with the type they make the package.
/// Macro-enabled and template variants are deliberately absent: they are not accepted uploads.
const OOXML_MAIN_PARTS: [(&str, &str, &str); 3] = [
    ("application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", MIME_DOCX, "docx"),
    ("application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml", MIME_PPTX, "pptx"),
    ("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml", MIME_XLSX, "xlsx"),
];

/// The OpenDocument `mimetype` entry values accepted, with their extension.
const ODF_TYPES: [(&str, &str); 3] = [(MIME_ODT, "odt"), (MIME_ODS, "ods"), (MIME_ODP, "odp")];

/// Bounds for reading the small metadata entries of a zip while sniffing. The declared total is not
/// checked here (only tiny entries are read); extraction applies the real archive limits.
const SNIFF_ARCHIVE_LIMITS: ArchiveLimits =
    ArchiveLimits { max_entries: 10_000, max_total: u64::MAX, max_entry: 1 << 20 };

/// A PDF header may follow some junk; readers accept it within the first kilobyte.
const PDF_HEADER_WINDOW: usize = 1024;

/// Detects the content type from the bytes (never trusting the client's name or declared type).
///
/// Images: PNG, JPEG, GIF, WebP (the header must also yield dimensions). Documents: PDF, DOCX, PPTX,
/// XLSX, ODT, ODS, ODP, `text/plain`, `text/markdown` (by the name's extension, for valid UTF-8 text
/// only). SVG: XML whose root element is `<svg>`, with or without declaration, doctype or BOM.
/// `None` for anything else, for empty input, and for text that is not valid UTF-8 or holds control
/// characters other than tab, line feed, carriage return and form feed.
pub fn sniff(bytes: &[u8], file_name: &str) -> Option<Sniffed> {
    if bytes.is_empty() {
        return None;
    }
    if let Some(found) = sniff_image(bytes) {
        // A signature followed by junk is not an image the canvas can show: the header must be laid
        // out as the format says and give non-zero dimensions. (Full decoding is left to the caller.)
        return (image_header_ok(bytes) && image_size(bytes).is_some()).then_some(found);
    }
    if is_pdf(bytes) {
        return Some(document("application/pdf", "pdf"));
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return sniff_zip(bytes);
    }
    let text = valid_text(bytes)?;
    if svg_root_attributes(text).is_some() {
        return Some(Sniffed { mime_type: "image/svg+xml", extension: "svg", kind: FileKind::Svg });
    }
    let name = file_name.to_ascii_lowercase();
    if name.ends_with(".md") || name.ends_with(".markdown") {
        return Some(document(MIME_MARKDOWN, "md"));
    }
    Some(document("text/plain", "txt"))
}

fn document(mime_type: &'static str, extension: &'static str) -> Sniffed {
    Sniffed { mime_type, extension, kind: FileKind::Document }
}

fn image(mime_type: &'static str, extension: &'static str) -> Sniffed {
    Sniffed { mime_type, extension, kind: FileKind::Image }
}

/// `%PDF-` at the start, or within the first kilobyte after junk as PDF readers tolerate, but then only
/// when the whole file is not valid text: a note that quotes a PDF header stays a note.
fn is_pdf(bytes: &[u8]) -> bool {
    if bytes.starts_with(b"%PDF-") {
        return true;
    }
    bytes[..bytes.len().min(PDF_HEADER_WINDOW)].windows(5).any(|w| w == b"%PDF-") && valid_text(bytes).is_none()
}

/// The four raster signatures the `image` item type accepts.
pub(crate) fn sniff_image(bytes: &[u8]) -> Option<Sniffed> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some(image("image/png", "png"))
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some(image("image/jpeg", "jpg"))
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some(image("image/gif", "gif"))
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Some(image("image/webp", "webp"))
    } else {
        None
    }
}

/// The first structure after the signature: PNG's `IHDR` chunk, WebP's `VP8 `/`VP8L`/`VP8X` chunk, a
/// JPEG marker segment; GIF has none beyond the screen size, which [`image_size`] checks.
fn image_header_ok(bytes: &[u8]) -> bool {
    match sniff_image(bytes).map(|s| s.mime_type) {
        Some("image/png") => bytes.get(12..16) == Some(b"IHDR".as_slice()),
        Some("image/webp") => matches!(bytes.get(12..16), Some(b"VP8 " | b"VP8L" | b"VP8X")),
        Some("image/jpeg") => bytes.get(3).is_some_and(|m| (0xC0..=0xFE).contains(m)),
        Some("image/gif") => true,
        _ => false,
    }
}

/// The text of `bytes` without a byte-order mark, when it is UTF-8 without binary control characters.
pub(crate) fn valid_text(bytes: &[u8]) -> Option<&str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).unwrap_or(bytes);
    let text = std::str::from_utf8(bytes).ok()?;
    // NUL and most C0 controls never occur in text files; they mark binary data that happens to decode.
    let binary = text.chars().any(|c| c.is_ascii_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0C' | '\x7F'));
    (!binary).then_some(text)
}

/// Office packages: OOXML by the main part's content type, OpenDocument by its `mimetype` entry.
fn sniff_zip(bytes: &[u8]) -> Option<Sniffed> {
    let mut archive = Archive::open(bytes, SNIFF_ARCHIVE_LIMITS).ok()?;
    if let Some((_, mime_type, extension)) = ooxml_main_part(&mut archive) {
        return Some(document(mime_type, extension));
    }
    let declared = archive.read_text("mimetype").ok()??;
    let (mime_type, extension) = ODF_TYPES.into_iter().find(|(mime, _)| declared.trim() == *mime)?;
    archive.contains("content.xml").then(|| document(mime_type, extension))
}

/// The main part of an OOXML package (zip entry name, media type, extension), when the package's
/// `[Content_Types].xml` names one of the accepted main content types and the part exists.
pub(crate) fn ooxml_main_part(archive: &mut Archive<'_>) -> Option<(String, &'static str, &'static str)> {
    let types = archive.read_text("[Content_Types].xml").ok()??;
    let mut reader = Reader::from_str(&types);
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) if e.local_name().as_ref() == "Override" => {
                let mut part = None;
                let mut content_type = None;
                for attr in e.attributes().flatten() {
                    match attr.key.local_name().as_ref() {
                        "PartName" => part = attribute_value(&attr),
                        "ContentType" => content_type = attribute_value(&attr),
                        _ => {}
                    }
                }
                let (Some(part), Some(content_type)) = (part, content_type) else { continue };
                let Some(&(_, mime, ext)) = OOXML_MAIN_PARTS.iter().find(|(main, _, _)| *main == content_type) else {
                    continue;
                };
                let entry = part.trim_start_matches('/').to_string();
                if archive.contains(&entry) {
                    return Some((entry, mime, ext));
                }
            }
            Ok(Event::Eof) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// The attributes of the root element when the text is XML whose root element is `svg` (any prefix).
///
/// Only the prolog and the root start tag are read; entity declarations in a doctype are never
/// expanded here (quick-xml does not expand them), so this is safe on hostile input.
pub(crate) fn svg_root_attributes(text: &str) -> Option<Vec<(String, String)>> {
    let mut reader = Reader::from_str(text);
    loop {
        match reader.read_event().ok()? {
            Event::Decl(_) | Event::Comment(_) | Event::PI(_) | Event::DocType(_) => {}
            Event::Text(t) if t.xml10_content().trim().is_empty() => {}
            Event::Start(e) | Event::Empty(e) => {
                if e.local_name().as_ref() != "svg" {
                    return None;
                }
                let mut attributes = Vec::new();
                for attr in e.attributes() {
                    let attr = attr.ok()?;
                    let value = attribute_value(&attr)?;
                    attributes.push((attr.key.as_ref().to_string(), value));
                }
                return Some(attributes);
            }
            _ => return None,
        }
    }
}

/// An attribute's value with XML 1.0 normalisation and only the five predefined entities resolved
/// (quick-xml's default resolver would also take HTML entity names, which XML does not define).
pub(crate) fn attribute_value(attr: &Attribute<'_>) -> Option<String> {
    attr.normalized_value_with(XmlVersion::Implicit1_0, 1, quick_xml::escape::resolve_xml_entity)
        .ok()
        .map(|v| v.into_owned())
}

// Image dimensions, used as the default item size of image and svg items.

/// CSS pixels per inch, which fixes the absolute units of SVG lengths.
const PX_PER_INCH: f64 = 96.0;
/// The largest dimension reported; anything larger is treated as unknown rather than trusted.
const MAX_DIMENSION: f64 = 1_000_000.0;

/// Image dimensions in pixels (width, height), when the bytes are a PNG, JPEG, GIF or WebP image, or an
/// SVG whose root element gives a usable `width` and `height` (absolute units converted at 96 px per
/// inch) or, failing those, a `viewBox`. `None` for anything else, including percentage sizes.
pub fn image_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if sniff_image(bytes).is_some() {
        let size = imagesize::blob_size(bytes).ok()?;
        let width = u32::try_from(size.width).ok()?;
        let height = u32::try_from(size.height).ok()?;
        return (width > 0 && height > 0).then_some((width, height));
    }
    let attributes = svg_root_attributes(valid_text(bytes)?)?;
    svg_size(&attributes)
}

/// Width and height from the root attributes: explicit lengths first, then the view box, mixing the two
/// when only one length is given (the other follows the view box's aspect ratio, as browsers do).
fn svg_size(attributes: &[(String, String)]) -> Option<(u32, u32)> {
    let get = |name: &str| attributes.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
    let width = get("width").and_then(parse_length);
    let height = get("height").and_then(parse_length);
    let view_box = get("viewBox").and_then(parse_view_box);
    let (w, h) = match (width, height, view_box) {
        (Some(w), Some(h), _) => (w, h),
        (Some(w), None, Some((vw, vh))) => (w, w * vh / vw),
        (None, Some(h), Some((vw, vh))) => (h * vw / vh, h),
        (None, None, Some((vw, vh))) => (vw, vh),
        _ => return None,
    };
    Some((to_pixels(w)?, to_pixels(h)?))
}

fn to_pixels(value: f64) -> Option<u32> {
    let rounded = value.round();
    // Sub-pixel images still occupy a pixel; NaN and infinities fail the range check.
    if value > 0.0 && value <= MAX_DIMENSION {
        Some((rounded as u32).max(1))
    } else {
        None
    }
}

/// An SVG length in pixels: a number with an optional absolute unit. Percentages and font-relative
/// units depend on a context the file does not carry, so they give `None`.
fn parse_length(value: &str) -> Option<f64> {
    let value = value.trim();
    let split = value.find(|c: char| c.is_ascii_alphabetic() || c == '%').unwrap_or(value.len());
    let (number, unit) = value.split_at(split);
    let number: f64 = number.trim().parse().ok()?;
    // CSS units are ASCII case-insensitive.
    let factor = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "px" => 1.0,
        "in" => PX_PER_INCH,
        "cm" => PX_PER_INCH / 2.54,
        "mm" => PX_PER_INCH / 25.4,
        "q" => PX_PER_INCH / 101.6,
        "pt" => PX_PER_INCH / 72.0,
        "pc" => PX_PER_INCH / 6.0,
        _ => return None,
    };
    let px = number * factor;
    (px.is_finite() && px > 0.0).then_some(px)
}

/// The width and height of a `viewBox="min-x min-y width height"` (comma or space separated).
fn parse_view_box(value: &str) -> Option<(f64, f64)> {
    let numbers: Vec<f64> = value
        .split(|c: char| c == ',' || c.is_ascii_whitespace())
        .filter(|s| !s.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    match numbers.as_slice() {
        [_, _, w, h] if w.is_finite() && h.is_finite() && *w > 0.0 && *h > 0.0 => Some((*w, *h)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_convert_absolute_units_and_refuse_relative_ones() {
        assert_eq!(parse_length("10"), Some(10.0));
        assert_eq!(parse_length(" 72pt "), Some(96.0));
        assert_eq!(parse_length("1in"), Some(96.0));
        assert_eq!(parse_length("100%"), None);
        assert_eq!(parse_length("2em"), None);
        assert_eq!(parse_length("-3"), None);
        assert_eq!(parse_view_box("0 0 200,100"), Some((200.0, 100.0)));
        assert_eq!(parse_view_box("0 0 0 100"), None);
    }

    #[test]
    fn svg_sizes_prefer_lengths_then_view_box() {
        let attrs = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
        };
        assert_eq!(svg_size(&attrs(&[("width", "120"), ("height", "80")])), Some((120, 80)));
        assert_eq!(svg_size(&attrs(&[("viewBox", "0 0 300 150")])), Some((300, 150)));
        assert_eq!(svg_size(&attrs(&[("width", "600"), ("viewBox", "0 0 300 150")])), Some((600, 300)));
        assert_eq!(svg_size(&attrs(&[("width", "100%"), ("height", "100%")])), None);
    }
}

/// Property tests: the sniffer reads untrusted bytes, so no input may panic, the verdict depends on
/// the bytes and name only, and plain UTF-8 text is always recognised as text.
#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::*;

    /// Bytes that start like a known format and then go wrong, where parsers are most likely to trip.
    fn truncated_or_corrupt_signature() -> impl Strategy<Value = Vec<u8>> {
        let signature = prop::sample::select(vec![
            &b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"[..],
            b"\xFF\xD8\xFF",
            b"GIF89a",
            b"RIFF\0\0\0\0WEBPVP8 ",
            b"%PDF-1.7\n",
            b"PK\x03\x04",
            b"\xEF\xBB\xBF<?xml version=\"1.0\"?><svg",
            b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"",
            b"<!DOCTYPE svg [<!ENTITY x \"",
        ]);
        (signature, prop::collection::vec(any::<u8>(), 0..300)).prop_map(|(head, tail)| [head, &tail].concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn arbitrary_bytes_never_panic_and_sniff_deterministically(
            bytes in prop_oneof![prop::collection::vec(any::<u8>(), 0..600), truncated_or_corrupt_signature()],
            name in prop_oneof![Just("x.md".to_owned()), any::<String>()],
        ) {
            let first = sniff(&bytes, &name);
            prop_assert_eq!(first, sniff(&bytes, &name));
            prop_assert_eq!(image_size(&bytes), image_size(&bytes));
            if let Some(sniffed) = first {
                prop_assert!(!sniffed.mime_type.is_empty() && !sniffed.extension.is_empty());
            }
        }

        #[test]
        fn svg_length_parsers_never_panic(text in any::<String>()) {
            let _ = parse_length(&text);
            let _ = parse_view_box(&text);
        }

        #[test]
        fn plain_utf8_text_is_text(text in "[a-zA-Z0-9 .,;\n\t\u{e9}\u{4e2d}]{1,200}", markdown in any::<bool>()) {
            let name = if markdown { "notes.md" } else { "notes.txt" };
            let sniffed = sniff(text.as_bytes(), name).expect("text is sniffed");
            prop_assert_eq!(sniffed.mime_type, if markdown { MIME_MARKDOWN } else { "text/plain" });
        }
    }
}
