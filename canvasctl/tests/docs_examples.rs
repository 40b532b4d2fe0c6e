//! Every fenced block of README.md and docs/ is accounted for: run as written against a service
//! started for it (here, or by the test it names), or named with the reason the test command
//! cannot run it. A block nobody accounted for fails `every_block_is_run_or_named`, so a new
//! example is run or explained from the day it is written, and a claim about a block that no
//! longer exists fails too.
//!
//! The harness changes only what a test must (`common/shell.rs`): `canvasctl` and `cargo run -p X`
//! become the built binaries, free ports replace 8080, 8443 and 50051, and temporary directories
//! replace `/backups` and `/srv`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

mod common;
use common::shell::{free_port, replaced, run, sibling_binary, Background};
use common::{wait_ready, BIN};

/// A fenced block of a Markdown file.
#[derive(Debug)]
struct Block {
    file: String,
    line: usize,
    lang: String,
    text: String,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// README.md and every Markdown file under docs/, in path order.
fn markdown_files() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let root = repo();
    let mut files = vec!["README.md".to_owned()];
    walk(&root.join("docs"), &root, &mut files);
    files[1..].sort();
    files
}

/// The fenced blocks of `file` (fences may be indented, as inside a list).
fn blocks_of(file: &str) -> Vec<Block> {
    let text = std::fs::read_to_string(repo().join(file)).unwrap();
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String, Vec<&str>)> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        match (&mut open, trimmed.strip_prefix("```")) {
            (None, Some(lang)) => open = Some((n + 1, lang.trim().to_owned(), Vec::new())),
            (Some(_), Some(rest)) if rest.trim().is_empty() => {
                let (line, lang, body) = open.take().unwrap();
                blocks.push(Block { file: file.to_owned(), line, lang, text: body.join("\n") });
            }
            (Some((_, _, body)), _) => body.push(line),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{file}: a fenced block is never closed");
    blocks
}

/// The one block of `file` holding `marker`.
fn block(file: &str, marker: &str) -> String {
    let found: Vec<Block> = blocks_of(file).into_iter().filter(|b| b.text.contains(marker)).collect();
    assert_eq!(found.len(), 1, "{file}: blocks holding {marker:?}: {found:?}");
    found.into_iter().next().unwrap().text
}

