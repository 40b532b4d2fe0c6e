//! MCP tasks (the `io.modelcontextprotocol/tasks` extension, 2026-07-28; docs/MCP.md "Tasks") over
//! plain JSON-RPC, on both backends: which calls become tasks and for whom, `tasks/get` from
//! working to completed with the result a direct call gives, the protocol errors the extension
//! names, and the guarantees of the task's write: a cancelled task writes nothing (its write
//! claims the task in its own transaction, tested at core-service's gRPC where the order is
//! certain), and a task whose gateway stopped is failed saying whether its change was made. The
//! official TypeScript package (`@modelcontextprotocol/ext-tasks`) drives the same server
//! (`tests/mcp/tasks_ext.mjs`).

use std::time::{Duration, Instant};

use canvas_proto::v1 as pb;
use canvas_proto::v1::agent_task_service_client::AgentTaskServiceClient;
use canvas_proto::v1::item_service_client::ItemServiceClient;
use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use canvas_vocabulary::limits::tasks::{ITEMS_ABOVE, KEEP_SECS, LEASE_SECS, POLL_INTERVAL_MS};
use serde_json::{json, Value};
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::{Code, Request};

use crate::mcp::call_tool;
use crate::support::owner_with_project;

backend_tests!(
    long_calls_run_as_tasks_for_clients_that_declare_them,
    task_protocol_errors_are_the_extensions,
    a_cancelled_task_writes_nothing_and_a_committed_one_completes,
    a_task_whose_gateway_stopped_says_whether_its_change_was_made,
    a_large_result_is_kept_and_a_too_large_one_fails_its_task,
    the_official_tasks_package_follows_our_tasks,
    a_task_past_its_keeping_time_is_forgotten,
);

const TASKS: &str = "io.modelcontextprotocol/tasks";

/// A JSON-RPC request of the 2026-07-28 revision, declaring the tasks extension when `tasks` is true.
async fn rpc(app: &TestApp, user: &TestUser, method: &str, name: &str, params: Value, tasks: bool) -> Value {
    let capabilities = if tasks { json!({"extensions": {TASKS: {}}}) } else { json!({}) };
    crate::mcp::post_newest(app, user, method, name, params, capabilities).await.json()
}

async fn call(app: &TestApp, user: &TestUser, tool: &str, arguments: Value, tasks: bool) -> Value {
    rpc(app, user, "tools/call", tool, json!({"name": tool, "arguments": arguments}), tasks).await
}

async fn get(app: &TestApp, user: &TestUser, task: &str) -> Value {
    rpc(app, user, "tasks/get", task, json!({"taskId": task}), true).await
}

/// Polls `tasks/get` until the task is no longer working; answers every answer seen.
async fn until_done(app: &TestApp, user: &TestUser, task: &str) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut seen = Vec::new();
    loop {
        let answer = get(app, user, task).await;
        let status = answer["result"]["status"].as_str().unwrap_or_default().to_owned();
        seen.push(answer);
        if status != "working" {
            return seen;
        }
        assert!(Instant::now() < deadline, "task {task} still working after 60 s: {:?}", seen.last());
        tokio::time::sleep(Duration::from_millis(POLL_INTERVAL_MS)).await;
    }
}

fn notes(count: usize) -> Value {
    let items: Vec<Value> = (0..count)
        .map(|i| json!({"type": "sticky-note", "properties": {"text": format!("note {i}"), "position": {"x": i * 10, "y": 0}}}))
        .collect();
    Value::Array(items)
}

/// A chain of `nodes` nodes: one line per edge.
fn chain(nodes: usize) -> String {
    let mut source = String::from("flowchart LR\n");
    for i in 0..nodes - 1 {
        source.push_str(&format!("  n{i}[Step {i}] --> n{}[Step {}]\n", i + 1, i + 1));
    }
    source
}

async fn item_count(app: &TestApp, user: &TestUser, project: &str) -> usize {
    let mut count = 0;
    let mut after = None::<String>;
    loop {
        let mut arguments = json!({"projectId": project, "limit": 1000});
        if let Some(cursor) = &after {
            arguments["cursor"] = json!(cursor);
        }
        let listed = call_tool(app, user, "list_items", arguments).await;
        let page = &listed["result"]["structuredContent"];
        count += page["items"].as_array().map_or(0, Vec::len);
        match page["nextCursor"].as_str().filter(|t| !t.is_empty()) {
            Some(next) => after = Some(next.to_owned()),
            None => return count,
        }
    }
}

