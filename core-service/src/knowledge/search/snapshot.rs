//! A project's search index in a file, and where the change records stood when it was saved.
//!
//! # Layout
//! `CNVSRCH\0`, this file's [`VERSION`] and the engine's `canvas_search::snapshot::FORMAT`; the
//! project id, the model id and vector length; the [`Watermark`]; then the index
//! ([`ProjectIndex::encode`]: BM25, vectors, chunk → item, the HNSW graph last); then the table of
//! where each of those four sections starts and where the index ends (five u64); then a CRC-32 of
//! everything before it. All numbers little-endian.
//!
//! # Reading in a second
//! The table says where each section is, so four threads read and hash one section each; their
//! checksums are joined into the file's (`crc32fast`'s `combine`) and compared before anything is
//! decoded; then BM25, the vectors and the HNSW graph are decoded side by side and the chunk map
//! puts them together. Read one after the other, a 200,000-chunk project took 1.6 s
//! (docs/PERFORMANCE.md, "Restarts: search snapshots").
//!
//! # Why a file can be trusted, and when it is not
//! A file is written to a temporary name beside its place, flushed to disk, and renamed over the
//! old one, so a reader sees a whole snapshot or the previous one, never a part, and replicas
//! sharing the directory never see each other's half-written files. A reader refuses a file of
//! another format, project, model or vector length, one whose checksum does not match (a bit
//! flipped, a torn disk), and one that fails to decode; the caller then loads from the database
//! as if there were no file, and the next snapshot replaces it. The checksum is checked before
//! USearch sees the graph's bytes.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use canvas_search::codec::{DecodeError, Decoder, Encoder};
use canvas_search::snapshot::load_graph;
use uuid::Uuid;

use super::project::{ProjectIndex, Sections};
use super::vectors::VectorIndex;

const MAGIC: [u8; 8] = *b"CNVSRCH\0";
/// Version of this file's frame (header, watermark, checksum).
const VERSION: u32 = 2;
/// The table of sections: where BM25, vectors, the chunk map and the graph start, and the end.
const TABLE: usize = 5 * 8;
/// Buffer of the file reads and writes: large, as snapshots are hundreds of megabytes.
const BUFFER: usize = 1 << 20;
/// A temporary file older than this was left by a writer that died.
const ABANDONED: Duration = Duration::from_secs(3600);

/// Where a replica stood in a project's change records when the index was as saved: the floor
/// and the records at or above it already applied (`SearchIndexes::fresh`'s `Freshness`), and
/// the newest record read, which the database must still hold at that `seq` or later.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Watermark {
    pub floor: i64,
    /// Item, `seq`, position.
    pub applied: Vec<(Uuid, i64, i64)>,
    /// Item and `seq` of the record with the largest `seq` applied.
    pub newest: Option<(Uuid, i64)>,
}

/// Why a snapshot was not used (logged; the index is then loaded from the database).
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("snapshot file: {0}")]
    Io(#[from] io::Error),
    #[error("not a search index snapshot")]
    NotASnapshot,
    #[error("snapshot format {found:?}, this replica reads {expected:?}")]
    Format { found: (u32, u32), expected: (u32, u32) },
    #[error("the snapshot is of another project")]
    OtherProject,
    #[error("the snapshot holds vectors of {found} ({found_dimension:?}), this replica searches {expected} ({expected_dimension:?})")]
    OtherModel { found: String, found_dimension: Option<usize>, expected: String, expected_dimension: Option<usize> },
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("the snapshot's checksum does not match: the file is damaged")]
    Checksum,
    #[error("the snapshot saw change records the database no longer has (restored from a backup?)")]
    AheadOfDatabase,
}

/// A snapshot read back: the index (graph installed) and its watermark.
pub struct Restored {
    pub index: ProjectIndex,
    pub watermark: Watermark,
    pub bytes: u64,
    /// Time spent reading the file and decoding its sections (the graph's included, side by
    /// side), and putting the index together from them (logged).
    pub decoding: std::time::Duration,
    pub assembling: std::time::Duration,
}

