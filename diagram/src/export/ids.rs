//! Mermaid ids for exported items: the name a caller gave (a diagram record keeps its source's
//! ids) when it is safe and free, else a short id made from the item id, so the same item gets
//! the same id on every export.

use std::collections::HashSet;

/// Words that start a statement or block in one of the three grammars: an id spelled like one
/// would be read as that statement (`end` closes a subgraph). Compared case-insensitively, as
/// some of Mermaid's lexers do.
const KEYWORDS: &[&str] = &[
    "end",
    "subgraph",
    "graph",
    "flowchart",
    "flowchart-elk",
    "style",
    "classdef",
    "class",
    "click",
    "linkstyle",
    "direction",
    "default",
    "call",
    "href",
    "interpolate",
    "acctitle",
    "accdescr",
    "participant",
    "actor",
    "loop",
    "alt",
    "else",
    "opt",
    "par",
    "and",
    "rect",
    "critical",
    "option",
    "break",
    "note",
    "over",
    "autonumber",
    "activate",
    "deactivate",
    "title",
    "box",
    "create",
    "destroy",
    "link",
    "links",
    "properties",
    "details",
    "as",
    "mindmap",
    "sequencediagram",
    "root",
];

/// Longest id kept as given: ids are for reading, and a long one is more likely pasted text.
const MAX_ID_CHARS: usize = 64;

/// Whether `id` can be written as a Mermaid id as it is: letters, digits and `_` only (no
/// character any of the grammars reads as syntax), not a keyword, starting with a letter or `_`.
pub(crate) fn is_safe(id: &str) -> bool {
    let mut chars = id.chars();
    let Some(first) = chars.next() else { return false };
    (first.is_alphabetic() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
        && id.chars().count() <= MAX_ID_CHARS
        && !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(id))
}

/// Hands out unique ids: first the names callers gave ([`Ids::reserve`]), then generated ones.
#[derive(Debug, Default)]
pub(crate) struct Ids {
    used: HashSet<String>,
}

impl Ids {
    /// Takes `name` when it is safe and not taken yet; None otherwise.
    pub fn reserve(&mut self, name: Option<&str>) -> Option<String> {
        let name = name?.trim();
        (is_safe(name) && self.used.insert(name.to_owned())).then(|| name.to_owned())
    }

    /// A new id for the item `item_id`: `prefix` and the first letters and digits of the item id
    /// (six, more when those are taken), stable as long as the item lives.
    pub fn generate(&mut self, prefix: &str, item_id: &str) -> String {
        let tail: String =
            item_id.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
        let mut length = tail.len().min(6);
        loop {
            let candidate = format!("{prefix}{}", &tail[..length]);
            if length > 0 && self.take(&candidate) {
                return candidate;
            }
            if length >= tail.len() {
                break;
            }
            length += 1;
        }
        (1usize..)
            .map(|n| format!("{prefix}{tail}_{n}"))
            .find(|candidate| self.take(candidate))
            .expect("an unbounded range always has a free id")
    }

    /// The given name when it can be kept, else a generated id.
    pub fn name_or_generate(&mut self, name: Option<&str>, prefix: &str, item_id: &str) -> String {
        self.reserve(name).unwrap_or_else(|| self.generate(prefix, item_id))
    }

    fn take(&mut self, candidate: &str) -> bool {
        is_safe(candidate) && self.used.insert(candidate.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_ids_are_words_that_are_not_keywords() {
        assert!(is_safe("A") && is_safe("node_1") && is_safe("Ünïcode") && is_safe("_x"));
        for bad in ["", "end", "End", "subgraph", "a-b", "a b", "1st", "x\"y", "a;b", "a\nb", "note"] {
            assert!(!is_safe(bad), "{bad:?}");
        }
        assert!(!is_safe(&"a".repeat(65)));
    }

    #[test]
    fn generated_ids_are_stable_and_unique() {
        let mut ids = Ids::default();
        assert_eq!(ids.reserve(Some("A")), Some("A".into()));
        assert_eq!(ids.reserve(Some("A")), None, "taken");
        assert_eq!(ids.reserve(Some("end")), None, "a keyword");
        let id = "0A1B2C3D-0000-4000-8000-000000000001";
        assert_eq!(ids.generate("n", id), "n0a1b2c");
        assert_eq!(ids.generate("n", id), "n0a1b2c3", "the next free length");
        assert_eq!(ids.generate("n", ""), "n_1");
        assert_eq!(ids.generate("n", ""), "n_2");
        assert_eq!(ids.name_or_generate(Some("bad id"), "s", "ff"), "sff");
    }
}
