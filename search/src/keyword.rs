//! BM25 over one project's chunks, in memory: the keyword leg.
//!
//! Okapi BM25 as Lucene and Elasticsearch compute it: a chunk `d` scores, for each distinct query
//! term `t` it contains,
//! `idf(t) · tf · (k1 + 1) / (tf + k1 · (1 − b + b · |d| / avgdl))` with
//! `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))`, where `N`, `df` and `avgdl` are the project's own
//! (live chunks only, exactly, after every change): another project's text never moves this one's
//! ranking, and a query costs the length of its terms' posting lists in this project, whatever the
//! database holds. `k1 = 1.2` and `b = 0.75` are Lucene's and Elasticsearch's defaults.
//!
//! Removing a chunk updates the statistics at once and leaves its postings in place, skipped at
//! scoring; once removed chunks are more than a third of the postings' documents, the lists are
//! rewritten without them.

use std::collections::HashMap;

/// Term-frequency saturation (Lucene's and Elasticsearch's default).
pub const K1: f32 = 1.2;
/// Length normalisation (Lucene's and Elasticsearch's default).
pub const B: f32 = 0.75;

/// A document number within one [`KeywordIndex`].
pub type Doc = u32;

/// The chunks holding one term.
#[derive(Debug, Default, Clone)]
pub(crate) struct Postings {
    /// Documents holding the term, ascending (removed ones stay until compaction).
    pub(crate) docs: Vec<Doc>,
    /// How often the term occurs in each of `docs` (saturating at `u16::MAX`).
    pub(crate) frequencies: Vec<u16>,
    /// Live documents holding the term: the `df` of BM25.
    pub(crate) live: u32,
}

/// One indexed chunk.
#[derive(Debug, Clone)]
pub(crate) struct DocEntry {
    /// The chunk this document stands for.
    pub(crate) chunk_id: i64,
    /// Terms in the chunk (with repeats); `|d|` of BM25.
    pub(crate) length: u32,
    /// The chunk's distinct term ids, so removal can lower each one's `df`.
    pub(crate) terms: Box<[u32]>,
    /// False once removed.
    pub(crate) live: bool,
}

/// The inverted index of one project.
#[derive(Debug, Default)]
pub struct KeywordIndex {
    /// Term → term id.
    pub(crate) dictionary: HashMap<Box<str>, u32>,
    /// Postings by term id.
    pub(crate) postings: Vec<Postings>,
    /// Documents by number.
    pub(crate) docs: Vec<DocEntry>,
    /// Live documents: `N` of BM25.
    pub(crate) live_docs: u32,
    /// Sum of the live documents' lengths, for `avgdl`.
    pub(crate) total_length: u64,
    /// Live chunk id → its document number.
    pub(crate) by_chunk: HashMap<i64, Doc>,
}

impl KeywordIndex {
    /// Adds a chunk given its terms (repeats kept); a chunk id already present is replaced.
    pub fn add(&mut self, chunk_id: i64, terms: &[String]) {
        self.remove(chunk_id);
        let doc = self.docs.len() as Doc;
        let mut counts: HashMap<u32, u32> = HashMap::new();
        for term in terms {
            let id = match self.dictionary.get(term.as_str()) {
                Some(id) => *id,
                None => {
                    let id = self.postings.len() as u32;
                    self.dictionary.insert(term.as_str().into(), id);
                    self.postings.push(Postings::default());
                    id
                }
            };
            *counts.entry(id).or_default() += 1;
        }
        let mut distinct: Vec<u32> = counts.keys().copied().collect();
        distinct.sort_unstable();
        for id in &distinct {
            let postings = &mut self.postings[*id as usize];
            postings.docs.push(doc);
            postings.frequencies.push(counts[id].min(u32::from(u16::MAX)) as u16);
            postings.live += 1;
        }
        self.docs.push(DocEntry { chunk_id, length: terms.len() as u32, terms: distinct.into(), live: true });
        self.live_docs += 1;
        self.total_length += terms.len() as u64;
        self.by_chunk.insert(chunk_id, doc);
    }

    /// Removes a chunk from the statistics at once and from the postings lazily.
    pub fn remove(&mut self, chunk_id: i64) {
        let Some(doc) = self.by_chunk.remove(&chunk_id) else { return };
        let entry = &mut self.docs[doc as usize];
        entry.live = false;
        self.live_docs -= 1;
        self.total_length -= u64::from(entry.length);
        for id in entry.terms.iter() {
            self.postings[*id as usize].live -= 1;
        }
        if self.docs.len() > 1024 && self.dead_docs() * 3 > self.docs.len() {
            self.compact();
        }
    }

    fn dead_docs(&self) -> usize {
        self.docs.len() - self.live_docs as usize
    }

