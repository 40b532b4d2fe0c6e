//! `extract_text` for each format, and its refusals.

use std::io::{Cursor, Write};

use canvas_files::{
    extract_text, extract_text_with, html_to_text, sniff, ExtractError, Limits, MIME_DOCX, MIME_ODS, MIME_ODT,
    MIME_PPTX, MIME_XLSX,
};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::generate;

/// Extracts with the type `sniff` decides, as core-service does.
fn text_of(bytes: &[u8], name: &str) -> String {
    let sniffed = sniff(bytes, name).expect("sniffed");
    extract_text(bytes, sniffed.mime_type).unwrap_or_else(|e| panic!("{}: {e}", sniffed.mime_type))
}

#[test]
fn pdf_text_is_extracted() {
    let pdf = generate::pdf(&["Orbital mechanics primer", "Delta-v budget for the lunar transfer"]);
    let text = text_of(&pdf, "primer.pdf");
    assert!(text.contains("Orbital mechanics primer"), "{text:?}");
    assert!(text.contains("Delta-v budget for the lunar transfer"), "{text:?}");
}

/// The test above goes through `pdf-extract` rather than the `lopdf` fall-back: the primary extractor
/// reads the generated file on its own.
#[test]
fn pdf_extract_reads_the_generated_pdf() {
    let pdf = generate::pdf(&["Orbital mechanics primer"]);
    let text = pdf_extract::extract_text_from_mem(&pdf).expect("pdf-extract");
    assert!(text.contains("Orbital mechanics primer"), "{text:?}");
}

