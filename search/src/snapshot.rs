//! A project's keyword and vector indexes saved as bytes and read back exactly, so a restarted
//! replica answers as it did before it stopped without tokenising or re-reading any chunk.
//!
//! What is saved is the indexes' own state, not their input: BM25's document numbers and postings
//! (removed documents included until compaction), the vector slots with their free list, and the
//! HNSW graph through USearch's own serialisation, keyed by those same slots. A reader checks
//! every number an index later uses as a position (document, term, slot), so a damaged file fails
//! to decode instead of panicking later in a search; bit flips inside values are the checksum's
//! to catch (the caller's file format). The graph's bytes are found apart ([`VectorIndex::graph_in`]),
//! to be handed to USearch ([`load_graph`]) only after that checksum held.
//!
//! Bump [`FORMAT`] whenever this layout or the tokeniser changes: saved terms are the tokeniser's
//! output, and an old file must not pair them with a new tokenisation of the queries.

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};

use crate::codec::{DecodeError, Decoder, Encoder};
use crate::keyword::{DocEntry, KeywordIndex, Postings};
use crate::vectors::{new_graph, Graph, VectorIndex};
use usearch::Index;

/// Version of the layout below and of the tokenisation behind the saved terms.
pub const FORMAT: u32 = 1;

impl KeywordIndex {
    /// Writes the index (terms in id order, postings, documents, statistics).
    pub fn encode<W: Write>(&self, out: &mut Encoder<W>) -> std::io::Result<()> {
        let mut terms: Vec<&str> = vec![""; self.postings.len()];
        for (term, id) in &self.dictionary {
            terms[*id as usize] = term.as_ref();
        }
        out.put_len(terms.len())?;
        for (term, postings) in terms.iter().zip(&self.postings) {
            out.put_str(term)?;
            out.put_u32s(&postings.docs)?;
            out.put_u16s(&postings.frequencies)?;
            out.put_u32(postings.live)?;
        }
        out.put_len(self.docs.len())?;
        for doc in &self.docs {
            out.put_i64(doc.chunk_id)?;
            out.put_u32(doc.length)?;
            out.put_bool(doc.live)?;
            out.put_u32s(&doc.terms)?;
        }
        out.put_u32(self.live_docs)?;
        out.put_u64(self.total_length)
    }

    /// Reads an index written by [`KeywordIndex::encode`].
    pub fn decode<R: Read>(input: &mut Decoder<R>) -> Result<Self, DecodeError> {
        let term_count = input.get_len(1)?;
        let mut dictionary = HashMap::with_capacity(term_count);
        let mut postings = Vec::with_capacity(term_count);
        for id in 0..term_count {
            let term = input.get_str()?;
            if dictionary.insert(term.into_boxed_str(), id as u32).is_some() {
                return Err(DecodeError::Corrupt("a term is listed twice"));
            }
            let (docs, frequencies) = (input.get_u32s()?, input.get_u16s()?);
            if docs.len() != frequencies.len() {
                return Err(DecodeError::Corrupt("postings and frequencies differ in length"));
            }
            postings.push(Postings { docs, frequencies, live: input.get_u32()? });
        }
        let doc_count = input.get_len(17)?;
        let mut docs = Vec::with_capacity(doc_count);
        let mut by_chunk = HashMap::with_capacity(doc_count);
        let (mut live_docs, mut total_length) = (0u32, 0u64);
        for number in 0..doc_count {
            let (chunk_id, length, live) = (input.get_i64()?, input.get_u32()?, input.get_bool()?);
            let terms = input.get_u32s()?;
            if terms.iter().any(|term| *term as usize >= postings.len()) {
                return Err(DecodeError::Corrupt("a document names an unknown term"));
            }
            if live {
                if by_chunk.insert(chunk_id, number as u32).is_some() {
                    return Err(DecodeError::Corrupt("a chunk is live twice"));
                }
                live_docs += 1;
                total_length += u64::from(length);
            }
            docs.push(DocEntry { chunk_id, length, terms: terms.into(), live });
        }
        if postings.iter().flat_map(|p| &p.docs).any(|doc| *doc as usize >= docs.len()) {
            return Err(DecodeError::Corrupt("a posting names an unknown document"));
        }
        if input.get_u32()? != live_docs || input.get_u64()? != total_length {
            return Err(DecodeError::Corrupt("the statistics do not match the documents"));
        }
        Ok(Self { dictionary, postings, docs, live_docs, total_length, by_chunk })
    }
}

