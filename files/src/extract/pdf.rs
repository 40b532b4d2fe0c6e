//! PDF text: `pdf-extract` for its better layout, guarded, with `lopdf` as the fall-back.
//!
//! `pdf-extract` panics on some PDFs by design, can loop for long on others, and decompresses without
//! a bound (it uses an older `lopdf`). So:
//! 1. the file is first loaded with a current `lopdf` whose decompression is bounded, and every
//!    non-image stream is inflated once against [`Limits::max_pdf_stream_bytes`] and
//!    [`Limits::max_pdf_total_bytes`]; a decompression bomb is refused here, before `pdf-extract` runs;
//! 2. `pdf-extract` runs in a worker thread under `catch_unwind`, with [`Limits::pdf_timeout`] for
//!    steps 1 and 2 together;
//! 3. on a panic, an error, a time-out or no text, `lopdf`'s own extraction runs on the document loaded
//!    in step 1, in a worker thread with its own [`Limits::pdf_timeout`].
//!
//! A timed-out worker cannot be killed; it runs on until it finishes. At most [`MAX_ABANDONED`] may be
//! left running at once; beyond that, new PDF extractions answer [`ExtractError::Busy`], so a stream of
//! hostile uploads cannot take every core. A panic still prints through the process's panic hook.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

use lopdf::{DecompressError, Document, LoadOptions, Object};

use super::{ExtractError, Limits, TextOut};

/// Timed-out workers allowed to run on before new extractions are refused.
pub(crate) const MAX_ABANDONED: usize = 4;
/// Worker stack: deep object nesting recurses, and a stack overflow aborts the process (no unwind).
const WORKER_STACK: usize = 64 << 20;

static ABANDONED: AtomicUsize = AtomicUsize::new(0);

const RUNNING: u8 = 0;
const FINISHED: u8 = 1;
const LEFT_BEHIND: u8 = 2;

enum Outcome<T> {
    Done(T),
    Panicked,
    TimedOut,
}

pub(crate) fn extract(bytes: &[u8], limits: &Limits, out: &mut TextOut) -> Result<(), ExtractError> {
    let started = Instant::now();
    let shared: Arc<Vec<u8>> = Arc::new(bytes.to_vec());
    let limits = *limits;

    let input = Arc::clone(&shared);
    let document = match guarded(limits.pdf_timeout, move || load_bounded(&input, &limits))? {
        Outcome::Done(result) => result?,
        Outcome::Panicked => return Err(ExtractError::Malformed("the PDF could not be parsed".into())),
        Outcome::TimedOut => return Err(ExtractError::TimedOut(limits.pdf_timeout)),
    };

    let remaining = limits.pdf_timeout.saturating_sub(started.elapsed());
    let input = Arc::clone(&shared);
    let primary = match guarded(remaining, move || pdf_extract::extract_text_from_mem(&input))? {
        Outcome::Done(Ok(text)) if !text.trim().is_empty() => Some(text),
        _ => None,
    };
    if let Some(text) = primary {
        out.push(&text);
        return Ok(());
    }

    let max_page = limits.max_pdf_stream_bytes;
    match guarded(limits.pdf_timeout, move || lopdf_text(&document, max_page))? {
        Outcome::Done(text) => {
            out.push(&text);
            Ok(())
        }
        Outcome::Panicked => Err(ExtractError::Malformed("no text could be extracted from the PDF".into())),
        Outcome::TimedOut => Err(ExtractError::TimedOut(limits.pdf_timeout)),
    }
}