/// What becomes of a block.
#[derive(Debug, Clone, Copy)]
enum Fate {
    /// Run as written by this file's test of that name.
    RunHere(&'static str),
    /// Run or checked by another test: `path::function`.
    RunBy(&'static str),
    /// Not run by the test command, and why.
    NotRun(&'static str),
}

/// Every block outside docs/performance: its file, a text only it holds (or `=` and its whole
/// text), and its fate.
const FATES: &[(&str, &str, Fate)] = &[
    ("README.md", "bash tests/run.sh", Fate::RunBy(".ci/run::the test command itself")),
    ("README.md", "AI agents (MCP clients)", Fate::NotRun("a drawing of the components")),
    ("README.md", "=cargo run -p canvasctl -- up", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "canvasctl token create", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "canvasctl project create", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "Hello, canvas", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "/api/v1/memory/retrieve", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "@modelcontextprotocol/inspector", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("README.md", "echo http://127.0.0.1:8080/map/", Fate::RunBy("canvasctl/tests/readme_tour.rs::the_first_session_of_the_readme_works_as_written")),
    ("docs/ACCOUNTS.md", "https://agent.example/oauth/client.json", Fate::RunBy("tests/tests/e2e/oauth_documents.rs::a_client_named_by_its_metadata_document_connects_without_registering")),
    ("docs/CANVASCTL.md", "canvasctl user create", Fate::RunHere("the_canvasctl_synopsis_is_what_the_commands_accept")),
    ("docs/CLIENTS.md", "bash clients/generate.sh", Fate::RunBy("tests/tests/e2e/generated_clients.rs::committed_clients_match_the_served_document")),
    ("docs/CLIENTS.md", "clients/python/scenario.py", Fate::RunBy("tests/tests/e2e/generated_clients.rs::python_scenario")),
    ("docs/COMMENTS.md", "\"threadId\": \"0193…\"", Fate::NotRun("the shape of a thread, ids elided; e2e::comments::a_thread_is_opened_read_edited_answered_and_deleted checks each member of real answers")),
    ("docs/CONFIGURATION.md", "cargo run -p core-service -- migrate", Fate::RunHere("running_the_components_separately_as_written")),
    ("docs/DEPLOYMENT.md", "├── docker/", Fate::NotRun("a drawing of the deploy/ folder")),
    ("docs/DEPLOYMENT.md", "kubectl kustomize deploy/kubernetes/overlays/development", Fate::RunBy("deploy/validate.sh::both overlays rendered and checked (tests/run.sh runs it)")),
    ("docs/DEPLOYMENT.md", "bash deploy/validate.sh", Fate::RunBy("tests/run.sh::deploy/validate.sh")),
    ("docs/DEPLOYMENT.md", "kind load docker-image", Fate::NotRun("needs a Docker engine and a Kubernetes cluster, which the test machine has not; tests/tests/deployment.rs runs the same binaries as separate processes")),
    ("docs/DEPLOYMENT.md", "kubectl apply -k deploy/kubernetes/overlays/production", Fate::NotRun("needs a Kubernetes cluster; deploy/validate.sh checks the overlay it applies")),
    ("docs/DEPLOYMENT.md", "registry.example.com/canvas", Fate::NotRun("needs a Docker engine and a registry")),
    ("docs/DIAGRAMS.md", "cargo test -p canvas-diagram --test corpus", Fate::RunBy("tests/run.sh::cargo nextest run --workspace runs these tests")),
    ("docs/ERRORS.md", "\"Reason\": \"VALIDATION_FAILED\"", Fate::RunHere("the_documented_error_body_and_mcp_configuration_answer_as_shown")),
    ("docs/KNOWLEDGE.md", "[agents.default]", Fate::RunHere("the_documented_agents_file_is_read_as_described")),
    ("docs/KNOWLEDGE.md", "bench/embedding_candidates.py --cache", Fate::NotRun("a measurement that fetches three model wheels and embeds Cranfield for minutes; its figures are the table under it")),
    ("docs/MCP.md", "\"type\": \"http\"", Fate::RunHere("the_documented_error_body_and_mcp_configuration_answer_as_shown")),
    ("docs/MCP.md", "mcp-remote", Fate::NotRun("a desktop client's stdio bridge from npm (mcp-remote); the Streamable HTTP endpoint it forwards to is the one the block above reaches")),
    ("docs/OPERATIONS.md", "canvasctl backup --data-dir ./canvas-data", Fate::RunHere("backing_up_and_restoring_sqlite_as_written")),
    ("docs/OPERATIONS.md", "cp -a /backups/canvas-2025-06-01 /srv/canvas-data", Fate::RunHere("backing_up_and_restoring_sqlite_as_written")),
    ("docs/OPERATIONS.md", "sqlite3 DATA_DIR/canvas.db", Fate::RunHere("backing_up_and_restoring_sqlite_as_written")),
    ("docs/OPERATIONS.md", "archive_mode = on", Fate::RunBy("canvasctl/tests/backup_postgres.rs::a_base_backup_and_the_wal_archive_restore_to_a_point_in_time")),
    ("docs/OPERATIONS.md", "pg_basebackup -h db.internal", Fate::RunBy("canvasctl/tests/backup_postgres.rs::a_base_backup_and_the_wal_archive_restore_to_a_point_in_time")),
    ("docs/OPERATIONS.md", "recovery_target_time", Fate::RunBy("canvasctl/tests/backup_postgres.rs::a_base_backup_and_the_wal_archive_restore_to_a_point_in_time")),
    ("docs/OPERATIONS.md", "bash bench/failover.sh 5", Fate::NotRun("a rehearsal with Patroni, etcd and HAProxy that takes minutes; its runs and figures are in docs/performance/failover.md")),
    ("docs/SCALING.md", "createdb -h 127.0.0.1 -U postgres scaling_size", Fate::NotRun("a measurement of table sizes at 20,000 items; its figures are the text around it")),
    ("docs/WEBHOOKS.md", "\"customData\": {\"team\": \"blue\"}", Fate::RunHere("receiving_webhooks_locally_as_written")),
    ("docs/WEBHOOKS.md", "canvasctl webhooks listen --port 8443", Fate::RunHere("receiving_webhooks_locally_as_written")),
    ("docs/WEBHOOKS.md", "\"webhookId\": \"<the operational webhook>\"", Fate::NotRun("the shape of an operational call, ids elided; e2e::webhooks_operational checks each member of real calls and validates them against the catalog")),
    ("docs/WEBHOOKS.md", "CANVAS_WEBHOOK_ALLOW_DESTINATIONS=127.0.0.1/32", Fate::RunHere("receiving_webhooks_locally_as_written")),
    ("docs/WEBHOOKS.md", "\"url\": \"https://127.0.0.1:8443/\"", Fate::RunHere("receiving_webhooks_locally_as_written")),
];

/// The blocks of docs/performance are the commands behind recorded measurements.
const MEASUREMENT: &str = "a measurement, run by hand on a quiet machine; its figures are the text around it";

#[test]
fn every_block_is_run_or_named() {
    let mut claimed = vec![0usize; FATES.len()];
    let mut unaccounted = Vec::new();
    let mut counts: BTreeMap<String, [usize; 3]> = BTreeMap::new();
    for file in markdown_files() {
        for block in blocks_of(&file) {
            let fate = if file.starts_with("docs/performance/") {
                check_measurement(&block);
                Some(Fate::NotRun(MEASUREMENT))
            } else {
                // A claim `=text` is the whole block; any other, a text the block holds.
                let claims = |i: &usize| match FATES[*i].1.strip_prefix('=') {
                    Some(whole) => block.text.trim() == whole,
                    None => block.text.contains(FATES[*i].1),
                };
                let matching: Vec<usize> = (0..FATES.len()).filter(|i| FATES[*i].0 == file && claims(i)).collect();
                assert!(matching.len() <= 1, "{file}:{}: claimed twice: {matching:?}", block.line);
                matching.first().map(|&i| {
                    claimed[i] += 1;
                    FATES[i].2
                })
            };
            let Some(fate) = fate else {
                let first = block.text.lines().next().unwrap_or("");
                unaccounted.push(format!("{file}:{} ```{} ({first})", block.line, block.lang));
                continue;
            };
            let count = counts.entry(file.clone()).or_default();
            match fate {
                Fate::RunHere(test) => {
                    let here = include_str!("docs_examples.rs");
                    assert!(here.contains(&format!("fn {test}()")), "{file}:{}: no test {test} here", block.line);
                    count[0] += 1;
                }
                Fate::RunBy(at) => {
                    check_named_test(at);
                    count[1] += 1;
                }
                Fate::NotRun(why) => {
                    if why != MEASUREMENT {
                        println!("not run: {file}:{}: {why}", block.line);
                    }
                    count[2] += 1
                }
            }
        }
    }
    assert!(unaccounted.is_empty(), "blocks nobody runs or explains (add them to FATES):\n{}", unaccounted.join("\n"));
    let stale: Vec<_> = FATES.iter().zip(&claimed).filter(|(_, n)| **n != 1).map(|(f, _)| (f.0, f.1)).collect();
    assert!(stale.is_empty(), "claims matching no block or several: {stale:?}");
    println!("{:<36} {:>8} {:>8} {:>8}", "file", "run here", "run by", "not run");
    for (file, [here, by, not]) in &counts {
        println!("{file:<36} {here:>8} {by:>8} {not:>8}");
    }
}

/// A `RunBy` names a file that exists and, for a Rust test file, a function it defines.
fn check_named_test(at: &str) {
    let (path, test) = at.split_once("::").unwrap_or_else(|| panic!("{at}: path::test"));
    let source = std::fs::read_to_string(repo().join(path)).unwrap_or_else(|_| panic!("{at}: no file {path}"));
    if path.ends_with(".rs") {
        assert!(source.contains(&format!("fn {test}(")), "{at}: {path} defines no {test}");
    }
}

/// A measurement's commands name scripts and packages that exist.
fn check_measurement(block: &Block) {
    for word in block.text.split_whitespace() {
        if let Some(script) = word.strip_prefix("bench/") {
            let script = script.trim_end_matches(|c: char| !c.is_alphanumeric());
            let path = repo().join("bench").join(script);
            assert!(path.exists(), "{}:{}: names bench/{script}, which does not exist", block.file, block.line);
        }
    }
}

/// CONFIGURATION.md's "Running the components separately": the schema, the first administrator
/// (whose printed token works), core-service and the REST gateway in front of it.
#[test]
fn running_the_components_separately_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let (grpc, http) = (free_port(), free_port());
    let text = block("docs/CONFIGURATION.md", "cargo run -p core-service -- migrate");
    let core = sibling_binary("core-service");
    let gateway = sibling_binary("rest-gateway");
    let text = replaced(
        &text,
        &[
            ("cargo run -p core-service --", &core.display().to_string()),
            ("cargo run -p core-service ", &core.display().to_string()),
            ("cargo run -p rest-gateway --", &gateway.display().to_string()),
            ("127.0.0.1:50051", &format!("127.0.0.1:{grpc}")),
        ],
    );
    // The `export` lines hold for every command after them, as in one terminal.
    let (exports, lines): (Vec<&str>, Vec<&str>) = text.lines().partition(|line| line.starts_with("export "));
    assert_eq!(lines.len(), 4, "migrate, bootstrap-admin, core-service, rest-gateway: {text}");
    let lines: Vec<String> = lines.iter().map(|line| format!("{}\n{line}", exports.join("\n"))).collect();
    let grpc_addr = format!("127.0.0.1:{grpc}");
    let http_addr = format!("127.0.0.1:{http}");
    let env = [("CANVAS_GRPC_ADDR", grpc_addr.as_str()), ("CANVAS_HTTP_ADDR", http_addr.as_str())];
    run(dir.path(), &env, &lines[0]);
    let printed = String::from_utf8(run(dir.path(), &env, &lines[1]).stdout).unwrap();
    let admin: Value = serde_json::from_str(printed.trim()).unwrap_or_else(|_| panic!("one JSON object: {printed}"));
    let token = admin["adminToken"].as_str().expect("adminToken").to_owned();
    assert!(admin["userId"].is_string(), "{admin}");
    let _core = Background::start(dir.path(), &env, &lines[2]);
    let _gateway = Background::start(dir.path(), &env, &lines[3]);
    let ready = format!("http://{http_addr}/readyz");
    wait_for(Duration::from_secs(60), || curl_status(&["-s", &ready]) == "200");
    // The printed token is an administrator's: it creates a user through core-service.
    let core_url = format!("http://{grpc_addr}");
    let made = run(
        dir.path(),
        &[("CANVAS_ADMIN_TOKEN", token.as_str()), ("CANVAS_CORE_URL", core_url.as_str())],
        "canvasctl user create --name Docs --json",
    );
    let user: Value = serde_json::from_slice(&made.stdout).unwrap();
    assert!(user["userId"].is_string(), "{user}");
}

/// OPERATIONS.md's SQLite backup while the service writes, `verify`, the `sqlite3` copy, and the
/// restore: the service started on the copy serves what was written before.
#[test]
fn backing_up_and_restoring_sqlite_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let (backups, srv) = (dir.path().join("backups"), dir.path().join("srv"));
    std::fs::create_dir_all(&backups).unwrap();
    std::fs::create_dir_all(&srv).unwrap();
    let paths = [("/backups", backups.display().to_string()), ("/srv", srv.display().to_string())];
    let to_temp = |text: &str| {
        let owned: Vec<(&str, &str)> =
            paths.iter().filter(|(a, _)| text.contains(a)).map(|(a, b)| (*a, b.as_str())).collect();
        assert!(!owned.is_empty(), "a block with /backups or /srv: {text}");
        replaced(text, &owned)
    };
    let up = Background::start(dir.path(), &[], "canvasctl up --http-addr 127.0.0.1:0 --grpc-addr 127.0.0.1:0");
    let creds = wait_ready(&dir.path().join("canvas-data"), None);
    let (token, project, base) = a_person_and_project(dir.path(), &creds);
    let label = create_label(&base, &token, &project, "written before the backup");

    run(dir.path(), &[], &to_temp(&block("docs/OPERATIONS.md", "canvasctl backup --data-dir ./canvas-data")));
    let sqlite = replaced(&block("docs/OPERATIONS.md", "sqlite3 DATA_DIR/canvas.db"), &[("DATA_DIR", "canvas-data")]);
    run(dir.path(), &[], &to_temp(&sqlite));
    let check =
        run(dir.path(), &[], &format!("sqlite3 '{}' 'PRAGMA integrity_check'", backups.join("canvas.db").display()));
    assert_eq!(String::from_utf8_lossy(&check.stdout).trim(), "ok");
    up.stop();

    // The restore block, but for its last line: the harness starts `up` on free ports.
    let restore = to_temp(&block("docs/OPERATIONS.md", "cp -a /backups/canvas-2025-06-01 /srv/canvas-data"));
    let (steps, start) = restore.rsplit_once('\n').unwrap();
    assert!(start.starts_with("canvasctl up --data-dir "), "the restore ends by starting the service: {start}");
    run(dir.path(), &[], steps);
    let restored = srv.join("canvas-data");
    let _up = Background::start(
        dir.path(),
        &[],
        &format!("canvasctl up --data-dir '{}' --http-addr 127.0.0.1:0 --grpc-addr 127.0.0.1:0", restored.display()),
    );
    let creds = wait_ready(&restored, None);
    let base = creds["baseUrl"].as_str().unwrap().trim_end_matches('/').to_owned();
    let (status, body) = curl_json(&[
        "-H",
        &format!("Authorization: Bearer {token}"),
        &format!("{base}/api/v2/projects/{project}/item/{label}?jsonCasing=camel"),
    ]);
    assert_eq!(status, "200", "{body}");
    assert_eq!(body["text"], "written before the backup", "{body}");
}

/// ERRORS.md's problem body is what a label with a too narrow fixed width gets, byte for byte
/// as JSON; MCP.md's client configuration reaches the MCP server with its URL and header.
#[test]
fn the_documented_error_body_and_mcp_configuration_answer_as_shown() {
    let dir = tempfile::tempdir().unwrap();
    let _up = Background::start(dir.path(), &[], "canvasctl up --http-addr 127.0.0.1:0 --grpc-addr 127.0.0.1:0");
    let creds = wait_ready(&dir.path().join("canvas-data"), None);
    let (token, project, base) = a_person_and_project(dir.path(), &creds);

    let documented: Value =
        serde_json::from_str(&block("docs/ERRORS.md", "\"Reason\": \"VALIDATION_FAILED\"")).unwrap();
    let narrow = json!({"text": "narrow", "isAutoSizeWidth": false, "size": {"width": 3}});
    let (status, answered) = post_label(&base, &token, &project, &narrow);
    assert_eq!(status, "400");
    assert_eq!(answered, documented, "ERRORS.md's problem body");

    let config: Value = serde_json::from_str(&block("docs/MCP.md", "\"type\": \"http\"")).unwrap();
    let server = &config["servers"]["canvas"];
    let url = server["url"].as_str().unwrap().replace("http://127.0.0.1:8080", &base);
    let header = server["headers"]["Authorization"].as_str().unwrap().replace("svc_tk_...", &token);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "docs", "version": "1"}}});
    let (status, reply) = curl_json(&[
        "-X",
        "POST",
        "-H",
        &format!("Authorization: {header}"),
        "-H",
        "Content-Type: application/json",
        "-H",
        "Accept: application/json, text/event-stream",
        "-d",
        &initialize.to_string(),
        &url,
    ]);
    assert_eq!(status, "200", "{reply}");
    assert!(reply["result"]["serverInfo"]["name"].is_string(), "{reply}");
}

