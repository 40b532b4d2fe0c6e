//! ARCHITECTURE.md's invariants, checked against the source tree, so breaking one fails the build
//! instead of waiting for a reviewer. Each test names the invariant it guards.
//!
//! The scan reads the production sources of the workspace (every crate's `src/`, not the test
//! harness under `tests/` nor `bench/`), skipping comments and `#[cfg(test)]` modules.

use std::path::{Path, PathBuf};

/// The workspace root (this crate lives in `tests/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").to_path_buf()
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else { return files };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The production sources: `(path relative to the root, code lines)` of every crate's `src/`,
/// comments and test modules left out.
fn production_sources() -> Vec<(String, Vec<(usize, String)>)> {
    let root = root();
    let mut crates: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("workspace root")
        .flatten()
        .map(|e| e.path().join("src"))
        .filter(|src| src.is_dir())
        .filter(|src| !src.starts_with(root.join("tests")) && !src.starts_with(root.join("bench")))
        .collect();
    crates.sort();
    let mut sources = Vec::new();
    for src in crates {
        for file in rust_files(&src) {
            let text = std::fs::read_to_string(&file).expect("readable source");
            let code = text
                .lines()
                .enumerate()
                .take_while(|(_, line)| line.trim() != "#[cfg(test)]")
                .filter(|(_, line)| !line.trim_start().starts_with("//"))
                .map(|(i, line)| (i + 1, line.to_owned()))
                .collect();
            let relative = file.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
            sources.push((relative, code));
        }
    }
    assert!(sources.len() > 50, "the scan found the sources ({} files)", sources.len());
    sources
}

/// Lines matching `pattern` outside the files `allowed` accepts.
fn offences(pattern: impl Fn(&str) -> bool, allowed: impl Fn(&str) -> bool) -> Vec<String> {
    production_sources()
        .into_iter()
        .filter(|(path, _)| !allowed(path))
        .flat_map(|(path, lines)| {
            lines
                .into_iter()
                .filter(|(_, line)| pattern(line))
                .map(move |(n, line)| format!("{path}:{n}: {}", line.trim()))
        })
        .collect()
}

/// "Only `core-service/src/storage` imports sqlx. Everything above it works with rows and domain
/// types."
#[test]
fn only_storage_uses_sqlx() {
    let found = offences(
        |line| line.contains("sqlx::") || line.contains("use sqlx"),
        |path| path.starts_with("core-service/src/storage/"),
    );
    assert!(found.is_empty(), "sqlx outside core-service/src/storage:\n{}", found.join("\n"));
}

/// "Only rest-gateway knows about JSON casing."
#[test]
fn only_rest_gateway_knows_json_casing() {
    let found = offences(
        |line| line.contains("jsonCasing") || line.contains("json_casing") || line.contains("Casing::"),
        |path| path.starts_with("rest-gateway/src/"),
    );
    assert!(found.is_empty(), "JSON casing outside rest-gateway:\n{}", found.join("\n"));
}

/// "One error type, one mapping per transport": the gateways map `ErrorReason`s and never read a
/// status message, a field violation's description or a rule's text to decide anything.
#[test]
fn gateways_never_match_message_text() {
    let reads_text = |line: &str| {
        let compact: String = line.split_whitespace().collect();
        compact.contains(".message()")
            || ["message", "description", "rule", "detail", "text"].iter().any(|name| {
                ["contains(", "starts_with(", "ends_with(", "==\"", "find("]
                    .iter()
                    .any(|op| compact.contains(&format!("{name}.{op}")) || compact.contains(&format!("{name}(){op}")))
            })
    };
    let found =
        offences(reads_text, |path| !(path.starts_with("rest-gateway/src/") || path.starts_with("mcp-gateway/src/")));
    assert!(found.is_empty(), "a gateway reads message text:\n{}", found.join("\n"));
}

/// "core-service owns every rule": no gateway (nor the dispatcher) links core-service or sqlx, so
/// none can call a rule or touch the database directly.
#[test]
fn gateways_depend_on_no_core_crate() {
    for gateway in ["rest-gateway", "mcp-gateway", "webhook-dispatcher"] {
        let manifest = std::fs::read_to_string(root().join(gateway).join("Cargo.toml")).unwrap();
        let dependencies = manifest.split("[dependencies]").nth(1).unwrap_or("").split("\n[").next().unwrap_or("");
        for line in dependencies.lines().filter(|l| !l.trim_start().starts_with('#')) {
            let name = line.split(['=', '.']).next().unwrap_or("").trim();
            assert!(name != "core-service" && name != "sqlx", "{gateway} depends on {name}");
        }
    }
}

/// "One client never hurts another": core-service's gRPC server states its transport limits from
/// `canvas_proto::limits`, the one place they are written, and no other source restates a message
/// or metadata size, so a gateway's limits and core-service's cannot drift apart.
#[test]
fn transport_limits_are_stated_once() {
    let restated = offences(
        |line| {
            let compact: String = line.split_whitespace().collect();
            compact.contains("32*1024*1024") || (compact.contains("64*1024;") && compact.contains("METADATA"))
        },
        |path| path == "proto/src/limits.rs",
    );
    assert!(restated.is_empty(), "a transport limit restated outside proto/src/limits.rs:\n{}", restated.join("\n"));
    let server = std::fs::read_to_string(root().join("core-service/src/grpc/mod.rs")).unwrap();
    for setting in
        [".http2_max_header_list_size(MAX_METADATA_BYTES)", ".max_concurrent_streams(MAX_CONCURRENT_STREAMS)"]
    {
        assert!(server.contains(setting), "core-service's gRPC server no longer sets {setting}");
    }
    let gateway_limit = std::fs::read_to_string(root().join("runtime/src/http.rs")).unwrap();
    assert!(
        gateway_limit.contains("canvas_proto::limits::MAX_FORWARDED_HEADER_BYTES"),
        "the gateways' --max-header-bytes is no longer bounded by canvas_proto::limits"
    );
}
