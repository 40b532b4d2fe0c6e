//! The first stage of an indexing round: leased queue rows become chunks, without the model.
//!
//! All items of the round are read in one query, with their stored index entries. An item whose
//! source fingerprint (what its text is made from, and the chunking settings) and model match its
//! stored entry was only moved, restyled or otherwise changed without touching its text: it only
//! has its version recorded. The others get their text (files extracted off the async workers,
//! under a time-out, two at a time), are split, and each chunk whose text is already stored with a
//! vector of the same model (any item, any project) reuses that vector.

use std::collections::HashMap;
use std::time::Duration;

use crate::domain::ItemId;
use futures::StreamExt;
use sha2::{Digest, Sha256};

use super::content::{self, ItemText};
use super::indexer::Indexer;
use super::work::{IndexFailure, Work, WorkState};
use canvas_items::ItemType;

use crate::storage::{IndexAction, IndexedChunk, IndexedItem, ItemRow, QueuedItem, StoredIndexState, ThreadText};

/// Time allowed to extract the text of one file.
const EXTRACT_TIMEOUT: Duration = Duration::from_secs(120);
/// Files extracted at once (each on a blocking worker; extraction is CPU-bound).
const EXTRACT_PARALLEL: usize = 2;
/// Changed when what a fingerprint covers changes, so entries made before are indexed once more.
const FINGERPRINT_VERSION: &str = "canvas-index-1";

/// What an item's text is made from.
enum Source {
    /// The text itself (labels, notes, URLs, file names, connector relation sentences).
    Text(String),
    /// A stored file; the fingerprint covers its content key, not its (costly) extracted text.
    File { prefix: String, content_key: String, mime_type: String },
}

impl Source {
    fn fingerprint(&self, splitter: &str) -> Vec<u8> {
        let parts: Vec<&str> = match self {
            Self::Text(text) => vec!["text", text],
            Self::File { prefix, content_key, mime_type } => vec!["file", prefix, content_key, mime_type],
        };
        let mut hash = Sha256::new();
        for part in [FINGERPRINT_VERSION, splitter].into_iter().chain(parts) {
            // Length-prefixed, so no two different part lists hash alike.
            hash.update((part.len() as u64).to_le_bytes());
            hash.update(part.as_bytes());
        }
        hash.finalize().to_vec()
    }
}

/// The text of one changed item (and whether extraction cut it), with its index in the round's
/// work and its source fingerprint.
type ItemTextResult = (usize, Vec<u8>, Result<(String, bool), IndexFailure>);

/// SHA-256 of a chunk's text: the key of its vector in the cache.
pub(super) fn text_hash(text: &str) -> Vec<u8> {
    Sha256::digest(text.as_bytes()).to_vec()
}

impl Indexer {
    /// Turns leased rows into work: decided (`Ready`) or chunks waiting for vectors.
    pub(super) async fn prepare_round(&self, leased: Vec<QueuedItem>) -> Vec<Work> {
        let ids: Vec<ItemId> = leased.iter().map(|q| q.item_id).collect();
        let read = tokio::try_join!(self.store.items_by_ids(&ids), self.store.index_states(&ids));
        let (rows, states) = match read {
            Ok(read) => read,
            Err(error) => {
                let model = self.knowledge.model_id();
                return leased
                    .into_iter()
                    .map(|queued| Work::failed(queued, None, IndexFailure::Transient(error.to_string()), model))
                    .collect();
            }
        };
        let mut rows: HashMap<ItemId, ItemRow> = rows.into_iter().map(|r| (r.id, r)).collect();
        let states: HashMap<ItemId, StoredIndexState> = states.into_iter().map(|s| (s.item_id, s)).collect();
        let ends = self.relation_ends(rows.values()).await;
        // Keys that name no item may be open comment threads (docs/COMMENTS.md "Knowledge").
        let others: Vec<ItemId> = ids.iter().copied().filter(|id| !rows.contains_key(id)).collect();
        let mut threads: HashMap<ItemId, ThreadText> = match others.is_empty() {
            true => HashMap::new(),
            false => match self.store.threads_by_keys(&others).await {
                Ok(found) => found.into_iter().map(|t| (t.key, t)).collect(),
                Err(error) => {
                    let model = self.knowledge.model_id();
                    return leased
                        .into_iter()
                        .map(|queued| Work::failed(queued, None, IndexFailure::Transient(error.to_string()), model))
                        .collect();
                }
            },
        };

        let splitter = self.knowledge.splitter.fingerprint();
        let model = self.knowledge.model_id().to_owned();
        let mut works = Vec::with_capacity(leased.len());
        let mut sources = Vec::new();
        for queued in leased {
            let key = queued.item_id;
            // The key's version, its text's source, and whether connectors quoting it follow.
            let found = match rows.remove(&key).filter(|r| r.project_id == queued.project_id) {
                // The text changed: connectors quoting this item re-index after it is stored.
                Some(row) => {
                    Some((row.version, source_of(&row, &ends), row.item_type != ItemType::Connector && row.version > 1))
                }
                // A thread is indexed while it is open; resolved, it leaves the index.
                None => threads
                    .remove(&key)
                    .filter(|t| t.project_id == queued.project_id && !t.resolved)
                    .map(|t| (t.version, Ok(Source::Text(content::thread_text(&t.texts))), false)),
            };
            let Some((version, source, follow_up)) = found else {
                works.push(Work::ready(queued, None, IndexAction::Remove));
                continue;
            };
            let source = match source {
                Ok(source) => source,
                Err(failure) => {
                    works.push(Work::failed(queued, Some(version), failure, &model));
                    continue;
                }
            };
            let fingerprint = source.fingerprint(&splitter);
            let unchanged = states.get(&key).is_some_and(|s| {
                s.status == "indexed" && s.model_id == model && s.source_hash.as_deref() == Some(&fingerprint[..])
            });
            let mut work = Work::ready(queued, Some(version), IndexAction::Remove);
            if unchanged {
                let action =
                    IndexAction::Unchanged { item_version: version, source_hash: fingerprint, model_id: model.clone() };
                work.state = WorkState::Ready(action);
            } else {
                work.state = WorkState::Preparing;
                work.follow_up = follow_up && version > 1;
                sources.push((works.len(), fingerprint, source));
            }
            works.push(work);
        }

        let texts = self.texts_of(sources).await;
        self.split_into_chunks(&mut works, texts).await;
        self.reuse_cached_vectors(&mut works).await;
        works
    }

