//! The documentation's links resolve: every relative link in README.md, ARCHITECTURE.md and
//! docs/*.md names a file or directory that exists, and every `#anchor` names a heading of its
//! target (as GitHub spells heading anchors). The reference moved out of the README into docs/,
//! so a section renamed or moved again must take its links along, or this fails.

use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// The workspace root (this crate lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// The Markdown pages of one folder, sorted.
fn pages_in(dir: &Path) -> Vec<PathBuf> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// The documents whose links are checked: the README, ARCHITECTURE.md, docs/ and its folders of
/// diagram kinds and performance history.
fn documents() -> Vec<PathBuf> {
    let root = root();
    let mut docs = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    docs.extend(pages_in(&root.join("docs")));
    docs.extend(pages_in(&root.join("docs/diagrams")));
    docs.extend(pages_in(&root.join("docs/performance")));
    docs
}

/// The lines of `text` outside fenced code blocks, with their numbers from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            if trimmed.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            continue;
        }
        lines.push((i + 1, line));
    }
    lines
}

/// `line` without its code spans, which show link syntax rather than link.
fn without_code_spans(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        // Find the closing run of the same length; an unclosed run is literal text.
        let mut j = i + run;
        let mut closed = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let other = chars[j..].iter().take_while(|&&c| c == '`').count();
                if other == run {
                    closed = Some(j + other);
                    break;
                }
                j += other;
            } else {
                j += 1;
            }
        }
        match closed {
            Some(end) => {
                out.push_str("CODE");
                i = end;
            }
            None => {
                out.extend(std::iter::repeat_n('`', run));
                i += run;
            }
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of one line.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let Some(end) = after.find(')') else { break };
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_owned());
        rest = &after[end..];
    }
    targets
}

/// GitHub's anchor for a heading: lower case, everything but letters, digits, `_`, `-` and
/// spaces dropped, spaces turned into `-`; a repeated anchor gets `-1`, `-2`, ….
fn slug(heading: &str) -> String {
    // Link syntax in a heading renders as its text.
    let mut text = String::new();
    let mut rest = heading;
    while let Some(open) = rest.find('[') {
        let Some(mid) = rest[open..].find("](") else { break };
        let Some(close) = rest[open + mid..].find(')') else { break };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..open + mid]);
        rest = &rest[open + mid + close + 1..];
    }
    text.push_str(rest);
    text.to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// Every anchor a document offers: its headings' slugs and explicit `<a id>`/`<a name>`.
fn anchors(text: &str) -> HashSet<String> {
    let mut found = HashSet::new();
    for (_, line) in prose_lines(text) {
        if let Some(heading) = line.strip_prefix('#') {
            let heading = heading.trim_start_matches('#');
            if heading.starts_with(' ') {
                let base = slug(heading.trim());
                let mut anchor = base.clone();
                let mut n = 0;
                while found.contains(&anchor) {
                    n += 1;
                    anchor = format!("{base}-{n}");
                }
                found.insert(anchor);
            }
        }
        for attribute in ["<a id=\"", "<a name=\""] {
            if let Some(at) = line.find(attribute) {
                let value = &line[at + attribute.len()..];
                found.insert(value[..value.find('"').unwrap_or(value.len())].to_owned());
            }
        }
    }
    found
}