/// WEBHOOKS.md's recipe after the README's first session: `listen`, `up` started again with the
/// two settings, a webhook defined with curl; a label written then arrives at `listen` verified.
#[test]
fn receiving_webhooks_locally_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let (http, receiver) = (free_port(), free_port());
    let up_at = format!(" --http-addr 127.0.0.1:{http} --grpc-addr 127.0.0.1:0");
    // The service a newcomer already runs, as the README's first session leaves it.
    let first = Background::start(dir.path(), &[], &format!("canvasctl up{up_at}"));
    let creds = wait_ready(&dir.path().join("canvas-data"), None);
    let (token, project, base) = a_person_and_project(dir.path(), &creds);
    let env = [("TOKEN", token.as_str()), ("PROJECT", project.as_str())];
    let port = receiver.to_string();

    let listen = replaced(&block("docs/WEBHOOKS.md", "canvasctl webhooks listen --port 8443"), &[("8443", &port)]);
    let mut listening = Background::start(dir.path(), &env, &listen);
    wait_for(Duration::from_secs(30), || dir.path().join("canvas-listen-ca.pem").exists());
    first.stop();
    let up = block("docs/WEBHOOKS.md", "CANVAS_WEBHOOK_ALLOW_DESTINATIONS=127.0.0.1/32");
    let _up = Background::start(dir.path(), &env, &replaced(&up, &[("canvasctl up", &format!("canvasctl up{up_at}"))]));
    wait_ready(&dir.path().join("canvas-data"), None);

    let define = replaced(
        &block("docs/WEBHOOKS.md", "\"url\": \"https://127.0.0.1:8443/\""),
        &[("8443", &port), ("http://127.0.0.1:8080", &base)],
    );
    let defined: Value = serde_json::from_slice(&run(dir.path(), &env, &define).stdout).expect("the webhook as JSON");
    assert!(defined["Id"].is_string() || defined["id"].is_string(), "{defined}");
    let label = create_label(&base, &token, &project, "heard by listen");
    let line = listening.line_where(Duration::from_secs(30), |line| line.contains(&label));
    let heard: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(heard["change"]["kind"], "item.created", "{heard}");
    assert_eq!(heard["change"]["subject"]["id"], label.as_str(), "{heard}");
    // The call body WEBHOOKS.md shows (an update) has the fields of the change that arrived, and
    // only `old` beyond them (a creation has no old values).
    let documented: Value = serde_json::from_str(&block("docs/WEBHOOKS.md", "\"customData\": {\"team\": \"blue\"}"))
        .expect("the documented call body is JSON");
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<std::collections::BTreeSet<_>>();
    let mut shown = keys(&documented["changes"][0]);
    shown.remove("old");
    assert_eq!(shown, keys(&heard["change"]), "the documented change's fields");
}

