//! What the corpus tests share: the real-world diagrams of `tests/mermaid-corpus/` (see its
//! README), Mermaid's own verdict on each (`valid.json`, written by `validate.mjs`), one source
//! run through parse → layout → to_items with panics caught, and the planned items checked with
//! the item rules core-service applies (`canvas_items::validate_create`, after the bulk path's
//! in-batch `ref:` resolution, restated here).

#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;

use canvas_diagram::{layout, parse, to_items, DiagramError, PlannedItem};
use canvas_items::{ItemFacts, ItemType};
use serde_json::{Map, Value};

/// `tests/mermaid-corpus/` of the workspace.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/mermaid-corpus")
}

/// One diagram of the corpus.
#[derive(Debug, Clone)]
pub struct CorpusFile {
    /// `<kind>/<file>.mmd`, the key of SOURCES.json and valid.json.
    pub name: String,
    /// The folder: flowchart, sequence, mindmap, class, er or state.
    pub kind: String,
    pub source: String,
}

/// Every `<kind>/*.mmd` of the corpus, sorted by name.
pub fn files() -> Vec<CorpusFile> {
    let dir = corpus_dir();
    let mut out = Vec::new();
    for kind in std::fs::read_dir(&dir).expect("tests/mermaid-corpus exists") {
        let kind = kind.unwrap();
        if !kind.file_type().unwrap().is_dir() {
            continue;
        }
        let kind_name = kind.file_name().to_string_lossy().into_owned();
        for file in std::fs::read_dir(kind.path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "mmd") {
                let file_name = path.file_name().unwrap().to_string_lossy().into_owned();
                out.push(CorpusFile {
                    name: format!("{kind_name}/{file_name}"),
                    kind: kind_name.clone(),
                    source: std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
                });
            }
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// Mermaid's verdict per file: `None` when valid, else its error message.
pub type Verdicts = BTreeMap<String, Option<String>>;

/// The verdicts of a `validate.mjs` report.
pub fn verdicts_of(report: &Value) -> Verdicts {
    let files = report["files"].as_object().expect("a validate.mjs report has `files`");
    files
        .iter()
        .map(|(name, verdict)| {
            let valid = verdict["valid"].as_bool().expect("each verdict says `valid`");
            (name.clone(), (!valid).then(|| verdict["error"].as_str().unwrap_or("").to_owned()))
        })
        .collect()
}

/// The committed `valid.json` (what `validate.mjs --write` last wrote).
pub fn committed_report() -> Value {
    let path = corpus_dir().join("valid.json");
    let text = std::fs::read_to_string(&path).expect("tests/mermaid-corpus/valid.json exists");
    serde_json::from_str(&text).expect("valid.json is JSON")
}

/// The files Mermaid accepts, by the committed verdicts.
pub fn valid_files() -> Vec<CorpusFile> {
    let verdicts = verdicts_of(&committed_report());
    files().into_iter().filter(|f| matches!(verdicts.get(&f.name), Some(None))).collect()
}

/// Whether a 1-based line and column lie within `source`: the column may be one past the
/// line's last character (an error at its end); an empty source has line 1.
pub fn inside(source: &str, line: usize, column: usize) -> bool {
    let lines: Vec<&str> = source.split('\n').collect();
    let Some(text) = lines.get(line.wrapping_sub(1)) else { return false };
    let len = text.strip_suffix('\r').unwrap_or(text).chars().count();
    line >= 1 && column >= 1 && column <= len + 1
}

/// The construct a refusal is about, for grouping: the word (or run of punctuation) at its line
/// and column, e.g. `subgraph`, `box`, `@{`, `classDiagram`; when that word is a name the message
/// says something about (`'G' is a subgraph: …`), what it says, with the name left out.
pub fn construct(source: &str, error: &DiagramError) -> String {
    let token = construct_at(source, error.line, error.column);
    let quoted = format!("'{token}' is");
    match error.message.find(&quoted) {
        Some(at) if token.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') => {
            let said = error.message.replacen(&quoted, "'…' is", 1);
            let end = said[at..].find(':').map_or(said.len(), |i| at + i);
            said[..end].to_owned()
        }
        _ => token,
    }
}

/// The word (or run of up to four punctuation characters) starting at a line and column.
pub fn construct_at(source: &str, line: usize, column: usize) -> String {
    let Some(text) = source.split('\n').nth(line.wrapping_sub(1)) else { return "(outside)".into() };
    let rest: Vec<char> = text.chars().skip(column.saturating_sub(1)).collect();
    let Some(&first) = rest.first() else { return "(end of line)".into() };
    let word = |c: &char| c.is_alphanumeric() || *c == '_' || *c == '-';
    let token: String = if word(&first) {
        rest.iter().take_while(|c| word(c)).take(24).collect()
    } else if first.is_whitespace() {
        "(space)".into()
    } else {
        rest.iter().take_while(|c| !c.is_whitespace() && !c.is_alphanumeric()).take(4).collect()
    };
    token.trim_end_matches('-').to_owned()
}

/// What became of one source.
#[derive(Debug)]
pub enum Outcome {
    /// Parsed, laid out and planned; every item passes the item rules.
    Accepted(usize),
    /// Refused with an error (its line and column are checked by the caller).
    Refused(DiagramError),
    /// Planned items the item rules refuse: what core-service answers with a 500.
    InvalidItems(Vec<String>),
    /// parse, layout or to_items panicked.
    Panicked(String),
}

/// Runs one source through the crate as core-service does, panics caught.
pub fn run(source: &str) -> Outcome {
    let result = catch_unwind(AssertUnwindSafe(|| match parse(source) {
        Ok(diagram) => Ok(to_items(&layout(&diagram), (0.0, 0.0))),
        Err(error) => Err(error),
    }));
    match result {
        Ok(Ok(items)) => match item_problems(&items) {
            problems if problems.is_empty() => Outcome::Accepted(items.len()),
            problems => Outcome::InvalidItems(problems),
        },
        Ok(Err(error)) => Outcome::Refused(error),
        Err(payload) => Outcome::Panicked(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a panic without a message".into()),
        ),
    }
}

/// A stand-in item id per batch position, as the bulk path gives each planned item one.
fn fake_id(index: usize) -> String {
    format!("00000000-0000-4000-8000-{index:012x}")
}

/// Every rule of the bulk create path a planned batch breaks: known item types, unique
/// references, parents earlier in the batch, connector ends naming another non-connector item of
/// the batch, and each item's properties through `canvas_items::validate_create`.
pub fn item_problems(items: &[PlannedItem]) -> Vec<String> {
    let mut problems = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if index.insert(&item.reference, i).is_some() {
            problems.push(format!("{}: reference used twice", item.reference));
        }
    }
    let types: Vec<Option<ItemType>> = items.iter().map(|item| ItemType::parse(item.item_type).ok()).collect();
    for (i, item) in items.iter().enumerate() {
        let at = &item.reference;
        let Some(item_type) = types[i] else {
            problems.push(format!("{at}: unknown item type {}", item.item_type));
            continue;
        };
        if let Some(parent) = &item.parent {
            match index.get(parent.as_str()) {
                Some(&j) if j < i => {}
                Some(_) => problems.push(format!("{at}: parent {parent} is not planned before it")),
                None => problems.push(format!("{at}: parent {parent} is not in the batch")),
            }
        }
        let Value::Object(mut properties) = item.properties.clone() else {
            problems.push(format!("{at}: properties are not an object"));
            continue;
        };
        if item_type == ItemType::Connector {
            for end in ["startPoint", "endPoint"] {
                resolve_end(&mut properties, end, i, &index, &types, at, &mut problems);
            }
        }
        if let Err(invalid) = canvas_items::validate_create(item_type, properties, ItemFacts::default()) {
            let all: Vec<String> = invalid.0.iter().map(ToString::to_string).collect();
            problems.push(format!("{at} ({item_type}): {}", all.join("; ")));
        }
    }
    problems
}