/// The handle fields the extension requires, with our documented values.
fn assert_handle(answer: &Value) -> String {
    let result = &answer["result"];
    assert_eq!(result["resultType"], "task", "{answer}");
    assert_eq!(result["status"], "working", "{answer}");
    assert_eq!(result["ttlMs"], json!(KEEP_SECS * 1000), "{answer}");
    assert_eq!(result["pollIntervalMs"], json!(POLL_INTERVAL_MS), "{answer}");
    for field in ["createdAt", "lastUpdatedAt"] {
        let at = result[field].as_str().unwrap_or_default();
        assert!(chrono::DateTime::parse_from_rfc3339(at).is_ok(), "{field} is not ISO 8601: {answer}");
    }
    let id = result["taskId"].as_str().expect("a taskId").to_owned();
    assert!(uuid::Uuid::parse_str(&id).is_ok_and(|u| u.get_version_num() == 4), "an unguessable (v4) id: {id}");
    id
}

async fn long_calls_run_as_tasks_for_clients_that_declare_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;

    // More than ITEMS_ABOVE items, the extension declared: a handle at once, then the result.
    let many = ITEMS_ABOVE + 1;
    let handle = call(&app, &owner, "create_items", json!({"projectId": project, "items": notes(many)}), true).await;
    let task = assert_handle(&handle);
    let seen = until_done(&app, &owner, &task).await;
    for answer in &seen {
        assert_eq!(answer["result"]["resultType"], "complete", "tasks/get is a standard result: {answer}");
        assert_eq!(answer["result"]["taskId"], json!(task), "{answer}");
        assert!(answer["result"]["statusMessage"].as_str().is_some_and(|m| !m.is_empty()), "progress: {answer}");
    }
    let done = &seen.last().unwrap()["result"];
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(done["statusMessage"], "Done.", "{done}");
    assert_eq!(done["result"]["isError"], json!(false), "{done}");
    let created = done["result"]["structuredContent"]["items"].as_array().expect("the tool's output");
    assert_eq!(created.len(), many, "{done}");
    assert_eq!(item_count(&app, &owner, &project).await, many);
    // Polling a finished task answers the same result again.
    assert_eq!(get(&app, &owner, &task).await["result"]["result"], done["result"]);

    // The same call without the extension answers when done, as before.
    let direct = call(&app, &owner, "create_items", json!({"projectId": project, "items": notes(many)}), false).await;
    assert!(direct["result"].get("resultType").is_none_or(|t| t == "complete"), "{direct}");
    assert_eq!(direct["result"]["structuredContent"]["items"].as_array().map(Vec::len), Some(many), "{direct}");
    // ITEMS_ABOVE items or fewer are quick: answered at once even with the extension.
    let small =
        call(&app, &owner, "create_items", json!({"projectId": project, "items": notes(ITEMS_ABOVE)}), true).await;
    assert_eq!(small["result"]["structuredContent"]["items"].as_array().map(Vec::len), Some(ITEMS_ABOVE), "{small}");
    assert_eq!(item_count(&app, &owner, &project).await, 3 * many - 1);

    // A diagram of more than ITEMS_ABOVE lines: its nodes in the task's result.
    let handle =
        call(&app, &owner, "create_diagram", json!({"projectId": project, "source": chain(ITEMS_ABOVE + 2)}), true)
            .await;
    let task = assert_handle(&handle);
    let done = until_done(&app, &owner, &task).await.pop().unwrap();
    assert_eq!(done["result"]["status"], "completed", "{done}");
    let nodes = done["result"]["result"]["structuredContent"]["nodes"].as_object().expect("nodes");
    assert_eq!(nodes.len(), ITEMS_ABOVE + 2);

    // A tool error is a completed task carrying it (not a failed one): a rule broken by one item.
    let mut bad = notes(many);
    bad[7]["properties"]["text"] = json!(42);
    let handle = call(&app, &owner, "create_items", json!({"projectId": project, "items": bad}), true).await;
    let done = until_done(&app, &owner, &assert_handle(&handle)).await.pop().unwrap();
    assert_eq!(done["result"]["status"], "completed", "{done}");
    assert_eq!(done["result"]["result"]["isError"], json!(true), "{done}");
    let text = done["result"]["result"]["content"][0]["text"].as_str().unwrap_or_default();
    assert!(text.contains("items[7]"), "the error names the item: {text}");

    // The whole map drawn as a task: the image is in the kept result.
    let handle = call(&app, &owner, "render_map", json!({"projectId": project}), true).await;
    let done = until_done(&app, &owner, &assert_handle(&handle)).await.pop().unwrap();
    assert_eq!(done["result"]["status"], "completed", "{done}");
    let blocks = done["result"]["result"]["content"].as_array().expect("content");
    assert!(blocks.iter().any(|b| b["type"] == "image" && b["mimeType"] == "image/png"), "{done}");
    // The neighbourhood of a few items is quick: answered at once.
    let item = created[0]["itemId"].as_str().unwrap();
    let near = call(&app, &owner, "render_map", json!({"projectId": project, "itemIds": [item]}), true).await;
    assert!(near["result"]["content"].as_array().is_some_and(|b| b.iter().any(|b| b["type"] == "image")), "{near}");

    // Arguments that do not parse answer at once, as a JSON-RPC error, with no task.
    let wrong =
        call(&app, &owner, "create_items", json!({"projectId": project, "items": notes(many), "colour": 1}), true)
            .await;
    assert_eq!(wrong["error"]["code"], json!(-32602), "{wrong}");
}

