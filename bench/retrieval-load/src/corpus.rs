//! The bench's text: Cranfield sentences as sticky notes, Cranfield queries as questions.

use std::collections::HashSet;
use std::path::Path;

/// The `.W` fields of a Cranfield file (`.I`/`.T`/`.W` records).
fn abstracts(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path)?;
    let mut out: Vec<String> = Vec::new();
    let mut in_w = false;
    for line in text.lines() {
        if line.starts_with(".I") {
            in_w = false;
        } else if line.len() == 2 && line.starts_with('.') {
            in_w = line == ".W";
            if in_w {
                out.push(String::new());
            }
        } else if in_w {
            let current = out.last_mut().expect("a .W record");
            current.push(' ');
            current.push_str(line.trim());
        }
    }
    Ok(out)
}

/// Distinct sentences of the collection's abstracts with at least six words, in order.
pub fn sentences(data: &Path) -> anyhow::Result<Vec<String>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for text in abstracts(&data.join("cran.all.1400"))? {
        for sentence in text.split(" .") {
            let sentence = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
            if sentence.split(' ').count() >= 6 && seen.insert(sentence.clone()) {
                out.push(format!("{sentence}."));
            }
        }
    }
    Ok(out)
}

/// `count` distinct note texts: every sentence once, then neighbouring pairs of sentences.
pub fn notes(sentences: &[String], count: usize) -> Vec<String> {
    let pairs = sentences.windows(2).map(|w| format!("{} {}", w[0], w[1]));
    sentences.iter().cloned().chain(pairs).cycle().take(count).collect()
}

/// The first `count` queries of `cran.qry`, one line each.
pub fn queries(data: &Path, count: usize) -> anyhow::Result<Vec<String>> {
    let mut all = abstracts(&data.join("cran.qry"))?;
    all.truncate(count);
    Ok(all.into_iter().map(|q| q.split_whitespace().collect::<Vec<_>>().join(" ")).collect())
}