/// Replaces a connector end's `ref:` with the referenced item's stand-in id, as the bulk path does.
fn resolve_end(
    properties: &mut Map<String, Value>,
    end: &str,
    this: usize,
    index: &HashMap<&str, usize>,
    types: &[Option<ItemType>],
    at: &str,
    problems: &mut Vec<String>,
) {
    let Some(Value::String(raw)) = properties.get_mut(end).and_then(|p| p.get_mut("itemId")) else { return };
    let Some(name) = raw.strip_prefix("ref:") else {
        problems.push(format!("{at}: {end}.itemId {raw} is not a reference of the batch"));
        return;
    };
    match index.get(name) {
        None => problems.push(format!("{at}: {end}.itemId names {name}, not in the batch")),
        Some(&j) if j == this => problems.push(format!("{at}: {end} attaches to itself")),
        Some(&j) if types[j] == Some(ItemType::Connector) => {
            problems.push(format!("{at}: {end} attaches to another connector"))
        }
        Some(&j) => *raw = fake_id(j),
    }
}

/// The npm prefix holding the pinned mermaid and jsdom.
pub fn mermaid_dir() -> PathBuf {
    std::env::var_os("CANVAS_MERMAID_DIR").map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(std::env::var_os("HOME").unwrap_or_else(|| "/root".into())).join(".cache/canvas-mermaid")
    })
}

/// Why the pinned packages cannot be used, if they cannot.
pub fn missing_tools(dir: &Path) -> Option<String> {
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(corpus_dir().join("package.json")).expect("package.json"))
            .expect("package.json is JSON");
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed".into());
    }
    for package in ["mermaid", "jsdom"] {
        let wanted = manifest["dependencies"][package].as_str().expect("pinned");
        let installed = std::fs::read_to_string(dir.join(format!("node_modules/{package}/package.json")))
            .ok()
            .and_then(|text| serde_json::from_str::<Value>(&text).ok())
            .and_then(|json| json["version"].as_str().map(str::to_owned));
        if installed.as_deref() != Some(wanted) {
            return Some(format!("{package} {wanted} is not installed in {}", dir.display()));
        }
    }
    None
}