/// `path` with `.` and `..` folded, so a link leaving the repository can be recognised.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with the links of `document` (whose text is `text`): one line per broken link.
fn broken_links(document: &Path, text: &str) -> Vec<String> {
    let root = root();
    let dir = document.parent().expect("a document's directory");
    let mut broken = Vec::new();
    for (number, line) in prose_lines(text) {
        for target in link_targets(line) {
            if target.is_empty() || target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() { document.to_path_buf() } else { normalise(&dir.join(path)) };
            // The spec lives beside the repository, not in it: a clone need not have it.
            if !file.starts_with(&root) {
                continue;
            }
            let place = format!("{}:{number}", document.strip_prefix(&root).unwrap_or(document).display());
            if !path.is_empty() && !file.exists() {
                broken.push(format!("{place}: {target}: no such file"));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if file.extension().is_some_and(|e| e == "md") {
                let target_text =
                    if file == document { text.to_owned() } else { std::fs::read_to_string(&file).unwrap() };
                if !anchors(&target_text).contains(anchor) {
                    broken.push(format!("{place}: {target}: no heading with that anchor"));
                }
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_of_the_documentation_resolves() {
    let mut broken = Vec::new();
    let mut links = 0;
    for document in documents() {
        let text = std::fs::read_to_string(&document).unwrap_or_else(|e| panic!("{}: {e}", document.display()));
        links += prose_lines(&text).iter().map(|(_, line)| link_targets(line).len()).sum::<usize>();
        broken.extend(broken_links(&document, &text));
    }
    assert!(links > 50, "the scan found the links ({links})");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_checker_sees_a_broken_file_and_a_broken_anchor() {
    let document = root().join("docs").join("CHECK.md");
    let text = "# A heading\n\n[ok](#a-heading) [file](REST.md) [gone](NOPE.md) [anchor](#nope)\n\
                `[in code](NOPE2.md)`\n\n```\n[in a block](NOPE3.md)\n```\n";
    let broken = broken_links(&document, text);
    assert_eq!(broken.len(), 2, "{broken:?}");
    assert!(broken[0].contains("NOPE.md: no such file"), "{broken:?}");
    assert!(broken[1].contains("#nope: no heading"), "{broken:?}");
}

#[test]
fn anchors_are_spelled_as_github_spells_them() {
    assert_eq!(
        slug("Diagram layout against Graphviz `dot` (issue 16)"),
        "diagram-layout-against-graphviz-dot-issue-16"
    );
    assert_eq!(slug("OAuth 2.1 for MCP clients"), "oauth-21-for-mcp-clients");
    assert_eq!(
        slug("Pages (`{account_url}`; in `canvasctl up` the service's own base URL)"),
        "pages-account_url-in-canvasctl-up-the-services-own-base-url"
    );
    let twice = anchors("# Tests\n\n## Tests\n");
    assert!(twice.contains("tests") && twice.contains("tests-1"), "{twice:?}");
}

/// The code spans of one line (the text between a run of backticks and the next run as long).
fn code_spans(line: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut rest = line;
    while let Some(open) = rest.find('`') {
        let run = rest[open..].chars().take_while(|&c| c == '`').count();
        let after = &rest[open + run..];
        let fence = "`".repeat(run);
        let Some(close) = after.find(&fence) else { break };
        spans.push(after[..close].trim().to_owned());
        rest = &after[close + run..];
    }
    spans
}

/// Endings that make a code span name a file of this repository.
const SOURCE_ENDINGS: [&str; 8] = [".rs", ".sh", ".py", ".mjs", ".toml", ".proto", ".sql", ".yaml"];

/// A code span that names a source path of this repository (`core-service/src/storage/mod.rs`,
/// `items/crud.rs`, `bench/lib.sh`): path characters only, with a `/` and a source ending. Bare
/// file names (`mod.rs`), globs, routes and URLs are not paths this check can place.
fn source_path(span: &str) -> Option<&str> {
    let path = span.split_once(':').map_or(span, |(path, _)| path);
    let path_chars = path.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c));
    let placed = path.contains('/') && !path.starts_with(['/', '.', '-']) && !path.contains("//");
    (path_chars && placed && SOURCE_ENDINGS.iter().any(|ending| path.ends_with(ending))).then_some(path)
}

/// Every file of the repository (relative paths with `/`), outside build output and dependencies.
fn repository_files() -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if matches!(name.to_str(), Some("target" | "node_modules" | ".git")) {
                continue;
            }
            if path.is_dir() {
                walk(root, &path, out);
            } else if let Ok(relative) = path.strip_prefix(root) {
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = root();
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    files
}

/// The source paths `text` names in code spans that no file of the repository has: a path is
/// found when a file's path is it or ends with `/` and it (a path written from inside a crate or a
/// folder the sentence names, `storage/items/mod.rs`). The history of measurements
/// (docs/performance/) names paths as they were and is not read.
fn missing_paths(document: &Path, text: &str, files: &[String]) -> Vec<String> {
    let mut missing = Vec::new();
    for (n, line) in prose_lines(text) {
        for span in code_spans(line) {
            let Some(path) = source_path(&span) else { continue };
            let tail = format!("/{path}");
            if !files.iter().any(|file| file == path || file.ends_with(&tail)) {
                missing.push(format!("{}:{n}: `{path}` names no file", document.display()));
            }
        }
    }
    missing
}

#[test]
fn every_source_path_the_documentation_names_exists() {
    let files = repository_files();
    assert!(files.iter().any(|f| f == "core-service/src/storage/mod.rs"), "the walk found the sources");
    let mut missing = Vec::new();
    for document in documents().into_iter().filter(|d| !d.starts_with(root().join("docs/performance"))) {
        let text = std::fs::read_to_string(&document).unwrap_or_else(|e| panic!("{}: {e}", document.display()));
        missing.extend(missing_paths(&document, &text, &files));
    }
    assert!(missing.is_empty(), "source paths that no longer exist:\n{}", missing.join("\n"));
}

#[test]
fn the_path_check_sees_a_moved_file() {
    let files = vec!["core-service/src/storage/items/item_rows.rs".to_owned(), "bench/lib.sh".to_owned()];
    let text = "The rows (`storage/items/item_rows.rs`, `bench/lib.sh:12`) were in `storage/items.rs`; \
                `mod.rs`, `GET /api/v2/items`, `*.rs` and `https://example.com/a.rs` are no paths.\n\
                ```\n`in/a/block.rs`\n```\n";
    let missing = missing_paths(Path::new("CHECK.md"), text, &files);
    assert_eq!(missing, ["CHECK.md:1: `storage/items.rs` names no file"]);
}
