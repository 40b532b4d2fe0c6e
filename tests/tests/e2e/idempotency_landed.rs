//! An idempotent create whose write committed but whose answer was lost: the connection broke at
//! the commit, as it does when the database fails over (bench/failover.sh found a label created
//! twice this way before the write recorded itself). The write marks the key's row in its own
//! transaction (`landed`), so a retry answers with what was written and never runs the call a
//! second time; a call whose write did not commit still frees its key for the retry.
//!
//! The lost answer is made by a call that creates the item and then fails as a broken connection
//! does (503, database unavailable); the retry is the same key and request through the same path
//! the gRPC layer uses (`ItemsService::once`).

use std::sync::Arc;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::ProjectId;
use core_service::error::{CoreError, Dependency};
use core_service::service::items::idempotency::Retry;
use core_service::service::Principal;
use core_service::storage::{Landed, LandedDiagram};
use serde_json::{json, Map, Value};

use crate::bulk::all_items;
use crate::support::owner_with_project;

backend_tests!(
    a_create_whose_answer_was_lost_is_answered_from_what_it_wrote,
    a_create_that_did_not_commit_frees_its_key,
    a_landed_write_with_no_answer_to_rebuild_is_never_run_again,
    a_diagram_whose_answer_was_lost_is_answered_from_what_it_wrote
);

/// The answer a retry rebuilds: the ids that landed, in order.
fn ids_of(landed: &Landed) -> Option<Vec<u8>> {
    Some(
        landed
            .items()
            .iter()
            .map(|item| format!("{}:{}:{}", item.id, item.version, item.item_type))
            .collect::<Vec<_>>()
            .join(",")
            .into_bytes(),
    )
}

/// A service, its owner's project, and the owner as the service layer knows them.
async fn setup(backend: Backend) -> (Arc<TestApp>, TestUser, String, Principal, ProjectId) {
    let app = Arc::new(TestApp::spawn(backend).await);
    let (owner, project) = owner_with_project(&app).await;
    let who = app.core.access().authenticate(Some(&owner.bearer())).await.unwrap();
    let project_id = ProjectId::parse(&project).unwrap();
    (app, owner, project, who, project_id)
}

fn text(value: &str) -> Map<String, Value> {
    json!({"text": value}).as_object().unwrap().clone()
}

async fn a_create_whose_answer_was_lost_is_answered_from_what_it_wrote(backend: Backend) {
    let (app, owner, project, who, project_id) = setup(backend).await;
    let retry = || Retry::new("lost-answer", "/canvas.v1.ItemService/CreateItem", &project, b"one label").unwrap();
    let deadline = Duration::from_secs(30);

    // The first run: the label commits, then the answer is lost as with a broken connection.
    let (core, first_who) = (app.core.clone(), who.clone());
    let first = async move {
        core.items().create_item(&first_who, project_id, "panel", "label", text("written once"), None).await?;
        Err(CoreError::unavailable(Dependency::Database, "the connection broke at the commit", 1))
    };
    let answered = app.core.items().once(&who, retry(), deadline, first, ids_of).await;
    assert!(matches!(answered, Err(CoreError::Unavailable { .. })), "the caller saw the failure: {answered:?}");

    let items = all_items(&app, &owner, &project).await;
    assert_eq!(items.len(), 1, "the label was written: {items:?}");
    let id = items[0]["itemId"].as_str().unwrap().to_owned();

    // Retries, at once and later: each answers the written label, replayed, and runs nothing.
    for n in 0..3 {
        let never = async { Err(CoreError::internal("a retry ran the create a second time")) };
        let (answer, replayed) = app.core.items().once(&who, retry(), deadline, never, ids_of).await.unwrap();
        assert!(replayed, "retry {n}");
        assert_eq!(String::from_utf8(answer).unwrap(), format!("{id}:1:label"), "retry {n}");
    }
    let items = all_items(&app, &owner, &project).await;
    assert_eq!(items.len(), 1, "still one label: {items:?}");
    assert_eq!(items[0]["text"], "written once");

    // A bulk create whose answer was lost: the retry answers every item, in order.
    let retry = || Retry::new("lost-bulk", "/canvas.v1.ItemService/CreateItems", &project, b"three labels").unwrap();
    let (core, first_who) = (app.core.clone(), who.clone());
    let first = async move {
        let batch = (0..3)
            .map(|n| core_service::service::items::bulk::BulkItem {
                reference: None,
                item_type: "label".into(),
                parent: None,
                properties: text(&format!("bulk {n}")),
            })
            .collect();
        core.items().create_items(&first_who, project_id, batch).await?;
        Err(CoreError::unavailable(Dependency::Database, "the connection broke at the commit", 1))
    };
    assert!(app.core.items().once(&who, retry(), deadline, first, ids_of).await.is_err());
    let never = async { Err(CoreError::internal("a retry ran the bulk create a second time")) };
    let (answer, replayed) = app.core.items().once(&who, retry(), deadline, never, ids_of).await.unwrap();
    let items = all_items(&app, &owner, &project).await;
    assert_eq!(items.len(), 4, "one label and three from the bulk create: {items:?}");
    let bulk: Vec<String> = items[1..].iter().map(|i| format!("{}:1:label", i["itemId"].as_str().unwrap())).collect();
    assert!(replayed);
    assert_eq!(String::from_utf8(answer).unwrap(), bulk.join(","), "every item, in creation order");
}

