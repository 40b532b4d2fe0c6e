//! What a project archive may hold (docs/ARCHIVE.md, "Limits"). core-service refuses an import
//! beyond any of them before anything is written; an export of a project within the import limits
//! always imports again (a project larger than them cannot be exported either, so no archive is
//! made that no service would read back).

/// The `format` of `manifest.json`.
pub const FORMAT: &str = "canvas-project-archive";
/// The version this service writes: 2 added `tags.json` (a project's tags, which items name in
/// their `tags`), 3 `comments.jsonl` (comment threads with their replies).
pub const VERSION: u64 = 3;
/// The versions this service reads: a version 1 archive is a version 2 one without tags, a version
/// 2 one a version 3 one without comment threads.
pub const READS: [u64; 3] = [1, 2, 3];

/// [`READS`] in words, for the refusal of another version.
pub fn reads_in_words() -> String {
    let words: Vec<String> = READS.iter().map(u64::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// The archive as sent (its compressed bytes): the import's request body limit.
pub const MAX_ARCHIVE_BYTES: u64 = 1024 * 1024 * 1024;
/// The entries' sizes once expanded, all together.
pub const MAX_EXPANDED_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// One JSON entry (`items.jsonl`, `diagrams.jsonl`, `project.json`, …) expanded.
pub const MAX_JSON_ENTRY_BYTES: u64 = 256 * 1024 * 1024;
/// One line of `items.jsonl` or `diagrams.jsonl`: an item or a diagram record. Any item a create
/// could have made fits (its request body is at most [`super::MAX_UPLOAD_BYTES`]), with room for the
/// line's own members.
pub const MAX_LINE_BYTES: usize = super::MAX_UPLOAD_BYTES + 1024 * 1024;
/// One file under `files/`: the upload limit.
pub const MAX_FILE_BYTES: u64 = super::MAX_UPLOAD_BYTES as u64;

/// Items in `items.jsonl`.
pub const MAX_ITEMS: usize = 100_000;
/// Files under `files/`.
pub const MAX_FILES: usize = 10_000;
/// Diagram records in `diagrams.jsonl`.
pub const MAX_DIAGRAMS: usize = 10_000;
/// Members in `project.json`.
pub const MAX_MEMBERS: usize = 10_000;
/// Webhook definitions in `webhooks.json`.
pub const MAX_WEBHOOKS: usize = 1_000;
/// Comment threads in `comments.jsonl`: what a project may hold.
pub const MAX_THREADS: usize = super::comments::MAX_THREADS_PER_PROJECT;
/// Entries in the archive: the files and the seven named entries.
pub const MAX_ENTRIES: usize = MAX_FILES + 7;
/// The central directory (the archive's table of entries), in bytes: far more than
/// [`MAX_ENTRIES`] entries with names of this format need, and read before any entry is.
pub const MAX_DIRECTORY_BYTES: u64 = 4 * 1024 * 1024;

/// Expanded size over compressed size of one entry, above [`RATIO_FLOOR_BYTES`] expanded: a zip
/// bomb's entries expand a thousandfold; this service's own JSON entries stay near twentyfold.
pub const MAX_COMPRESSION_RATIO: u64 = 200;
/// Entries smaller than this, expanded, are not held to [`MAX_COMPRESSION_RATIO`].
pub const RATIO_FLOOR_BYTES: u64 = 1024 * 1024;

/// The size of the chunks an export is sent in over gRPC, and an import is best sent in.
pub const CHUNK_BYTES: usize = 1024 * 1024;

// The limits fit inside one another (checked when compiling).
const _: () = assert!(
    MAX_JSON_ENTRY_BYTES <= MAX_EXPANDED_BYTES
        && MAX_FILE_BYTES <= MAX_EXPANDED_BYTES
        && (MAX_LINE_BYTES as u64) <= MAX_JSON_ENTRY_BYTES
        && MAX_ARCHIVE_BYTES <= MAX_EXPANDED_BYTES
);