    /// The rows at the ends of the round's connectors (missing ones are free ends).
    async fn relation_ends<'a>(
        &self,
        rows: impl Iterator<Item = &'a ItemRow>,
    ) -> Result<HashMap<ItemId, ItemRow>, String> {
        let ids: Vec<ItemId> = rows
            .filter_map(|row| match content::text_of(row) {
                ItemText::Relation { start, end } => Some([start, end]),
                _ => None,
            })
            .flatten()
            .flatten()
            .collect();
        if ids.is_empty() {
            return Ok(HashMap::new());
        }
        let rows = self.store.items_by_ids(&ids).await.map_err(|e| e.to_string())?;
        Ok(rows.into_iter().map(|r| (r.id, r)).collect())
    }

    /// The text of each changed item (files extracted, at most two at a time), with whether it was
    /// cut at the extraction limit; by index into the round's work.
    async fn texts_of(&self, sources: Vec<(usize, Vec<u8>, Source)>) -> Vec<ItemTextResult> {
        futures::stream::iter(sources)
            .map(|(index, fingerprint, source)| async move {
                let text = match source {
                    Source::Text(text) => Ok((text, false)),
                    Source::File { prefix, content_key, mime_type } => {
                        self.extract(&prefix, &content_key, mime_type).await
                    }
                };
                (index, fingerprint, text)
            })
            .buffer_unordered(EXTRACT_PARALLEL)
            .collect()
            .await
    }

    async fn extract(
        &self,
        prefix: &str,
        content_key: &str,
        mime_type: String,
    ) -> Result<(String, bool), IndexFailure> {
        let bytes = self.blobs.get(content_key).await?;
        let work = tokio::task::spawn_blocking(move || {
            canvas_files::extract_text_with(&bytes, &mime_type, &canvas_files::Limits::default())
        });
        let extracted = tokio::time::timeout(EXTRACT_TIMEOUT, work)
            .await
            .map_err(|_| IndexFailure::Permanent(format!("text extraction took longer than {EXTRACT_TIMEOUT:?}")))?
            .map_err(|e| IndexFailure::Transient(format!("extraction worker: {e}")))?
            .map_err(|e| IndexFailure::Permanent(format!("text extraction: {e}")))?;
        Ok((content::with_prefix(prefix, &extracted.text), extracted.truncated))
    }

    /// Splits every text in one blocking call and puts the chunks into the work.
    async fn split_into_chunks(&self, works: &mut [Work], texts: Vec<ItemTextResult>) {
        let model = self.knowledge.model_id().to_owned();
        let mut to_split = Vec::new();
        for (index, fingerprint, text) in texts {
            match text {
                // PostgreSQL text cannot hold NUL, and it carries no meaning for search.
                Ok((text, truncated)) => to_split.push((index, fingerprint, text.replace('\0', ""), truncated)),
                Err(failure) => works[index].fail(failure, &model),
            }
        }
        if to_split.is_empty() {
            return;
        }
        let indexes: Vec<usize> = to_split.iter().map(|(index, ..)| *index).collect();
        let splitter = self.knowledge.splitter.clone();
        let split = tokio::task::spawn_blocking(move || {
            to_split
                .into_iter()
                .map(|(index, fingerprint, text, truncated)| (index, fingerprint, splitter.split(&text), truncated))
                .collect::<Vec<_>>()
        })
        .await;
        let split = match split {
            Ok(split) => split,
            Err(error) => {
                for index in indexes {
                    works[index].fail(IndexFailure::Transient(format!("splitter worker: {error}")), &model);
                }
                return;
            }
        };
        let embedding = self.knowledge.embedding.is_some();
        for (index, fingerprint, chunks, truncated) in split {
            let work = &mut works[index];
            let chunks = match chunks {
                Ok(chunks) => chunks,
                Err(error) => {
                    work.fail(IndexFailure::Permanent(format!("splitting the text: {error}")), &model);
                    continue;
                }
            };
            let item = IndexedItem {
                item_id: work.queued.item_id,
                project_id: work.queued.project_id,
                item_version: work.version.unwrap_or_default(),
                status: "indexed",
                error: None,
                truncated,
                model_id: model.clone(),
                source_hash: Some(fingerprint),
                chunks: chunks
                    .into_iter()
                    .map(|text| IndexedChunk { text_hash: text_hash(&text), text, embedding: None })
                    .collect(),
            };
            let missing = if embedding { item.chunks.len() } else { 0 };
            work.state = WorkState::Embedding { item, missing };
            work.settle();
        }
    }

    /// Fills chunks whose text is stored with a vector of this model; a failed look-up only costs
    /// model calls.
    async fn reuse_cached_vectors(&self, works: &mut [Work]) {
        if self.knowledge.embedding.is_none() {
            return;
        }
        let mut hashes: Vec<Vec<u8>> = works
            .iter()
            .filter_map(|w| match &w.state {
                WorkState::Embedding { item, .. } => Some(item.chunks.iter().map(|c| c.text_hash.clone())),
                _ => None,
            })
            .flatten()
            .collect();
        hashes.sort();
        hashes.dedup();
        if hashes.is_empty() {
            return;
        }
        let cached: HashMap<Vec<u8>, Vec<u8>> =
            match self.store.cached_vectors(self.knowledge.model_id(), &hashes).await {
                Ok(found) => found.into_iter().collect(),
                Err(error) => {
                    tracing::warn!(%error, "could not read the vector cache; embedding every chunk");
                    return;
                }
            };
        metrics::counter!("knowledge_index_chunks_total", "source" => "cache").increment(
            works
                .iter()
                .filter_map(|w| match &w.state {
                    WorkState::Embedding { item, .. } => {
                        Some(item.chunks.iter().filter(|c| cached.contains_key(&c.text_hash)).count() as u64)
                    }
                    _ => None,
                })
                .sum(),
        );
        for work in works.iter_mut() {
            if let WorkState::Embedding { item, missing } = &mut work.state {
                for chunk in &mut item.chunks {
                    if let Some(vector) = cached.get(&chunk.text_hash) {
                        chunk.embedding = Some(vector.clone());
                        *missing -= 1;
                    }
                }
            }
            work.settle();
        }
    }
}