impl VectorIndex {
    /// Writes the flat vectors and their slots (the graph is [`VectorIndex::encode_graph`]'s).
    pub fn encode<W: Write>(&self, out: &mut Encoder<W>) -> std::io::Result<()> {
        out.put_len(self.dimension)?;
        out.put_f32s(&self.data)?;
        let chunks: Vec<i64> = self.slot_chunk.iter().map(|c| c.unwrap_or(0)).collect();
        let used: Vec<u8> = self.slot_chunk.iter().map(|c| u8::from(c.is_some())).collect();
        out.put_i64s(&chunks)?;
        out.put_bytes(&used)?;
        out.put_u32s(&self.free)
    }

    /// Reads vectors written by [`VectorIndex::encode`]; the graph is left to be restored.
    pub fn decode<R: Read>(input: &mut Decoder<R>) -> Result<Self, DecodeError> {
        let dimension = input.get_len(0)?;
        let data = input.get_f32s()?;
        let (chunks, used) = (input.get_i64s()?, input.get_bytes()?);
        let free = input.get_u32s()?;
        if dimension == 0 || chunks.len() != used.len() || data.len() != chunks.len() * dimension {
            return Err(DecodeError::Corrupt("the vector slots do not match the vectors"));
        }
        let slot_chunk: Vec<Option<i64>> =
            chunks.iter().zip(&used).map(|(chunk, used)| (*used == 1).then_some(*chunk)).collect();
        let mut by_chunk = HashMap::with_capacity(slot_chunk.len());
        for (slot, chunk) in slot_chunk.iter().enumerate() {
            if let Some(chunk) = chunk {
                if by_chunk.insert(*chunk, slot as u32).is_some() {
                    return Err(DecodeError::Corrupt("a chunk has two vector slots"));
                }
            }
        }
        let distinct: HashSet<u32> = free.iter().copied().collect();
        let free_slots = slot_chunk.iter().filter(|c| c.is_none()).count();
        if distinct.len() != free.len()
            || free.len() != free_slots
            || free.iter().any(|slot| slot_chunk.get(*slot as usize).is_none_or(Option::is_some))
        {
            return Err(DecodeError::Corrupt("the free vector slots are not the unused ones"));
        }
        Ok(Self { dimension, data, slot_chunk, free, by_chunk, graph: Graph::None })
    }

    /// Writes the HNSW graph when one is installed (a graph still building is not saved: the
    /// restored index builds it again).
    pub fn encode_graph<W: Write>(&self, out: &mut Encoder<W>) -> std::io::Result<()> {
        let Graph::Ready(graph) = &self.graph else { return out.put_bool(false) };
        let mut bytes = vec![0u8; graph.serialized_length()];
        graph.save_to_buffer(&mut bytes).map_err(|e| std::io::Error::other(format!("saving the vector graph: {e}")))?;
        out.put_bool(true)?;
        out.put_bytes(&bytes)
    }

    /// The graph's bytes in `section`, exactly what [`VectorIndex::encode_graph`] wrote (`None`:
    /// no graph was saved), borrowed instead of copied.
    pub fn graph_in(section: &[u8]) -> Result<Option<&[u8]>, DecodeError> {
        let mut input = Decoder::new(section, section.len() as u64);
        if !input.get_bool()? {
            return if input.remaining() == 0 { Ok(None) } else { Err(DecodeError::Corrupt("bytes after the graph")) };
        }
        let len = input.get_len(1)?;
        let start = section.len() - input.remaining() as usize;
        if start + len != section.len() {
            return Err(DecodeError::Corrupt("bytes after the graph"));
        }
        Ok(Some(&section[start..]))
    }

    /// Installs a graph [`load_graph`] read, once it holds exactly the live slots' vectors.
    pub fn install_saved_graph(&mut self, graph: Index) -> Result<(), DecodeError> {
        if graph.dimensions() != self.dimension || graph.size() != self.len() {
            return Err(DecodeError::Corrupt("the vector graph does not hold the live vectors"));
        }
        if self.by_chunk.values().any(|slot| !graph.contains(u64::from(*slot))) {
            return Err(DecodeError::Corrupt("the vector graph misses a live slot"));
        }
        self.graph = Graph::Ready(graph);
        Ok(())
    }
}

/// Reads a graph of `dimension`-float vectors from bytes [`VectorIndex::encode_graph`] wrote
/// (checked by the caller's checksum first), with room for `threads` users. The slow part of a
/// restore, apart from the index it goes into, so it can run beside the other sections' decoding.
pub fn load_graph(bytes: &[u8], dimension: usize, threads: usize) -> Result<Index, DecodeError> {
    let graph = new_graph(dimension, 0, threads).map_err(DecodeError::Graph)?;
    graph.load_from_buffer(bytes).map_err(|e| DecodeError::Graph(e.to_string()))?;
    // Room for a quarter more before the next add has to grow it (adds grow it on demand too).
    let room = (graph.size() + graph.size() / 4).max(1024);
    graph.reserve_capacity_and_threads(room, threads).map_err(|e| DecodeError::Graph(e.to_string()))?;
    Ok(graph)
}

