//! `canvasctl up` as a newcomer runs it: the real binary on an empty data
//! directory, the README's curl example, the admin commands, and a restart
//! that reuses the data.

use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
use common::{start, wait_ready, Running, BIN};

fn canvasctl(creds: &Value, args: &[&str]) -> Value {
    let output = Command::new(BIN)
        .args(args)
        .args(["--json", "--core", creds["coreUrl"].as_str().unwrap()])
        .env("CANVAS_ADMIN_TOKEN", creds["adminToken"].as_str().unwrap())
        .output()
        .unwrap();
    assert!(output.status.success(), "canvasctl {args:?}: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("one JSON object from {args:?}: {}", String::from_utf8_lossy(&output.stdout)))
}

fn curl(args: &[&str]) -> (String, Value) {
    let mut all = vec!["-s", "-w", "\n%{http_code}"];
    all.extend_from_slice(args);
    let output = Command::new("curl").args(&all).output().expect("curl runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    let (body, code) = text.rsplit_once('\n').unwrap();
    (code.to_owned(), serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn up_on_an_empty_directory_then_readme_example_then_admin_commands_then_restart() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("canvas-data");
    let creds = {
        let _running = start(&data_dir);
        let creds = wait_ready(&data_dir, None);
        for key in ["userId", "token", "projectId", "adminToken", "coreUrl", "baseUrl"] {
            assert!(creds[key].as_str().is_some_and(|v| !v.is_empty()), "{key} in dev-credentials.json");
        }
        assert!(creds["token"].as_str().unwrap().starts_with("svc_tk_"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(data_dir.join("dev-credentials.json")).unwrap().permissions().mode();
            assert_eq!(mode & 0o077, 0, "credentials are private to their owner");
        }

        // The README's example, verbatim but for the token and project.
        let (base, token, project) = (
            creds["baseUrl"].as_str().unwrap(),
            creds["token"].as_str().unwrap(),
            creds["projectId"].as_str().unwrap(),
        );
        let (code, body) = curl(&[
            "-X",
            "POST",
            "-H",
            &format!("Authorization: Bearer {token}"),
            "-H",
            "Content-Type: application/json",
            "-d",
            r#"{"text": "Hello, canvas"}"#,
            &format!("{base}/api/v2/projects/{project}/item/panel/label"),
        ]);
        assert_eq!(code, "200", "{body}");
        let item = body["ItemId"].as_str().expect("ItemId").to_owned();
        let (code, body) = curl(&[
            "-H",
            &format!("Authorization: Bearer {token}"),
            &format!("{base}/api/v2/projects/{project}/item/{item}/text"),
        ]);
        assert_eq!((code.as_str(), body), ("200", Value::String("Hello, canvas".into())));

        // Admin commands, each printing one JSON object.
        let user = canvasctl(&creds, &["user", "create", "--name", "Ada"])["userId"].as_str().unwrap().to_owned();
        let issued = canvasctl(&creds, &["token", "create", "--user", &user]);
        assert!(issued["token"].as_str().unwrap().starts_with("svc_tk_"));
        let new_project = canvasctl(&creds, &["project", "create", "--name", "Ada's", "--owner", &user])["projectId"]
            .as_str()
            .unwrap()
            .to_owned();
        let listed = canvasctl(&creds, &["project", "list", "--user", &user]);
        assert_eq!(listed["projects"][0]["projectId"], Value::String(new_project.clone()));
        assert_eq!(listed["projects"][0]["role"], "Admin");
        let demo = creds["userId"].as_str().unwrap();
        assert_eq!(
            canvasctl(&creds, &["member", "add", "--project", &new_project, "--user", demo, "--role", "viewer"])
                ["role"],
            "Viewer"
        );
        assert_eq!(
            canvasctl(&creds, &["member", "set-role", "--project", &new_project, "--user", demo, "--role", "Editor"])
                ["role"],
            "Editor"
        );
        canvasctl(&creds, &["member", "remove", "--project", &new_project, "--user", demo]);
        let ada_token = issued["token"].as_str().unwrap();
        let (code, _) = curl(&[
            "-H",
            &format!("Authorization: Bearer {ada_token}"),
            &format!("{base}/api/v2/projects/{new_project}/items"),
        ]);
        assert_eq!(code, "200");
        canvasctl(&creds, &["token", "revoke", "--token-id", issued["tokenId"].as_str().unwrap()]);
        let (code, _) = curl(&[
            "-H",
            &format!("Authorization: Bearer {ada_token}"),
            &format!("{base}/api/v2/projects/{new_project}/items"),
        ]);
        assert_eq!(code, "401");

        // A bad role is refused before anything is sent.
        let refused = Command::new(BIN)
            .args([
                "member",
                "add",
                "--project",
                &new_project,
                "--user",
                demo,
                "--role",
                "Owner",
                "--json",
                "--core",
                creds["coreUrl"].as_str().unwrap(),
            ])
            .env("CANVAS_ADMIN_TOKEN", creds["adminToken"].as_str().unwrap())
            .output()
            .unwrap();
        assert!(!refused.status.success());
        assert!(String::from_utf8_lossy(&refused.stderr).contains("--role"));
        creds
    };

    // A second start reuses the data: same token, same project, same item.
    let _running = start(&data_dir);
    let again = wait_ready(&data_dir, Some(creds["baseUrl"].as_str().unwrap()));
    assert_eq!(again["token"], creds["token"]);
    assert_eq!(again["projectId"], creds["projectId"]);
    let (code, body) = curl(&[
        "-H",
        &format!("Authorization: Bearer {}", again["token"].as_str().unwrap()),
        &format!(
            "{}/api/v2/projects/{}/items?jsonCasing=camel",
            again["baseUrl"].as_str().unwrap(),
            again["projectId"].as_str().unwrap()
        ),
    ]);
    assert_eq!(code, "200");
    assert_eq!(body["items"][0]["text"], "Hello, canvas");
}

/// `canvasctl config show` against a running `canvasctl up`: each setting's value and source,
/// secrets never shown.
#[test]
fn config_show_prints_the_effective_configuration_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let secret = "a-signing-key-secret-of-forty-characters!";
    let child = Command::new(BIN)
        .args(["up", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--log-format", "json", "--data-dir"])
        .arg(dir.path())
        .env_remove("CANVAS_DATABASE_URL")
        .env("CANVAS_SHUTDOWN_GRACE_SECS", "7")
        .env("CANVAS_EMBEDDING_PROVIDER", "off")
        .env("CANVAS_SIGNING_KEY_SECRET", secret)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("canvasctl starts");
    let _running = Running(child);
    let creds = wait_ready(dir.path(), None);
    let base = creds["baseUrl"].as_str().unwrap();

    let json = Command::new(BIN).args(["config", "show", "--json", "--url", base]).output().unwrap();
    assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
    let text = String::from_utf8(json.stdout).unwrap();
    assert!(!text.contains(secret), "the secret was shown: {text}");
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["component"], "canvasctl");
    let setting = |flag: &str| {
        report["settings"].as_array().unwrap().iter().find(|s| s["flag"] == flag).cloned().unwrap_or(Value::Null)
    };
    let pairs = |flag: &str| {
        let s = setting(flag);
        (s["value"].as_str().map(str::to_owned), s["source"].as_str().unwrap_or("missing").to_owned())
    };
    assert_eq!(pairs("--shutdown-grace-secs"), (Some("7".into()), "env".into()));
    assert_eq!(pairs("--log-format"), (Some("json".into()), "flag".into()));
    assert_eq!(pairs("--embedding-provider"), (Some("off".into()), "env".into()));
    assert_eq!(pairs("--chunk-tokens"), (Some("200".into()), "default".into()));
    assert_eq!(pairs("--signing-key-secret"), (Some("<redacted>".into()), "env".into()));
    assert_eq!(setting("--signing-key-secret")["secret"], true);
    assert_eq!(pairs("--llm-url"), (None, "unset".into()));

    let table = Command::new(BIN).args(["config", "show", "--url", base]).output().unwrap();
    let table = String::from_utf8(table.stdout).unwrap();
    let line = table.lines().find(|l| l.contains("--shutdown-grace-secs")).expect("listed");
    assert!(line.contains("env") && line.trim_end().ends_with('7'), "{line}");
}

/// An empty environment variable means unset for every setting (`CANVAS_WEBHOOK_CA_CERTS=""` used
/// to stop start-up with "a value is required"), and a development start that works as
/// documented logs no ERROR line, nor a warning that dispatcher calls will be refused.
#[test]
fn empty_variables_are_unset_and_a_working_start_logs_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let data_dir = dir.path().join("canvas-data");
    // The log goes to standard output (with the banner), errors of clap to standard error.
    let log_path = dir.path().join("stdout.log");
    let log = std::fs::File::create(&log_path).unwrap();
    let errors_path = dir.path().join("stderr.log");
    let errors_file = std::fs::File::create(&errors_path).unwrap();
    let mut command = Command::new(BIN);
    command
        .args(["up", "--http-addr", "127.0.0.1:0", "--grpc-addr", "127.0.0.1:0", "--log-format", "json", "--data-dir"])
        .arg(&data_dir)
        .stdout(log)
        .stderr(errors_file);
    for empty in [
        "CANVAS_WEBHOOK_CA_CERTS",
        "CANVAS_DATABASE_URL",
        "CANVAS_DISPATCHER_SECRET",
        "CANVAS_WEBHOOK_ALLOW_DESTINATIONS",
        "CANVAS_MCP_ALLOWED_ORIGINS",
        "CANVAS_CORE_TIMEOUT_SECS",
        "CANVAS_LLM_URL",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
    ] {
        command.env(empty, "");
    }
    let running = Running(command.spawn().expect("canvasctl starts"));
    let creds = wait_ready(&data_dir, None);
    let (code, _) = curl(&[&format!("{}/readyz", creds["baseUrl"].as_str().unwrap())]);
    assert_eq!(code, "200");
    drop(running);
    let text = std::fs::read_to_string(&log_path).unwrap();
    let stderr = std::fs::read_to_string(&errors_path).unwrap();
    assert!(stderr.trim().is_empty(), "nothing on standard error: {stderr}");
    let errors: Vec<&str> = text.lines().filter(|line| line.contains("\"level\":\"ERROR\"")).collect();
    assert!(errors.is_empty(), "ERROR lines in a working development start: {errors:#?}");
    // The in-process dispatcher is served without a secret in development: nothing to warn about.
    let refused: Vec<&str> = text.lines().filter(|line| line.contains("CANVAS_DISPATCHER_SECRET")).collect();
    assert!(refused.is_empty(), "a development start warns about the dispatcher secret: {refused:#?}");
    assert!(text.contains("\"level\":\"INFO\""), "the log is JSON lines: {text}");
}