/// CANVASCTL.md's synopsis: every command it lists exists, and takes every option the line shows.
#[test]
fn the_canvasctl_synopsis_is_what_the_commands_accept() {
    let synopsis = block("docs/CANVASCTL.md", "canvasctl user create");
    for line in synopsis.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&"canvasctl"), "{line}");
        let command: Vec<&str> = words[1..]
            .iter()
            .take_while(|w| !w.starts_with('-') && w.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .copied()
            .collect();
        assert!(!command.is_empty() && !command[0].starts_with('-'), "{line}");
        let help = std::process::Command::new(BIN).args(&command).arg("--help").output().unwrap();
        assert!(
            help.status.success(),
            "canvasctl {} --help: {}",
            command.join(" "),
            String::from_utf8_lossy(&help.stderr)
        );
        let help = String::from_utf8_lossy(&help.stdout);
        for flag in
            words.iter().filter_map(|w| w.trim_start_matches('[').split(']').next()).filter(|w| w.starts_with("--"))
        {
            assert!(help.contains(flag), "canvasctl {} takes no {flag}:\n{help}", command.join(" "));
        }
    }
}

/// KNOWLEDGE.md's agents file is read by core-service as the page describes it.
#[test]
fn the_documented_agents_file_is_read_as_described() {
    use core_service::knowledge::Agents;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("agents.toml");
    std::fs::write(&path, block("docs/KNOWLEDGE.md", "[agents.default]")).unwrap();
    let config = core_service::knowledge::KnowledgeConfig { agents_file: Some(path), ..Default::default() };
    let agents = Agents::load(&config).expect("the documented file is accepted");
    let agent = agents.get("default").expect("default");
    assert_eq!(agent.endpoint.as_deref(), Some("http://127.0.0.1:11434/v1"));
    assert_eq!((agent.model.as_str(), agent.api_key_env.as_deref()), ("llama3.1:8b", Some("CANVAS_LLM_API_KEY")));
    assert_eq!((agent.temperature, agent.rerank_candidates, agent.timeout_secs, agent.max_tokens), (0.0, 30, 30, 800));
}

