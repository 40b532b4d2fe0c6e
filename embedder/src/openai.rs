//! A client for OpenAI-compatible `POST {base_url}/embeddings` endpoints (OpenAI, vLLM, Ollama,
//! llama.cpp, text-embeddings-inference, LiteLLM…), the configurable alternative to the local model.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::{EmbedError, Result};
use crate::{EmbedFuture, EmbeddingModel};

/// Where and how to reach the endpoint; all of it comes from the caller's configuration.
#[derive(Clone)]
pub struct OpenAiConfig {
    /// Base URL up to and including the API version, e.g. `http://127.0.0.1:8080/v1`;
    /// `/embeddings` is appended.
    pub base_url: String,
    /// The `model` field of the request; the server picks the model by it.
    pub model: String,
    /// Sent as `Authorization: Bearer …` when set; local servers often need none.
    pub api_key: Option<String>,
    /// Length of the vectors the model returns; answers of another length are refused, because
    /// mixing lengths in one index breaks search.
    pub dimension: usize,
    /// Sent as the `dimensions` request field, for models that can shorten their vectors; `None`
    /// leaves it out (many servers reject the field).
    pub request_dimensions: Option<usize>,
    /// Upper bound for one whole request (connect, send, wait, read).
    pub timeout: Duration,
    /// Upper bound for establishing the connection, so an unreachable host fails fast.
    pub connect_timeout: Duration,
    /// Texts per request; larger inputs are split. Servers limit it (OpenAI: 2048).
    pub max_batch: usize,
}

impl std::fmt::Debug for OpenAiConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("dimension", &self.dimension)
            .field("timeout", &self.timeout)
            .field("max_batch", &self.max_batch)
            .finish_non_exhaustive()
    }
}

impl OpenAiConfig {
    /// A configuration with 30 s request and 5 s connect time-outs and batches of 256 texts.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>, dimension: usize) -> Self {
        Self {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            dimension,
            request_dimensions: None,
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            max_batch: 256,
        }
    }
}

/// The request body of the embeddings API.
#[derive(Serialize)]
struct EmbeddingsRequest<'a> {
    /// Model name from the configuration.
    model: &'a str,
    /// The texts, as an array even for one.
    input: &'a [String],
    /// Always `float`: base64 would need decoding and not every server supports it.
    encoding_format: &'static str,
    /// Optional shortening of the vectors.
    #[serde(skip_serializing_if = "Option::is_none")]
    dimensions: Option<usize>,
}

/// The success body: `{"object":"list","data":[{"index":0,"embedding":[…]}],"model":…,"usage":…}`.
#[derive(Deserialize)]
struct EmbeddingsResponse {
    /// One entry per input text; the order is given by `index`, not by position.
    data: Vec<EmbeddingItem>,
}

/// One vector of the answer.
#[derive(Deserialize)]
struct EmbeddingItem {
    /// Position of the input text this vector belongs to.
    index: usize,
    /// The vector.
    embedding: Vec<f32>,
}

/// The error body most servers send: `{"error":{"message":…,"type":…}}`.
#[derive(Deserialize)]
struct ErrorBody {
    /// The error object.
    error: ErrorDetail,
}

/// The part of the error object worth showing.
#[derive(Deserialize)]
struct ErrorDetail {
    /// Human-readable reason.
    message: String,
}

/// An [`EmbeddingModel`] answered by a remote OpenAI-compatible server.
#[derive(Debug, Clone)]
pub struct OpenAiEmbedder {
    /// Validated configuration.
    config: OpenAiConfig,
    /// `{base_url}/embeddings`, computed once.
    url: String,
    /// Connection pool with the configured time-outs; rustls, no system TLS library.
    client: reqwest::Client,
    /// `openai:{model}`, reported by `model_id()`.
    model_id: String,
}

