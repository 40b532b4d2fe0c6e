//! Reading a sentence-transformers model directory: which files it must hold, its pooling, its
//! sequence cut-off, and a tokenizer set up the way sentence-transformers runs it.
//!
//! sentence-transformers describes a model as a pipeline in `modules.json` (Transformer, Pooling,
//! Normalize); the pooling module keeps its settings in `<path>/config.json` (usually
//! `1_Pooling/config.json`) and the transformer its cut-off in `sentence_bert_config.json`. Those
//! files are optional here: a bare BERT directory gets mean pooling and the position-embedding limit.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use tokenizers::{Tokenizer, TruncationParams, TruncationStrategy};

use crate::{EmbedError, Result};

/// The BERT configuration file (candle's `bert::Config` reads it).
pub const CONFIG_FILE: &str = "config.json";
/// The `tokenizers` serialisation of the tokenizer.
pub const TOKENIZER_FILE: &str = "tokenizer.json";
/// The weights.
pub const WEIGHTS_FILE: &str = "model.safetensors";
/// The files without which no model can run.
pub const REQUIRED_FILES: [&str; 3] = [CONFIG_FILE, TOKENIZER_FILE, WEIGHTS_FILE];

/// How token vectors become one sentence vector (sentence-transformers' Pooling module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pooling {
    /// Average of the token vectors under the attention mask (all-MiniLM-L6-v2, most models).
    Mean,
    /// The vector of the first (`[CLS]`) token (BGE and others).
    Cls,
    /// Element-wise maximum over the unmasked tokens.
    Max,
    /// Sum of the unmasked token vectors divided by the square root of their count.
    MeanSqrtLen,
}

/// What sentence-transformers' `1_Pooling/config.json` says; unknown fields are ignored.
#[derive(Debug, Deserialize)]
struct PoolingFile {
    /// Selects [`Pooling::Cls`].
    #[serde(default)]
    pooling_mode_cls_token: bool,
    /// Selects [`Pooling::Mean`].
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    /// Selects [`Pooling::Max`].
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    /// Selects [`Pooling::MeanSqrtLen`].
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
}

/// What `sentence_bert_config.json` says about the transformer module.
#[derive(Debug, Deserialize)]
struct SentenceBertFile {
    /// The cut-off in word pieces, special tokens included (256 for all-MiniLM-L6-v2).
    max_seq_length: Option<usize>,
}

/// One entry of `modules.json`, used only to find where the pooling module keeps its config.
#[derive(Debug, Deserialize)]
struct ModuleEntry {
    /// Sub-directory of the module, relative to the model directory.
    path: String,
    /// Python class of the module, e.g. `sentence_transformers.models.Pooling`.
    #[serde(rename = "type")]
    kind: String,
}

/// Everything read from a model directory before the weights are loaded.
#[derive(Debug, Clone)]
pub struct ModelDir {
    /// The directory itself, kept for error messages and to load the weights later.
    pub path: PathBuf,
    /// BERT hyper-parameters; candle builds the network from them.
    pub bert: candle_transformers::models::bert::Config,
    /// The pooling the model was trained with; a different one gives worse vectors silently.
    pub pooling: Pooling,
    /// Cut-off in word pieces including `[CLS]`/`[SEP]`; longer texts are truncated to it.
    pub max_seq_length: usize,
}

impl ModelDir {
    /// Reads the configuration of the model in `path`; fails if a required file is missing.
    pub fn read(path: &Path) -> Result<Self> {
        for file in REQUIRED_FILES {
            if !path.join(file).is_file() {
                return Err(EmbedError::MissingFile { dir: path.to_path_buf(), file: file.to_string() });
            }
        }
        let bert: candle_transformers::models::bert::Config = read_json(&path.join(CONFIG_FILE))?;
        let pooling = read_pooling(path)?;
        let sentence_bert: Option<SentenceBertFile> = read_optional_json(&path.join("sentence_bert_config.json"))?;
        let max_seq_length = sentence_bert
            .and_then(|c| c.max_seq_length)
            .unwrap_or(bert.max_position_embeddings)
            .min(bert.max_position_embeddings);
        if max_seq_length < 3 {
            return Err(EmbedError::Config {
                path: path.to_path_buf(),
                message: format!("max_seq_length {max_seq_length} leaves no room for text"),
            });
        }
        Ok(Self { path: path.to_path_buf(), bert, pooling, max_seq_length })
    }

