//! The embedding model and the splitter that cuts item text into chunks.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

use canvas_embed::{
    default_cache_dir, ensure_model, Chunker, ChunkerConfig, EmbeddingModel, LocalEmbedder, LocalModelOptions,
    OpenAiConfig, OpenAiEmbedder, ProvisionOptions,
};

use super::config::{EmbeddingProvider, KnowledgeConfig};

/// Cuts text into chunks: by model tokens when the model's tokenizer is at hand, else by words.
#[derive(Debug, Clone)]
pub enum Splitter {
    /// Windows of word pieces of the local model, with overlap.
    Tokens(Box<Chunker>),
    /// Windows of whitespace-separated words (remote or no embedding model).
    Words { max_words: usize, overlap: usize },
}

impl Splitter {
    /// Names the splitter and its settings: part of every item's source fingerprint, so chunks
    /// made with other settings are made again.
    pub fn fingerprint(&self) -> String {
        match self {
            Self::Tokens(chunker) => {
                let config = chunker.config();
                format!("tokens:{}:{}", config.max_tokens, config.overlap)
            }
            Self::Words { max_words, overlap } => format!("words:{max_words}:{overlap}"),
        }
    }

    /// The chunks of `text`, in order; none for blank text. Blocking for long text.
    pub fn split(&self, text: &str) -> anyhow::Result<Vec<String>> {
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        match self {
            Self::Tokens(chunker) => {
                Ok(chunker.chunk(text)?.into_iter().map(|c| c.text).filter(|t| !t.trim().is_empty()).collect())
            }
            Self::Words { max_words, overlap } => {
                // Byte ranges of the words, so a chunk is an exact slice of the text (line breaks kept).
                let words: Vec<(usize, usize)> = text
                    .split_whitespace()
                    .map(|w| {
                        let start = w.as_ptr() as usize - text.as_ptr() as usize;
                        (start, start + w.len())
                    })
                    .collect();
                let step = max_words.saturating_sub(*overlap).max(1);
                let max_words = (*max_words).max(1);
                let mut chunks = Vec::new();
                let mut start = 0;
                loop {
                    let end = (start + max_words).min(words.len());
                    chunks.push(text[words[start].0..words[end - 1].1].to_owned());
                    if end == words.len() {
                        break;
                    }
                    start += step;
                }
                Ok(chunks)
            }
        }
    }
}

/// The model and its splitter.
#[derive(Clone)]
pub struct Embedding {
    /// Turns chunk and query text into unit vectors.
    pub model: Arc<dyn EmbeddingModel>,
    /// How text is cut before embedding.
    pub splitter: Splitter,
}

impl std::fmt::Debug for Embedding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Embedding").field("model", &self.model.model_id()).field("splitter", &self.splitter).finish()
    }
}

/// Builds the configured model (`None` with `--embedding-provider off`) and the splitter. The
/// local model is provisioned first when missing: downloaded with a progress bar and verified
/// against pinned checksums.
pub async fn load(config: &KnowledgeConfig) -> anyhow::Result<(Option<Embedding>, Splitter)> {
    let word_splitter =
        Splitter::Words { max_words: config.chunk_tokens.max(8) * 3 / 4, overlap: config.chunk_overlap * 3 / 4 };
    match config.embedding_provider {
        EmbeddingProvider::Off => Ok((None, word_splitter)),
        EmbeddingProvider::Openai => {
            let url = config
                .embedding_url
                .clone()
                .filter(|u| !u.trim().is_empty())
                .ok_or_else(|| anyhow::anyhow!("--embedding-provider openai needs --embedding-url"))?;
            let mut openai = OpenAiConfig::new(url, config.embedding_model.clone(), config.embedding_dimension);
            openai.api_key = std::env::var("CANVAS_EMBEDDING_API_KEY").ok().filter(|k| !k.is_empty());
            let model: Arc<dyn EmbeddingModel> = Arc::new(OpenAiEmbedder::new(openai)?);
            Ok((Some(Embedding { model, splitter: word_splitter.clone() }), word_splitter))
        }
        EmbeddingProvider::Local => {
            let cache = config.model_cache_dir.clone().or_else(default_cache_dir);
            let (dir, runtime) = match (&config.embedding_model_dir, cache) {
                (Some(dir), cache) => {
                    // A model of one's own still runs on the provisioned ONNX Runtime (not on the
                    // slower candle fallback): the runtime alone is fetched into the cache.
                    let runtime = match (cache, canvas_embed::ModelSpec::onnx_runtime()) {
                        (Some(cache), Some(spec)) => {
                            let options = ProvisionOptions {
                                spec,
                                sources: vec![canvas_embed::FetchSource::Wheel],
                                runtime: None,
                                ..ProvisionOptions::default()
                            };
                            match ensure_model(&cache, &options).await {
                                Ok(_) => canvas_embed::onnx_runtime_library(&cache),
                                Err(error) => {
                                    tracing::warn!(%error, "could not provision ONNX Runtime; the model runs on candle");
                                    None
                                }
                            }
                        }
                        _ => None,
                    };
                    (dir.clone(), runtime)
                }
                (None, Some(cache)) => (ensure_model(&cache, &ProvisionOptions::default()).await?, None),
                (None, None) => anyhow::bail!("set --model-cache-dir or HOME for the embedding model"),
            };
            let local = load_shared(dir, runtime).await?;
            let chunker =
                local.chunker(ChunkerConfig { max_tokens: config.chunk_tokens, overlap: config.chunk_overlap })?;
            let splitter = Splitter::Tokens(Box::new(chunker));
            let model: Arc<dyn EmbeddingModel> = local;
            Ok((Some(Embedding { model, splitter: splitter.clone() }), splitter))
        }
    }
}

/// Loads a model directory once per process: `canvasctl up` and the test suite start several
/// core instances, which then share one copy of the weights.
async fn load_shared(dir: PathBuf, runtime: Option<PathBuf>) -> anyhow::Result<Arc<LocalEmbedder>> {
    static LOADED: Mutex<Option<HashMap<PathBuf, Weak<LocalEmbedder>>>> = Mutex::new(None);
    let key = std::fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
    if let Some(model) = LOADED.lock().unwrap().get_or_insert_with(HashMap::new).get(&key).and_then(Weak::upgrade) {
        return Ok(model);
    }
    let path = key.clone();
    let model = tokio::task::spawn_blocking(move || load_dir(&path, runtime)).await??;
    let model = Arc::new(model);
    LOADED.lock().unwrap().get_or_insert_with(HashMap::new).insert(key, Arc::downgrade(&model));
    Ok(model)
}

/// `runtime`: the ONNX Runtime library, when it is not next to the model (an own model directory).
fn load_dir(dir: &Path, runtime: Option<PathBuf>) -> anyhow::Result<LocalEmbedder> {
    let options = LocalModelOptions { onnx_runtime_library: runtime, ..LocalModelOptions::default() };
    let model = LocalEmbedder::load(dir, options)?;
    tracing::info!(dir = %dir.display(), backend = ?model.backend(), "loaded the embedding model");
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_windows_overlap_and_cover_everything() {
        let splitter = Splitter::Words { max_words: 4, overlap: 1 };
        let chunks = splitter.split("a b c d e f g").unwrap();
        assert_eq!(chunks, vec!["a b c d", "d e f g"]);
        assert!(splitter.split("  \n").unwrap().is_empty());
        assert_eq!(splitter.split("one").unwrap(), vec!["one"]);
        assert_eq!(splitter.split(" a\nb  c ").unwrap(), vec!["a\nb  c"], "a chunk is a slice of the text");
    }
}
