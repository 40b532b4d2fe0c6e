//! One project's in-memory search index: BM25 postings, chunk vectors, and which chunks each item
//! has, changed an item at a time (an item's chunks are always replaced together); saved as bytes
//! and read back for a snapshot (`snapshot.rs` frames them in a file).

use std::collections::HashMap;
use std::io::Write;

use canvas_search::codec::{DecodeError, Decoder, Encoder};
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
            item_id: record.item_id.uuid(),
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

    /// Items with chunks in the index.
    pub fn item_count(&self) -> usize {
        self.items.len()
    }

    /// Whether a vector graph is being built elsewhere (it is saved once installed).
    pub fn graph_building(&self) -> bool {
        self.vectors.as_ref().is_some_and(VectorIndex::graph_building)
    }

    /// Writes the index: BM25, the flat vectors, each chunk's item, and the HNSW graph last; returns
    /// where each part starts in `out`, so a reader can decode them side by side.
    pub fn encode<W: Write>(&self, out: &mut Encoder<W>) -> std::io::Result<Sections> {
        let keyword = out.position();
        self.keyword.encode(out)?;
        let vectors = out.position();
        out.put_bool(self.vectors.is_some())?;
        if let Some(vectors) = &self.vectors {
            vectors.encode(out)?;
        }
        let chunks = out.position();
        let mut pairs: Vec<(i64, Uuid)> = self.chunk_items.iter().map(|(chunk, item)| (*chunk, *item)).collect();
        pairs.sort_unstable();
        out.put_i64s(&pairs.iter().map(|(chunk, _)| *chunk).collect::<Vec<_>>())?;
        out.put_bytes(&pairs.iter().flat_map(|(_, item)| *item.as_bytes()).collect::<Vec<_>>())?;
        let graph = out.position();
        match &self.vectors {
            Some(vectors) => vectors.encode_graph(out)?,
            None => out.put_bool(false)?,
        }
        Ok(Sections { keyword, vectors, chunks, graph, end: out.position() })
    }

    /// Reads the vectors section [`ProjectIndex::encode`] wrote (`None`: the index had none).
    pub fn decode_vectors(section: &[u8]) -> Result<Option<VectorIndex>, DecodeError> {
        whole(section, |input| Ok(if input.get_bool()? { Some(VectorIndex::decode(input)?) } else { None }))
    }

    /// Reads the keyword section [`ProjectIndex::encode`] wrote.
    pub fn decode_keyword(section: &[u8]) -> Result<KeywordIndex, DecodeError> {
        whole(section, KeywordIndex::decode)
    }

    /// Puts an index together from its sections, read apart (the graph already loaded from the
    /// graph section, after the file's checksum held), and checks they agree.
    pub fn assemble(
        keyword: KeywordIndex,
        vectors: Option<VectorIndex>,
        chunk_section: &[u8],
        graph: Option<super::vectors::GraphIndex>,
        dimension: Option<usize>,
    ) -> Result<Self, DecodeError> {
        if vectors.as_ref().map(VectorIndex::dimension) != dimension {
            return Err(DecodeError::Corrupt("the vectors are not of this model's length"));
        }
        let (chunks, items) = whole(chunk_section, |input| Ok((input.get_i64s()?, input.get_bytes()?)))?;
        if items.len() != chunks.len() * 16 {
            return Err(DecodeError::Corrupt("chunks and items differ in number"));
        }
        let mut index =
            Self { keyword, vectors, items: HashMap::new(), chunk_items: HashMap::with_capacity(chunks.len()) };
        for (chunk, item) in chunks.iter().zip(items.chunks_exact(16)) {
            let item = Uuid::from_slice(item).map_err(|_| DecodeError::Corrupt("an item id"))?;
            index.chunk_items.insert(*chunk, item);
            index.items.entry(item).or_default().push(*chunk);
        }
        // Every chunk is in BM25 (with or without terms) and at most once among the vectors.
        let vector_chunks = index.vectors.as_ref().map_or(0, VectorIndex::len);
        if index.chunk_items.len() != chunks.len()
            || index.keyword.len() != chunks.len()
            || vector_chunks > chunks.len()
            || chunks.iter().any(|chunk| !index.keyword.contains(*chunk))
        {
            return Err(DecodeError::Corrupt("the chunk map does not match the indexes"));
        }
        match (graph, &mut index.vectors) {
            (None, _) => {}
            (Some(graph), Some(vectors)) => vectors.install_saved_graph(graph)?,
            (Some(_), None) => return Err(DecodeError::Corrupt("a vector graph without vectors")),
        }
        Ok(index)
    }

    /// Approximate heap bytes held (for the memory budget).
    pub fn heap_bytes(&self) -> usize {
        let maps = self.items.capacity() * 48 + self.chunk_items.capacity() * 32 + self.len() * 8;
        self.keyword.heap_bytes() + self.vectors.as_ref().map_or(0, VectorIndex::heap_bytes) + maps
    }
}

/// Where each part of an encoded index starts, counted from the start of the encoder's output,
/// and where the index ends (a snapshot file's table of sections).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sections {
    pub keyword: u64,
    pub vectors: u64,
    pub chunks: u64,
    pub graph: u64,
    pub end: u64,
}

/// Decodes `section` with `read`, which must use every byte of it.
fn whole<'a, T>(
    section: &'a [u8],
    read: impl FnOnce(&mut Decoder<&'a [u8]>) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    let mut input = Decoder::new(section, section.len() as u64);
    let value = read(&mut input)?;
    if input.remaining() != 0 {
        return Err(DecodeError::Corrupt("bytes after a section"));
    }
    Ok(value)
}
