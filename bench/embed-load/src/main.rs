//! Embeds the lines of a file with the model core-service loads (all-MiniLM-L6-v2 from the model
//! cache, default options), in calls of `--batch` texts through [`EmbeddingModel::embed`] (the
//! indexer's path: the work runs on tokio's blocking pool), and prints one JSON line with the
//! texts per second. `bench/index_throughput.py` runs it on the same sentences it writes as notes,
//! in the same run, so the indexer's end-to-end rate can be stated as a fraction of the model's.
//!
//! ```sh
//! canvas-embed-load --sentences notes.txt --count 4000 --batch 256
//! ```

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use canvas_embed::{
    default_cache_dir, ensure_model, EmbeddingModel, LocalEmbedder, LocalModelOptions, ProvisionOptions,
};
use clap::Parser;

#[derive(Parser)]
#[command(about = "The embedding model's batch throughput on a file of sentences")]
struct Args {
    /// One text per line.
    #[arg(long)]
    sentences: PathBuf,
    /// How many lines to embed (from the top); 0: all.
    #[arg(long, default_value_t = 0)]
    count: usize,
    /// Texts per `embed` call (the indexer's batch).
    #[arg(long, default_value_t = 256)]
    batch: usize,
    /// Calls made first and not timed (the model's first calls allocate).
    #[arg(long, default_value_t = 1)]
    warmup: usize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.sentences).with_context(|| format!("{}", args.sentences.display()))?;
    let mut texts: Vec<String> = text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned).collect();
    if args.count > 0 {
        texts.truncate(args.count);
    }
    anyhow::ensure!(!texts.is_empty(), "no sentences in {}", args.sentences.display());
    let cache = std::env::var_os("CANVAS_MODEL_CACHE").map(PathBuf::from).or_else(default_cache_dir);
    let dir = ensure_model(&cache.context("set CANVAS_MODEL_CACHE or HOME")?, &ProvisionOptions::default()).await?;
    let model: Arc<dyn EmbeddingModel> =
        Arc::new(tokio::task::spawn_blocking(move || LocalEmbedder::load(&dir, LocalModelOptions::default())).await??);
    let batch = args.batch.max(1);
    for call in texts.chunks(batch).take(args.warmup) {
        model.embed(call).await?;
    }
    let started = Instant::now();
    for call in texts.chunks(batch) {
        std::hint::black_box(model.embed(call).await?);
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{}",
        serde_json::json!({
            "model": model.model_id(),
            "texts": texts.len(),
            "batch": batch,
            "seconds": seconds,
            "textsPerSecond": texts.len() as f64 / seconds,
        })
    );
    Ok(())
}