/// A snapshot written under a temporary name, to be made the project's by [`Pending::commit`]
/// (outside the index's lock: the flush to disk is the slow part). Dropped, it is deleted.
pub struct Pending {
    temp: tempfile::NamedTempFile,
    path: PathBuf,
    bytes: u64,
}

/// The directory of snapshots and which projects get one.
#[derive(Debug, Clone)]
pub struct SnapshotStore {
    dir: PathBuf,
    /// Projects with fewer chunks are not saved.
    pub min_chunks: usize,
}

/// The identity a snapshot must match to be read: project, model and vector length.
pub struct Identity<'a> {
    pub project: Uuid,
    pub model_id: &'a str,
    pub dimension: Option<usize>,
}

impl SnapshotStore {
    pub fn new(dir: PathBuf, min_chunks: usize) -> Self {
        Self { dir, min_chunks: min_chunks.max(1) }
    }

    pub fn path(&self, project: Uuid) -> PathBuf {
        self.dir.join(format!("{project}.search"))
    }

    /// Removes the project's snapshot (it has become too small to keep one).
    pub fn remove(&self, project: Uuid) -> io::Result<()> {
        match std::fs::remove_file(self.path(project)) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }

    /// Writes `index` as of `watermark` to a temporary file in the directory.
    pub fn write(&self, id: &Identity, index: &ProjectIndex, watermark: &Watermark) -> Result<Pending, SnapshotError> {
        std::fs::create_dir_all(&self.dir)?;
        self.sweep_abandoned();
        let temp = tempfile::Builder::new().prefix(".search-").suffix(".tmp").tempfile_in(&self.dir)?;
        let mut out = Encoder::new(BufWriter::with_capacity(BUFFER, Crc::new(temp.as_file())));
        out.put_u64(u64::from_le_bytes(MAGIC))?;
        out.put_u32(VERSION)?;
        out.put_u32(canvas_search::snapshot::FORMAT)?;
        let (high, low) = id.project.as_u64_pair();
        out.put_u64(high)?;
        out.put_u64(low)?;
        out.put_str(id.model_id)?;
        out.put_len(id.dimension.unwrap_or(0))?;
        out.put_i64(watermark.floor)?;
        out.put_len(watermark.applied.len())?;
        for (item, seq, position) in &watermark.applied {
            out.put_bytes(item.as_bytes())?;
            out.put_i64(*seq)?;
            out.put_i64(*position)?;
        }
        out.put_bool(watermark.newest.is_some())?;
        let (item, seq) = watermark.newest.unwrap_or_default();
        out.put_bytes(item.as_bytes())?;
        out.put_i64(seq)?;
        let sections = index.encode(&mut out)?;
        for at in [sections.keyword, sections.vectors, sections.chunks, sections.graph, sections.end] {
            out.put_u64(at)?;
        }
        let crc = out.into_inner().into_inner().map_err(io::IntoInnerError::into_error)?;
        let (mut file, checksum, written) = (crc.inner, crc.hasher.finalize(), crc.bytes);
        file.write_all(&checksum.to_le_bytes())?;
        Ok(Pending { temp, path: self.path(id.project), bytes: written + 4 })
    }

