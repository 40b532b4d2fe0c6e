//! Plain text of uploaded documents and item texts, for the knowledge index.
//!
//! Every format writes into a [`TextOut`], which caps the output and lets a format stop reading as soon
//! as the cap is reached. Archive and PDF decompression are bounded by [`Limits`].

mod office;
mod pdf;
mod text;
mod xml;

use std::time::Duration;

use crate::archive::{ArchiveError, ArchiveLimits};
use crate::sniff::{MIME_DOCX, MIME_MARKDOWN, MIME_ODP, MIME_ODS, MIME_ODT, MIME_PPTX, MIME_XLSX};

/// Why no text could be extracted.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    /// The media type is not one text is extracted from (raster images, unknown types).
    #[error("no text extraction for content type {0:?}")]
    Unsupported(String),
    /// The bytes are not a readable file of the stated type.
    #[error("the file is malformed: {0}")]
    Malformed(String),
    /// The file would inflate past a bound of [`Limits`] (zip or decompression bomb).
    #[error("the file is refused as too large once decompressed: {0}")]
    TooLarge(String),
    /// Text that should be UTF-8 is not.
    #[error("the text is not valid UTF-8")]
    InvalidUtf8,
    /// PDF extraction did not finish within [`Limits::pdf_timeout`].
    #[error("text extraction did not finish within {0:?}")]
    TimedOut(Duration),
    /// Too many earlier PDF extractions timed out and still occupy worker threads; try again later.
    #[error("too many abandoned PDF extractions are still running; try again later")]
    Busy,
}

/// Bounds applied while extracting. [`Limits::default`] gives the values [`extract_text`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest text returned, in bytes; longer text is cut at a character boundary (default 8 MiB).
    pub max_text_bytes: usize,
    /// Most entries a zip-based document may list (default 10 000).
    pub max_archive_entries: usize,
    /// Most bytes all entries of a zip-based document may declare or inflate to (default 256 MiB).
    pub max_archive_bytes: u64,
    /// Most bytes one zip entry (one XML part) may inflate to (default 64 MiB).
    pub max_entry_bytes: u64,
    /// Most bytes one PDF stream may inflate to (default 64 MiB).
    pub max_pdf_stream_bytes: usize,
    /// Most bytes all non-image PDF streams together may inflate to (default 256 MiB).
    pub max_pdf_total_bytes: usize,
    /// Time allowed to each of the two PDF stages, `pdf-extract` and the `lopdf` fall-back (default 30 s).
    pub pdf_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_text_bytes: 8 << 20,
            max_archive_entries: 10_000,
            max_archive_bytes: 256 << 20,
            max_entry_bytes: 64 << 20,
            max_pdf_stream_bytes: 64 << 20,
            max_pdf_total_bytes: 256 << 20,
            pdf_timeout: Duration::from_secs(30),
        }
    }
}

impl Limits {
    pub(crate) fn archive(&self) -> ArchiveLimits {
        ArchiveLimits {
            max_entries: self.max_archive_entries,
            max_total: self.max_archive_bytes,
            max_entry: self.max_entry_bytes,
        }
    }
}

/// Text extracted under explicit [`Limits`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extracted {
    /// The text: blocks (paragraphs, slides, rows, headings) on their own lines, trimmed.
    pub text: String,
    /// Whether the text was cut at [`Limits::max_text_bytes`].
    pub truncated: bool,
}

/// Plain text of a document for search indexing, with the default [`Limits`] (longer text is cut).
///
/// `mime_type` is the type [`crate::sniff`] decided (parameters such as `; charset=utf-8` are ignored):
/// PDF, DOCX, PPTX, XLSX, ODT/ODS/ODP, `text/plain`, `text/markdown`, `image/svg+xml` (`<text>`, `<title>`,
/// `<desc>`) and `text/html` (fragments, reduced to text). CPU-bound and blocking: PDF extraction may
/// take up to twice [`Limits::pdf_timeout`].
pub fn extract_text(bytes: &[u8], mime_type: &str) -> Result<String, ExtractError> {
    extract_text_with(bytes, mime_type, &Limits::default()).map(|extracted| extracted.text)
}

