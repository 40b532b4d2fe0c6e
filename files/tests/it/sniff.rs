//! `sniff` and `image_size` on generated files.

use canvas_files::{image_size, sniff, FileKind, MIME_DOCX, MIME_ODP, MIME_ODS, MIME_ODT, MIME_PPTX, MIME_XLSX};
use image::ImageFormat;

use crate::generate;

fn mime(bytes: &[u8], name: &str) -> Option<&'static str> {
    sniff(bytes, name).map(|s| s.mime_type)
}

#[test]
fn raster_images_are_recognised_by_their_bytes() {
    for (format, expected, extension) in [
        (ImageFormat::Png, "image/png", "png"),
        (ImageFormat::Jpeg, "image/jpeg", "jpg"),
        (ImageFormat::Gif, "image/gif", "gif"),
        (ImageFormat::WebP, "image/webp", "webp"),
    ] {
        let bytes = generate::raster(format, 40, 30);
        let sniffed = sniff(&bytes, "upload.bin").unwrap_or_else(|| panic!("{expected} not recognised"));
        assert_eq!(sniffed.mime_type, expected);
        assert_eq!(sniffed.extension, extension);
        assert_eq!(sniffed.kind, FileKind::Image);
    }
}

#[test]
fn a_png_named_jpg_is_a_png() {
    let png = generate::raster(ImageFormat::Png, 8, 8);
    assert_eq!(mime(&png, "photo.jpg"), Some("image/png"));
}

#[test]
fn image_signature_followed_by_junk_is_refused() {
    let mut junk = b"\x89PNG\r\n\x1a\n".to_vec();
    junk.extend_from_slice(&[0x42; 20]);
    assert_eq!(sniff(&junk, "x.png"), None);
}

#[test]
fn image_size_reads_each_raster_type() {
    for format in [ImageFormat::Png, ImageFormat::Jpeg, ImageFormat::Gif, ImageFormat::WebP] {
        let bytes = generate::raster(format, 37, 21);
        assert_eq!(image_size(&bytes), Some((37, 21)), "{format:?}");
    }
}

#[test]
fn image_size_reads_svg_lengths_and_view_box() {
    let sized = br#"<svg xmlns="http://www.w3.org/2000/svg" width="120px" height="2in"/>"#;
    assert_eq!(image_size(sized), Some((120, 192)));
    let boxed = br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"><rect/></svg>"#;
    assert_eq!(image_size(boxed), Some((640, 480)));
    assert_eq!(image_size(b"plain text"), None);
    assert_eq!(image_size(&generate::pdf(&["x"])), None);
}

#[test]
fn a_pdf_is_a_document() {
    let sniffed = sniff(&generate::pdf(&["Quarterly report"]), "report.txt").expect("pdf");
    assert_eq!((sniffed.mime_type, sniffed.extension, sniffed.kind), ("application/pdf", "pdf", FileKind::Document));
}

#[test]
fn office_packages_are_told_apart_by_their_contents() {
    let name = "misleading.zip";
    assert_eq!(mime(&generate::docx(&["Hello"], "note"), name), Some(MIME_DOCX));
    assert_eq!(mime(&generate::pptx(&["One", "Two"]), name), Some(MIME_PPTX));
    assert_eq!(mime(&generate::xlsx(), name), Some(MIME_XLSX));
    assert_eq!(mime(&generate::opendocument(MIME_ODT, "Title", &["Body"]), name), Some(MIME_ODT));
    assert_eq!(mime(&generate::opendocument(MIME_ODS, "Title", &["Body"]), name), Some(MIME_ODS));
    assert_eq!(mime(&generate::opendocument(MIME_ODP, "Title", &["Body"]), name), Some(MIME_ODP));
    assert_eq!(sniff(&generate::docx(&["Hello"], "note"), name).map(|s| s.extension), Some("docx"));
}

#[test]
fn a_zip_that_is_not_an_office_document_is_refused() {
    let plain = generate::zip(&[("readme.txt", b"hello"), ("data/a.csv", b"1,2")]);
    assert_eq!(sniff(&plain, "file.docx"), None);
    // An OOXML package whose main part is missing is not a document either.
    let hollow = generate::zip(&[(
        "[Content_Types].xml",
        br#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#,
    )]);
    assert_eq!(sniff(&hollow, "file.docx"), None);
}

#[test]
fn svg_is_recognised_with_and_without_prolog() {
    let bare = br#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>"#;
    let declared = br#"<?xml version="1.0" encoding="UTF-8"?>
<!-- drawn by hand -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#;
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(bare);
    for bytes in [bare.as_slice(), declared.as_slice(), bom.as_slice()] {
        let sniffed = sniff(bytes, "drawing.txt").expect("svg");
        assert_eq!((sniffed.mime_type, sniffed.kind), ("image/svg+xml", FileKind::Svg));
    }
    // XML with another root is text, not SVG.
    assert_eq!(mime(b"<html><body>hi</body></html>", "page.svg"), Some("text/plain"));
}

#[test]
fn text_is_plain_unless_named_markdown() {
    let text = "Grüße from the canvas\nsecond line\n".as_bytes();
    assert_eq!(mime(text, "notes.txt"), Some("text/plain"));
    assert_eq!(mime(text, "notes"), Some("text/plain"));
    assert_eq!(mime(b"# Title\n\nBody", "README.md"), Some("text/markdown"));
    assert_eq!(mime(b"# Title\n\nBody", "Guide.MARKDOWN"), Some("text/markdown"));
    assert_eq!(sniff(b"# Title", "a.md").map(|s| (s.extension, s.kind)), Some(("md", FileKind::Document)));
}

#[test]
fn binary_junk_and_invalid_utf8_are_refused() {
    // A fixed-seed generator: the bytes are random-looking but the test is repeatable.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let junk: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect();
    assert_eq!(sniff(&junk, "random.md"), None);
    assert_eq!(sniff(b"caf\xE9 latin-1", "latin1.txt"), None);
    assert_eq!(sniff(b"text with a NUL\0byte", "x.txt"), None);
    assert_eq!(sniff(b"", "empty.txt"), None);
}

#[test]
fn every_image_signature_needs_its_header() {
    for signature in [b"\xFF\xD8\xFF".as_slice(), b"RIFF\x10\0\0\0WEBPJUNK".as_slice()] {
        let mut junk = signature.to_vec();
        junk.extend_from_slice(&[0x42; 40]);
        assert_eq!(sniff(&junk, "x.jpg"), None, "{signature:?}");
    }
}

#[test]
fn a_pdf_header_after_junk_counts_only_in_binary_files() {
    let mut prefixed = b"\x00\x01junk before the header\n".to_vec();
    prefixed.extend_from_slice(&generate::pdf(&["late header"]));
    assert_eq!(mime(&prefixed, "x.bin"), Some("application/pdf"));
    assert_eq!(mime(b"How to spot a PDF: it starts with %PDF-1.7\n", "notes.md"), Some("text/markdown"));
}