async fn task_protocol_errors_are_the_extensions(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let stranger = app.user("stranger").await;
    let handle =
        call(&app, &owner, "create_items", json!({"projectId": project, "items": notes(ITEMS_ABOVE + 1)}), true).await;
    let task = assert_handle(&handle);

    // Without the extension declared on the request: -32021, naming it.
    let undeclared = rpc(&app, &owner, "tasks/get", &task, json!({"taskId": task}), false).await;
    assert_eq!(undeclared["error"]["code"], json!(-32021), "{undeclared}");
    assert!(undeclared["error"]["data"]["requiredCapabilities"]["extensions"].get(TASKS).is_some(), "{undeclared}");

    // Unknown, malformed and someone else's task ids: -32602, the same answer for each, so a
    // task's existence leaks to nobody.
    let unknown = uuid::Uuid::new_v4().to_string();
    for (who, id) in [(&owner, unknown.as_str()), (&owner, "not-a-task"), (&stranger, task.as_str())] {
        for method in ["tasks/get", "tasks/cancel", "tasks/update"] {
            let params = json!({"taskId": id, "inputResponses": {}});
            let answer = rpc(&app, who, method, id, params, true).await;
            assert_eq!(answer["error"]["code"], json!(-32602), "{method} {id}: {answer}");
            assert!(answer["error"]["message"].as_str().unwrap_or_default().starts_with("Failed to retrieve task"));
        }
    }

    // tasks/update of a task that asks nothing: acknowledged, responses ignored (the extension's rule).
    let params = json!({"taskId": task, "inputResponses": {"never-asked": {"action": "accept", "content": {}}}});
    let ack = rpc(&app, &owner, "tasks/update", &task, params, true).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    let done = until_done(&app, &owner, &task).await.pop().unwrap();
    assert_eq!(done["result"]["status"], "completed", "{done}");
    // tasks/cancel of a finished task: acknowledged, and it stays completed.
    let ack = rpc(&app, &owner, "tasks/cancel", &task, json!({"taskId": task}), true).await;
    assert_eq!(ack["result"], json!({"resultType": "complete"}), "{ack}");
    assert_eq!(get(&app, &owner, &task).await["result"]["status"], "completed");
}

async fn grpc(app: &TestApp) -> (AgentTaskServiceClient<Channel>, ItemServiceClient<Channel>) {
    let channel = Channel::from_shared(app.grpc_url.clone()).unwrap().connect().await.expect("core-service reachable");
    let limit = canvas_proto::limits::MAX_MESSAGE_BYTES;
    let tasks =
        AgentTaskServiceClient::new(channel.clone()).max_decoding_message_size(limit).max_encoding_message_size(limit);
    (tasks, ItemServiceClient::new(channel))
}

fn authed<T>(message: T, user: &TestUser) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("authorization", MetadataValue::try_from(user.bearer()).unwrap());
    request
}

fn bulk(project: &str, count: usize, task: Option<&str>) -> pb::CreateItemsRequest {
    let items = (0..count)
        .map(|i| pb::BulkItem {
            item_type: "sticky-note".into(),
            properties: Some(canvas_proto::json::to_proto_struct(
                json!({"text": format!("n{i}")}).as_object().unwrap().clone(),
            )),
            ..Default::default()
        })
        .collect();
    pb::CreateItemsRequest { project_id: project.to_owned(), items, task_id: task.map(str::to_owned) }
}

