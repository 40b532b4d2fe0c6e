//! The BERT encoder run by ONNX Runtime, loaded at run time from the library the `onnxruntime`
//! wheel ships (provisioned and checksum-verified by [`crate::ensure_model`]).
//!
//! The graph is written in memory from the model's safetensors ([`graph`]); nothing is exported by
//! Python. One session per model, intra-op thread pool as wide as the machine, so one batch uses
//! every core. `Session::run` needs exclusive access: calls queue on a *fair* mutex, so a short
//! query that arrives while a long indexing call is running waits for the current sub-batch only
//! (the caller splits big calls into sub-batches), not for the whole call.

mod graph;
mod proto;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use ort::session::builder::GraphOptimizationLevel;
use ort::session::Session;
use ort::value::TensorRef;
use parking_lot::FairMutex;

pub use graph::GraphVariant;

use crate::{EmbedError, Result};

/// Wraps an ONNX Runtime error.
fn runtime_error(e: impl std::fmt::Display) -> EmbedError {
    EmbedError::Runtime(e.to_string())
}

/// The process-wide ONNX Runtime environment. ONNX Runtime allows one per process and `ort` refuses
/// a second even after the first is dropped, so it lives until exit. Keyed by the library it
/// loaded: a later request for another library file cannot be honoured.
fn environment(library: &Path) -> Result<ort::environment::Environment> {
    static ENVIRONMENT: OnceLock<std::result::Result<(PathBuf, ort::environment::Environment), String>> =
        OnceLock::new();
    let entry = ENVIRONMENT.get_or_init(|| {
        let builder = ort::init_from(library).map_err(|e| e.to_string())?;
        let environment = builder.with_name("canvas-embed").build().map_err(|e| e.to_string())?;
        tracing::info!(library = %library.display(), "ONNX Runtime loaded");
        Ok((library.to_path_buf(), environment))
    });
    match entry {
        Ok((loaded, environment)) => {
            if loaded != library {
                tracing::warn!(requested = %library.display(), loaded = %loaded.display(),
                    "ONNX Runtime is already loaded from another file; using that one");
            }
            Ok(environment.clone())
        }
        Err(message) => Err(EmbedError::Runtime(format!("loading {}: {message}", library.display()))),
    }
}

/// A loaded encoder session.
pub(crate) struct OnnxEncoder {
    /// The session; `run` needs `&mut`, and the fair lock serves waiting callers in arrival order.
    session: FairMutex<Session>,
    /// Width of the output vectors, to check the output shape.
    hidden: usize,
}

impl OnnxEncoder {
    /// Builds the graph from `safetensors` and opens a session with `threads` intra-op threads.
    pub(crate) fn load(
        library: &Path,
        config: &candle_transformers::models::bert::Config,
        safetensors: &[u8],
        variant: GraphVariant,
        threads: usize,
    ) -> Result<Self> {
        let environment = environment(library)?;
        let model = graph::build(config, safetensors, variant)?;
        let session = Session::builder(&environment)
            .map_err(runtime_error)?
            .with_optimization_level(GraphOptimizationLevel::All)
            .map_err(runtime_error)?
            .with_intra_threads(threads.max(1))
            .map_err(runtime_error)?
            .with_inter_threads(1)
            .map_err(runtime_error)?
            // Idle workers sleep rather than spin: the model shares the cores with the database,
            // request handling and search, and spinning workers (busy-waiting on `pause` between
            // runs) took 8 % of a 2-core machine during a bulk import and 19 % while it served
            // retrievals (perf, docs/PERFORMANCE.md).
            .with_intra_op_spinning(false)
            .map_err(runtime_error)?
            .with_inter_op_spinning(false)
            .map_err(runtime_error)?
            .commit_from_memory(&model)
            .map_err(runtime_error)?;
        Ok(Self { session: FairMutex::new(session), hidden: config.hidden_size })
    }

    /// Runs a batch: `ids` and `mask` are `n × width` row-major (padding has mask 0). Returns the
    /// token vectors, `n × width × hidden` row-major.
    pub(crate) fn forward(&self, ids: Vec<i64>, mask: Vec<i32>, n: usize, width: usize) -> Result<Vec<f32>> {
        let positions: Vec<i64> = (0..width as i64).collect();
        let ids = TensorRef::from_array_view(([n, width], &*ids)).map_err(runtime_error)?;
        let mask = TensorRef::from_array_view(([n, width], &*mask)).map_err(runtime_error)?;
        let positions = TensorRef::from_array_view(([width], &*positions)).map_err(runtime_error)?;
        let mut session = self.session.lock();
        let outputs = session
            .run(ort::inputs!["input_ids" => ids, "attention_mask" => mask, "position_ids" => positions])
            .map_err(runtime_error)?;
        let (shape, values) = outputs["last_hidden_state"].try_extract_tensor::<f32>().map_err(runtime_error)?;
        let expected = [n as i64, width as i64, self.hidden as i64];
        if shape.as_ref() != expected {
            return Err(EmbedError::Runtime(format!("output shape {shape:?}, expected {expected:?}")));
        }
        Ok(values.to_vec())
    }
}
