//! Agent configurations: which language model post-processes a retrieval (`agentConfigId`).
//!
//! A TOML file names the agents; `default` always exists. An agent without an `endpoint` has no
//! language model, so `postProcess: true` with it is refused with a clear 400.
//!
//! ```toml
//! [agents.default]
//! endpoint = "http://127.0.0.1:11434/v1"   # OpenAI-compatible base URL
//! model = "llama3.1:8b"
//! api_key_env = "CANVAS_LLM_API_KEY"      # the key itself never goes into the file
//! temperature = 0.0
//! rerank_candidates = 30
//! timeout_secs = 30
//! system_prompt = "You answer questions about a project's canvas."
//! ```

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use super::config::KnowledgeConfig;

/// The id used when a request names none.
pub const DEFAULT_AGENT: &str = "default";

/// What the built-in system prompt tells the model; a file may replace it per agent.
pub const DEFAULT_SYSTEM_PROMPT: &str = "You are the retrieval assistant of a project canvas. You rank \
passages by how well they answer the user's question and write a short, factual answer that uses only \
those passages and cites them as [n].";

/// One agent configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgentConfig {
    /// Base URL of an OpenAI-compatible API (`…/v1`); `None` means no language model.
    pub endpoint: Option<String>,
    /// Model name sent with every request.
    #[serde(default)]
    pub model: String,
    /// Name of the environment variable holding the API key, if the endpoint needs one.
    pub api_key_env: Option<String>,
    /// Replaces [`DEFAULT_SYSTEM_PROMPT`].
    pub system_prompt: Option<String>,
    /// Sampling temperature; 0 keeps rankings reproducible.
    #[serde(default)]
    pub temperature: f32,
    /// How many hybrid candidates the model reranks (at least the requested `maxResults`).
    #[serde(default = "default_rerank_candidates")]
    pub rerank_candidates: usize,
    /// Time allowed for the whole chat completion.
    #[serde(default = "default_timeout_secs")]
    pub timeout_secs: u64,
    /// Upper bound of the answer's length in model tokens.
    #[serde(default = "default_max_tokens")]
    pub max_tokens: u32,
}

fn default_rerank_candidates() -> usize {
    30
}
fn default_timeout_secs() -> u64 {
    30
}
fn default_max_tokens() -> u32 {
    800
}

impl AgentConfig {
    /// An agent with no language model.
    pub fn without_llm() -> Self {
        Self {
            endpoint: None,
            model: String::new(),
            api_key_env: None,
            system_prompt: None,
            temperature: 0.0,
            rerank_candidates: default_rerank_candidates(),
            timeout_secs: default_timeout_secs(),
            max_tokens: default_max_tokens(),
        }
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_secs(self.timeout_secs.clamp(1, 600))
    }

    pub fn system_prompt(&self) -> &str {
        self.system_prompt.as_deref().unwrap_or(DEFAULT_SYSTEM_PROMPT)
    }

    /// The API key, read from the environment at call time (so rotating it needs no restart).
    pub fn api_key(&self) -> Option<String> {
        self.api_key_env.as_deref().and_then(|name| std::env::var(name).ok()).filter(|k| !k.is_empty())
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct AgentsFile {
    #[serde(default)]
    agents: BTreeMap<String, AgentConfig>,
}

/// Every agent configuration by id.
#[derive(Debug, Clone)]
pub struct Agents {
    by_id: BTreeMap<String, AgentConfig>,
}

impl Agents {
    /// Reads the agents file (if any) and fills `default` from `--llm-url`/`--llm-model` when the file
    /// does not define it.
    pub fn load(config: &KnowledgeConfig) -> anyhow::Result<Self> {
        let mut by_id = match &config.agents_file {
            Some(path) => read_file(path)?,
            None => BTreeMap::new(),
        };
        if !by_id.contains_key(DEFAULT_AGENT) {
            let mut agent = AgentConfig::without_llm();
            if let Some(url) = config.llm_url.as_deref().filter(|u| !u.trim().is_empty()) {
                agent.endpoint = Some(url.trim().to_owned());
                agent.model = config.llm_model.clone().unwrap_or_default();
                agent.api_key_env = Some("CANVAS_LLM_API_KEY".into());
            }
            by_id.insert(DEFAULT_AGENT.into(), agent);
        }
        Ok(Self { by_id })
    }

    /// Agents given directly (tests, embedding).
    pub fn from_map(mut by_id: BTreeMap<String, AgentConfig>) -> Self {
        by_id.entry(DEFAULT_AGENT.into()).or_insert_with(AgentConfig::without_llm);
        Self { by_id }
    }

    pub fn get(&self, id: &str) -> Option<&AgentConfig> {
        self.by_id.get(id)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.by_id.keys().map(String::as_str)
    }
}

fn read_file(path: &Path) -> anyhow::Result<BTreeMap<String, AgentConfig>> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("agents file {}: {e}", path.display()))?;
    let file: AgentsFile = toml::from_str(&text).map_err(|e| anyhow::anyhow!("agents file {}: {e}", path.display()))?;
    for (id, agent) in &file.agents {
        if let Some(endpoint) = &agent.endpoint {
            let url = url::Url::parse(endpoint)
                .map_err(|e| anyhow::anyhow!("agents file {}: agent {id}: endpoint: {e}", path.display()))?;
            anyhow::ensure!(
                matches!(url.scheme(), "http" | "https"),
                "agents file {}: agent {id}: endpoint must be an http or https URL",
                path.display()
            );
            anyhow::ensure!(!agent.model.is_empty(), "agents file {}: agent {id}: model is required", path.display());
        }
    }
    Ok(file.agents)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config_with(path: Option<&Path>) -> KnowledgeConfig {
        KnowledgeConfig { agents_file: path.map(Path::to_path_buf), ..KnowledgeConfig::default() }
    }

    #[test]
    fn default_exists_without_a_file_and_has_no_llm() {
        let agents = Agents::load(&config_with(None)).unwrap();
        assert!(agents.get("default").unwrap().endpoint.is_none());
        assert!(agents.get("other").is_none());
    }

    #[test]
    fn file_agents_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("agents.toml");
        std::fs::write(
            &path,
            "[agents.fast]\nendpoint = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\nrerank_candidates = 5\n",
        )
        .unwrap();
        let agents = Agents::load(&config_with(Some(&path))).unwrap();
        assert_eq!(agents.get("fast").unwrap().rerank_candidates, 5);
        assert!(agents.get("default").is_some(), "default always exists");

        std::fs::write(&path, "[agents.bad]\nendpoint = \"ftp://x\"\nmodel = \"m\"\n").unwrap();
        let err = Agents::load(&config_with(Some(&path))).unwrap_err().to_string();
        assert!(err.contains("http or https"), "{err}");

        std::fs::write(&path, "[agents.typo]\nendpont = \"http://x\"\n").unwrap();
        assert!(Agents::load(&config_with(Some(&path))).is_err(), "unknown keys are refused");
    }
}