async fn start(tasks: &mut AgentTaskServiceClient<Channel>, user: &TestUser) -> String {
    let request = pb::StartTaskRequest { tool: "create_items".into(), status_message: "Started.".into() };
    tasks.start_task(authed(request, user)).await.unwrap().into_inner().task_id
}

fn task_ref(task: &str) -> pb::TaskRef {
    pb::TaskRef { task_id: task.to_owned() }
}

async fn a_cancelled_task_writes_nothing_and_a_committed_one_completes(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (mut tasks, mut items) = grpc(&app).await;

    // Cancelled first: the write that comes after is refused and writes nothing.
    let task = start(&mut tasks, &owner).await;
    let cancelled = tasks.cancel_task(authed(task_ref(&task), &owner)).await.unwrap().into_inner();
    assert_eq!(cancelled.status(), pb::AgentTaskStatus::Cancelled);
    // CONFLICT (gRPC ALREADY_EXISTS, HTTP 409 at the REST edge): the task's state forbids the write.
    let refused = items.create_items(authed(bulk(&project, 5, Some(&task)), &owner)).await.unwrap_err();
    assert_eq!(refused.code(), Code::AlreadyExists, "{refused:?}");
    assert!(refused.message().contains("nothing was written"), "{}", refused.message());
    let diagram = pb::CreateDiagramRequest {
        project_id: project.clone(),
        format: "mermaid".into(),
        source: chain(3),
        task_id: Some(task.clone()),
        ..Default::default()
    };
    assert_eq!(items.create_diagram(authed(diagram, &owner)).await.unwrap_err().code(), Code::AlreadyExists);
    assert_eq!(item_count(&app, &owner, &project).await, 0);

    // Committed first: the cancel is too late, and the task finishes as completed.
    let task = start(&mut tasks, &owner).await;
    items.create_items(authed(bulk(&project, 5, Some(&task)), &owner)).await.unwrap();
    let after = tasks.cancel_task(authed(task_ref(&task), &owner)).await.unwrap().into_inner();
    assert_eq!(after.status(), pb::AgentTaskStatus::Working, "a committed task is not cancelled");
    assert!(after.committed);
    let finish = pb::FinishTaskRequest {
        task_id: task.clone(),
        outcome: Some(pb::finish_task_request::Outcome::ResultJson(r#"{"content":[],"isError":false}"#.into())),
        status_message: "Done.".into(),
    };
    let finished = tasks.finish_task(authed(finish, &owner)).await.unwrap().into_inner();
    assert_eq!(finished.status(), pb::AgentTaskStatus::Completed);
    assert_eq!(item_count(&app, &owner, &project).await, 5);

    // Someone else's task cannot be written for, nor read.
    let stranger = app.user("stranger").await;
    app.add_member(&project, &stranger, core_service::domain::ProjectRole::Editor).await;
    let theirs = start(&mut tasks, &owner).await;
    let refused = items.create_items(authed(bulk(&project, 1, Some(&theirs)), &stranger)).await.unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    assert_eq!(tasks.get_task(authed(task_ref(&theirs), &stranger)).await.unwrap_err().code(), Code::NotFound);
    assert_eq!(item_count(&app, &owner, &project).await, 5);

    // At most MAX_WORKING_PER_PERSON working at once: the next start is refused (the gateway then
    // answers the call directly).
    use canvas_vocabulary::limits::tasks::MAX_WORKING_PER_PERSON;
    let other = app.user("busy").await;
    for _ in 0..MAX_WORKING_PER_PERSON {
        start(&mut tasks, &other).await;
    }
    let request = pb::StartTaskRequest { tool: "create_items".into(), status_message: String::new() };
    let refused = tasks.start_task(authed(request, &other)).await.unwrap_err();
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
}

/// The claim inside the write's transaction, where the order is made certain on PostgreSQL: the
/// write passed its checks and waits for a lock the test holds on `items` when the task is
/// cancelled; released, it writes its rows, finds the task cancelled at its claim, and rolls back.
/// (SQLite has one writer: a cancel and a write are never in flight together there.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_during_the_write_rolls_it_back_on_postgres() {
    use sqlx::Connection;
    let app = TestApp::spawn(Backend::Postgres).await;
    let (owner, project) = owner_with_project(&app).await;
    let (mut tasks, items) = grpc(&app).await;
    let url = app.db.database_url.clone().expect("a PostgreSQL test database");
    let mut holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let mut watcher = sqlx::PgConnection::connect(&url).await.unwrap();
    let mut held = holder.begin().await.unwrap();
    sqlx::query("LOCK TABLE items IN SHARE MODE").execute(&mut *held).await.unwrap();

    let task = start(&mut tasks, &owner).await;
    let write = {
        let (mut items, request) = (items.clone(), authed(bulk(&project, 5, Some(&task)), &owner));
        tokio::spawn(async move { items.create_items(request).await })
    };
    // Until the write waits for the table (its checks, the task's among them, are behind it).
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let waiting: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = 'items'::regclass")
                .fetch_one(&mut watcher)
                .await
                .unwrap();
        if waiting > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "the write never reached the items table");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let cancelled = tasks.cancel_task(authed(task_ref(&task), &owner)).await.unwrap().into_inner();
    assert_eq!(cancelled.status(), pb::AgentTaskStatus::Cancelled, "nothing committed yet: the cancel wins");
    held.rollback().await.unwrap();

    let refused = write.await.unwrap().unwrap_err();
    assert_eq!(refused.code(), Code::AlreadyExists, "{refused:?}");
    assert!(refused.message().contains("before its change was written"), "{}", refused.message());
    assert_eq!(item_count(&app, &owner, &project).await, 0, "the rows it inserted were rolled back");
    let events: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM events WHERE kind = 'item.created'")
        .fetch_one(&mut watcher)
        .await
        .unwrap();
    assert_eq!(events, 0, "and their events with them");
    let after = tasks.get_task(authed(task_ref(&task), &owner)).await.unwrap().into_inner();
    assert_eq!(after.status(), pb::AgentTaskStatus::Cancelled);
    assert!(!after.committed);
}

