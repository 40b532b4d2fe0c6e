//! Mermaid ids for states. The shared `export::ids` keeps letters, digits and `_`; a state id may
//! hold more (`Active(warm)` is a state id Mermaid reads, and the corpus has it), so the state
//! writer keeps ids of its own, safe for the state grammar: letters, digits, `_`, `.`, `(` and `)`,
//! starting with a letter, digit or `_`, and not a word that starts a statement.

use std::collections::HashSet;

/// Words a state id must not be (any case): each starts a statement of the state grammar.
const KEYWORDS: &[&str] = &[
    "state",
    "note",
    "direction",
    "classdef",
    "class",
    "style",
    "click",
    "scale",
    "hide",
    "end",
    "as",
    "title",
    "stateDiagram",
    "stateDiagram-v2",
];

/// Longest id kept as given (as `export::ids`).
const MAX_ID_CHARS: usize = 64;

/// Whether `id` can be written as a state id as it is.
pub(super) fn is_state_id(id: &str) -> bool {
    let mut chars = id.chars();
    let Some(first) = chars.next() else { return false };
    let lower = id.to_lowercase();
    (first.is_alphanumeric() || first == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '(' | ')'))
        && id.chars().count() <= MAX_ID_CHARS
        && !KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(id))
        // `accTitle…` and `accDescr…` lines are skipped whatever follows.
        && !lower.starts_with("acctitle")
        && !lower.starts_with("accdescr")
}

/// Hands out unique state ids: given names first, then generated ones.
#[derive(Debug, Default)]
pub(super) struct StateIds {
    used: HashSet<String>,
}

impl StateIds {
    /// Takes `name` (trimmed) when it is a safe state id not taken yet.
    pub fn reserve(&mut self, name: Option<&str>) -> Option<String> {
        let name = name?.trim();
        (is_state_id(name) && self.used.insert(name.to_owned())).then(|| name.to_owned())
    }

    /// An id for item `item_id`: `s` and its first letters and digits (six, more when taken),
    /// stable as long as the item lives.
    pub fn generate(&mut self, item_id: &str) -> String {
        let tail: String =
            item_id.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
        for length in tail.len().min(6)..=tail.len() {
            let candidate = format!("s{}", &tail[..length]);
            if length > 0 && self.reserve(Some(&candidate)).is_some() {
                return candidate;
            }
        }
        (1usize..)
            .map(|n| format!("s{tail}_{n}"))
            .find(|candidate| self.reserve(Some(candidate)).is_some())
            .expect("an unbounded range always has a free id")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_ids_keep_what_the_grammar_reads_and_refuse_keywords() {
        for good in ["A", "Active(warm)", "s1.v2", "_x", "Ünïcode", "endState"] {
            assert!(is_state_id(good), "{good}");
        }
        for bad in ["", "end", "State", "note", "a-b", "a b", "[*]", "a:b", "x{", "a;b", "accTitleX", "a\"b"] {
            assert!(!is_state_id(bad), "{bad:?}");
        }
        let mut ids = StateIds::default();
        assert_eq!(ids.reserve(Some("A")), Some("A".into()));
        assert_eq!(ids.reserve(Some("A")), None);
        assert_eq!(ids.generate("0A1B2C3D-0000"), "s0a1b2c");
        assert_eq!(ids.generate("0A1B2C3D-0000"), "s0a1b2c3");
        assert_eq!(ids.generate(""), "s_1");
    }
}