/// What the item's text is made from; connectors need the rows at their ends.
fn source_of(row: &ItemRow, ends: &Result<HashMap<ItemId, ItemRow>, String>) -> Result<Source, IndexFailure> {
    Ok(match content::text_of(row) {
        ItemText::Inline(text) => Source::Text(text),
        ItemText::File { prefix, content_key, mime_type } => Source::File { prefix, content_key, mime_type },
        ItemText::Relation { start, end } => {
            let ends = ends.as_ref().map_err(|e| IndexFailure::Transient(e.clone()))?;
            let excerpt = |id: Option<ItemId>| {
                id.and_then(|id| ends.get(&id)).filter(|end| end.project_id == row.project_id).map(content::excerpt)
            };
            Source::Text(content::relation_sentence(excerpt(start).as_deref(), excerpt(end).as_deref()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(key: &str) -> Source {
        Source::File { prefix: "r.pdf".into(), content_key: key.into(), mime_type: "application/pdf".into() }
    }

    #[test]
    fn fingerprints_follow_the_source_and_the_chunking() {
        let text = Source::Text("Wing lift".into());
        assert_eq!(text.fingerprint("tokens:200:40"), Source::Text("Wing lift".into()).fingerprint("tokens:200:40"));
        assert_ne!(text.fingerprint("tokens:200:40"), text.fingerprint("tokens:100:20"), "other chunking");
        assert_ne!(text.fingerprint("w"), Source::Text("Wing drag".into()).fingerprint("w"));
        // A file is fingerprinted by its content key: same bytes, same fingerprint, no extraction.
        assert_eq!(file("abc").fingerprint("w"), file("abc").fingerprint("w"));
        assert_ne!(file("abc").fingerprint("w"), file("abd").fingerprint("w"));
        // Parts are length-prefixed: moving a boundary changes the fingerprint.
        assert_ne!(Source::Text("ab".into()).fingerprint("c"), Source::Text("b".into()).fingerprint("ca"));
        assert_eq!(text_hash("x"), text_hash("x"));
        assert_eq!(text_hash("x").len(), 32);
    }
}