    /// Reads the project's snapshot: `None` when there is none; an error when it is not usable.
    pub fn read(&self, id: &Identity, threads: usize) -> Result<Option<Restored>, SnapshotError> {
        let file = match File::open(self.path(id.project)) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
            opened => opened?,
        };
        let started = std::time::Instant::now();
        let bytes = file.metadata()?.len();
        // The table and checksum at the end say where the rest is.
        let Some(table_at) = bytes.checked_sub((TABLE + 4) as u64) else { return Err(SnapshotError::NotASnapshot) };
        let tail = read_at(&file, table_at, bytes)?;
        let sections = table(&tail[..TABLE], table_at)?;
        let head = read_at(&file, 0, sections.keyword)?;
        let watermark = header(&head, id)?;
        // Each section read and hashed on its own thread, then the parts' checksums joined into
        // the file's and compared before anything is decoded; then decoded side by side.
        let parts = [
            (sections.keyword, sections.vectors),
            (sections.vectors, sections.chunks),
            (sections.chunks, sections.graph),
            (sections.graph, sections.end),
        ];
        let read = std::thread::scope(|scope| {
            let file = &file;
            parts
                .map(|(from, to)| {
                    scope.spawn(move || {
                        let part = read_at(file, from, to)?;
                        let mut hasher = crc32fast::Hasher::new();
                        hasher.update(&part);
                        Ok((part, hasher))
                    })
                })
                .map(|reader| reader.join().unwrap_or_else(|_| Err(panicked("reading a snapshot section"))))
        });
        // The parts' checksums joined in the file's order, between the head's and the table's.
        let mut checksum = crc32fast::Hasher::new();
        checksum.update(&head);
        let [keyword, vectors, chunks, graph] = read.map(|part: io::Result<(Vec<u8>, crc32fast::Hasher)>| {
            part.map(|(buffer, hasher)| {
                checksum.combine(&hasher);
                buffer
            })
        });
        let (keyword, vectors, chunks, graph) = (keyword?, vectors?, chunks?, graph?);
        checksum.update(&tail[..TABLE]);
        if checksum.finalize().to_le_bytes() != tail[TABLE..] {
            return Err(SnapshotError::Checksum);
        }
        let (keyword, vectors, graph) = std::thread::scope(|scope| {
            let keyword = scope.spawn(|| ProjectIndex::decode_keyword(&keyword));
            let vectors = scope.spawn(|| ProjectIndex::decode_vectors(&vectors));
            let graph = scope.spawn(|| -> Result<_, DecodeError> {
                match (VectorIndex::graph_in(&graph)?, id.dimension) {
                    (Some(saved), Some(dimension)) => Ok(Some(load_graph(saved, dimension, threads)?)),
                    (Some(_), None) => Err(DecodeError::Corrupt("a vector graph without vectors")),
                    (None, _) => Ok(None),
                }
            });
            let joined = |what| move |_| DecodeError::Io(panicked(what));
            (
                keyword.join().map_err(joined("decoding the keyword index")).and_then(|r| r),
                vectors.join().map_err(joined("decoding the vectors")).and_then(|r| r),
                graph.join().map_err(joined("loading the vector graph")).and_then(|r| r),
            )
        });
        let decoding = started.elapsed();
        let index = ProjectIndex::assemble(keyword?, vectors?, &chunks, graph?, id.dimension)?;
        let assembling = started.elapsed() - decoding;
        Ok(Some(Restored { index, watermark, bytes, decoding, assembling }))
    }

    /// Deletes temporary files of writers that died mid-write (never a live writer's: those are
    /// younger than an hour).
    fn sweep_abandoned(&self) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let temporary = name.to_string_lossy().starts_with(".search-");
            let modified = entry.metadata().and_then(|m| m.modified()).ok();
            let age = modified.and_then(|m| SystemTime::now().duration_since(m).ok());
            if temporary && age.is_some_and(|age| age > ABANDONED) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

impl Pending {
    /// Flushes the file to disk and renames it over the project's snapshot; returns its bytes.
    pub fn commit(self) -> Result<u64, SnapshotError> {
        self.temp.as_file().sync_all()?;
        self.temp.persist(&self.path).map_err(|e| SnapshotError::Io(e.error))?;
        // The rename itself is durable once the directory is.
        if let Some(dir) = self.path.parent() {
            File::open(dir)?.sync_all()?;
        }
        Ok(self.bytes)
    }
}

