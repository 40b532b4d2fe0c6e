//! Mermaid ids for exported items: the name a caller gave (a diagram record keeps its source's
//! ids) when it is safe and free, else a short id made from the item id, so the same item gets
//! the same id on every export.

use std::collections::HashSet;

/// The grammar an id is written in: each has its own words that start a statement or block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Grammar {
    #[default]
    Flowchart,
    Sequence,
    Mindmap,
}

impl Grammar {
    /// Words an id must not be (compared case-insensitively, as some of Mermaid's lexers do): an
    /// id spelled like one would be read as that statement (`end` closes a block).
    fn keywords(self) -> &'static [&'static str] {
        match self {
            Grammar::Flowchart => &[
                "end",
                "subgraph",
                "graph",
                "flowchart",
                "style",
                "classdef",
                "class",
                "click",
                "linkstyle",
                "direction",
                "default",
                "acctitle",
                "accdescr",
            ],
            Grammar::Sequence => &[
                "end",
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
                "left",
                "right",
                "of",
                "as",
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
                "acctitle",
                "accdescr",
                "sequencediagram",
            ],
            Grammar::Mindmap => &["mindmap"],
        }
    }
}

/// Longest id kept as given: ids are for reading, and a long one is more likely pasted text.
const MAX_ID_CHARS: usize = 64;

/// Whether `id` can be written as a Mermaid id as it is: letters, digits and `_` only (no
/// character any of the grammars reads as syntax), not a keyword, starting with a letter or `_`.
pub(crate) fn is_safe(id: &str, grammar: Grammar) -> bool {
    let mut chars = id.chars();
    let Some(first) = chars.next() else { return false };
    (first.is_alphabetic() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
        && id.chars().count() <= MAX_ID_CHARS
        && !grammar.keywords().iter().any(|k| k.eq_ignore_ascii_case(id))
}

/// Hands out unique ids: first the names callers gave ([`Ids::reserve`]), then generated ones.
#[derive(Debug)]
pub(crate) struct Ids {
    grammar: Grammar,
    used: HashSet<String>,
}

impl Ids {
    /// Ids for a diagram written in `grammar`.
    pub fn new(grammar: Grammar) -> Ids {
        Ids { grammar, used: HashSet::new() }
    }

    /// Takes `name` when it is safe and not taken yet; None otherwise.
    pub fn reserve(&mut self, name: Option<&str>) -> Option<String> {
        let name = name?.trim();
        (is_safe(name, self.grammar) && self.used.insert(name.to_owned())).then(|| name.to_owned())
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

    fn take(&mut self, candidate: &str) -> bool {
        is_safe(candidate, self.grammar) && self.used.insert(candidate.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_ids_are_words_that_are_not_keywords() {
        let flow = Grammar::Flowchart;
        assert!(is_safe("A", flow) && is_safe("node_1", flow) && is_safe("Ünïcode", flow) && is_safe("_x", flow));
        for bad in ["", "end", "End", "subgraph", "a-b", "a b", "1st", "x\"y", "a;b", "a\nb", "classDef"] {
            assert!(!is_safe(bad, flow), "{bad:?}");
        }
        assert!(!is_safe(&"a".repeat(65), flow));
        // Each grammar has its own words: `opt` opens a block in a sequence, not in a flowchart.
        assert!(is_safe("opt", flow) && !is_safe("opt", Grammar::Sequence) && !is_safe("Note", Grammar::Sequence));
        assert!(is_safe("root", Grammar::Mindmap));
    }

    #[test]
    fn generated_ids_are_stable_and_unique() {
        let mut ids = Ids::new(Grammar::Flowchart);
        assert_eq!(ids.reserve(Some("A")), Some("A".into()));
        assert_eq!(ids.reserve(Some("A")), None, "taken");
        assert_eq!(ids.reserve(Some("end")), None, "a keyword");
        let id = "0A1B2C3D-0000-4000-8000-000000000001";
        assert_eq!(ids.generate("n", id), "n0a1b2c");
        assert_eq!(ids.generate("n", id), "n0a1b2c3", "the next free length");
        assert_eq!(ids.generate("n", ""), "n_1");
        assert_eq!(ids.generate("n", ""), "n_2");
        assert_eq!(ids.reserve(Some("bad id")), None);
    }
}
