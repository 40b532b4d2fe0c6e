//! Builds every test file from scratch: raster images with `image`, a PDF with `lopdf`, office
//! packages as zip files with minimal valid XML parts. No binary fixture is checked in.

use std::io::{Cursor, Write};

use image::{DynamicImage, ImageFormat, RgbaImage};
use lopdf::content::{Content, Operation};
use lopdf::{dictionary, Document, Object, Stream};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// A `width` x `height` gradient image encoded in `format`.
pub fn raster(format: ImageFormat, width: u32, height: u32) -> Vec<u8> {
    let pixels = RgbaImage::from_fn(width, height, |x, y| image::Rgba([(x * 7) as u8, (y * 5) as u8, 128, 255]));
    // JPEG has no alpha channel.
    let picture = match format {
        ImageFormat::Jpeg => DynamicImage::ImageRgb8(DynamicImage::ImageRgba8(pixels).to_rgb8()),
        _ => DynamicImage::ImageRgba8(pixels),
    };
    let mut out = Cursor::new(Vec::new());
    picture.write_to(&mut out, format).expect("encode test image");
    out.into_inner()
}

/// A one-page PDF whose content stream (compressed) shows each line with the Helvetica base font.
pub fn pdf(lines: &[&str]) -> Vec<u8> {
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 14.into()]),
        Operation::new("TL", vec![18.into()]),
        Operation::new("Td", vec![72.into(), 760.into()]),
    ];
    for line in lines {
        operations.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
        operations.push(Operation::new("T*", vec![]));
    }
    operations.push(Operation::new("ET", vec![]));
    let content = Content { operations }.encode().expect("encode content");
    pdf_with_content(content)
}

/// A one-page PDF whose page content is `content`, flate-compressed.
pub fn pdf_with_content(content: Vec<u8>) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font",
        "Subtype" => "Type1",
        "BaseFont" => "Helvetica",
        "Encoding" => "WinAnsiEncoding",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut stream = Stream::new(dictionary! {}, content);
    stream.compress().expect("compress content");
    let content_id = doc.add_object(stream);
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page",
        "Parent" => pages_id,
        "Contents" => content_id,
        "Resources" => resources_id,
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! { "Type" => "Pages", "Kids" => vec![page_id.into()], "Count" => 1 }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("save pdf");
    out
}

/// A zip of (name, content) entries, deflated except those named `mimetype` (stored, as ODF requires).
pub fn zip(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, content) in entries {
        let method = if *name == "mimetype" { CompressionMethod::Stored } else { CompressionMethod::Deflated };
        writer.start_file(*name, SimpleFileOptions::default().compression_method(method)).expect("start entry");
        writer.write_all(content).expect("write entry");
    }
    writer.finish().expect("finish zip").into_inner()
}

const CONTENT_TYPES_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>"#;

fn content_types(overrides: &[(&str, &str)]) -> String {
    let mut xml = CONTENT_TYPES_HEAD.to_string();
    for (part, content_type) in overrides {
        xml.push_str(&format!(r#"<Override PartName="{part}" ContentType="{content_type}"/>"#));
    }
    xml.push_str("</Types>");
    xml
}

fn package_rels(main: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="{main}"/></Relationships>"#
    )
}

fn rels(entries: &[(&str, &str, &str)]) -> String {
    let mut xml = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#.to_string();
    for (id, kind, target) in entries {
        xml.push_str(&format!(
            r#"<Relationship Id="{id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/{kind}" Target="{target}"/>"#
        ));
    }
    xml.push_str("</Relationships>");
    xml
}

/// A DOCX with one paragraph per line (the second run of each split in two), plus a footnote.
pub fn docx(paragraphs: &[&str], footnote: &str) -> Vec<u8> {
    let mut body = String::new();
    for text in paragraphs {
        let (a, b) = text.split_at(text.len() / 2);
        body.push_str(&format!(
            r#"<w:p><w:r><w:t xml:space="preserve">{a}</w:t></w:r><w:r><w:t>{b}</w:t></w:r></w:p>"#
        ));
    }
    let document = format!(
        r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>{body}<w:sectPr/></w:body></w:document>"#
    );
    let footnotes = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:footnote w:id="1"><w:p><w:r><w:t>{footnote}</w:t></w:r></w:p></w:footnote></w:footnotes>"#
    );
    let types = content_types(&[
        ("/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"),
        ("/word/footnotes.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"),
    ]);
    zip(&[
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", package_rels("word/document.xml").as_bytes()),
        ("word/document.xml", document.as_bytes()),
        ("word/_rels/document.xml.rels", rels(&[("rId5", "footnotes", "footnotes.xml")]).as_bytes()),
        ("word/footnotes.xml", footnotes.as_bytes()),
    ])
}

