//! The 200,000-chunk project, written through core-service's own storage code.

use std::sync::Arc;

use core_service::storage::{IndexedChunk, IndexedItem};
use core_service::Core;
use sha2::Digest;

/// Chunks per seeded item (a long document's worth).
const CHUNKS_PER_ITEM: usize = 100;

/// Fills `project` with `chunks` chunks, each three sentences of `source`'s notes joined, its
/// vector the normalised sum of theirs. Returns the project id.
pub async fn big_project(core: &Arc<Core>, project: String, source: &str, chunks: usize) -> anyhow::Result<String> {
    let storage = &core.stores().retrieval;
    let source_id = crate::project_id(source);
    let mut sentences: Vec<(String, Vec<f32>)> = Vec::new();
    let model_id = core.retrieval().knowledge_model_id().to_owned();
    let mut after = 0;
    loop {
        let page = storage.project_chunks(source_id, &model_id, after, 4096).await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        for record in page {
            let Some(bytes) = record.embedding else { continue };
            let vector = bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            sentences.push((record.text, vector));
        }
    }
    anyhow::ensure!(!sentences.is_empty(), "the source project has no vectors");
    let project_id = crate::project_id(&project);
    // A fixed linear congruential sequence: the same corpus on every run and backend.
    let mut state: u64 = 0x5eed;
    let mut next = |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % n
    };
    let started = std::time::Instant::now();
    for item in 0..chunks.div_ceil(CHUNKS_PER_ITEM) {
        let mut item_chunks = Vec::with_capacity(CHUNKS_PER_ITEM);
        for _ in 0..CHUNKS_PER_ITEM.min(chunks - item * CHUNKS_PER_ITEM) {
            let parts: Vec<&(String, Vec<f32>)> = (0..3).map(|_| &sentences[next(sentences.len())]).collect();
            let text = parts.iter().map(|(t, _)| t.as_str()).collect::<Vec<_>>().join(" ");
            let mut vector = vec![0f32; parts[0].1.len()];
            for (_, v) in &parts {
                vector.iter_mut().zip(v).for_each(|(sum, x)| *sum += x);
            }
            let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt().max(f32::MIN_POSITIVE);
            let bytes: Vec<u8> = vector.iter().flat_map(|x| (x / norm).to_le_bytes()).collect();
            let text_hash = sha2::Sha256::digest(text.as_bytes()).to_vec();
            item_chunks.push(IndexedChunk { text, text_hash, embedding: Some(bytes) });
        }
        let indexed = IndexedItem {
            item_id: core_service::domain::ItemId::new(),
            project_id,
            item_version: 1,
            status: "indexed",
            error: None,
            truncated: false,
            model_id: model_id.clone(),
            source_hash: Some(item.to_le_bytes().to_vec()),
            chunks: item_chunks,
        };
        storage.write_item_index(&indexed).await?;
    }
    eprintln!("seeded {chunks} chunks in {:.0?}", started.elapsed());
    Ok(project)
}
