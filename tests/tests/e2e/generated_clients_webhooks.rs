//! The official clients' webhook receivers (`clients/typescript/src/webhooks.ts`,
//! `canvas_client.webhooks` from `clients/python/webhooks.py`) against calls the service really
//! sent: every event kind and a test ping, each accepted and read by its kind, the key set fetched
//! once and cached, and each receiver rule refusing what it should (a byte added, a clock 400 s
//! ahead, another project or webhook, an unknown kid, a malformed header).

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend};
use core_service::domain::{ProjectId, ProjectRole, UserId};
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio::process::Command;

use crate::generated_clients::{clients_dir, installed, run, typescript_build, venv};
use crate::support::{create_label, owner_with_project, send};
use crate::webhooks_delivery::create_hook;

backend_tests!(both_clients_verify_live_deliveries_and_refuse_the_rest);

/// What both check scripts must print: every call accepted, each refusal by its rule.
fn assert_report(report: &Value, calls: usize, who: &str) {
    assert_eq!(report["accepted"], calls, "{who}: {report}");
    let checks = &report["checks"];
    for (check, expected) in [
        ("repeat", "duplicate"),
        ("tampered", "bad-signature"),
        ("later", "stale-timestamp"),
        ("otherProject", "wrong-identity"),
        ("otherWebhook", "wrong-identity"),
        ("pingWithoutWebhook", "accepted"),
        ("unknownKid", "unknown-key"),
        ("twoParts", "malformed-signature"),
        ("rs256", "malformed-signature"),
    ] {
        assert_eq!(checks[check], expected, "{who}: {check} in {report}");
    }
    // Rule 5: one key set for all the calls (an unknown kid within ten seconds does not reload it).
    assert_eq!(report["keyFetches"], 1, "{who}: {report}");
}

async fn both_clients_verify_live_deliveries_and_refuse_the_rest(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let app = &env.app;
    let (owner, project) = owner_with_project(app).await;
    let all = ["item.created", "item.updated", "item.deleted", "user.added", "user.roleChanged", "user.removed"];
    let hook = create_hook(&env, &owner, &project, json!({"url": env.receiver.url, "events": all})).await;
    let label = create_label(app, &owner, &project, json!({"text": "first"})).await;
    let url = app.item_url(&project, &format!("/label/{label}"));
    assert_eq!(
        send(app, Method::PATCH, &url, Some(&owner.bearer()), Some(json!({"text": "second"}))).await.status,
        StatusCode::OK
    );
    let url = app.item_url(&project, &format!("/{label}"));
    assert_eq!(send(app, Method::DELETE, &url, Some(&owner.bearer()), None).await.status, StatusCode::OK);
    let member = app.user("member").await;
    let (project_id, member_id) = (ProjectId::parse(&project).unwrap(), UserId::parse(&member.id).unwrap());
    app.core.accounts().add_member(&app.admin, project_id, member_id, ProjectRole::Viewer).await.unwrap();
    app.core.accounts().set_member_role(&app.admin, project_id, member_id, ProjectRole::Editor).await.unwrap();
    app.core.accounts().remove_member(&app.admin, project_id, member_id).await.unwrap();
    let ping = json!({"url": env.receiver.url, "events": ["item.created"]});
    assert_eq!(
        send(app, Method::POST, &env.url(&project, "/test"), Some(&owner.bearer()), Some(ping)).await.status,
        StatusCode::OK
    );
    let calls = env.receiver.wait_for(7, std::time::Duration::from_secs(20)).await;

    let written: Vec<Value> = calls
        .iter()
        .map(|c| {
            let headers: serde_json::Map<String, Value> =
                ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"]
                    .iter()
                    .map(|name| ((*name).to_owned(), json!(c.header(name))))
                    .collect();
            json!({"headers": headers, "body_b64": STANDARD.encode(&c.body)})
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let calls_file = dir.path().join("calls.json");
    std::fs::write(&calls_file, serde_json::to_vec(&written).unwrap()).unwrap();
    let vars = [
        ("CANVAS_BASE_URL", app.base_url.clone()),
        ("CANVAS_PROJECT_ID", project.clone()),
        ("CANVAS_WEBHOOK_ID", hook.clone()),
        ("CANVAS_CALLS_FILE", calls_file.display().to_string()),
    ];

    if let Some(work) = typescript_build().await {
        let mut check = Command::new("node");
        check.current_dir(work.path()).arg("build/webhooks_check.js").envs(vars.clone());
        let (ok, output) = run(&mut check, "the TypeScript webhook receiver check").await;
        assert!(ok, "the TypeScript check failed; its output is above");
        let report: Value = serde_json::from_str(output.lines().last().unwrap_or("")).expect("a JSON report");
        assert_report(&report, calls.len(), "TypeScript");
        // Typed reading: each kind's own members, as the compiler saw them.
        let described: Vec<&str> =
            report["described"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
        for expected in [
            "item.created label with properties",
            "item.updated label text",
            "item.deleted label",
            "user.added Viewer",
            "user.roleChanged Editor",
            "user.removed",
            "ping true",
        ] {
            assert!(described.contains(&expected), "TypeScript read {described:?}, not {expected}");
        }
    }

    let python = venv().join("bin/python");
    if installed(&python) {
        let mut check = Command::new(&python);
        check
            .arg(clients_dir().join("python/webhooks_check.py"))
            .envs(vars)
            .env("PYTHONPATH", clients_dir().join("python/canvas-client"))
            .env("PYTHONDONTWRITEBYTECODE", "1");
        let (ok, output) = run(&mut check, "the Python webhook receiver check").await;
        assert!(ok, "the Python check failed; its output is above");
        let report: Value = serde_json::from_str(output.lines().last().unwrap_or("")).expect("a JSON report");
        assert_report(&report, calls.len(), "Python");
        let mut kinds: Vec<&str> =
            report["described"].as_array().unwrap().iter().map(|d| d.as_str().unwrap()).collect();
        kinds.sort();
        assert_eq!(
            kinds,
            ["item.created", "item.deleted", "item.updated", "ping", "user.added", "user.removed", "user.roleChanged"]
        );
    }
}
