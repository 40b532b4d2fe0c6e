//! The official clients (`clients/typescript`, `clients/python`) against the real service.
//!
//! - The committed clients are what `clients/generate.sh` makes from the document the running
//!   service serves, byte for byte; a difference names the files (regenerate and commit).
//! - Each client's scenario (`clients/typescript/scenario.ts`, `clients/python/scenario.py`) runs
//!   every operation a user has through that client, on SQLite and PostgreSQL. The TypeScript
//!   one is first compiled with `tsc --strict --noEmit`: a type error against a legitimate call
//!   is a defect of the document, like a failed step.
//!
//! `tests/run.sh` installs the pinned generators and runtimes into caches under `~/.cache`
//! (`CANVAS_CLIENTS_NPM_DIR`, `CANVAS_CLIENTS_VENV` override them). When they are missing these
//! tests say so and pass, except under `CI=true`, where a missing tool is a failure.

use std::path::{Path, PathBuf};
use std::time::Duration;

use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend, TestApp};
use tokio::process::Command;

use crate::support::owner_with_project;

backend_tests!(typescript_scenario, python_scenario);

fn home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"))
}

pub(crate) fn clients_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients")
}

/// The npm prefix with openapi-typescript, openapi-fetch and TypeScript (clients/typescript/package.json).
fn npm_dir() -> PathBuf {
    std::env::var_os("CANVAS_CLIENTS_NPM_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache/canvas-clients-npm"))
}

/// The virtualenv with openapi-python-client and the generated package's dependencies.
pub(crate) fn venv() -> PathBuf {
    std::env::var_os("CANVAS_CLIENTS_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| home().join(".cache/canvas-clients-venv"))
}

/// False (after saying why) when `path` is missing outside CI; a failure under `CI=true`.
pub(crate) fn installed(path: &Path) -> bool {
    if path.exists() {
        return true;
    }
    let message = format!("{} is missing: run tests/run.sh, which installs the pinned client tools", path.display());
    assert!(std::env::var("CI").as_deref() != Ok("true"), "{message}");
    eprintln!("SKIPPED: {message}");
    false
}

/// Runs a command to completion, prints what it said, and returns (success, stdout + stderr).
pub(crate) async fn run(command: &mut Command, what: &str) -> (bool, String) {
    let output = tokio::time::timeout(Duration::from_secs(400), command.kill_on_drop(true).output())
        .await
        .unwrap_or_else(|_| panic!("{what} did not finish within 400 s"))
        .unwrap_or_else(|err| panic!("{what} could not start: {err}"));
    let text = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    println!("--- {what}\n{text}");
    (output.status.success(), text)
}

/// Every file under `root`, relative to it, sorted.
fn files_under(root: &Path) -> Vec<PathBuf> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(root, &path, out);
            } else {
                out.push(path.strip_prefix(root).expect("under root").to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out.sort();
    out
}

/// Regenerating from the running service gives the committed files, and neither generator
/// skipped anything (the script runs openapi-python-client with `--fail-on-warning`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn committed_clients_match_the_served_document() {
    if !installed(&npm_dir().join("node_modules/.bin/openapi-typescript"))
        || !installed(&venv().join("bin/openapi-python-client"))
    {
        return;
    }
    let app = TestApp::spawn(Backend::Sqlite).await;
    let fresh = tempfile::tempdir().expect("temporary directory");
    let mut command = Command::new("bash");
    command.arg(clients_dir().join("generate.sh")).arg("--url").arg(&app.base_url).arg("--out").arg(fresh.path());
    command.env("CANVAS_CLIENTS_NPM_DIR", npm_dir()).env("CANVAS_CLIENTS_VENV", venv());
    let (ok, log) = run(&mut command, "clients/generate.sh").await;
    assert!(ok, "a generator failed or warned on the served document; its messages are above");
    assert!(!log.to_lowercase().contains("warn"), "a generator warned; its messages are above");

    let mut differ = Vec::new();
    for part in ["typescript/src/schema.ts", "python/canvas-client"] {
        let (generated, committed) = (fresh.path().join(part), clients_dir().join(part));
        if generated.is_file() {
            if std::fs::read(&generated).ok() != std::fs::read(&committed).ok() {
                differ.push(format!("clients/{part}"));
            }
            continue;
        }
        let (new, old) = (files_under(&generated), files_under(&committed));
        for file in new.iter().chain(old.iter().filter(|f| !new.contains(f))) {
            let (a, b) = (std::fs::read(generated.join(file)).ok(), std::fs::read(committed.join(file)).ok());
            if a != b {
                differ.push(format!("clients/{part}/{}", file.display()));
            }
        }
    }
    assert!(
        differ.is_empty(),
        "the committed clients differ from the served document (run bash clients/generate.sh): {differ:#?}"
    );
}

