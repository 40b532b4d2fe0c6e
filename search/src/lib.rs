//! Retrieval's ranking engine, free of storage and transport: the one tokeniser of documents and
//! queries ([`tokenise`]), BM25 over a project's own statistics ([`keyword`]), exact and HNSW
//! cosine search ([`vectors`]), and reciprocal rank fusion with pseudo-relevance feedback
//! ([`fusion`]). core-service keeps one index per project in memory, loads and refreshes it from
//! the database, and ranks through these; [`snapshot`] saves a project's indexes as bytes (in the
//! [`codec`]) so a restarted replica reads them back instead of rebuilding them.

pub mod codec;
pub mod fusion;
pub mod keyword;
pub mod snapshot;
pub mod tokenise;
pub mod vectors;

/// Sorts `(id, score)` best first (ties: smaller id first) and keeps `limit`.
pub fn top_by_score(scored: &mut Vec<(i64, f32)>, limit: usize) {
    let order = |a: &(i64, f32), b: &(i64, f32)| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0));
    if scored.len() > limit {
        scored.select_nth_unstable_by(limit, order);
        scored.truncate(limit);
    }
    scored.sort_by(order);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_by_score_orders_and_breaks_ties_by_id() {
        let mut scored = vec![(5, 0.5), (3, 0.9), (4, 0.5), (1, 0.1)];
        top_by_score(&mut scored, 3);
        assert_eq!(scored, [(3, 0.9), (4, 0.5), (5, 0.5)]);
    }
}