/// Reads the header and watermark, which are all of `head` (the file up to the index).
fn header(head: &[u8], id: &Identity) -> Result<Watermark, SnapshotError> {
    let mut input = Decoder::new(head, head.len() as u64);
    if input.get_u64().map_err(|_| SnapshotError::NotASnapshot)? != u64::from_le_bytes(MAGIC) {
        return Err(SnapshotError::NotASnapshot);
    }
    let found = (input.get_u32()?, input.get_u32()?);
    let expected = (VERSION, canvas_search::snapshot::FORMAT);
    if found != expected {
        return Err(SnapshotError::Format { found, expected });
    }
    if Uuid::from_u64_pair(input.get_u64()?, input.get_u64()?) != id.project {
        return Err(SnapshotError::OtherProject);
    }
    // The vector length is a number, not a count of bytes that follow: not `get_len`.
    let model = input.get_str()?;
    let dimension = usize::try_from(input.get_u64()?).ok().filter(|d| *d > 0);
    if model != id.model_id || dimension != id.dimension {
        let expected = id.model_id.to_owned();
        let expected_dimension = id.dimension;
        return Err(SnapshotError::OtherModel {
            found: model,
            found_dimension: dimension,
            expected,
            expected_dimension,
        });
    }
    let floor = input.get_i64()?;
    let mut applied = Vec::new();
    for _ in 0..input.get_len(32)? {
        applied.push((uuid(&mut input)?, input.get_i64()?, input.get_i64()?));
    }
    let has_newest = input.get_bool()?;
    let newest = (uuid(&mut input)?, input.get_i64()?);
    if input.remaining() != 0 {
        return Err(SnapshotError::Decode(DecodeError::Corrupt("bytes between the watermark and the index")));
    }
    Ok(Watermark { floor, applied, newest: has_newest.then_some(newest) })
}

/// Reads the table of sections, which starts at `table_at`, and checks that the sections follow
/// each other up to it.
fn table(bytes: &[u8], table_at: u64) -> Result<Sections, SnapshotError> {
    let mut table = Decoder::new(bytes, TABLE as u64);
    let sections = Sections {
        keyword: table.get_u64()?,
        vectors: table.get_u64()?,
        chunks: table.get_u64()?,
        graph: table.get_u64()?,
        end: table.get_u64()?,
    };
    let order = [sections.keyword, sections.vectors, sections.chunks, sections.graph, sections.end];
    if sections.end != table_at || order.windows(2).any(|w| w[0] > w[1]) {
        return Err(SnapshotError::Decode(DecodeError::Corrupt("the table of sections")));
    }
    Ok(sections)
}

/// Bytes `from..to` of `file` (positional, so threads read one file at once).
fn read_at(file: &File, from: u64, to: u64) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let len = usize::try_from(to - from).map_err(|_| io::Error::other("a section larger than memory"))?;
    let mut buffer = vec![0u8; len];
    file.read_exact_at(&mut buffer, from)?;
    Ok(buffer)
}

fn panicked(what: &str) -> io::Error {
    io::Error::other(format!("{what} panicked"))
}

fn uuid<R: Read>(input: &mut Decoder<R>) -> Result<Uuid, DecodeError> {
    Uuid::from_slice(&input.get_bytes()?).map_err(|_| DecodeError::Corrupt("an item id"))
}

/// A writer that keeps the CRC-32 (and count) of the bytes passing through it.
struct Crc<T> {
    inner: T,
    hasher: crc32fast::Hasher,
    bytes: u64,
}

impl<T> Crc<T> {
    fn new(inner: T) -> Self {
        Self { inner, hasher: crc32fast::Hasher::new(), bytes: 0 }
    }
}