impl OpenAiEmbedder {
    /// Builds the client; fails on an unusable configuration (empty URL or model, zero batch).
    pub fn new(config: OpenAiConfig) -> Result<Self> {
        if config.base_url.trim().is_empty() || config.model.trim().is_empty() {
            return Err(EmbedError::InvalidOptions("base_url and model must be set".into()));
        }
        if config.max_batch == 0 || config.dimension == 0 {
            return Err(EmbedError::InvalidOptions("max_batch and dimension must be at least 1".into()));
        }
        let url = format!("{}/embeddings", config.base_url.trim_end_matches('/'));
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.connect_timeout)
            .build()
            .map_err(|e| EmbedError::InvalidOptions(format!("building the HTTP client: {e}")))?;
        let model_id = format!("openai:{}", config.model);
        Ok(Self { config, url, client, model_id })
    }

    async fn embed_batch(&self, texts: &[String]) -> Result<Vec<Vec<f32>>> {
        let body = EmbeddingsRequest {
            model: &self.config.model,
            input: texts,
            encoding_format: "float",
            dimensions: self.config.request_dimensions,
        };
        let mut request = self.client.post(&self.url).json(&body);
        if let Some(key) = &self.config.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().await.map_err(|e| self.transport_error(e))?;
        let status = response.status();
        let bytes = response.bytes().await.map_err(|e| self.transport_error(e))?;
        if !status.is_success() {
            let message = serde_json::from_slice::<ErrorBody>(&bytes)
                .map(|b| b.error.message)
                .unwrap_or_else(|_| String::from_utf8_lossy(&bytes[..bytes.len().min(512)]).into_owned());
            return Err(EmbedError::Remote { url: self.url.clone(), status: status.as_u16(), message });
        }
        let parsed: EmbeddingsResponse = serde_json::from_slice(&bytes).map_err(|e| self.malformed(e.to_string()))?;
        self.order_and_check(parsed, texts.len())
    }

    /// Puts the vectors in input order, refuses missing, duplicate or wrongly sized ones, and
    /// L2-normalises them (servers differ; callers compare by dot product).
    fn order_and_check(&self, parsed: EmbeddingsResponse, expected: usize) -> Result<Vec<Vec<f32>>> {
        if parsed.data.len() != expected {
            return Err(self.malformed(format!("{} vectors for {expected} inputs", parsed.data.len())));
        }
        let mut out: Vec<Option<Vec<f32>>> = vec![None; expected];
        for item in parsed.data {
            if item.embedding.len() != self.config.dimension {
                return Err(self.malformed(format!(
                    "vector of length {} where {} was configured",
                    item.embedding.len(),
                    self.config.dimension
                )));
            }
            match out.get_mut(item.index) {
                Some(slot @ None) => *slot = Some(crate::normalised(item.embedding)),
                Some(Some(_)) => return Err(self.malformed(format!("index {} appears twice", item.index))),
                None => return Err(self.malformed(format!("index {} out of range", item.index))),
            }
        }
        Ok(out.into_iter().flatten().collect())
    }

    fn malformed(&self, message: String) -> EmbedError {
        EmbedError::Malformed { url: self.url.clone(), message }
    }

    fn transport_error(&self, e: reqwest::Error) -> EmbedError {
        if e.is_timeout() {
            EmbedError::Timeout { url: self.url.clone(), timeout: self.config.timeout }
        } else {
            EmbedError::Unreachable { url: self.url.clone(), source: e }
        }
    }
}

impl EmbeddingModel for OpenAiEmbedder {
    fn dimension(&self) -> usize {
        self.config.dimension
    }

    fn model_id(&self) -> &str {
        &self.model_id
    }

    fn embed<'a>(&'a self, texts: &'a [String]) -> EmbedFuture<'a> {
        Box::pin(async move {
            let mut out = Vec::with_capacity(texts.len());
            for batch in texts.chunks(self.config.max_batch) {
                out.extend(self.embed_batch(batch).await?);
            }
            Ok(out)
        })
    }
}
