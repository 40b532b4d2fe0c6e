//! How the keyword and semantic legs become one ranking of items.
//!
//! Fusion runs in Rust, not in SQL, so SQLite and PostgreSQL rank alike: each leg yields chunks
//! best first with their scores, a chunk scores `Σ 1 / (k + rank)` over the legs that found it
//! (ranks from 1), and an item is as relevant as its best chunk. Ties break by chunk id, so answers
//! are deterministic.
//!
//! Hybrid search adds one step between two fusions, pseudo-relevance feedback on the semantic leg
//! (Rocchio's method with dense vectors, as in Li et al., "Pseudo Relevance Feedback with Deep
//! Language Models and Dense Retrievers", 2021): the query vector moves towards the mean vector of
//! the [`FEEDBACK_CHUNKS`] best chunks of a first fusion, with weight [`FEEDBACK_WEIGHT`], and the
//! semantic leg runs again with it before the final fusion. The first fusion's best chunks are
//! mostly those both legs agree on, so the second semantic pass looks for more text like them;
//! on the Cranfield dev queries it lifts hybrid nDCG@10 from 0.41 to 0.44 (docs/PERFORMANCE.md,
//! with every variant tried). It costs one more vector search, not another embedding.

use std::collections::HashMap;

use uuid::Uuid;

/// The RRF constant of Elasticsearch, OpenSearch and Azure AI Search, and of the original paper.
pub const RRF_K: f64 = 60.0;
/// Chunks of the first fusion whose vectors form the feedback centroid.
pub const FEEDBACK_CHUNKS: usize = 5;
/// Weight of the feedback centroid against the query vector (Rocchio's β with α = 1).
pub const FEEDBACK_WEIGHT: f32 = 1.0;

/// A chunk found by one leg, with the leg's score (BM25, or cosine).
#[derive(Debug, Clone, PartialEq)]
pub struct LegHit {
    pub chunk_id: i64,
    pub item_id: Uuid,
    pub score: f32,
}

/// The legs that ran (`None`: not asked for, or no embedding model).
#[derive(Debug, Clone, Default)]
pub struct Legs {
    pub keyword: Option<Vec<LegHit>>,
    pub semantic: Option<Vec<LegHit>>,
}

/// A fused result: one item with its best chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Fused {
    pub item_id: Uuid,
    pub chunk_id: i64,
    pub score: f64,
}

/// The ranking of items the service answers with.
pub fn fuse(legs: &Legs) -> Vec<Fused> {
    let ran: Vec<Vec<LegHit>> = [&legs.keyword, &legs.semantic].into_iter().flatten().cloned().collect();
    reciprocal_rank_fusion(&ran, RRF_K)
}

/// Fuses ranked legs (each best first) into items, best first.
pub fn reciprocal_rank_fusion(legs: &[Vec<LegHit>], k: f64) -> Vec<Fused> {
    best_chunk_per_item(chunk_rrf(legs, k))
}

/// Each chunk's RRF score over the legs.
fn chunk_rrf(legs: &[Vec<LegHit>], k: f64) -> HashMap<i64, (Uuid, f64)> {
    let mut chunk_scores: HashMap<i64, (Uuid, f64)> = HashMap::new();
    for leg in legs {
        for (rank, hit) in leg.iter().enumerate() {
            let entry = chunk_scores.entry(hit.chunk_id).or_insert((hit.item_id, 0.0));
            entry.1 += 1.0 / (k + rank as f64 + 1.0);
        }
    }
    chunk_scores
}

/// The `count` best chunks of the RRF of `legs` (ties: smaller chunk id): the feedback set.
pub fn feedback_chunks(legs: &[Vec<LegHit>], count: usize) -> Vec<i64> {
    let mut scored: Vec<(i64, f64)> = chunk_rrf(legs, RRF_K).into_iter().map(|(chunk, (_, s))| (chunk, s)).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored.into_iter().take(count).map(|(chunk, _)| chunk).collect()
}

/// Rocchio's feedback query: `query + weight · mean(feedback)`, normalised to unit length.
/// Without feedback vectors the query is returned as it is.
pub fn feedback_query(query: &[f32], feedback: &[&[f32]], weight: f32) -> Vec<f32> {
    if feedback.is_empty() {
        return query.to_vec();
    }
    let share = weight / feedback.len() as f32;
    let mut moved = query.to_vec();
    for vector in feedback {
        moved.iter_mut().zip(vector.iter()).for_each(|(m, v)| *m += share * v);
    }
    let norm = moved.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        moved.iter_mut().for_each(|x| *x /= norm);
    }
    moved
}

/// One entry per item, its best chunk's score, best first.
fn best_chunk_per_item(chunk_scores: HashMap<i64, (Uuid, f64)>) -> Vec<Fused> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn hit(chunk_id: i64, item: u128) -> LegHit {
        LegHit { chunk_id, item_id: Uuid::from_u128(item), score: 1.0 }
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
    fn feedback_takes_the_fused_best_chunks_and_moves_the_query_towards_them() {
        let keyword = vec![hit(1, 1), hit(2, 2), hit(3, 3)];
        let semantic = vec![hit(3, 3), hit(4, 4), hit(1, 1)];
        assert_eq!(feedback_chunks(&[keyword, semantic], 3), vec![1, 3, 2]);
        let moved = feedback_query(&[1.0, 0.0], &[&[0.0, 1.0], &[0.0, 1.0]], 1.0);
        let half = std::f32::consts::FRAC_1_SQRT_2;
        assert!((moved[0] - half).abs() < 1e-6 && (moved[1] - half).abs() < 1e-6, "{moved:?}");
        assert_eq!(feedback_query(&[0.6, 0.8], &[], 1.0), vec![0.6, 0.8]);
    }

    #[test]
    fn an_item_counts_once_with_its_best_chunk() {
        let keyword = vec![hit(10, 7), hit(11, 7), hit(12, 8)];
        let fused = reciprocal_rank_fusion(&[keyword], RRF_K);
        assert_eq!(fused.len(), 2);
        assert_eq!(fused[0].chunk_id, 10);
        assert_eq!(fused[1].item_id, Uuid::from_u128(8));
    }
}