impl<T: Write> Write for Crc<T> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.hasher.update(&bytes[..written]);
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::search::project::PreparedChunk;

    /// The model's real vector length: a header that read it as a byte count failed only at this
    /// size (a header is much shorter than 384 bytes).
    const DIMENSION: usize = 384;

    fn index() -> ProjectIndex {
        let mut index = ProjectIndex::new(Some(DIMENSION));
        let chunks = (0..300i64)
            .map(|id| PreparedChunk {
                id,
                item_id: Uuid::from_u128(id as u128 / 3),
                terms: vec![format!("t{}", id % 7), format!("t{}", id % 11), "wing".into()],
                vector: Some((0..DIMENSION).map(|d| ((id as usize * 7 + d * 3) % 13) as f32 - 6.0).collect()),
            })
            .collect();
        index.extend(chunks, 2).unwrap();
        index.replace_items(&[Uuid::from_u128(4), Uuid::from_u128(9)], Vec::new(), 2).unwrap();
        // With its HNSW graph, as a big project has.
        let vectors = index.vectors.as_mut().unwrap();
        let slots = vectors.begin_graph();
        let graph = canvas_search::vectors::build_graph(DIMENSION, &vectors.copy_vectors(&slots), 2).unwrap();
        vectors.install_graph(graph, 2).unwrap();
        index
    }

    fn identity(project: Uuid) -> Identity<'static> {
        Identity { project, model_id: "model-a", dimension: Some(DIMENSION) }
    }

    #[test]
    fn a_snapshot_reads_back_as_written_and_damage_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let store = SnapshotStore::new(dir.path().to_path_buf(), 1);
        let project = Uuid::from_u128(77);
        let watermark = Watermark {
            floor: 41,
            applied: vec![(Uuid::from_u128(5), 44, 41), (Uuid::from_u128(6), 43, 42)],
            newest: Some((Uuid::from_u128(5), 44)),
        };
        let original = index();
        let bytes = store.write(&identity(project), &original, &watermark).unwrap().commit().unwrap();
        let read = store.read(&identity(project), 2).unwrap().expect("a snapshot");
        assert_eq!((read.watermark, read.bytes), (watermark, bytes));
        assert_eq!(read.index.len(), original.len());
        assert_eq!(read.index.chunks_of(&[Uuid::from_u128(3)]), original.chunks_of(&[Uuid::from_u128(3)]));
        let terms = ["t3".to_owned(), "wing".to_owned()];
        assert_eq!(read.index.keyword().search(&terms, None, 20), original.keyword().search(&terms, None, 20));
        assert!(read.index.vectors().unwrap().graph_ready(), "the graph is read back");
        let query: Vec<f32> = (0..DIMENSION).map(|d| [1.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.5, 0.0][d % 8]).collect();
        for exact in [true, false] {
            let search = |index: &ProjectIndex| index.vectors().unwrap().search(&query, None, 10, exact);
            assert_eq!(search(&read.index), search(&original), "exact: {exact}");
        }

        assert!(store.read(&identity(Uuid::from_u128(78)), 2).unwrap().is_none(), "no file, no snapshot");
        let other_model = Identity { model_id: "model-b", ..identity(project) };
        assert!(matches!(store.read(&other_model, 2), Err(SnapshotError::OtherModel { .. })));
        let file = std::fs::read(store.path(project)).unwrap();
        std::fs::write(store.path(Uuid::from_u128(78)), &file).unwrap();
        assert!(matches!(store.read(&identity(Uuid::from_u128(78)), 2), Err(SnapshotError::OtherProject)));
        for at in [20, file.len() / 3, file.len() / 2, file.len() - 30, file.len() - 2] {
            let mut damaged = file.clone();
            damaged[at] ^= 0x20;
            std::fs::write(store.path(project), &damaged).unwrap();
            let read = store.read(&identity(project), 2);
            assert!(read.is_err(), "a byte flipped at {at} of {}", file.len());
        }
        for cut in [0, 3, 12, file.len() / 2, file.len() - 1] {
            std::fs::write(store.path(project), &file[..cut]).unwrap();
            assert!(store.read(&identity(project), 2).is_err(), "cut at {cut}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2, "no temporary file is left behind");
    }
}