async fn a_create_that_did_not_commit_frees_its_key(backend: Backend) {
    let (app, owner, project, who, project_id) = setup(backend).await;
    let retry = || Retry::new("not-landed", "/canvas.v1.ItemService/CreateItem", &project, b"one label").unwrap();
    let deadline = Duration::from_secs(30);

    // The database went away before the write: nothing landed, so the key is free again.
    let failed = async { Err(CoreError::unavailable(Dependency::Database, "the database does not answer", 5)) };
    assert!(app.core.items().once(&who, retry(), deadline, failed, ids_of).await.is_err());
    let core = app.core.clone();
    let who_again = who.clone();
    let second = async move {
        let written =
            core.items().create_item(&who_again, project_id, "panel", "label", text("the retry"), None).await?;
        Ok(written.item.to_string().into_bytes())
    };
    let (answer, replayed) = app.core.items().once(&who, retry(), deadline, second, ids_of).await.unwrap();
    assert!(!replayed, "the retry ran the call");
    let items = all_items(&app, &owner, &project).await;
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(String::from_utf8(answer).unwrap(), items[0]["itemId"].as_str().unwrap());
}

/// A call whose write landed but whose answer cannot be made from it (no rebuild): while its
/// claim's lease runs, a retry waits as for a running call and is refused "in progress" at its
/// deadline; it never runs the call again.
async fn a_landed_write_with_no_answer_to_rebuild_is_never_run_again(backend: Backend) {
    let (app, owner, project, who, project_id) = setup(backend).await;
    let retry = || Retry::new("no-rebuild", "/canvas.v1.ItemService/CreateItem", &project, b"one label").unwrap();
    let deadline = Duration::from_secs(2);
    let no_rebuild = |_: &Landed| None;
    let (core, first_who) = (app.core.clone(), who.clone());
    let first = async move {
        core.items().create_item(&first_who, project_id, "panel", "label", text("landed"), None).await?;
        Err(CoreError::unavailable(Dependency::Database, "the connection broke at the commit", 1))
    };
    assert!(app.core.items().once(&who, retry(), deadline, first, no_rebuild).await.is_err());
    let never = async { Err(CoreError::internal("a retry ran the create a second time")) };
    let answered = app.core.items().once(&who, retry(), deadline, never, no_rebuild).await;
    assert!(matches!(answered, Err(CoreError::IdempotencyKeyInUse(_))), "{answered:?}");
    assert_eq!(all_items(&app, &owner, &project).await.len(), 1, "written once");
}

/// A diagram create (its items and its record in one transaction) whose answer was lost: the
/// write recorded the diagram, its items in the answer's order and each node's shape, and every
/// retry answers exactly that, drawing nothing a second time.
async fn a_diagram_whose_answer_was_lost_is_answered_from_what_it_wrote(backend: Backend) {
    let (app, owner, project, who, project_id) = setup(backend).await;
    let retry = || Retry::new("lost-diagram", "/canvas.v1.ItemService/CreateDiagram", &project, b"a flow").unwrap();
    let deadline = Duration::from_secs(30);
    let recorded = |landed: &Landed| match landed {
        Landed::Diagram(diagram) => Some(serde_json::to_vec(diagram).unwrap()),
        Landed::Items(_) => None,
    };

    let made = Arc::new(std::sync::Mutex::new(None));
    let (core, first_who, seen) = (app.core.clone(), who.clone(), made.clone());
    let first = async move {
        let source = "flowchart LR\n  a[Start] --> b{Choose}\n  b -->|yes| c[Done]";
        let created = core.items().create_diagram(&first_who, project_id, "mermaid", source, None, None).await?;
        *seen.lock().unwrap() = Some(created);
        Err(CoreError::unavailable(Dependency::Database, "the connection broke at the commit", 1))
    };
    let answered = app.core.items().once(&who, retry(), deadline, first, recorded).await;
    assert!(matches!(answered, Err(CoreError::Unavailable { .. })), "the caller saw the failure: {answered:?}");
    let created = made.lock().unwrap().take().expect("the first run drew the diagram");
    let drawn = all_items(&app, &owner, &project).await.len();
    assert_eq!(drawn, created.item_ids.len());

    for n in 0..3 {
        let never = async { Err(CoreError::internal("a retry drew the diagram a second time")) };
        let (answer, replayed) = app.core.items().once(&who, retry(), deadline, never, recorded).await.unwrap();
        assert!(replayed, "retry {n}");
        let landed: LandedDiagram = serde_json::from_slice(&answer).unwrap();
        assert_eq!(landed.diagram, created.diagram.expect("a record").uuid(), "retry {n}");
        assert_eq!(landed.items, created.item_ids.iter().map(|id| id.uuid()).collect::<Vec<_>>(), "retry {n}");
        let nodes: std::collections::BTreeMap<String, uuid::Uuid> =
            created.nodes.iter().map(|(node, id)| (node.clone(), id.uuid())).collect();
        assert_eq!(landed.nodes, nodes, "retry {n}");
        assert_eq!(landed.nodes.len(), 3, "retry {n}: a, b and c");
    }
    assert_eq!(all_items(&app, &owner, &project).await.len(), drawn, "nothing drawn twice");
    let url = format!("{}/api/v2/projects/{project}/diagrams?jsonCasing=camel", app.base_url);
    let listed = crate::support::send(&app, reqwest::Method::GET, &url, Some(&owner.bearer()), None).await;
    assert_eq!(listed.body["diagrams"].as_array().map(Vec::len), Some(1), "{}", listed.body);
}
