//! Real diagrams, damaged: a Mermaid-valid file of the corpus (`tests/mermaid-corpus/`) with lines
//! deleted, duplicated or swapped, cut at a random byte, or with brackets, quotes, arrows and
//! non-ASCII text inserted. Whatever comes out, the crate must not panic, and either plan items
//! that all pass the item rules or refuse with a line and column inside the source: what
//! core-service turns into a 201 or a 400, never a 500.

mod corpus_support;

use std::sync::OnceLock;

use corpus_support::{inside, run, valid_files, CorpusFile, Outcome};
use proptest::prelude::*;

fn corpus() -> &'static [CorpusFile] {
    static FILES: OnceLock<Vec<CorpusFile>> = OnceLock::new();
    FILES.get_or_init(|| {
        let files = valid_files();
        assert!(!files.is_empty(), "the corpus has Mermaid-valid files");
        files
    })
}

/// What people and models get wrong: unbalanced brackets and quotes, arrows in odd places,
/// keywords out of their block, text beyond ASCII.
const INSERTS: &[&str] = &[
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "((",
    "))",
    "[[",
    "]]",
    "{{",
    "}}",
    "[(",
    ")]",
    "\"",
    "'",
    "`",
    "\"`",
    "|",
    "-->",
    "---",
    "-.->",
    "==>",
    "<-->",
    "->>",
    "-->>",
    "-x",
    "--)",
    "<<->>",
    "||--o{",
    "<|--",
    "*--",
    ":::",
    "@{",
    "@{ shape: rect }",
    "e1@",
    "&",
    ";",
    ":",
    "%%",
    "%%{init: {}}%%",
    "---\n",
    "\n",
    "\t",
    "end\n",
    "subgraph ",
    "box ",
    "participant ",
    "note ",
    "state ",
    "class ",
    "direction LR\n",
    "<br>",
    "<b>",
    "é",
    "ß",
    "中文",
    "🙂",
    "\u{200b}",
    "\u{202e}",
    "#quot;",
    "&amp;",
    "\\",
];

#[derive(Debug, Clone)]
enum Mutation {
    DeleteLine(usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    CutAt(usize),
    Insert(usize, &'static str),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => any::<usize>().prop_map(Mutation::DeleteLine),
        1 => any::<usize>().prop_map(Mutation::DuplicateLine),
        1 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        1 => any::<usize>().prop_map(Mutation::CutAt),
        3 => (any::<usize>(), prop::sample::select(INSERTS)).prop_map(|(at, s)| Mutation::Insert(at, s)),
    ]
}

/// The nearest char boundary at or before `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(source: &str, mutations: &[Mutation]) -> String {
    let mut text = source.to_owned();
    for mutation in mutations {
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let n = lines.len();
        match mutation {
            Mutation::DeleteLine(i) => {
                lines.remove(i % n);
                text = lines.join("\n");
            }
            Mutation::DuplicateLine(i) => {
                let line = lines[i % n].clone();
                lines.insert(i % n, line);
                text = lines.join("\n");
            }
            Mutation::SwapLines(a, b) => {
                lines.swap(a % n, b % n);
                text = lines.join("\n");
            }
            Mutation::CutAt(at) => {
                let at = boundary(&text, at % (text.len() + 1));
                text.truncate(at);
            }
            Mutation::Insert(at, what) => {
                let at = boundary(&text, at % (text.len() + 1));
                text.insert_str(at, what);
            }
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn a_damaged_real_diagram_is_planned_validly_or_refused_at_a_place_in_it(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let file = pick.get(corpus());
        let source = apply(&file.source, &mutations);
        match run(&source) {
            Outcome::Accepted(_) => {}
            Outcome::Refused(error) => prop_assert!(
                inside(&source, error.line, error.column),
                "{}: {error} is outside the source {source:?}", file.name
            ),
            Outcome::InvalidItems(problems) => {
                prop_assert!(false, "{}: planned items the rules refuse: {problems:?}\n{source}", file.name)
            }
            Outcome::Panicked(message) => prop_assert!(false, "{}: panicked: {message}\n{source}", file.name),
        }
    }
}