/// A PPTX whose slides are stored as slide1, slide2... but presented in the reverse order, so the
/// extraction order proves `p:sldIdLst` is followed. `slides` is given in presentation order.
pub fn pptx(slides: &[&str]) -> Vec<u8> {
    let count = slides.len();
    let mut ids = String::new();
    let mut relationships = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    for (position, text) in slides.iter().enumerate() {
        let stored = count - position;
        ids.push_str(&format!(r#"<p:sldId id="{}" r:id="rId{stored}"/>"#, 256 + position));
        relationships.push((format!("rId{stored}"), format!("slides/slide{stored}.xml")));
        let slide = format!(
            r#"<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>{text}</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>"#
        );
        files.push((format!("ppt/slides/slide{stored}.xml"), slide));
    }
    let presentation = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:sldIdLst>{ids}</p:sldIdLst></p:presentation>"#
    );
    let rel_entries: Vec<(&str, &str, &str)> =
        relationships.iter().map(|(id, target)| (id.as_str(), "slide", target.as_str())).collect();
    let types = content_types(&[(
        "/ppt/presentation.xml",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    )]);
    let pres_rels = rels(&rel_entries);
    let package = package_rels("ppt/presentation.xml");
    let mut entries: Vec<(&str, &[u8])> = vec![
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", package.as_bytes()),
        ("ppt/presentation.xml", presentation.as_bytes()),
        ("ppt/_rels/presentation.xml.rels", pres_rels.as_bytes()),
    ];
    entries.extend(files.iter().map(|(name, xml)| (name.as_str(), xml.as_bytes())));
    zip(&entries)
}

/// An XLSX with one sheet "Budget": a shared-string header row and a row mixing a shared string,
/// an inline string, a number and a boolean.
pub fn xlsx() -> Vec<u8> {
    let workbook = r#"<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Budget" sheetId="1" r:id="rId1"/></sheets></workbook>"#;
    let shared = r#"<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3" uniqueCount="3"><si><t>Item</t></si><si><t>Amount</t></si><si><r><t>Rocket </t></r><r><t>fuel</t></r></si></sst>"#;
    let sheet = r#"<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c><c r="B2"><v>1250.5</v></c><c r="C2" t="inlineStr"><is><t>approved &amp; signed</t></is></c><c r="D2" t="b"><v>1</v></c></row></sheetData></worksheet>"#;
    let types = content_types(&[(
        "/xl/workbook.xml",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
    )]);
    let book_rels =
        rels(&[("rId1", "worksheet", "worksheets/sheet1.xml"), ("rId2", "sharedStrings", "sharedStrings.xml")]);
    zip(&[
        ("[Content_Types].xml", types.as_bytes()),
        ("_rels/.rels", package_rels("xl/workbook.xml").as_bytes()),
        ("xl/workbook.xml", workbook.as_bytes()),
        ("xl/_rels/workbook.xml.rels", book_rels.as_bytes()),
        ("xl/sharedStrings.xml", shared.as_bytes()),
        ("xl/worksheets/sheet1.xml", sheet.as_bytes()),
    ])
}

/// An OpenDocument package of the given media type whose content is a heading and paragraphs.
pub fn opendocument(mime_type: &str, heading: &str, paragraphs: &[&str]) -> Vec<u8> {
    let mut body = format!(r#"<text:h text:outline-level="1">{heading}</text:h>"#);
    for p in paragraphs {
        body.push_str(&format!("<text:p>{p}</text:p>"));
    }
    let content = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.3"><office:body><office:text>{body}</office:text></office:body></office:document-content>"#
    );
    let manifest = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3"><manifest:file-entry manifest:full-path="/" manifest:media-type="{mime_type}"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#
    );
    zip(&[
        ("mimetype", mime_type.as_bytes()),
        ("content.xml", content.as_bytes()),
        ("META-INF/manifest.xml", manifest.as_bytes()),
    ])
}
