//! Reciprocal rank fusion of the keyword and semantic legs, and the keyword query.
//!
//! Fusion runs in Rust, not in SQL, so SQLite and PostgreSQL rank alike: each leg yields chunk ids
//! best first, a chunk scores `Σ 1 / (k + rank)` over the legs that found it (ranks from 1), and an
//! item is as relevant as its best chunk. Ties break by chunk id, so answers are deterministic.

use std::collections::HashMap;

use uuid::Uuid;

/// The RRF constant of Elasticsearch, OpenSearch and Azure AI Search, and of the original paper.
pub const RRF_K: f64 = 60.0;

/// A chunk found by one leg.
#[derive(Debug, Clone, PartialEq)]
pub struct LegHit {
    pub chunk_id: i64,
    pub item_id: Uuid,
}

/// A fused result: one item with its best chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub item_id: Uuid,
    pub chunk_id: i64,
    pub score: f64,
}

/// Fuses ranked legs (each best first) into items, best first.
pub fn reciprocal_rank_fusion(legs: &[Vec<LegHit>], k: f64) -> Vec<Fused> {
    let mut chunk_scores: HashMap<i64, (Uuid, f64)> = HashMap::new();
    for leg in legs {
        for (rank, hit) in leg.iter().enumerate() {
            let entry = chunk_scores.entry(hit.chunk_id).or_insert((hit.item_id, 0.0));
            entry.1 += 1.0 / (k + rank as f64 + 1.0);
        }
    }
    let mut best_per_item: HashMap<Uuid, Fused> = HashMap::new();
    for (chunk_id, (item_id, score)) in chunk_scores {
        let candidate = Fused { item_id, chunk_id, score };
        match best_per_item.get(&item_id) {
            Some(best) if !better(&candidate, best) => {}
            _ => {
                best_per_item.insert(item_id, candidate);
            }
        }
    }
    let mut fused: Vec<Fused> = best_per_item.into_values().collect();
    fused.sort_by(|a, b| if better(a, b) { std::cmp::Ordering::Less } else { std::cmp::Ordering::Greater });
    fused
}

fn better(a: &Fused, b: &Fused) -> bool {
    a.score > b.score || (a.score == b.score && a.chunk_id < b.chunk_id)
}

/// The words of the keyword leg: the query's and the `keywords`', lower-cased, each once, at most
/// `limit` of them. Only letters and digits survive, so no user text reaches the FTS5 or tsquery
/// syntax.
pub fn keyword_terms(query: &str, keywords: &[String], limit: usize) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let sources = std::iter::once(query).chain(keywords.iter().map(String::as_str));
    for word in sources.flat_map(|s| s.split(|c: char| !c.is_alphanumeric())) {
        if word.is_empty() {
            continue;
        }
        let word = word.to_lowercase();
        if !terms.contains(&word) && terms.len() < limit {
            terms.push(word);
        }
    }
    terms
}

/// An FTS5 MATCH expression: any of the terms, each a quoted string.
pub fn fts5_query(terms: &[String]) -> String {
    terms.iter().map(|t| format!("\"{t}\"")).collect::<Vec<_>>().join(" OR ")
}

/// A `to_tsquery` expression: any of the terms.
pub fn tsquery(terms: &[String]) -> String {
    terms.join(" | ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(chunk_id: i64, item: u128) -> LegHit {
        LegHit { chunk_id, item_id: Uuid::from_u128(item) }
    }

    #[test]
    fn a_chunk_found_by_both_legs_wins() {
        let keyword = vec![hit(1, 1), hit(2, 2), hit(3, 3)];
        let semantic = vec![hit(3, 3), hit(4, 4), hit(1, 1)];
        let fused = reciprocal_rank_fusion(&[keyword, semantic], RRF_K);
        let order: Vec<u128> = fused.iter().map(|f| f.item_id.as_u128()).collect();
        // Item 1: 1/61 + 1/63; item 3: 1/63 + 1/61 (tie, chunk 1 < chunk 3); item 2: 1/62; item 4: 1/62.
        assert_eq!(order, vec![1, 3, 2, 4]);
        assert!((fused[0].score - (1.0 / 61.0 + 1.0 / 63.0)).abs() < 1e-12);
    }

    #[test]
    fn an_item_counts_once_with_its_best_chunk() {
        let keyword = vec![hit(10, 7), hit(11, 7), hit(12, 8)];
        let fused = reciprocal_rank_fusion(&[keyword], RRF_K);
        assert_eq!(fused.len(), 2);
        assert_eq!(fused[0].chunk_id, 10);
        assert_eq!(fused[1].item_id, Uuid::from_u128(8));
    }

    #[test]
    fn terms_are_sanitised_and_deduplicated() {
        let terms = keyword_terms("What's \"wing\" OR NEAR(lift)?", &["Wing".into(), "naïve-Bayes".into()], 32);
        assert_eq!(terms, vec!["what", "s", "wing", "or", "near", "lift", "naïve", "bayes"]);
        assert_eq!(fts5_query(&terms[..2]), "\"what\" OR \"s\"");
        assert_eq!(tsquery(&terms[..2]), "what | s");
        assert_eq!(keyword_terms("a b c", &[], 2).len(), 2);
    }
}
