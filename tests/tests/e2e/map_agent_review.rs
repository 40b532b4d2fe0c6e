//! An agent reviews a comment thread through MCP while a person watches the map (issue 40's
//! "a person sees each step on the map"): `tests/browser/agent_review_test.mjs` opens the
//! person's map in headless Chromium and runs the agent, `tests/mcp/agent_review.py` (the official
//! MCP Python SDK), one step at a time: it lists the open threads, replies to the one asking for a
//! rename, renames the item, resolves the thread; after each step the map must show it. The
//! agent is a member of its own (an Editor with an API token), as a team's agent would be.
//! `tests/run.sh` installs the browser and the SDK.

use std::path::Path;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp};
use core_service::domain::ProjectRole;
use reqwest::Method;
use serde_json::json;

use crate::browser::{artifacts_dir, require_browser, run_script};
use crate::map_editor::create;
use crate::mcp_clients::venv_python;
use crate::support::send;

backend_tests!(an_agent_works_through_a_thread_while_a_person_watches);

async fn an_agent_works_through_a_thread_while_a_person_watches(backend: Backend) {
    require_browser();
    let python = venv_python();
    assert!(python.exists(), "{} is missing: run tests/run.sh, which installs the pinned MCP SDK", python.display());
    let app = TestApp::spawn(backend).await;
    let person = app.user("ann").await;
    let agent = app.user("review-bot").await;
    let project = app.project(&person).await;
    app.add_member(&project, &agent, ProjectRole::Editor).await;

    let bearer = person.bearer();
    let item =
        create(&app, &bearer, &project, "sticky-note", json!({"text": "Invoices", "position": {"x": 0, "y": 0}})).await;
    let comments = format!("{}/api/v2/projects/{project}/comments", app.base_url);
    // The person's request, and something the agent must leave alone: another open thread, on a
    // point, asking nothing of it.
    let asked = json!({"text": "Please rename this to Billing.", "itemId": item});
    let other = json!({"text": "Room for a new team here?", "position": {"x": 600, "y": 300}});
    let mut opened = Vec::new();
    for body in [asked, other] {
        let reply = send(&app, Method::POST, &format!("{comments}?jsonCasing=camel"), Some(&bearer), Some(body)).await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        opened.push(reply.body["threadId"].as_str().expect("a thread id").to_owned());
    }
    let thread = opened[0].clone();

    let artifacts = artifacts_dir();
    std::fs::create_dir_all(&artifacts).unwrap();
    let agent_script = Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/agent_review.py");
    let (python, agent_script) = (python.to_string_lossy(), agent_script.to_string_lossy());
    let (mcp, shots, label) = (app.mcp_url(), artifacts.to_string_lossy(), format!("{backend:?}").to_lowercase());
    let flags = [
        ("--base", app.base_url.as_str()),
        ("--project", &project),
        ("--item", &item),
        ("--thread", &thread),
        ("--token", &person.token),
        ("--python", &python),
        ("--agent", &agent_script),
        ("--mcp", &mcp),
        ("--agent-token", &agent.token),
        ("--shots", &shots),
        ("--label", &label),
    ];
    let args: Vec<&str> = flags.iter().flat_map(|(flag, value)| [*flag, *value]).collect();
    let (success, stdout) = run_script("agent_review_test.mjs", &args, Duration::from_secs(240)).await;
    assert!(success && stdout.contains("5 passed, 0 failed"), "the browser test failed; see above");

    // What the service holds after: the item renamed, the thread resolved with the agent's reply
    // (by the agent), the other thread untouched.
    let read = |url: String| {
        let (app, bearer) = (&app, &bearer);
        async move {
            let reply = send(app, Method::GET, &url, Some(bearer), None).await;
            assert_eq!(reply.status, 200, "{url}: {}", reply.body);
            reply.body
        }
    };
    let stored = read(app.item_url(&project, &format!("/{item}?jsonCasing=camel"))).await;
    assert_eq!(stored["text"], "Billing", "{stored}");
    let done = read(format!("{comments}/{thread}?jsonCasing=camel")).await;
    assert_eq!(done["resolved"], true, "{done}");
    let replies = done["replies"].as_array().expect("the thread's replies");
    assert_eq!(replies.len(), 1, "{done}");
    assert_eq!(replies[0]["text"], "Renaming it to Billing now.", "{done}");
    assert_eq!(replies[0]["authorUserId"], agent.id.as_str(), "{done}");
    let open = read(format!("{comments}?status=open&jsonCasing=camel")).await;
    let open = open["threads"].as_array().expect("the open threads");
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0]["threadId"], opened[1].as_str(), "{open:?}");
    assert_eq!(open[0]["replyCount"], 0, "{open:?}");
}
