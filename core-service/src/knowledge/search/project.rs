//! One project's in-memory search index: BM25 postings, chunk vectors, and which chunks each item
//! has, changed an item at a time (an item's chunks are always replaced together).

use std::collections::HashMap;

use uuid::Uuid;

use super::keyword::KeywordIndex;
use super::tokenise;
use super::vectors::VectorIndex;
use crate::knowledge::vector_from_bytes;
use crate::storage::ChunkRecord;

/// A chunk prepared for the index off the lock: its terms and decoded vector.
#[derive(Debug)]
pub struct PreparedChunk {
    pub id: i64,
    pub item_id: Uuid,
    pub terms: Vec<String>,
    /// `None` without a vector, or with one of another length (another model's, being re-indexed).
    pub vector: Option<Vec<f32>>,
}

/// Tokenises and decodes chunks (CPU work: run it on the search pool).
pub fn prepare(records: Vec<ChunkRecord>, dimension: Option<usize>) -> Vec<PreparedChunk> {
    use rayon::prelude::*;
    records
        .into_par_iter()
        .map(|record| PreparedChunk {
            id: record.id,
            item_id: record.item_id,
            terms: tokenise::terms(&record.text),
            vector: dimension.and_then(|d| vector_from_bytes(record.embedding.as_deref()?, d)),
        })
        .collect()
}

/// The index of one project.
#[derive(Debug)]
pub struct ProjectIndex {
    pub(super) keyword: KeywordIndex,
    /// `None` when retrieval runs without an embedding model.
    pub(super) vectors: Option<VectorIndex>,
    /// Each item's chunk ids (for replacing them and for the `itemIds` filter).
    items: HashMap<Uuid, Vec<i64>>,
    /// Each chunk's item (to fuse chunks into items).
    chunk_items: HashMap<i64, Uuid>,
}

impl ProjectIndex {
    pub fn new(dimension: Option<usize>) -> Self {
        Self {
            keyword: KeywordIndex::default(),
            vectors: dimension.map(VectorIndex::new),
            items: HashMap::new(),
            chunk_items: HashMap::new(),
        }
    }

    /// Adds chunks during a load (no item is replaced).
    pub fn extend(&mut self, chunks: Vec<PreparedChunk>, threads: usize) -> Result<(), String> {
        for chunk in chunks {
            self.insert(chunk, threads)?;
        }
        Ok(())
    }

    fn insert(&mut self, chunk: PreparedChunk, threads: usize) -> Result<(), String> {
        self.keyword.add(chunk.id, &chunk.terms);
        if let (Some(vectors), Some(vector)) = (&mut self.vectors, &chunk.vector) {
            vectors.add(chunk.id, vector, threads)?;
        }
        self.items.entry(chunk.item_id).or_default().push(chunk.id);
        self.chunk_items.insert(chunk.id, chunk.item_id);
        Ok(())
    }

    /// Replaces the chunks of `items` with `chunks` (their current chunks; an item without any
    /// was deleted or has no text now).
    pub fn replace_items(&mut self, items: &[Uuid], chunks: Vec<PreparedChunk>, threads: usize) -> Result<(), String> {
        for item in items {
            for chunk_id in self.items.remove(item).unwrap_or_default() {
                self.keyword.remove(chunk_id);
                if let Some(vectors) = &mut self.vectors {
                    vectors.remove(chunk_id)?;
                }
                self.chunk_items.remove(&chunk_id);
            }
        }
        self.extend(chunks, threads)
    }

    /// The keyword leg's index.
    pub fn keyword(&self) -> &KeywordIndex {
        &self.keyword
    }

    /// The semantic leg's index (`None` without an embedding model).
    pub fn vectors(&self) -> Option<&VectorIndex> {
        self.vectors.as_ref()
    }

    pub fn item_of(&self, chunk_id: i64) -> Option<Uuid> {
        self.chunk_items.get(&chunk_id).copied()
    }

    /// The chunk ids of the given items (unknown items have none).
    pub fn chunks_of(&self, items: &[Uuid]) -> Vec<i64> {
        items.iter().filter_map(|item| self.items.get(item)).flatten().copied().collect()
    }

    /// Chunks in the index.
    pub fn len(&self) -> usize {
        self.chunk_items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.chunk_items.is_empty()
    }

    /// Approximate heap bytes held (for the memory budget).
    pub fn heap_bytes(&self) -> usize {
        let maps = self.items.capacity() * 48 + self.chunk_items.capacity() * 32 + self.len() * 8;
        self.keyword.heap_bytes() + self.vectors.as_ref().map_or(0, VectorIndex::heap_bytes) + maps
    }
}