async fn a_task_whose_gateway_stopped_says_whether_its_change_was_made(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let (mut tasks, mut items) = grpc(&app).await;
    // Two tasks whose gateway never renews them: one wrote its change, one did not.
    let wrote = start(&mut tasks, &owner).await;
    items.create_items(authed(bulk(&project, 2, Some(&wrote)), &owner)).await.unwrap();
    let idle = start(&mut tasks, &owner).await;
    let still = tasks.get_task(authed(task_ref(&idle), &owner)).await.unwrap().into_inner();
    assert_eq!(still.status(), pb::AgentTaskStatus::Working, "within its lease");

    tokio::time::sleep(Duration::from_secs(LEASE_SECS + 1)).await;
    let read = |task: String| {
        let mut tasks = tasks.clone();
        let owner = &owner;
        async move { tasks.get_task(authed(task_ref(&task), owner)).await.unwrap().into_inner() }
    };
    let wrote = read(wrote).await;
    assert_eq!(wrote.status(), pb::AgentTaskStatus::Failed);
    let error: Value = serde_json::from_str(wrote.error_json.as_deref().unwrap()).unwrap();
    assert_eq!(error["code"], json!(-32603));
    assert!(error["message"].as_str().unwrap().contains("the change was made"), "{error}");
    let idle = read(idle).await;
    assert_eq!(idle.status(), pb::AgentTaskStatus::Failed);
    let error: Value = serde_json::from_str(idle.error_json.as_deref().unwrap()).unwrap();
    assert!(error["message"].as_str().unwrap().contains("nothing was written"), "{error}");
    // A failed task stays failed: a late finish does not overwrite it.
    let finish = pb::FinishTaskRequest {
        task_id: idle.task_id.clone(),
        outcome: Some(pb::finish_task_request::Outcome::ResultJson("{}".into())),
        status_message: "late".into(),
    };
    let after = tasks.finish_task(authed(finish, &owner)).await.unwrap().into_inner();
    assert_eq!(after.status(), pb::AgentTaskStatus::Failed);
}

