//! One project's chunk vectors: exact search over a flat array, and an HNSW graph (USearch) once
//! the project is large enough for it to pay.
//!
//! The flat array (f32, the vectors as stored) is the truth: exact search reads it, and the graph's
//! candidates are re-scored with it, so the graph may hold its vectors as f16 (half the memory)
//! without changing a returned score. Slots of removed chunks are reused; the graph is keyed by
//! slot. The graph is built off the request path: while it builds, searches are exact, and the
//! slots that change meanwhile are re-synchronised before it is installed.

use std::collections::{HashMap, HashSet};

use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

/// The HNSW graph (USearch's index), as [`crate::snapshot::load_graph`] reads it back.
pub type GraphIndex = Index;

/// HNSW out-degree (`M`); USearch's default.
const CONNECTIVITY: usize = 16;
/// Candidate list while inserting (`efConstruction`).
const EXPANSION_ADD: usize = 128;
/// Candidate list while searching (`ef`); the graph returns at least this many candidates, which
/// are then re-scored exactly. 160 gave recall@20 0.9788 at 200,000 vectors; 256 is the setting
/// measured in docs/PERFORMANCE.md (recall@20 against exact search, at 20,000 and 200,000).
pub const EXPANSION_SEARCH: usize = 256;
/// A filter matching at most this many chunks is answered exactly, never through the graph.
const EXACT_FILTER_BELOW: usize = 20_000;

/// The graph and its state.
pub(crate) enum Graph {
    /// Too few vectors for a graph.
    None,
    /// Being built elsewhere; the slots changed since the build began are re-synchronised when
    /// it is installed.
    Building {
        touched: HashSet<u32>,
    },
    Ready(Index),
}

/// The vectors of one project.
pub struct VectorIndex {
    pub(crate) dimension: usize,
    /// `dimension` floats per slot.
    pub(crate) data: Vec<f32>,
    /// The chunk in each slot; `None` when free.
    pub(crate) slot_chunk: Vec<Option<i64>>,
    /// Free slots, reused first.
    pub(crate) free: Vec<u32>,
    /// Chunk id → slot.
    pub(crate) by_chunk: HashMap<i64, u32>,
    pub(crate) graph: Graph,
}

impl std::fmt::Debug for VectorIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorIndex").field("dimension", &self.dimension).field("len", &self.len()).finish()
    }
}

