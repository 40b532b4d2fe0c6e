//! The Mermaid the service writes back, judged by Mermaid itself. Every diagram of the corpus
//! Mermaid accepts (tests/mermaid-corpus, diagrams nobody on the team wrote) is drawn as the
//! diagrams endpoint draws it (parse → layout → items as core-service presents them) and read
//! back in its own kind, as `GET .../diagrams/{id}?format=mermaid` and MCP `read_diagram` read it;
//! the pinned `mermaid.parse()` (`validate.mjs --dir`, under jsdom) must accept every text
//! written. The round-trip tests (`export_roundtrip*.rs`) read the texts back with our own parser,
//! which proves only that we agree with ourselves; this is the reference's verdict.

mod common;
mod corpus_support;

use std::collections::BTreeMap;
use std::process::Command;

use canvas_diagram::{export_class, export_er, export_flowchart, export_mindmap, export_sequence, export_state};
use corpus_support::{mermaid_dir, missing_tools, valid_files, verdicts_of};

#[test]
fn mermaid_accepts_every_corpus_diagram_as_the_service_writes_it_back() {
    let dir = mermaid_dir();
    if let Some(why) = missing_tools(&dir) {
        let why = format!("{why}: tests/run.sh installs tests/mermaid-corpus/package-lock.json there");
        assert!(std::env::var("CI").as_deref() != Ok("true"), "{why}");
        println!("SKIPPED: {why}");
        return;
    }
    let out = common::artifacts_dir().join("mermaid-exports");
    let _ = std::fs::remove_dir_all(&out);
    let mut written = BTreeMap::new();
    for file in valid_files() {
        let (items, names) = common::drawn_as_recorded(&file.source);
        let text = match file.kind.as_str() {
            "flowchart" => export_flowchart(&items, &names),
            "sequence" => export_sequence(&items, &names),
            "mindmap" => export_mindmap(&items, &names),
            "class" => export_class(&items, &names),
            "er" => export_er(&items, &names),
            "state" => export_state(&items, &names),
            other => panic!("a corpus kind without an exporter: {other}"),
        };
        let path = out.join(&file.name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        written.insert(file.name.clone(), text);
    }
    let output = Command::new("node")
        .arg(corpus_support::corpus_dir().join("validate.mjs"))
        .args(["--dir".as_ref(), out.as_os_str()])
        .env("CANVAS_MERMAID_DIR", &dir)
        .output()
        .expect("node runs");
    assert!(output.status.success(), "validate.mjs failed:\n{}", String::from_utf8_lossy(&output.stderr));
    let verdicts = verdicts_of(&serde_json::from_slice(&output.stdout).expect("validate.mjs prints JSON"));
    assert_eq!(verdicts.len(), written.len(), "Mermaid judged every text written ({})", out.display());
    let refused: Vec<String> = verdicts
        .iter()
        .filter_map(|(name, error)| error.as_ref().map(|e| format!("{name}: {e}\n--- written:\n{}", written[name])))
        .collect();
    println!(
        "Mermaid accepts {} of {} texts written back (in {})",
        written.len() - refused.len(),
        written.len(),
        out.display()
    );
    assert!(
        refused.is_empty(),
        "Mermaid refuses {} texts the service writes back:\n{}",
        refused.len(),
        refused.join("\n\n")
    );
}
