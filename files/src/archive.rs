//! A zip reader for untrusted office files that cannot be turned into a zip bomb.
//!
//! Three independent bounds apply, because a hostile archive can lie in its headers:
//! the number of entries, the uncompressed sizes the central directory declares, and the bytes
//! actually inflated (each read stops one byte past the remaining budget, whatever the header said).

use std::io::{Cursor, Read};

use zip::result::ZipError;
use zip::ZipArchive;

/// Bounds for one archive. Constructed from [`crate::Limits`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct ArchiveLimits {
    /// Most entries (files and directories) the archive may list.
    pub max_entries: usize,
    /// Most bytes all entries may declare, and most bytes all reads together may inflate.
    pub max_total: u64,
    /// Most bytes one entry may inflate to.
    pub max_entry: u64,
}

/// Why an archive could not be read.
#[derive(Debug)]
pub(crate) enum ArchiveError {
    /// A bound was exceeded: treat the file as a zip bomb.
    TooLarge(String),
    /// Not a readable zip, or an entry is encrypted or uses an unsupported method.
    Malformed(String),
}

/// An opened archive over borrowed bytes, counting what has been inflated so far.
pub(crate) struct Archive<'a> {
    zip: ZipArchive<Cursor<&'a [u8]>>,
    limits: ArchiveLimits,
    inflated: u64,
}

impl<'a> Archive<'a> {
    /// Opens the archive and checks the entry count and the declared total size.
    pub fn open(bytes: &'a [u8], limits: ArchiveLimits) -> Result<Self, ArchiveError> {
        let zip = ZipArchive::new(Cursor::new(bytes)).map_err(|e| ArchiveError::Malformed(e.to_string()))?;
        if zip.len() > limits.max_entries {
            return Err(ArchiveError::TooLarge(format!(
                "archive lists {} entries, more than the {} allowed",
                zip.len(),
                limits.max_entries
            )));
        }
        // The declared total is unknown when entries use data descriptors; the per-read bound still holds.
        if let Some(declared) = zip.decompressed_size() {
            if declared > u128::from(limits.max_total) {
                return Err(ArchiveError::TooLarge(format!(
                    "archive declares {declared} uncompressed bytes, more than the {} allowed",
                    limits.max_total
                )));
            }
        }
        Ok(Archive { zip, limits, inflated: 0 })
    }

    /// Whether an entry of exactly this name exists.
    pub fn contains(&self, name: &str) -> bool {
        self.zip.index_for_name(name).is_some()
    }

    /// The names of all entries, skipping names that are not valid text.
    pub fn names(&self) -> Vec<String> {
        self.zip.file_names().filter_map(Result::ok).map(|n| n.into_owned()).collect()
    }

    /// Reads one entry, or `None` when it does not exist. Counts towards the archive budget.
    pub fn read(&mut self, name: &str) -> Result<Option<Vec<u8>>, ArchiveError> {
        let Some(index) = self.zip.index_for_name(name) else {
            return Ok(None);
        };
        let remaining_total = self.limits.max_total.saturating_sub(self.inflated);
        let budget = remaining_total.min(self.limits.max_entry);
        let mut entry = match self.zip.by_index(index) {
            Ok(entry) => entry,
            Err(ZipError::UnsupportedArchive(msg)) => return Err(ArchiveError::Malformed(msg.to_string())),
            Err(e) => return Err(ArchiveError::Malformed(format!("entry {name}: {e}"))),
        };
        if entry.encrypted() {
            return Err(ArchiveError::Malformed(format!("entry {name} is encrypted")));
        }
        if entry.size() > budget {
            return Err(ArchiveError::TooLarge(format!(
                "entry {name} declares {} bytes, more than the {budget} left in the budget",
                entry.size()
            )));
        }
        // Pre-allocate from the declared size only up to a modest amount: the header may lie.
        let hint = usize::try_from(entry.size().min(1 << 20)).unwrap_or(0);
        let mut out = Vec::with_capacity(hint);
        // One byte past the budget tells "exactly at the limit" from "over it".
        let read = (&mut entry)
            .take(budget.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| ArchiveError::Malformed(format!("entry {name}: {e}")))?;
        let read = read as u64;
        if read > budget {
            return Err(ArchiveError::TooLarge(format!("entry {name} inflates past the {budget}-byte budget")));
        }
        self.inflated = self.inflated.saturating_add(read);
        Ok(Some(out))
    }

    /// Reads one entry as UTF-8 text (a leading byte-order mark removed).
    pub fn read_text(&mut self, name: &str) -> Result<Option<String>, ArchiveError> {
        let Some(bytes) = self.read(name)? else {
            return Ok(None);
        };
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()).map(<[u8]>::to_vec).unwrap_or(bytes);
        String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| ArchiveError::Malformed(format!("entry {name} is not UTF-8 text")))
    }
}

/// Resolves an OPC relationship target against the part that holds the relationship.
///
/// `base_part` is a zip entry name such as `xl/workbook.xml`; `target` is relative to its folder
/// (`worksheets/sheet1.xml`) or absolute within the package (`/xl/worksheets/sheet1.xml`).
/// `..` segments are applied; a target that climbs above the package root yields `None`.
pub(crate) fn resolve_target(base_part: &str, target: &str) -> Option<String> {
    let mut segments: Vec<&str> = Vec::new();
    let relative = match target.strip_prefix('/') {
        Some(absolute) => absolute,
        None => {
            if let Some((folder, _)) = base_part.rsplit_once('/') {
                segments.extend(folder.split('/').filter(|s| !s.is_empty()));
            }
            target
        }
    };
    for segment in relative.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            other => segments.push(other),
        }
    }
    Some(segments.join("/"))
}

/// The zip entry holding the relationships of `part`: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`.
pub(crate) fn rels_path(part: &str) -> String {
    match part.rsplit_once('/') {
        Some((folder, file)) => format!("{folder}/_rels/{file}.rels"),
        None => format!("_rels/{part}.rels"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_resolve_relative_absolute_and_parent() {
        assert_eq!(
            resolve_target("xl/workbook.xml", "worksheets/sheet1.xml").as_deref(),
            Some("xl/worksheets/sheet1.xml")
        );
        assert_eq!(resolve_target("xl/workbook.xml", "/xl/sharedStrings.xml").as_deref(), Some("xl/sharedStrings.xml"));
        assert_eq!(resolve_target("ppt/slides/slide1.xml", "../media/a.png").as_deref(), Some("ppt/media/a.png"));
        assert_eq!(resolve_target("a.xml", "../../x"), None);
        assert_eq!(rels_path("ppt/presentation.xml"), "ppt/_rels/presentation.xml.rels");
    }
}
