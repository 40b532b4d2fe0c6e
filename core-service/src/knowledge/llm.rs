//! `postProcess`: reranking and an answer written by a language model, through an OpenAI-compatible
//! chat completions endpoint (`POST {endpoint}/chat/completions`).
//!
//! The model gets the question and the numbered candidate passages and must answer with one JSON
//! object `{"ranking": [numbers, best first], "answer": "text citing [n]"}`. Whatever else it
//! sends is refused: an unreachable or slow endpoint, an HTTP error, or an answer without a usable
//! ranking is an [`LlmError`], which the service turns into a 400 naming `postProcess`, never into a
//! 500 and never into a silently unranked result.

use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};

use super::agents::AgentConfig;

/// Longest passage text sent to the model per candidate, in characters.
const PASSAGE_CHARS: usize = 1200;

/// Why post-processing failed.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("did not answer within {0:?}")]
    Timeout(Duration),
    #[error("could not be reached")]
    Unreachable,
    #[error("answered HTTP {0}")]
    Status(u16),
    #[error("sent an answer that is not the expected JSON ranking ({0})")]
    Malformed(String),
}

/// A candidate passage shown to the model.
#[derive(Debug, Clone)]
pub struct Passage {
    pub item_id: String,
    pub text: String,
}

/// What the model decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Reranked {
    /// Indexes into the candidate list, best first; each at most once, all valid.
    pub order: Vec<usize>,
    /// The answer with citations `[n]` counting from 1 in the candidate list's numbering.
    pub answer: String,
}

/// Sends one chat completion and parses the ranking.
pub async fn rerank(
    http: &reqwest::Client,
    agent: &AgentConfig,
    endpoint: &str,
    question: &str,
    passages: &[Passage],
) -> Result<Reranked, LlmError> {
    let url = format!("{}/chat/completions", endpoint.trim_end_matches('/'));
    let body = json!({
        "model": agent.model,
        "temperature": agent.temperature,
        "max_tokens": agent.max_tokens,
        "messages": [
            {"role": "system", "content": agent.system_prompt()},
            {"role": "user", "content": user_message(question, passages)},
        ],
    });
    let mut request = http.post(&url).timeout(agent.timeout()).json(&body);
    if let Some(key) = agent.api_key() {
        request = request.bearer_auth(key);
    }
    let response = request.send().await.map_err(|e| classify(e, agent.timeout()))?;
    if !response.status().is_success() {
        return Err(LlmError::Status(response.status().as_u16()));
    }
    let completion: Value = response.json().await.map_err(|e| match classify(e, agent.timeout()) {
        LlmError::Timeout(t) => LlmError::Timeout(t),
        _ => LlmError::Malformed("the body is not a chat completion".into()),
    })?;
    let content = completion
        .pointer("/choices/0/message/content")
        .and_then(Value::as_str)
        .ok_or_else(|| LlmError::Malformed("no choices[0].message.content".into()))?;
    parse_reranking(content, passages.len())
}

fn classify(error: reqwest::Error, timeout: Duration) -> LlmError {
    if error.is_timeout() {
        LlmError::Timeout(timeout)
    } else {
        LlmError::Unreachable
    }
}

/// The prompt: the passages numbered from 1, then the question and the required answer format.
pub fn user_message(question: &str, passages: &[Passage]) -> String {
    let mut message = String::from("Passages:\n");
    for (i, passage) in passages.iter().enumerate() {
        let text: String = passage.text.chars().take(PASSAGE_CHARS).collect();
        message.push_str(&format!("[{}] (item {}) {}\n", i + 1, passage.item_id, text.replace('\n', " ")));
    }
    message.push_str(&format!(
        "\nQuestion: {question}\n\nReply with only a JSON object {{\"ranking\": [...], \"answer\": \"...\"}}: \
         \"ranking\" lists the passage numbers from most to least relevant to the question (leave out \
         irrelevant ones), \"answer\" answers the question from the passages and cites them as [n]."
    ));
    message
}