    /// Loads `tokenizer.json` without truncation or padding: the raw word pieces and offsets, as
    /// chunking needs them.
    pub fn raw_tokenizer(&self) -> Result<Tokenizer> {
        let mut tokenizer = Tokenizer::from_file(self.path.join(TOKENIZER_FILE))
            .map_err(|e| EmbedError::Tokenizer(format!("loading {}: {e}", self.path.join(TOKENIZER_FILE).display())))?;
        tokenizer.with_padding(None);
        tokenizer.with_truncation(None).map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(tokenizer)
    }

    /// Loads the tokenizer as sentence-transformers runs it: truncation at `max_seq_length` (the
    /// file itself often says 128). Padding stays off: batches are padded to their own longest.
    pub fn inference_tokenizer(&self, max_seq_length: usize) -> Result<Tokenizer> {
        let mut tokenizer = self.raw_tokenizer()?;
        tokenizer
            .with_truncation(Some(TruncationParams {
                max_length: max_seq_length,
                strategy: TruncationStrategy::LongestFirst,
                stride: 0,
                ..Default::default()
            }))
            .map_err(|e| EmbedError::Tokenizer(e.to_string()))?;
        Ok(tokenizer)
    }
}

/// Finds the pooling module's config through `modules.json`, else `1_Pooling/`, else mean.
fn read_pooling(dir: &Path) -> Result<Pooling> {
    let modules: Option<Vec<ModuleEntry>> = read_optional_json(&dir.join("modules.json"))?;
    let pooling_dir = modules
        .and_then(|m| m.into_iter().find(|e| e.kind.ends_with("Pooling")))
        .map(|e| e.path)
        .unwrap_or_else(|| "1_Pooling".to_string());
    let file = dir.join(pooling_dir).join("config.json");
    let Some(config) = read_optional_json::<PoolingFile>(&file)? else {
        return Ok(Pooling::Mean);
    };
    // sentence-transformers concatenates several enabled modes; no BERT embedding model we know
    // does that, so more than one is refused rather than silently reduced to one.
    let modes = [
        (config.pooling_mode_mean_tokens, Pooling::Mean),
        (config.pooling_mode_cls_token, Pooling::Cls),
        (config.pooling_mode_max_tokens, Pooling::Max),
        (config.pooling_mode_mean_sqrt_len_tokens, Pooling::MeanSqrtLen),
    ];
    let enabled: Vec<Pooling> = modes.iter().filter(|(on, _)| *on).map(|(_, p)| *p).collect();
    match enabled.as_slice() {
        [one] => Ok(*one),
        [] => Err(EmbedError::Config { path: file, message: "no pooling mode is enabled".into() }),
        _ => Err(EmbedError::Config { path: file, message: format!("several pooling modes enabled: {enabled:?}") }),
    }
}

fn read_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<T> {
    let bytes = std::fs::read(path).map_err(|e| EmbedError::io(path, e))?;
    serde_json::from_slice(&bytes).map_err(|e| EmbedError::Config { path: path.to_path_buf(), message: e.to_string() })
}

fn read_optional_json<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    if path.is_file() {
        read_json(path).map(Some)
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, body: &str) {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }

    #[test]
    fn pooling_follows_modules_json_and_defaults_to_mean() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_pooling(dir.path()).unwrap(), Pooling::Mean);
        write(
            dir.path(),
            "modules.json",
            r#"[{"idx":1,"name":"1","path":"pool","type":"sentence_transformers.models.Pooling"}]"#,
        );
        write(dir.path(), "pool/config.json", r#"{"word_embedding_dimension":384,"pooling_mode_cls_token":true}"#);
        assert_eq!(read_pooling(dir.path()).unwrap(), Pooling::Cls);
        write(dir.path(), "pool/config.json", r#"{"pooling_mode_cls_token":true,"pooling_mode_max_tokens":true}"#);
        assert!(matches!(read_pooling(dir.path()), Err(EmbedError::Config { .. })));
    }

    #[test]
    fn missing_required_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), CONFIG_FILE, "{}");
        match ModelDir::read(dir.path()) {
            Err(EmbedError::MissingFile { file, .. }) => assert_eq!(file, TOKENIZER_FILE),
            other => panic!("expected MissingFile, got {other:?}"),
        }
    }
}
