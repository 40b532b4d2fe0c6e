//! The second stage of an indexing round: the chunk texts still without a vector, across all
//! items of the round, each distinct text once, sorted by length and cut into calls of the model.
//!
//! Sorting by length keeps the padding of each forward pass small (the local model pads a batch
//! to its longest text); de-duplicating makes a text shared by many items cost one embedding.

use std::collections::HashMap;

use super::work::{Work, WorkState};

/// One distinct chunk text waiting for its vector.
#[derive(Debug, Clone)]
pub(super) struct PendingText {
    pub text: String,
    /// Where its vector goes: (index of the work in the round, index of the chunk in the item).
    pub uses: Vec<(usize, usize)>,
}

/// The round's texts to embed, in calls of at most `batch_size`, shortest texts first.
pub(super) fn plan(works: &[Work], batch_size: usize) -> Vec<Vec<PendingText>> {
    let mut pending: HashMap<&[u8], PendingText> = HashMap::new();
    for (w, work) in works.iter().enumerate() {
        if let WorkState::Embedding { item, .. } = &work.state {
            for (c, chunk) in item.chunks.iter().enumerate().filter(|(_, c)| c.embedding.is_none()) {
                pending
                    .entry(&chunk.text_hash)
                    .or_insert_with(|| PendingText { text: chunk.text.clone(), uses: Vec::new() })
                    .uses
                    .push((w, c));
            }
        }
    }
    let mut texts: Vec<PendingText> = pending.into_values().collect();
    texts.sort_by(|a, b| a.text.len().cmp(&b.text.len()).then_with(|| a.text.cmp(&b.text)));
    let mut batches = Vec::new();
    let mut texts = texts.into_iter().peekable();
    while texts.peek().is_some() {
        batches.push(texts.by_ref().take(batch_size.max(1)).collect());
    }
    batches
}

/// Whether any item still waits for this text (items that failed meanwhile do not).
pub(super) fn wanted(text: &PendingText, works: &[Work]) -> bool {
    text.uses.iter().any(|&(w, _)| matches!(works[w].state, WorkState::Embedding { .. }))
}

/// Puts the vectors of a call into the items waiting for them; items with every chunk done
/// become ready to store.
pub(super) fn fill(works: &mut [Work], texts: &[PendingText], vectors: &[Option<Vec<u8>>]) {
    for (text, vector) in texts.iter().zip(vectors) {
        let Some(vector) = vector else { continue };
        for &(w, c) in &text.uses {
            if let WorkState::Embedding { item, missing } = &mut works[w].state {
                let chunk = &mut item.chunks[c];
                if chunk.embedding.is_none() {
                    chunk.embedding = Some(vector.clone());
                    *missing -= 1;
                }
            }
        }
    }
    for work in works.iter_mut() {
        work.settle();
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use super::*;
    use crate::domain::{ItemId, ProjectId};
    use crate::storage::{IndexedChunk, IndexedItem, QueuedItem};

    fn work(texts: &[&str]) -> Work {
        let id = Uuid::now_v7();
        let (item_id, project_id) = (ItemId::from_uuid(id), ProjectId::from_uuid(id));
        let queued = QueuedItem { item_id, project_id, generation: 0, attempts: 0, queued_at: chrono::Utc::now() };
        let item = IndexedItem {
            item_id,
            project_id,
            item_version: 1,
            status: "indexed",
            error: None,
            truncated: false,
            model_id: "m".into(),
            source_hash: None,
            chunks: texts
                .iter()
                .map(|t| IndexedChunk { text: t.to_string(), text_hash: t.as_bytes().to_vec(), embedding: None })
                .collect(),
        };
        let mut work = Work::ready(queued, None, crate::storage::IndexAction::Remove);
        work.state = WorkState::Embedding { missing: item.chunks.len(), item };
        work
    }

    #[test]
    fn texts_are_embedded_once_shortest_first_across_items() {
        let mut works = vec![work(&["a long chunk of text", "same"]), work(&["same", "mid text"])];
        let batches = plan(&works, 2);
        let texts: Vec<Vec<&str>> = batches.iter().map(|b| b.iter().map(|t| t.text.as_str()).collect()).collect();
        assert_eq!(texts, vec![vec!["same", "mid text"], vec!["a long chunk of text"]]);
        assert_eq!(batches[0][0].uses, vec![(0, 1), (1, 0)], "a shared text serves every item holding it");

        fill(&mut works, &batches[0], &[Some(vec![1]), Some(vec![2])]);
        assert!(matches!(works[1].state, WorkState::Ready(_)), "every chunk of the second item has a vector");
        assert!(matches!(works[0].state, WorkState::Embedding { missing: 1, .. }));
        fill(&mut works, &batches[1], &[None]);
        assert!(matches!(works[0].state, WorkState::Embedding { missing: 1, .. }), "a text without vector waits");
        fill(&mut works, &batches[1], &[Some(vec![3])]);
        assert!(matches!(works[0].state, WorkState::Ready(_)));
    }
}