impl VectorIndex {}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn unit(seed: u64, dimension: usize) -> Vec<f32> {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let v: Vec<f32> = (0..dimension)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                ((state >> 33) as f32 / (1u64 << 31) as f32) - 0.5
            })
            .collect();
        let norm = crate::vectors::dot(&v, &v).sqrt();
        v.iter().map(|x| x / norm).collect()
    }

    fn round_trip_keyword(index: &KeywordIndex) -> KeywordIndex {
        let mut out = Encoder::new(Vec::new());
        index.encode(&mut out).unwrap();
        let bytes = out.into_inner();
        let mut input = Decoder::new(bytes.as_slice(), bytes.len() as u64);
        let read = KeywordIndex::decode(&mut input).unwrap();
        assert_eq!(input.remaining(), 0);
        read
    }

    proptest! {
        /// Any sequence of adds and removes (compactions included) reads back answering every
        /// query exactly as the saved index, and keeps doing so through later changes.
        #[test]
        fn a_saved_keyword_index_answers_as_the_original(
            changes in proptest::collection::vec((0i64..400, proptest::collection::vec(0u8..12, 0..8), any::<bool>()), 0..1500),
            query in proptest::collection::vec(0u8..12, 1..4),
        ) {
            let words = |ws: &[u8]| ws.iter().map(|w| format!("w{w}")).collect::<Vec<_>>();
            let mut index = KeywordIndex::default();
            for (chunk, terms, remove) in &changes {
                if *remove { index.remove(*chunk) } else { index.add(*chunk, &words(terms)) }
            }
            let mut read = round_trip_keyword(&index);
            let query = words(&query);
            prop_assert_eq!(read.search(&query, None, 30), index.search(&query, None, 30));
            read.add(9999, &query);
            index.add(9999, &query);
            read.remove(3);
            index.remove(3);
            prop_assert_eq!(read.search(&query, None, 30), index.search(&query, None, 30));
        }
    }

    #[test]
    fn saved_vectors_and_graph_answer_as_the_original_and_follow_changes() {
        let dimension = 24;
        let mut index = VectorIndex::new(dimension);
        for chunk in 0..2000i64 {
            index.add(chunk, &unit(chunk as u64, dimension), 2).unwrap();
        }
        let slots = index.begin_graph();
        let graph = crate::vectors::build_graph(dimension, &index.copy_vectors(&slots), 2).unwrap();
        index.install_graph(graph, 2).unwrap();
        for chunk in (0..2000i64).step_by(7) {
            index.remove(chunk).unwrap();
        }
        let (mut vectors, mut graph) = (Encoder::new(Vec::new()), Encoder::new(Vec::new()));
        index.encode(&mut vectors).unwrap();
        index.encode_graph(&mut graph).unwrap();
        let (vectors, graph) = (vectors.into_inner(), graph.into_inner());
        let mut input = Decoder::new(vectors.as_slice(), vectors.len() as u64);
        let mut read = VectorIndex::decode(&mut input).unwrap();
        assert_eq!(input.remaining(), 0);
        let saved = VectorIndex::graph_in(&graph).unwrap().expect("a graph was saved");
        read.install_saved_graph(load_graph(saved, dimension, 2).unwrap()).unwrap();
        assert!(read.graph_ready());
        for q in 0..30u64 {
            let query = unit(50_000 + q, dimension);
            assert_eq!(read.search(&query, None, 10, false), index.search(&query, None, 10, false));
            assert_eq!(read.search(&query, None, 10, true), index.search(&query, None, 10, true));
        }
        // Slots are reused alike after the restore.
        read.add(5000, &unit(5000, dimension), 2).unwrap();
        index.add(5000, &unit(5000, dimension), 2).unwrap();
        assert_eq!(read.by_chunk.get(&5000), index.by_chunk.get(&5000));
        let query = unit(5000, dimension);
        assert_eq!(read.search(&query, None, 1, false)[0].0, 5000);
    }

    #[test]
    fn damaged_vectors_fail_to_decode() {
        let mut index = VectorIndex::new(4);
        index.add(1, &unit(1, 4), 2).unwrap();
        let mut out = Encoder::new(Vec::new());
        index.encode(&mut out).unwrap();
        let mut bytes = out.into_inner();
        // The slot's "used" flag (after dimension, floats and chunk ids) claims a free slot.
        let flag = 8 + 8 + 16 + 8 + 8 + 8;
        bytes[flag] = 0;
        let mut input = Decoder::new(bytes.as_slice(), bytes.len() as u64);
        assert!(matches!(VectorIndex::decode(&mut input), Err(DecodeError::Corrupt(_))));
    }
}
