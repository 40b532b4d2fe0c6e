//! The inference runtime as a provisioned artefact: ONNX Runtime's shared library, taken from the
//! `onnxruntime` wheel on the Python package index and pinned by SHA-256 like the model files.
//!
//! The wheel is fetched for a fixed platform, Python version and ABI, so pip brings the same file
//! whatever Python runs it (the library inside is the same across the wheel's Python versions;
//! only the Python binding differs). Only Linux x86-64 has a pinned build; elsewhere the model runs
//! on candle.

use std::path::{Path, PathBuf};

use super::{ModelSpec, PinnedFile, WheelSource};

/// The ONNX Runtime release that is provisioned.
pub const ONNX_RUNTIME_VERSION: &str = "1.32.0";

/// The library file inside the wheel's `onnxruntime/capi/` and inside the provisioned directory.
const LIBRARY_FILE: &str = "libonnxruntime.so.1.32.0";

/// SHA-256 of `libonnxruntime.so.1.32.0` from `onnxruntime-1.32.0-cp312-cp312-manylinux_2_28_x86_64.whl`
/// (identical in the cp311 wheel; checked when pinning).
const LIBRARY_SHA256_LINUX_X86_64: &str = "6c1585d1bbf45b0712ea4a21b705c5fcb4ba04ff2e30f1fbf81a49faf658638f";

impl ModelSpec {
    /// ONNX Runtime's CPU library for this platform, or `None` where no build is pinned.
    pub fn onnx_runtime() -> Option<Self> {
        if !(cfg!(target_os = "linux") && cfg!(target_arch = "x86_64")) {
            return None;
        }
        let pip_args = ["--platform", "manylinux_2_28_x86_64", "--python-version", "3.12", "--implementation", "cp"]
            .into_iter()
            .chain(["--abi", "cp312"])
            .map(str::to_string)
            .collect();
        Some(Self {
            name: format!("onnxruntime-{ONNX_RUNTIME_VERSION}-linux-x86_64"),
            // Not on the model hub: the wheel is the only source.
            hub_repo: String::new(),
            hub_revision: String::new(),
            wheel: Some(WheelSource {
                package: "onnxruntime".to_string(),
                version: ONNX_RUNTIME_VERSION.to_string(),
                prefix: "onnxruntime/capi/".to_string(),
                pip_args,
            }),
            files: vec![PinnedFile { path: LIBRARY_FILE.to_string(), sha256: LIBRARY_SHA256_LINUX_X86_64.to_string() }],
        })
    }
}

/// Where [`crate::ensure_model`] puts the ONNX Runtime library for the models in `cache_dir`
/// (`None` on platforms without a pinned build). The file may not exist yet.
pub fn onnx_runtime_library(cache_dir: &Path) -> Option<PathBuf> {
    let spec = ModelSpec::onnx_runtime()?;
    Some(cache_dir.join(&spec.name).join(&spec.files[0].path))
}