/// Dot product with eight accumulators, so the compiler vectorises it without fast-math.
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (a_chunks, b_chunks) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = a_chunks.remainder().iter().zip(b_chunks.remainder()).map(|(x, y)| x * y).sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for i in 0..8 {
            lanes[i] += x[i] * y[i];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// A fresh HNSW graph for `dimension`-float vectors with room for `capacity` and `threads`
/// concurrent users.
pub fn new_graph(dimension: usize, capacity: usize, threads: usize) -> Result<Index, String> {
    let options = IndexOptions {
        dimensions: dimension,
        metric: MetricKind::IP,
        quantization: ScalarKind::F16,
        connectivity: CONNECTIVITY,
        expansion_add: EXPANSION_ADD,
        expansion_search: EXPANSION_SEARCH,
        multi: false,
    };
    let index = Index::new(&options).map_err(|e| format!("creating the vector graph: {e}"))?;
    index
        .reserve_capacity_and_threads(capacity.max(64), threads)
        .map_err(|e| format!("reserving the vector graph: {e}"))?;
    Ok(index)
}

impl VectorIndex {
    pub fn new(dimension: usize) -> Self {
        Self {
            dimension,
            data: Vec::new(),
            slot_chunk: Vec::new(),
            free: Vec::new(),
            by_chunk: HashMap::new(),
            graph: Graph::None,
        }
    }

    pub fn dimension(&self) -> usize {
        self.dimension
    }

    pub fn len(&self) -> usize {
        self.by_chunk.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_chunk.is_empty()
    }

    /// Whether a graph should be built now: `exact_below` vectors or more, and none built or building.
    pub fn wants_graph(&self, exact_below: usize) -> bool {
        self.len() >= exact_below.max(1) && matches!(self.graph, Graph::None)
    }

    pub fn graph_ready(&self) -> bool {
        matches!(self.graph, Graph::Ready(_))
    }

    /// Whether a graph is being built elsewhere ([`VectorIndex::begin_graph`] without install).
    pub fn graph_building(&self) -> bool {
        matches!(self.graph, Graph::Building { .. })
    }

    fn vector(&self, slot: u32) -> &[f32] {
        let start = slot as usize * self.dimension;
        &self.data[start..start + self.dimension]
    }

    /// A chunk's stored vector.
    pub fn vector_of(&self, chunk_id: i64) -> Option<&[f32]> {
        self.by_chunk.get(&chunk_id).map(|slot| self.vector(*slot))
    }

    /// Stores a chunk's vector (replacing one under the same chunk id).
    pub fn add(&mut self, chunk_id: i64, vector: &[f32], threads: usize) -> Result<(), String> {
        debug_assert_eq!(vector.len(), self.dimension);
        self.remove(chunk_id)?;
        let slot = match self.free.pop() {
            Some(slot) => {
                let start = slot as usize * self.dimension;
                self.data[start..start + self.dimension].copy_from_slice(vector);
                self.slot_chunk[slot as usize] = Some(chunk_id);
                slot
            }
            None => {
                self.data.extend_from_slice(vector);
                self.slot_chunk.push(Some(chunk_id));
                (self.slot_chunk.len() - 1) as u32
            }
        };
        self.by_chunk.insert(chunk_id, slot);
        match &mut self.graph {
            Graph::None => Ok(()),
            Graph::Building { touched } => {
                touched.insert(slot);
                Ok(())
            }
            Graph::Ready(graph) => {
                if graph.size() + 1 >= graph.capacity() {
                    graph
                        .reserve_capacity_and_threads((graph.capacity() * 2).max(1024), threads)
                        .map_err(|e| format!("growing the vector graph: {e}"))?;
                }
                graph.add(u64::from(slot), vector).map_err(|e| format!("adding to the vector graph: {e}"))
            }
        }
    }

    /// Forgets a chunk's vector (nothing when it has none).
    pub fn remove(&mut self, chunk_id: i64) -> Result<(), String> {
        let Some(slot) = self.by_chunk.remove(&chunk_id) else { return Ok(()) };
        self.slot_chunk[slot as usize] = None;
        self.free.push(slot);
        match &mut self.graph {
            Graph::None => Ok(()),
            Graph::Building { touched } => {
                touched.insert(slot);
                Ok(())
            }
            Graph::Ready(graph) => {
                graph.remove(u64::from(slot)).map(|_| ()).map_err(|e| format!("removing from the vector graph: {e}"))
            }
        }
    }

    /// Marks a graph build as begun; returns the live slots to build from.
    pub fn begin_graph(&mut self) -> Vec<u32> {
        self.graph = Graph::Building { touched: HashSet::new() };
        self.live_slots().collect()
    }

    fn live_slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.slot_chunk.iter().enumerate().filter(|(_, c)| c.is_some()).map(|(slot, _)| slot as u32)
    }

    /// Copies the vectors of `slots` (live ones only) for a builder working outside the lock.
    pub fn copy_vectors(&self, slots: &[u32]) -> Vec<(u32, Vec<f32>)> {
        slots
            .iter()
            .filter(|slot| self.slot_chunk.get(**slot as usize).is_some_and(Option::is_some))
            .map(|slot| (*slot, self.vector(*slot).to_vec()))
            .collect()
    }

    /// Installs a graph built from the slots [`VectorIndex::begin_graph`] returned, after bringing
    /// the slots changed meanwhile up to date.
    pub fn install_graph(&mut self, graph: Index, threads: usize) -> Result<(), String> {
        let Graph::Building { touched } = std::mem::replace(&mut self.graph, Graph::None) else {
            return Ok(()); // Superseded (the project was reloaded).
        };
        let needed = self.len() + touched.len();
        if needed >= graph.capacity() {
            graph.reserve_capacity_and_threads(needed * 2, threads).map_err(|e| format!("growing the graph: {e}"))?;
        }
        for slot in touched {
            if graph.contains(u64::from(slot)) {
                graph.remove(u64::from(slot)).map_err(|e| format!("re-synchronising the graph: {e}"))?;
            }
            if self.slot_chunk[slot as usize].is_some() {
                graph
                    .add(u64::from(slot), self.vector(slot))
                    .map_err(|e| format!("re-synchronising the graph: {e}"))?;
            }
        }
        self.graph = Graph::Ready(graph);
        Ok(())
    }

    /// Gives up a graph build (it failed); searches stay exact and a later change retries.
    pub fn abandon_graph(&mut self) {
        if matches!(self.graph, Graph::Building { .. }) {
            self.graph = Graph::None;
        }
    }

    /// The `limit` chunks nearest to `query` (unit vectors: the dot product is the cosine), best
    /// first, as `(chunk id, cosine)`. `allowed` restricts the search to those chunks; `exact`
    /// forces exact search (to measure the graph's recall).
    pub fn search(&self, query: &[f32], allowed: Option<&[i64]>, limit: usize, exact: bool) -> Vec<(i64, f32)> {
        if query.len() != self.dimension || limit == 0 {
            return Vec::new();
        }
        let mut scored: Vec<(i64, f32)> = match (allowed, &self.graph) {
            (Some(chunks), _) if chunks.len() < EXACT_FILTER_BELOW || exact || !self.graph_ready() => chunks
                .iter()
                .filter_map(|chunk| self.by_chunk.get(chunk).map(|slot| (*chunk, dot(self.vector(*slot), query))))
                .collect(),
            (Some(chunks), Graph::Ready(graph)) => {
                let slots: HashSet<u64> =
                    chunks.iter().filter_map(|c| self.by_chunk.get(c)).map(|s| u64::from(*s)).collect();
                let matches = graph.filtered_search(query, limit.max(EXPANSION_SEARCH), |key| slots.contains(&key));
                self.rescored(matches.map(|m| m.keys).map_err(|e| e.to_string()), query)
            }
            (None, Graph::Ready(graph)) if !exact => {
                let matches = graph.search(query, limit.max(EXPANSION_SEARCH));
                self.rescored(matches.map(|m| m.keys).map_err(|e| e.to_string()), query)
            }
            _ => self
                .slot_chunk
                .iter()
                .enumerate()
                .filter_map(|(slot, chunk)| chunk.map(|chunk| (chunk, dot(self.vector(slot as u32), query))))
                .collect(),
        };
        super::top_by_score(&mut scored, limit);
        scored
    }

    /// The graph's candidates with their exact cosine from the flat array (a failed graph search
    /// yields nothing rather than an error: the caller's other leg still answers, and the failure
    /// is logged).
    fn rescored(&self, keys: Result<Vec<u64>, String>, query: &[f32]) -> Vec<(i64, f32)> {
        match keys {
            Ok(keys) => keys
                .iter()
                .filter_map(|key| {
                    let slot = u32::try_from(*key).ok()?;
                    let chunk = (*self.slot_chunk.get(slot as usize)?)?;
                    Some((chunk, dot(self.vector(slot), query)))
                })
                .collect(),
            Err(error) => {
                tracing::error!(%error, "vector graph search failed");
                Vec::new()
            }
        }
    }

    /// Approximate heap bytes held (for the memory budget).
    pub fn heap_bytes(&self) -> usize {
        let graph = match &self.graph {
            Graph::Ready(graph) => graph.memory_usage(),
            _ => 0,
        };
        self.data.capacity() * 4 + self.slot_chunk.capacity() * 16 + self.by_chunk.capacity() * 16 + graph
    }
}