/// Loads the document with bounded decompression and inflates every non-image stream once, so that
/// what `pdf-extract` will decompress is known to fit.
fn load_bounded(bytes: &[u8], limits: &Limits) -> Result<Document, ExtractError> {
    let options = LoadOptions::with_max_decompressed_size(limits.max_pdf_stream_bytes);
    let document = Document::load_mem_with_options(bytes, options).map_err(|e| match e {
        lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit }) => {
            ExtractError::TooLarge(format!("a PDF object stream inflates past {limit} bytes"))
        }
        other => ExtractError::Malformed(format!("PDF: {other}")),
    })?;
    let mut total = 0usize;
    for object in document.objects.values() {
        let Object::Stream(stream) = object else { continue };
        // Image data is not read for text; skipping it keeps large scans within the budget.
        if stream.dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Image".as_slice()) {
            continue;
        }
        let budget = limits.max_pdf_stream_bytes.min(limits.max_pdf_total_bytes.saturating_sub(total));
        let inflated = if stream.dict.get(b"Filter").is_ok() {
            match stream.decompressed_content_with_limit(budget) {
                Ok(content) => content.len(),
                Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { .. })) => {
                    return Err(ExtractError::TooLarge(format!(
                        "PDF streams inflate past the budget ({} bytes per stream, {} in all)",
                        limits.max_pdf_stream_bytes, limits.max_pdf_total_bytes
                    )))
                }
                // Filters lopdf does not decode (DCT, JBIG2...) are image codecs, not text.
                Err(_) => 0,
            }
        } else {
            stream.content.len()
        };
        total = total.saturating_add(inflated);
    }
    Ok(document)
}

/// `lopdf`'s extraction, page by page, keeping the pages that decode.
fn lopdf_text(document: &Document, max_page_bytes: usize) -> String {
    let pages: Vec<u32> = document.get_pages().keys().copied().collect();
    let mut text = String::new();
    for page in pages {
        for chunk in document.extract_text_chunks_with_limit(&[page], max_page_bytes).into_iter().flatten() {
            text.push_str(&chunk);
        }
        text.push('\n');
    }
    text
}

/// Runs `job` in a fresh thread under `catch_unwind`, waiting at most `timeout` for it.
fn guarded<T, F>(timeout: Duration, job: F) -> Result<Outcome<T>, ExtractError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    if ABANDONED.load(Ordering::SeqCst) >= MAX_ABANDONED {
        return Err(ExtractError::Busy);
    }
    let state = Arc::new(AtomicU8::new(RUNNING));
    let worker_state = Arc::clone(&state);
    let (sender, receiver) = mpsc::sync_channel(1);
    let spawned = thread::Builder::new().name("canvas-files-pdf".into()).stack_size(WORKER_STACK).spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(job));
        // The receiver may be gone after a time-out; the result is then dropped here.
        let _ = sender.send(result);
        if worker_state.compare_exchange(RUNNING, FINISHED, Ordering::SeqCst, Ordering::SeqCst).is_err() {
            // The caller gave up on this worker and counted it; it is done now.
            ABANDONED.fetch_sub(1, Ordering::SeqCst);
        }
    });
    if spawned.is_err() {
        return Err(ExtractError::Busy);
    }
    match receiver.recv_timeout(timeout) {
        Ok(Ok(value)) => Ok(Outcome::Done(value)),
        Ok(Err(_)) | Err(mpsc::RecvTimeoutError::Disconnected) => Ok(Outcome::Panicked),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            if state.compare_exchange(RUNNING, LEFT_BEHIND, Ordering::SeqCst, Ordering::SeqCst).is_ok() {
                ABANDONED.fetch_add(1, Ordering::SeqCst);
            }
            Ok(Outcome::TimedOut)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guarded_reports_panics_and_time_outs() {
        assert!(matches!(guarded(Duration::from_secs(5), || 7), Ok(Outcome::Done(7))));
        assert!(matches!(
            guarded(Duration::from_secs(5), || -> u8 { panic!("expected in this test") }),
            Ok(Outcome::Panicked)
        ));
        let slow = guarded(Duration::from_millis(20), || thread::sleep(Duration::from_millis(300)));
        assert!(matches!(slow, Ok(Outcome::TimedOut)));
        // The abandoned worker finishes and gives its slot back.
        thread::sleep(Duration::from_millis(600));
        assert_eq!(ABANDONED.load(Ordering::SeqCst), 0);
    }
}
