//! Uploaded files: what they really are, whether they are safe to serve back, and what text they hold.
//!
//! core-service calls this crate for every file-upload create (`POST /{parent}/{itemType}/file`) and for
//! the knowledge index. Nothing here trusts the client: the content type comes from the bytes, an SVG is
//! re-serialised from an allow-list, and every decompression (zip parts, PDF streams) is bounded.
//!
//! All functions are synchronous and CPU-bound; async callers should run them under
//! `tokio::task::spawn_blocking`. None of them panics on hostile input.
//!
//! # Layout
//!
//! - `lib.rs`: this overview, the public types [`FileKind`] and [`Sniffed`], the re-exports.
//! - `sniff.rs`: [`sniff`], content-type detection from magic numbers, zip contents and the XML root;
//!   [`image_size`] for PNG, JPEG, GIF, WebP (via `imagesize`) and SVG (width/height/viewBox).
//! - `archive.rs`: a zip reader that refuses zip bombs (entry count, declared and actual inflated sizes).
//! - `svg/mod.rs`: [`sanitize_svg`], parsing with `roxmltree` and re-serialising what the allow-lists keep.
//! - `svg/allow.rs`: the element and attribute allow-lists and the URL rule.
//! - `svg/css.rs`: neutralises `url(...)`, resource-loading functions and `@import` in CSS text.
//! - `extract/mod.rs`: [`extract_text`], [`ExtractError`], [`Limits`], the bounded text buffer.
//! - `extract/xml.rs`: streaming XML-to-text with `quick-xml`, shared by the office formats.
//! - `extract/office.rs`: DOCX, PPTX and XLSX (OOXML) and ODT/ODS/ODP (OpenDocument).
//! - `extract/pdf.rs`: PDF with `pdf-extract` in a guarded worker thread, falling back to `lopdf`.
//! - `extract/text.rs`: plain text, Markdown, HTML fragments and SVG text.

mod archive;
mod extract;
mod sniff;
mod svg;

pub use extract::{extract_text, extract_text_with, html_to_text, ExtractError, Extracted, Limits};
pub use sniff::{image_size, sniff, MIME_DOCX, MIME_MARKDOWN, MIME_ODP, MIME_ODS, MIME_ODT, MIME_PPTX, MIME_XLSX};
pub use svg::{sanitize_svg, SVG_ALLOWED_ATTRIBUTES, SVG_ALLOWED_ELEMENTS};

/// What an uploaded file is, which decides the item types that may hold it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FileKind {
    /// A raster image: PNG, JPEG, GIF or WebP (the `image` item type).
    Image,
    /// A document whose text is indexed: PDF, office formats, plain text, Markdown (the `document` item type).
    Document,
    /// A vector image; stored only after [`sanitize_svg`] (the `svg` item type).
    Svg,
}

/// The result of [`sniff`]: the content type decided from the bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sniffed {
    /// The IANA media type to store and to serve the file with, for example `image/png`.
    pub mime_type: &'static str,
    /// The usual file-name extension for that type, without the dot, for example `png`.
    pub extension: &'static str,
    /// The family of the type, which tells the item types that accept the file.
    pub kind: FileKind,
}

impl FileKind {
    /// The lower-case name used in logs and error messages (`image`, `document`, `svg`).
    pub fn as_str(self) -> &'static str {
        match self {
            FileKind::Image => "image",
            FileKind::Document => "document",
            FileKind::Svg => "svg",
        }
    }
}