/// The service, a webhook receiver the service trusts, and the variables a scenario reads.
async fn scenario_env(backend: Backend) -> (WebhookEnv, Vec<(&'static str, String)>) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let vars = vec![
        ("CANVAS_BASE_URL", env.app.base_url.clone()),
        ("CANVAS_TOKEN", owner.token.clone()),
        ("CANVAS_PROJECT_ID", project),
        ("CANVAS_WEBHOOK_URL", env.receiver.url.clone()),
    ];
    (env, vars)
}

/// After a scenario: the webhook test call it made reached the receiver, signed.
fn assert_test_call_received(env: &WebhookEnv) {
    let calls = env.receiver.calls();
    assert!(!calls.is_empty(), "the scenario's webhook test call never reached the receiver");
    assert!(!calls[0].header("webhook-signature").is_empty(), "the test call is signed: {:?}", calls[0].headers);
}

/// The TypeScript client, its scenario, example and webhook check copied beside the cached
/// node_modules (nothing is written into the repository), checked by `tsc --strict` and emitted
/// to `build/`; None when the tools are missing outside CI.
pub(crate) async fn typescript_build() -> Option<tempfile::TempDir> {
    let npm = npm_dir();
    if !installed(&npm.join("node_modules/typescript/bin/tsc")) || !installed(&npm.join("node_modules/openapi-fetch")) {
        return None;
    }
    let work = tempfile::tempdir().expect("temporary directory");
    let source = clients_dir().join("typescript");
    for file in
        ["package.json", "tsconfig.json", "tsconfig.scenario.json", "scenario.ts", "example.ts", "webhooks_check.ts"]
    {
        std::fs::copy(source.join(file), work.path().join(file)).unwrap_or_else(|e| panic!("copy {file}: {e}"));
    }
    std::fs::create_dir(work.path().join("src")).unwrap();
    for file in files_under(&source.join("src")) {
        std::fs::copy(source.join("src").join(&file), work.path().join("src").join(&file)).unwrap();
    }
    std::os::unix::fs::symlink(npm.join("node_modules"), work.path().join("node_modules")).unwrap();
    let tsc = npm.join("node_modules/typescript/bin/tsc");

    let mut check = Command::new("node");
    check.current_dir(work.path()).arg(&tsc).args(["-p", "tsconfig.scenario.json", "--strict", "--noEmit"]);
    let (ok, _) = run(&mut check, "tsc --strict --noEmit (client, scenario, example, webhook check)").await;
    assert!(ok, "the TypeScript client does not compile in strict mode; the errors are above");
    let mut build = Command::new("node");
    build.current_dir(work.path()).arg(&tsc).args(["-p", "tsconfig.scenario.json"]);
    assert!(run(&mut build, "tsc (emit)").await.0, "emitting the scenario failed");
    Some(work)
}

async fn typescript_scenario(backend: Backend) {
    let Some(work) = typescript_build().await else { return };
    let (env, vars) = scenario_env(backend).await;
    let mut scenario = Command::new("node");
    scenario.current_dir(work.path()).arg("build/scenario.js").envs(vars.clone());
    let (ok, output) = run(&mut scenario, "the TypeScript client scenario").await;
    assert!(ok && output.contains(" 0 failed"), "the TypeScript scenario failed; its steps are above");
    assert_test_call_received(&env);

    // The README's example still runs: it creates a note, a label and a connector, then lists them.
    let mut example = Command::new("node");
    example.current_dir(work.path()).arg("build/example.js").envs(vars);
    let (ok, output) = run(&mut example, "the TypeScript client example").await;
    assert!(ok, "the TypeScript example failed; its output is above");
    for item_type in ["sticky-note", "label", "connector"] {
        assert!(output.lines().any(|line| line.starts_with(item_type)), "the example lists a {item_type}");
    }
}

async fn python_scenario(backend: Backend) {
    let python = venv().join("bin/python");
    if !installed(&python) {
        return;
    }
    let (env, vars) = scenario_env(backend).await;
    // The generated package straight from the repository, without writing bytecode into it.
    let python_command = |script: &str| {
        let mut command = Command::new(&python);
        command.arg(clients_dir().join(script)).envs(vars.clone());
        command.env("PYTHONPATH", clients_dir().join("python/canvas-client")).env("PYTHONDONTWRITEBYTECODE", "1");
        command
    };
    let (ok, output) = run(&mut python_command("python/scenario.py"), "the Python client scenario").await;
    assert!(ok && output.contains(" 0 failed"), "the Python scenario failed; its steps are above");
    assert_test_call_received(&env);

    // The README's example still runs: it creates a note, a label and a connector, then lists them.
    let (ok, output) = run(&mut python_command("python/example.py"), "the Python client example").await;
    assert!(ok, "the Python example failed; its output is above");
    for item_type in ["sticky-note", "label", "connector"] {
        assert!(output.lines().any(|line| line.starts_with(item_type)), "the example lists a {item_type}");
    }
}