/// Builds a graph from copied vectors, adding them from the threads of the current rayon pool.
pub fn build_graph(dimension: usize, vectors: &[(u32, Vec<f32>)], threads: usize) -> Result<Index, String> {
    use rayon::prelude::*;
    let graph = new_graph(dimension, vectors.len() + vectors.len() / 4 + 64, threads)?;
    vectors.par_iter().try_for_each(|(slot, vector)| {
        graph.add(u64::from(*slot), vector).map_err(|e| format!("building the vector graph: {e}"))
    })?;
    Ok(graph)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(seed: u64, dimension: usize) -> Vec<f32> {
        // A small deterministic generator: no rand dependency for a test.
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let mut v: Vec<f32> = (0..dimension)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 33) as f32 / (1u64 << 31) as f32) - 0.5
            })
            .collect();
        let norm = dot(&v, &v).sqrt();
        v.iter_mut().for_each(|x| *x /= norm);
        v
    }

    #[test]
    fn dot_matches_the_plain_sum() {
        let (a, b) = (unit(1, 37), unit(2, 37));
        let plain: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - plain).abs() < 1e-6);
    }

    #[test]
    fn the_graph_finds_what_exact_search_finds_and_follows_changes() {
        let dimension = 32;
        let mut index = VectorIndex::new(dimension);
        for chunk in 0..3000i64 {
            index.add(chunk, &unit(chunk as u64, dimension), 2).unwrap();
        }
        let slots = index.begin_graph();
        let copied = index.copy_vectors(&slots);
        // Changes while the graph is built elsewhere.
        index.remove(7).unwrap();
        index.add(3000, &unit(3000, dimension), 2).unwrap();
        let graph = build_graph(dimension, &copied, 2).unwrap();
        index.install_graph(graph, 2).unwrap();
        assert!(index.graph_ready());
        index.remove(8).unwrap();
        index.add(3001, &unit(3001, dimension), 2).unwrap();
        let mut found = 0;
        for q in 0..50u64 {
            let query = unit(10_000 + q, dimension);
            let exact = index.search(&query, None, 10, true);
            let approximate = index.search(&query, None, 10, false);
            assert!(approximate.iter().all(|(c, _)| *c != 7 && *c != 8), "removed chunks never come back");
            found += approximate.iter().filter(|hit| exact.contains(hit)).count();
        }
        assert!(found as f64 / 500.0 >= 0.98, "recall {found}/500");
        let query = unit(3000, dimension);
        assert_eq!(index.search(&query, None, 1, false)[0].0, 3000, "a vector added during the build is found");
        let allowed = [5i64, 6, 7, 3001];
        let filtered = index.search(&query, Some(&allowed), 10, false);
        assert_eq!(filtered.len(), 3, "only live allowed chunks: {filtered:?}");
    }
}