#[test]
fn corrupt_pdfs_are_errors_not_panics() {
    let mut garbage = b"%PDF-1.7\n".to_vec();
    garbage.extend((0..2000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let error = extract_text(&garbage, "application/pdf").expect_err("garbage PDF");
    assert!(matches!(error, ExtractError::Malformed(_)), "{error:?}");
    let error = extract_text(b"%PDF-1.4\n1 0 obj <<", "application/pdf").expect_err("truncated PDF");
    assert!(matches!(error, ExtractError::Malformed(_)), "{error:?}");
}

#[test]
fn pdf_decompression_bomb_is_refused() {
    // 4 MiB of page content compresses to a few kilobytes; with a 1 MiB stream bound it is a bomb.
    let mut content = b"BT /F1 12 Tf 72 700 Td (x) Tj ET\n".to_vec();
    content.resize(4 << 20, b' ');
    let pdf = generate::pdf_with_content(content);
    assert!(pdf.len() < 64 << 10, "the generated bomb is small: {} bytes", pdf.len());
    let limits = Limits { max_pdf_stream_bytes: 1 << 20, ..Limits::default() };
    let error = extract_text_with(&pdf, "application/pdf", &limits).expect_err("bomb");
    assert!(matches!(error, ExtractError::TooLarge(_)), "{error:?}");
}

#[test]
fn docx_paragraphs_and_footnotes_are_lines() {
    let docx = generate::docx(&["Mission overview", "Launch window opens in March"], "Source: flight plan");
    assert_eq!(text_of(&docx, "plan.docx"), "Mission overview\nLaunch window opens in March\nSource: flight plan");
}

#[test]
fn pptx_slides_follow_presentation_order() {
    let pptx = generate::pptx(&["First slide: goals", "Second slide: risks", "Third slide: budget"]);
    assert_eq!(text_of(&pptx, "deck.pptx"), "First slide: goals\nSecond slide: risks\nThird slide: budget");
}

#[test]
fn xlsx_cells_resolve_shared_and_inline_strings() {
    let text = text_of(&generate::xlsx(), "budget.xlsx");
    assert_eq!(text, "Budget\nItem\tAmount\nRocket fuel\t1250.5\tapproved & signed\tTRUE");
}

#[test]
fn opendocument_text_and_spreadsheet_paragraphs() {
    let odt = generate::opendocument(MIME_ODT, "Crew notes", &["Day one &amp; two", "All systems nominal"]);
    assert_eq!(text_of(&odt, "notes.odt"), "Crew notes\nDay one & two\nAll systems nominal");
    let ods = generate::opendocument(MIME_ODS, "Sheet", &["cell text"]);
    assert_eq!(extract_text(&ods, MIME_ODS).expect("ods"), "Sheet\ncell text");
}

#[test]
fn plain_text_markdown_html_and_svg() {
    assert_eq!(text_of("line one\r\nline two\n".as_bytes(), "a.txt"), "line one\nline two");
    let markdown = "# Heading\n\nSome *emphasis* and `code` with a [link](https://x.test).\n\n- item one\n- item two\n";
    assert_eq!(
        text_of(markdown.as_bytes(), "doc.md"),
        "Heading\nSome emphasis and code with a link.\nitem one\nitem two"
    );
    assert_eq!(html_to_text("<h1>Title</h1><p>Body &amp; <i>more</i></p>"), "Title\nBody & more");
    // Label text is classified as core-service's rule classifies it: plain text stays as written.
    assert_eq!(html_to_text("AT&amp;T: if x<y then swap"), "AT&amp;T: if x<y then swap");
    assert_eq!(html_to_text("<b>AT&amp;T</b>&NewLine;x&lt;y"), "AT&T x<y");
    // An uploaded HTML document is always HTML, named references (all of HTML5's) decoded.
    assert_eq!(
        extract_text("a &ne; b &Tab;<script>x<y</script>".as_bytes(), "text/html").expect("html"),
        "a \u{2260} b"
    );
    assert_eq!(extract_text(b"<div>a</div><div>b</div>", "text/html").expect("html"), "a\nb");
    let svg =
        br#"<svg xmlns="http://www.w3.org/2000/svg"><title>Logo</title><text>Canvas <tspan>Inc</tspan></text></svg>"#;
    assert_eq!(text_of(svg, "logo.svg"), "Logo\nCanvas Inc");
    assert!(matches!(extract_text(b"caf\xE9", "text/plain"), Err(ExtractError::InvalidUtf8)));
}

#[test]
fn a_type_mismatch_is_malformed() {
    let pptx = generate::pptx(&["x"]);
    assert!(matches!(extract_text(&pptx, MIME_DOCX), Err(ExtractError::Malformed(_))));
    assert!(matches!(extract_text(b"not a zip", MIME_XLSX), Err(ExtractError::Malformed(_))));
    assert!(matches!(extract_text(b"<svg", "image/svg+xml"), Err(ExtractError::Malformed(_))));
}

/// A DOCX whose document part inflates from a few hundred kilobytes to more than the default
/// 256 MiB archive bound: refused from the declared sizes, before anything is inflated.
#[test]
fn zip_bomb_is_refused_with_default_limits() {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated).large_file(true);
    writer.start_file("[Content_Types].xml", deflated).expect("entry");
    writer
        .write_all(br#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>"#)
        .expect("write");
    writer.start_file("word/document.xml", deflated).expect("entry");
    let block = vec![b' '; 1 << 20];
    for _ in 0..260 {
        writer.write_all(&block).expect("write");
    }
    let bomb = writer.finish().expect("finish").into_inner();
    assert!(bomb.len() < 2 << 20, "the bomb itself is small: {} bytes", bomb.len());
    assert_eq!(sniff(&bomb, "bomb.docx").map(|s| s.mime_type), Some(MIME_DOCX));
    let error = extract_text(&bomb, MIME_DOCX).expect_err("bomb");
    assert!(matches!(error, ExtractError::TooLarge(_)), "{error:?}");
}

#[test]
fn one_oversized_part_is_refused_by_the_entry_bound() {
    let mut paragraphs = Vec::new();
    let long = "word ".repeat(20_000);
    for _ in 0..30 {
        paragraphs.push(long.as_str());
    }
    let docx = generate::docx(&paragraphs, "end");
    let limits = Limits { max_entry_bytes: 1 << 20, ..Limits::default() };
    let error = extract_text_with(&docx, MIME_DOCX, &limits).expect_err("part too large");
    assert!(matches!(error, ExtractError::TooLarge(_)), "{error:?}");
}

#[test]
fn output_is_bounded_and_flagged() {
    let long = "lorem ipsum ".repeat(10_000);
    let limits = Limits { max_text_bytes: 1000, ..Limits::default() };
    let extracted = extract_text_with(long.as_bytes(), "text/plain", &limits).expect("text");
    assert!(extracted.truncated);
    assert!(extracted.text.len() <= 1000);
    let pptx = generate::pptx(&["a fairly long slide text", "another one"]);
    let limits = Limits { max_text_bytes: 10, ..Limits::default() };
    let extracted = extract_text_with(&pptx, MIME_PPTX, &limits).expect("pptx");
    assert_eq!((extracted.text.as_str(), extracted.truncated), ("a fairly l", true));
}