/// A person with an API token and a project, made as the README's first session makes them.
fn a_person_and_project(dir: &Path, creds: &Value) -> (String, String, String) {
    let env = [
        ("CANVAS_ADMIN_TOKEN", creds["adminToken"].as_str().unwrap()),
        ("CANVAS_CORE_URL", creds["coreUrl"].as_str().unwrap()),
        ("USER_ID", creds["userId"].as_str().unwrap()),
    ];
    let token = run(dir, &env, "canvasctl token create --user \"$USER_ID\" --name docs --json | jq -r .token");
    let project = run(dir, &env, "canvasctl project create --name Docs --owner \"$USER_ID\" --json | jq -r .projectId");
    let text = |o: std::process::Output| String::from_utf8(o.stdout).unwrap().trim().to_owned();
    (text(token), text(project), creds["baseUrl"].as_str().unwrap().trim_end_matches('/').to_owned())
}

fn create_label(base: &str, token: &str, project: &str, text: &str) -> String {
    let (status, body) = post_label(base, token, project, &json!({ "text": text }));
    assert_eq!(status, "200", "{body}");
    body["ItemId"].as_str().expect("ItemId").to_owned()
}

/// `POST .../item/panel/label` with `body`, as curl sends it: its status and JSON answer.
fn post_label(base: &str, token: &str, project: &str, body: &Value) -> (String, Value) {
    curl_json(&[
        "-X",
        "POST",
        "-H",
        &format!("Authorization: Bearer {token}"),
        "-H",
        "Content-Type: application/json",
        "-d",
        &body.to_string(),
        &format!("{base}/api/v2/projects/{project}/item/panel/label"),
    ])
}

/// curl's status code and JSON body (an SSE answer's `data:` line).
fn curl_json(args: &[&str]) -> (String, Value) {
    let output =
        std::process::Command::new("curl").args(["-s", "-w", "\n%{http_code}"]).args(args).output().expect("curl runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let (body, status) = text.rsplit_once('\n').unwrap_or(("", &text));
    let json_text = body.lines().find_map(|l| l.strip_prefix("data: ")).unwrap_or(body);
    (status.to_owned(), serde_json::from_str(json_text).unwrap_or(Value::String(body.to_owned())))
}

fn curl_status(args: &[&str]) -> String {
    let output = std::process::Command::new("curl").args(["-o", "/dev/null", "-w", "%{http_code}"]).args(args).output();
    output.map(|o| String::from_utf8_lossy(&o.stdout).into_owned()).unwrap_or_default()
}

fn wait_for(within: Duration, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + within;
    while !done() {
        assert!(std::time::Instant::now() < deadline, "not within {within:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
