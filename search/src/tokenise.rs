//! The one tokenisation of the keyword leg, for chunk text and queries alike, on both backends.
//!
//! Text is decomposed (NFKD) and stripped of combining marks, so `naïve` matches `naive` (as FTS5's
//! `remove_diacritics` did); lower-cased; cut at every character that is not a letter or digit,
//! so URLs and file names (`example.com/ornithology`, `pelican-wingspan.png`) are found by their
//! words; English stop words are dropped; each word is reduced to its stem by the Snowball English
//! (Porter 2) stemmer of `rust-stemmers`, the stemmer Tantivy uses. Words longer than
//! [`MAX_WORD_CHARS`] are dropped: they are identifiers or encoded data, never query words, and
//! would only grow the dictionary. The same function runs on every replica and both databases,
//! so a project's keyword ranking never depends on the backend.

use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;

/// Longest word kept, in characters.
pub const MAX_WORD_CHARS: usize = 64;

/// Words too common to say anything about a text: the English stop list of the Snowball project
/// (snowballstem.org, `english/stop.txt`), without its contractions (apostrophes split words here,
/// so their parts are single letters or already listed).
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "against",
    "all",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "cannot",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "no",
    "nor",
    "not",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "ought",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// The stemmer, built once (it is a table of function pointers).
fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// The terms of `text`, in order, repeats kept (their count is the term frequency).
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_term(text, |term| out.push(term));
    out
}

/// Calls `emit` with every term of `text`, in order.
pub fn for_each_term(text: &str, mut emit: impl FnMut(String)) {
    let folded: String = text.nfkd().filter(|c| !is_combining_mark(*c)).flat_map(char::to_lowercase).collect();
    for word in folded.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() || is_stop_word(word) || word.chars().count() > MAX_WORD_CHARS {
            continue;
        }
        emit(stemmer().stem(word).into_owned());
    }
}

/// The distinct terms of the query and the `keywords`, in first-seen order, at most `limit`.
pub fn query_terms(query: &str, keywords: &[String], limit: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for source in std::iter::once(query).chain(keywords.iter().map(String::as_str)) {
        for_each_term(source, |term| {
            if out.len() < limit && !out.contains(&term) {
                out.push(term);
            }
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_list_is_sorted_so_binary_search_finds_every_entry() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| is_stop_word(w)));
    }

    #[test]
    fn words_are_folded_split_filtered_and_stemmed() {
        assert_eq!(terms("The Wings are producing LIFT"), ["wing", "produc", "lift"]);
        assert_eq!(terms("Naïve café-résumé"), ["naiv", "cafe", "resum"]);
        assert_eq!(
            terms("example.com/ornithology pelican-wingspan.png"),
            ["exampl", "com", "ornitholog", "pelican", "wingspan", "png"]
        );
        assert_eq!(terms("NACA 2412 Mach 0.8"), ["naca", "2412", "mach", "0", "8"]);
        assert!(terms(&"x".repeat(MAX_WORD_CHARS + 1)).is_empty());
        assert!(terms("").is_empty() && terms(" -- ?! ").is_empty());
    }

    #[test]
    fn query_syntax_is_only_words() {
        let q = query_terms("What's \"wing\" OR NEAR(lift)?", &["Wing".into(), "naïve-Bayes".into()], 32);
        assert_eq!(q, ["s", "wing", "near", "lift", "naiv", "bay"]);
        assert_eq!(query_terms("alpha beta gamma", &[], 2), ["alpha", "beta"]);
    }
}