    /// Rewrites the postings without removed documents and renumbers the live ones.
    fn compact(&mut self) {
        let mut renumbered: Vec<Option<Doc>> = Vec::with_capacity(self.docs.len());
        let mut docs = Vec::with_capacity(self.live_docs as usize);
        for entry in self.docs.drain(..) {
            if entry.live {
                self.by_chunk.insert(entry.chunk_id, docs.len() as Doc);
                renumbered.push(Some(docs.len() as Doc));
                docs.push(entry);
            } else {
                renumbered.push(None);
            }
        }
        self.docs = docs;
        for postings in &mut self.postings {
            let mut kept_docs = Vec::with_capacity(postings.live as usize);
            let mut kept_frequencies = Vec::with_capacity(postings.live as usize);
            for (doc, frequency) in postings.docs.iter().zip(&postings.frequencies) {
                if let Some(new) = renumbered[*doc as usize] {
                    kept_docs.push(new);
                    kept_frequencies.push(*frequency);
                }
            }
            postings.docs = kept_docs;
            postings.frequencies = kept_frequencies;
        }
    }

    /// Live documents (`N`).
    pub fn len(&self) -> usize {
        self.live_docs as usize
    }

    pub fn is_empty(&self) -> bool {
        self.live_docs == 0
    }

    /// Whether the chunk is in the index (live).
    pub fn contains(&self, chunk_id: i64) -> bool {
        self.by_chunk.contains_key(&chunk_id)
    }

    /// The best `limit` live documents holding any of `terms` (distinct), best first, as
    /// `(chunk id, score)`; `allowed` restricts the documents. Ties go to the smaller chunk id.
    pub fn search(&self, terms: &[String], allowed: Option<&dyn Fn(i64) -> bool>, limit: usize) -> Vec<(i64, f32)> {
        if self.live_docs == 0 || limit == 0 {
            return Vec::new();
        }
        let n = self.live_docs as f32;
        let average_length = self.total_length as f32 / n;
        // A dense accumulator: one slot per document is cheaper than hashing every posting.
        let mut scores = vec![0f32; self.docs.len()];
        let mut touched: Vec<Doc> = Vec::new();
        for term in terms {
            let Some(postings) = self.dictionary.get(term.as_str()).map(|id| &self.postings[*id as usize]) else {
                continue;
            };
            if postings.live == 0 {
                continue;
            }
            let df = postings.live as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for (doc, frequency) in postings.docs.iter().zip(&postings.frequencies) {
                let entry = &self.docs[*doc as usize];
                if !entry.live || allowed.is_some_and(|allowed| !allowed(entry.chunk_id)) {
                    continue;
                }
                let tf = f32::from(*frequency);
                let norm = K1 * (1.0 - B + B * entry.length as f32 / average_length);
                let slot = &mut scores[*doc as usize];
                if *slot == 0.0 {
                    touched.push(*doc);
                }
                *slot += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        let mut ranked: Vec<(i64, f32)> =
            touched.into_iter().map(|doc| (self.docs[doc as usize].chunk_id, scores[doc as usize])).collect();
        super::top_by_score(&mut ranked, limit);
        ranked
    }

    /// Approximate heap bytes held (for the memory budget).
    pub fn heap_bytes(&self) -> usize {
        let postings: usize = self.postings.iter().map(|p| p.docs.capacity() * 6 + 40).sum();
        let docs: usize = self.docs.iter().map(|d| 40 + d.terms.len() * 4).sum();
        let dictionary: usize = self.dictionary.keys().map(|k| k.len() + 40).sum();
        postings + docs + dictionary + self.by_chunk.capacity() * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn scores_follow_the_bm25_formula() {
        let mut index = KeywordIndex::default();
        index.add(1, &words("wing lift wing"));
        index.add(2, &words("lift drag"));
        index.add(3, &words("engine"));
        let hits = index.search(&words("wing"), None, 10);
        // N = 3, df = 1, avgdl = 2, |d| = 3, tf = 2.
        let idf = (1.0f32 + (3.0 - 1.0 + 0.5) / 1.5).ln();
        let expected = idf * 2.0 * (K1 + 1.0) / (2.0 + K1 * (1.0 - B + B * 3.0 / 2.0));
        assert_eq!(hits.len(), 1);
        assert!((hits[0].1 - expected).abs() < 1e-6, "{hits:?} vs {expected}");
        let both = index.search(&words("lift wing"), None, 10);
        assert_eq!(both.iter().map(|h| h.0).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn removal_changes_the_statistics_exactly_and_compaction_keeps_answers() {
        let mut grown = KeywordIndex::default();
        let mut fresh = KeywordIndex::default();
        for i in 0..3000i64 {
            let text = words(&format!("common t{} t{}", i % 7, i % 13));
            grown.add(i, &text);
            if i % 2 == 0 {
                fresh.add(i, &text);
            }
        }
        for i in (1..3000i64).step_by(2) {
            grown.remove(i);
        }
        grown.remove(1);
        assert!(grown.docs.len() < 3000, "compacted");
        assert_eq!(grown.len(), fresh.len());
        let query = words("common t3 t5");
        assert_eq!(grown.search(&query, None, 50), fresh.search(&query, None, 50));
        let even_only = |chunk: i64| chunk % 4 == 0;
        assert_eq!(grown.search(&query, Some(&even_only), 20), fresh.search(&query, Some(&even_only), 20));
    }
}