#[derive(Deserialize)]
struct RawReranking {
    ranking: Vec<Value>,
    #[serde(default)]
    answer: String,
}

/// Reads the model's JSON (also inside a Markdown code fence or surrounded by prose). Numbers out
/// of range and repeats are dropped; a ranking with no valid number is malformed.
pub fn parse_reranking(content: &str, candidates: usize) -> Result<Reranked, LlmError> {
    let start = content.find('{').ok_or_else(|| LlmError::Malformed("no JSON object".into()))?;
    let end = content.rfind('}').filter(|&e| e > start).ok_or_else(|| LlmError::Malformed("no JSON object".into()))?;
    let raw: RawReranking =
        serde_json::from_str(&content[start..=end]).map_err(|e| LlmError::Malformed(format!("invalid JSON: {e}")))?;
    let mut order = Vec::new();
    for entry in raw.ranking {
        let number = match entry {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().trim_start_matches('[').trim_end_matches(']').parse().ok(),
            _ => None,
        };
        if let Some(n) = number.filter(|&n| n >= 1 && (n as usize) <= candidates) {
            let index = n as usize - 1;
            if !order.contains(&index) {
                order.push(index);
            }
        }
    }
    if order.is_empty() {
        return Err(LlmError::Malformed("the ranking names no candidate".into()));
    }
    Ok(Reranked { order, answer: raw.answer.trim().to_owned() })
}

/// Rewrites the answer's `[n]` (candidate numbers) to the citation indexes of the response;
/// references to candidates that are not cited are removed.
pub fn renumber_citations(answer: &str, candidate_to_index: &dyn Fn(usize) -> Option<usize>) -> String {
    let mut out = String::with_capacity(answer.len());
    let mut rest = answer;
    while let Some(open) = rest.find('[') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find(']').map(|close| (close, after[..close].trim().parse::<usize>())) {
            Some((close, Ok(n))) => {
                if let Some(index) = n.checked_sub(1).and_then(candidate_to_index) {
                    out.push_str(&format!("[{index}]"));
                }
                rest = &after[close + 1..];
            }
            _ => {
                out.push('[');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace(" .", ".").replace("  ", " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_plain_fenced_and_noisy_json() {
        let r = parse_reranking(r#"{"ranking": [2, 1], "answer": "See [2]."}"#, 3).unwrap();
        assert_eq!(r.order, vec![1, 0]);
        assert_eq!(r.answer, "See [2].");
        let r = parse_reranking("Sure!\n```json\n{\"ranking\": [\"3\", \"[1]\", 3, 9, 0]}\n```", 3).unwrap();
        assert_eq!(r.order, vec![2, 0], "out of range and repeated numbers are dropped");
    }

    #[test]
    fn garbage_is_malformed() {
        for garbage in
            ["I cannot help with that.", "{\"ranking\": []}", "{\"ranking\": [7]}", "{\"rank\": [1]}", "{oops}"]
        {
            assert!(matches!(parse_reranking(garbage, 3), Err(LlmError::Malformed(_))), "{garbage}");
        }
    }

    #[test]
    fn citations_follow_the_new_order() {
        // Candidate 2 became citation 1, candidate 1 citation 2, candidate 3 is not cited.
        let map = |candidate: usize| match candidate {
            1 => Some(1),
            0 => Some(2),
            _ => None,
        };
        assert_eq!(
            renumber_citations("Lift [2] and drag [1], not [3]. Array [x]", &map),
            "Lift [1] and drag [2], not. Array [x]"
        );
    }

    #[test]
    fn prompt_numbers_passages() {
        let passages = vec![Passage { item_id: "a".into(), text: "first\nline".into() }];
        let message = user_message("why?", &passages);
        assert!(message.contains("[1] (item a) first line"));
        assert!(message.contains("Question: why?"));
    }
}