/// [`extract_text`] with explicit limits, telling whether the text was cut.
pub fn extract_text_with(bytes: &[u8], mime_type: &str, limits: &Limits) -> Result<Extracted, ExtractError> {
    let essence = mime_type.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let mut out = TextOut::new(limits.max_text_bytes);
    match essence.as_str() {
        "application/pdf" => pdf::extract(bytes, limits, &mut out)?,
        MIME_DOCX => office::docx(bytes, limits, &mut out)?,
        MIME_PPTX => office::pptx(bytes, limits, &mut out)?,
        MIME_XLSX => office::xlsx(bytes, limits, &mut out)?,
        MIME_ODT | MIME_ODS | MIME_ODP => office::opendocument(bytes, limits, &mut out)?,
        "text/plain" => text::plain(bytes, &mut out)?,
        MIME_MARKDOWN | "text/x-markdown" => text::markdown(bytes, &mut out)?,
        "text/html" => text::html(&text::utf8(bytes)?, &mut out),
        "image/svg+xml" => text::svg(bytes, &mut out)?,
        _ => return Err(ExtractError::Unsupported(mime_type.to_string())),
    }
    Ok(out.finish())
}

/// Reduces a label or sticky-note text to plain text for the index. The text is classified exactly as
/// core-service's rule classifies it (`canvas_html::classify`): plain text is kept as written (`AT&amp;T`
/// stays `AT&amp;T`), HTML becomes the text a reader sees (tags removed, blocks and `<br>` as line breaks,
/// character references decoded). Capped at the default [`Limits::max_text_bytes`].
pub fn html_to_text(text: &str) -> String {
    let mut out = TextOut::new(Limits::default().max_text_bytes);
    out.push(&canvas_html::to_text(text));
    out.finish().text
}

impl From<ArchiveError> for ExtractError {
    fn from(error: ArchiveError) -> Self {
        match error {
            ArchiveError::TooLarge(reason) => ExtractError::TooLarge(reason),
            ArchiveError::Malformed(reason) => ExtractError::Malformed(reason),
        }
    }
}

/// A text buffer with a byte cap. Formats push text and line breaks; once full, pushes are ignored and
/// [`TextOut::is_full`] tells the format it may stop reading.
pub(crate) struct TextOut {
    buf: String,
    max: usize,
    truncated: bool,
}

impl TextOut {
    pub fn new(max: usize) -> Self {
        TextOut { buf: String::new(), max, truncated: false }
    }

    /// Appends text, cutting it at the last character boundary under the cap.
    pub fn push(&mut self, text: &str) {
        if self.truncated {
            return;
        }
        let room = self.max.saturating_sub(self.buf.len());
        if text.len() <= room {
            self.buf.push_str(text);
            return;
        }
        let mut cut = room;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        self.buf.push_str(&text[..cut]);
        self.truncated = true;
    }

    /// Ends the current block: one line break, never blank runs, none at the start.
    pub fn line_break(&mut self) {
        if !self.buf.is_empty() && !self.buf.ends_with('\n') {
            self.push("\n");
        }
    }

    pub fn is_full(&self) -> bool {
        self.truncated
    }

    pub fn finish(self) -> Extracted {
        // Per-line trailing white space is noise for search; the ends of the whole text too.
        let text = self.buf.lines().map(str::trim_end).collect::<Vec<_>>().join("\n").trim().to_string();
        Extracted { text, truncated: self.truncated }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_out_cuts_at_char_boundaries_and_collapses_breaks() {
        let mut out = TextOut::new(5);
        out.line_break();
        out.push("ab");
        out.line_break();
        out.line_break();
        out.push("cdé");
        assert!(out.is_full());
        let done = out.finish();
        assert_eq!(done.text, "ab\ncd");
        assert!(done.truncated);
    }

    #[test]
    fn images_and_unknown_types_are_unsupported() {
        assert!(matches!(extract_text(b"\x89PNG", "image/png"), Err(ExtractError::Unsupported(_))));
        assert!(matches!(extract_text(b"x", "application/zip"), Err(ExtractError::Unsupported(_))));
        assert_eq!(extract_text(b"hello", "text/plain; charset=utf-8").unwrap(), "hello");
    }
}