/// A result over tonic's 4 MiB default (a large `render_map` image) is kept whole; one over
/// `MAX_RESULT_BYTES` fails its task, saying why.
async fn a_large_result_is_kept_and_a_too_large_one_fails_its_task(backend: Backend) {
    use canvas_vocabulary::limits::tasks::MAX_RESULT_BYTES;
    let app = TestApp::spawn(backend).await;
    let (owner, _) = owner_with_project(&app).await;
    let (mut tasks, _) = grpc(&app).await;
    let result = |bytes: usize| {
        let text = "x".repeat(bytes - 60);
        let json = json!({"content": [{"type": "text", "text": text}], "isError": false}).to_string();
        Some(pb::finish_task_request::Outcome::ResultJson(json))
    };
    let task = start(&mut tasks, &owner).await;
    let finish =
        pb::FinishTaskRequest { task_id: task.clone(), outcome: result(6 << 20), status_message: "Done.".into() };
    assert_eq!(
        tasks.finish_task(authed(finish, &owner)).await.unwrap().into_inner().status(),
        pb::AgentTaskStatus::Completed
    );
    let kept = tasks.get_task(authed(task_ref(&task), &owner)).await.unwrap().into_inner();
    let kept: Value = serde_json::from_str(kept.result_json.as_deref().unwrap()).unwrap();
    assert_eq!(kept["content"][0]["text"].as_str().map(str::len), Some((6 << 20) - 60));

    let task = start(&mut tasks, &owner).await;
    let finish = pb::FinishTaskRequest {
        task_id: task.clone(),
        outcome: result(MAX_RESULT_BYTES + 100),
        status_message: "Done.".into(),
    };
    let failed = tasks.finish_task(authed(finish, &owner)).await.unwrap().into_inner();
    assert_eq!(failed.status(), pb::AgentTaskStatus::Failed);
    let error: Value = serde_json::from_str(failed.error_json.as_deref().unwrap()).unwrap();
    assert!(error["message"].as_str().unwrap().contains(&format!("more than the {MAX_RESULT_BYTES}")), "{error}");
}

/// The official Tasks extension package, over the official TypeScript client
/// (`tests/mcp/tasks_ext.mjs`): handle, polling with progress, cancellation, results.
async fn the_official_tasks_package_follows_our_tasks(backend: Backend) {
    crate::browser::require_browser();
    let app = TestApp::spawn(backend).await;
    let (owner, project) = owner_with_project(&app).await;
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp/tasks_ext.mjs");
    let mut command = tokio::process::Command::new("node");
    command.arg(&script).env("CANVAS_MCP_SDK_DIR", crate::mcp_schemas::sdk_dir());
    command.env("CANVAS_BROWSER_DIR", crate::browser::browser_dir());
    command.args(["--url", &app.mcp_url(), "--token", &owner.token, "--project", &project]);
    let output = tokio::time::timeout(Duration::from_secs(180), command.kill_on_drop(true).output())
        .await
        .expect("the tasks package run finishes within 180 s")
        .expect("node starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    println!("--- tasks_ext.mjs\n{stdout}\n--- stderr\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success() && stdout.contains("5 passed, 0 failed"),
        "the tasks package's checks failed; see above"
    );
}

/// A task is kept `KEEP_SECS` (1 h, the `ttlMs` every task states): past it, `tasks/get` answers as
/// for a task that never was, and the next task started deletes its row.
async fn a_task_past_its_keeping_time_is_forgotten(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (owner, _project) = owner_with_project(&app).await;
    let (mut tasks, _) = grpc(&app).await;
    let old = start(&mut tasks, &owner).await;
    let kept = get(&app, &owner, &old).await;
    assert_eq!(kept["result"]["status"], "working", "{kept}");
    assert_eq!(kept["result"]["ttlMs"], json!(KEEP_SECS * 1000), "{kept}");

    // An hour later, as the database sees it: the task's keeping time ends at its start.
    assert_eq!(app.db.execute("UPDATE agent_tasks SET expires_at = created_at").await, 1);
    let forgotten = get(&app, &owner, &old).await;
    let never = get(&app, &owner, &uuid::Uuid::new_v4().to_string()).await;
    assert_eq!(forgotten["error"]["code"], json!(-32602), "{forgotten}");
    assert_eq!(forgotten["error"]["code"], never["error"]["code"], "as a task that never was");
    assert!(forgotten["error"]["message"].as_str().unwrap_or_default().starts_with("Failed to retrieve task"));
    let cancel = rpc(&app, &owner, "tasks/cancel", &old, json!({"taskId": old}), true).await;
    assert_eq!(cancel["error"]["code"], json!(-32602), "nor can it be cancelled: {cancel}");

    // The next start prunes it; the new task is kept.
    let new = start(&mut tasks, &owner).await;
    assert_eq!(app.db.execute("UPDATE agent_tasks SET tool = tool WHERE expires_at = created_at").await, 0);
    assert_eq!(app.db.execute("UPDATE agent_tasks SET tool = tool").await, 1, "only the new task is left");
    assert_eq!(get(&app, &owner, &new).await["result"]["status"], "working");
}
