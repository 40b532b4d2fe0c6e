//! What one person, and one project, may hold in a replica's memory (docs/LIMITS.md, "Held open
//! per person and per project"), flooded one structure at a time while another member goes on:
//! open event streams (`/changes` and `/presence`), present map clients, retries waiting for a
//! running idempotent call, and the credentials that each carry a rate-limit budget (API tokens,
//! account-site sessions; OAuth grants are in `oauth.rs`). Each flood is refused with the answer
//! the docs name, and the other member's calls are answered as if nobody flooded.

use std::sync::Arc;
use std::time::Duration;

use canvas_tests::{backend_tests, Backend, TestApp, TestUser};
use core_service::domain::{ProjectRole, UserId};
use core_service::error::CoreError;
use core_service::service::access::fair_share::FairShareConfig;
use core_service::service::items::idempotency::Retry;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};

use crate::site_client::SiteClient;
use crate::support::{create_label, send};

backend_tests!(
    streams_are_bounded_per_person_and_per_project_while_others_are_served,
    present_clients_are_bounded_per_person_and_per_project,
    waiting_retries_are_bounded_and_the_rest_answer_at_once,
    api_tokens_and_sessions_are_bounded_per_person,
);

/// Small bounds, so that a test reaches each in a few calls.
fn small() -> FairShareConfig {
    FairShareConfig {
        streams_per_person: 3,
        streams_per_project: 5,
        presence_clients_per_person: 3,
        presence_clients_per_project: 4,
        idempotency_waits_per_person: 2,
        idempotency_waits_per_project: 3,
        api_tokens_per_person: 3,
        sessions_per_person: 2,
        ..FairShareConfig::default()
    }
}

/// An open event stream: its response, kept to keep the stream open.
struct Stream {
    response: reqwest::Response,
    buffer: String,
}

impl Stream {
    /// Waits for an event whose text contains `needle`, at most `within`.
    async fn saw(&mut self, needle: &str, within: Duration) -> bool {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if self.buffer.contains(needle) {
                return true;
            }
            match tokio::time::timeout_at(deadline, self.response.chunk()).await {
                Ok(Ok(Some(chunk))) => self.buffer.push_str(&String::from_utf8_lossy(&chunk)),
                _ => return false,
            }
        }
    }
}

/// `GET .../{kind}` (`changes` or `presence`) as `user`: the open stream, or the refusal.
async fn open(app: &TestApp, user: &TestUser, project: &str, kind: &str) -> Result<Stream, reqwest::Response> {
    let url = format!("{}/api/v2/projects/{project}/{kind}?jsonCasing=camel", app.base_url);
    let response = app.http.get(url).header("Authorization", user.bearer()).send().await.unwrap();
    if response.status() == StatusCode::OK {
        Ok(Stream { response, buffer: String::new() })
    } else {
        Err(response)
    }
}

/// Checks a 429 of a bound on things held at once: the fields of the draft, with its policy.
async fn assert_refused(refusal: reqwest::Response, policy: &str, quota: u32, retry_after: &str) {
    assert_eq!(refusal.status(), StatusCode::TOO_MANY_REQUESTS);
    let headers = refusal.headers().clone();
    let header = |name: &str| headers.get(name).map(|v| v.to_str().unwrap().to_owned());
    assert_eq!(header("ratelimit-policy"), Some(format!("\"{policy}\";q={quota};qu=\"concurrent-requests\"")));
    assert_eq!(header("ratelimit"), Some(format!("\"{policy}\";r=0;t={retry_after}")));
    assert_eq!(header("retry-after").as_deref(), Some(retry_after));
    let body: Value = refusal.json().await.unwrap();
    assert_eq!(body["reason"], "TOO_MANY_REQUESTS", "{body}");
    let scope = policy.rsplit('-').next().unwrap();
    assert!(body["detail"].as_str().unwrap().contains(&format!("at most {quota} per {scope}")), "{body}");
}

fn expect_open(opened: Result<Stream, reqwest::Response>, what: &str) -> Stream {
    opened.unwrap_or_else(|refusal| panic!("{what}: {}", refusal.status()))
}

async fn streams_are_bounded_per_person_and_per_project_while_others_are_served(backend: Backend) {
    let app = TestApp::spawn_sharing(backend, small()).await;
    let (ada, bob, cy) = (app.user("ada").await, app.user("bob").await, app.user("cy").await);
    let (busy, quiet) = (app.project(&ada).await, app.project(&ada).await);
    for project in [&busy, &quiet] {
        app.add_member(project, &bob, ProjectRole::Editor).await;
        app.add_member(project, &cy, ProjectRole::Viewer).await;
    }

    // Ada holds her three: change and presence streams count alike, across projects.
    let mut held = vec![
        expect_open(open(&app, &ada, &busy, "changes").await, "ada's first"),
        expect_open(open(&app, &ada, &busy, "presence").await, "ada's second"),
        expect_open(open(&app, &ada, &quiet, "changes").await, "ada's third"),
    ];
    for kind in ["changes", "presence"] {
        let refusal = open(&app, &ada, &quiet, kind).await.err().expect("a fourth stream of ada is refused");
        assert_refused(refusal, "streams-per-person", 3, "10").await;
    }

    // Bob is served beside her, up to the project's five, and his stream carries his changes.
    let mut bobs = expect_open(open(&app, &bob, &busy, "changes").await, "bob's first");
    let _bobs_second = expect_open(open(&app, &bob, &busy, "changes").await, "bob's second");
    let label = create_label(&app, &bob, &busy, json!({"text": "served"})).await;
    assert!(bobs.saw(&label, Duration::from_secs(5)).await, "bob's stream carries his write: {}", bobs.buffer);
    let _cys_first = expect_open(open(&app, &cy, &busy, "presence").await, "the project's fifth");
    let refusal = open(&app, &cy, &busy, "changes").await.err().expect("a sixth stream of the project is refused");
    assert_refused(refusal, "streams-per-project", 5, "10").await;
    let _cys = expect_open(open(&app, &cy, &quiet, "presence").await, "another project is unaffected");

    // A closed stream gives its place back.
    drop(held.pop());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        match open(&app, &ada, &quiet, "changes").await {
            Ok(stream) => break held.push(stream),
            Err(refusal) if tokio::time::Instant::now() < deadline => {
                assert_eq!(refusal.status(), StatusCode::TOO_MANY_REQUESTS);
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(refusal) => panic!("ada's closed stream was not given back: {}", refusal.status()),
        }
    }
}

async fn announce(app: &TestApp, user: &TestUser, project: &str, client: &str) -> reqwest::Response {
    let url = format!("{}/api/v2/projects/{project}/presence?jsonCasing=camel", app.base_url);
    let body = json!({"clientId": client, "cursor": {"x": 1, "y": 2}, "selection": []});
    app.http.post(url).header("Authorization", user.bearer()).json(&body).send().await.unwrap()
}

async fn present_clients_are_bounded_per_person_and_per_project(backend: Backend) {
    let app = TestApp::spawn_sharing(backend, small()).await;
    let (ada, bob, cy) = (app.user("ada").await, app.user("bob").await, app.user("cy").await);
    let (busy, quiet) = (app.project(&ada).await, app.project(&bob).await);
    app.add_member(&busy, &bob, ProjectRole::Viewer).await;
    app.add_member(&busy, &cy, ProjectRole::Viewer).await;
    app.add_member(&quiet, &ada, ProjectRole::Viewer).await;
    let mut bobs_view = expect_open(open(&app, &bob, &busy, "presence").await, "bob follows");

    // Each announcement is waited for where Bob sees it: on PostgreSQL a replica counts what has
    // come back through NOTIFY, and an announcement racing past the count is dropped, not shown.
    for client in ["ada-1", "ada-2", "ada-3"] {
        assert_eq!(announce(&app, &ada, &busy, client).await.status(), StatusCode::NO_CONTENT, "{client}");
        assert!(bobs_view.saw(client, Duration::from_secs(5)).await, "{}", bobs_view.buffer);
    }
    // Her fourth client is refused here and on any other map; her present ones move freely.
    assert_refused(announce(&app, &ada, &busy, "ada-4").await, "presence-clients-per-person", 3, "30").await;
    assert_refused(announce(&app, &ada, &quiet, "ada-4").await, "presence-clients-per-person", 3, "30").await;
    assert_eq!(announce(&app, &ada, &busy, "ada-1").await.status(), StatusCode::NO_CONTENT);

    // Bob's client fills the map's four; Cy's is refused for the project, not for him.
    assert_eq!(announce(&app, &bob, &busy, "bob-1").await.status(), StatusCode::NO_CONTENT);
    assert!(bobs_view.saw("bob-1", Duration::from_secs(5)).await, "{}", bobs_view.buffer);
    assert_refused(announce(&app, &cy, &busy, "cy-1").await, "presence-clients-per-project", 4, "30").await;
    assert_eq!(announce(&app, &bob, &quiet, "bob-2").await.status(), StatusCode::NO_CONTENT, "another map has room");

    // A client that leaves makes room at once.
    let url = format!("{}/api/v2/projects/{busy}/presence", app.base_url);
    let leave = json!({"clientId": "ada-3", "selection": [], "leaving": true});
    let reply = send(&app, Method::POST, &url, Some(&ada.bearer()), Some(leave)).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while announce(&app, &cy, &busy, "cy-1").await.status() != StatusCode::NO_CONTENT {
        assert!(tokio::time::Instant::now() < deadline, "ada's leaving did not make room");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(bobs_view.saw("cy-1", Duration::from_secs(5)).await, "{}", bobs_view.buffer);
    assert!(!bobs_view.buffer.contains("ada-4"), "no refused client was ever shown: {}", bobs_view.buffer);
}

async fn waiting_retries_are_bounded_and_the_rest_answer_at_once(backend: Backend) {
    let app = Arc::new(TestApp::spawn_sharing(backend, small()).await);
    let (ada, bob) = (app.user("ada").await, app.user("bob").await);
    let (busy, quiet) = (app.project(&ada).await, app.project(&bob).await);
    app.add_member(&busy, &bob, ProjectRole::Editor).await;
    let principal = |user: &TestUser| {
        let app = app.clone();
        let bearer = user.bearer();
        async move { app.core.access().authenticate(Some(&bearer)).await.unwrap() }
    };
    let (ada_p, bob_p) = (principal(&ada).await, principal(&bob).await);
    let deadline = Duration::from_secs(30);
    let release = Arc::new(tokio::sync::Notify::new());

    // A first call that runs until released, so that its retries wait.
    let start = |who: core_service::service::Principal, key: &str, project: &str| {
        let (app, release) = (app.clone(), release.clone());
        let retry = Retry::new(key, "/create", project, b"same request").unwrap();
        let (started_tx, started) = tokio::sync::oneshot::channel();
        let call = tokio::spawn(async move {
            let work = async move {
                let _ = started_tx.send(());
                release.notified().await;
                Ok(b"the answer".to_vec())
            };
            app.core.items().once(&who, retry, deadline, work, |_| None).await
        });
        (call, started)
    };
    let retry = |who: &core_service::service::Principal, key: &str, project: &str| {
        let (app, who) = (app.clone(), who.clone());
        let retry = Retry::new(key, "/create", project, b"same request").unwrap();
        // A retry never runs the call: it waits for the first one's answer or is refused.
        let never = async { Err(CoreError::internal("a retry ran the call")) };
        tokio::spawn(async move { app.core.items().once(&who, retry, deadline, never, |_| None).await })
    };
    let (ada_first, started) = start(ada_p.clone(), "ada-key", &busy);
    started.await.unwrap();

    // Five retries of Ada's: two wait, three answer at once while her call still runs.
    let mut ada_retries: Vec<_> = (0..5).map(|_| retry(&ada_p, "ada-key", &busy)).collect();
    let mut refused = 0;
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while refused < 3 {
        assert!(tokio::time::Instant::now() < until, "{refused} of three retries answered at once");
        let mut still = Vec::new();
        for task in ada_retries.drain(..) {
            if task.is_finished() {
                match task.await.unwrap() {
                    Err(CoreError::IdempotencyKeyInUse(message)) => {
                        assert!(message.contains("retries of yours"), "{message}");
                        refused += 1;
                    }
                    other => panic!("a retry past the bound answered {other:?}"),
                }
            } else {
                still.push(task);
            }
        }
        ada_retries = still;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(ada_retries.len(), 2, "two of Ada's retries wait");
    assert_eq!(app.core.access().shares().idempotency_waits.held_by(UserId::parse(&ada.id).unwrap()), 2);

    // Bob's retry on the same project takes its third place; his next one finds the project full,
    // and one on another project waits.
    let (bob_first, started) = start(bob_p.clone(), "bob-key", &busy);
    started.await.unwrap();
    let bob_waits = retry(&bob_p, "bob-key", &busy);
    tokio::time::sleep(Duration::from_millis(300)).await;
    match retry(&bob_p, "bob-key", &busy).await.unwrap() {
        Err(CoreError::IdempotencyKeyInUse(message)) => assert!(message.contains("on this project"), "{message}"),
        other => panic!("a retry past the project's bound answered {other:?}"),
    }
    let (bob_elsewhere, started) = start(bob_p.clone(), "bob-quiet-key", &quiet);
    started.await.unwrap();
    let bob_quiet_waits = retry(&bob_p, "bob-quiet-key", &quiet);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!bob_waits.is_finished() && !bob_quiet_waits.is_finished(), "bob's retries within the bounds wait");

    // Released, every first call answers and every waiting retry replays its answer.
    release.notify_waiters();
    for first in [ada_first, bob_first, bob_elsewhere] {
        assert_eq!(first.await.unwrap().unwrap(), (b"the answer".to_vec(), false));
    }
    for waiting in ada_retries.into_iter().chain([bob_waits, bob_quiet_waits]) {
        assert_eq!(waiting.await.unwrap().unwrap(), (b"the answer".to_vec(), true), "a waiting retry replays");
    }
    assert_eq!(app.core.access().shares().idempotency_waits.held_by(UserId::parse(&ada.id).unwrap()), 0);
}

async fn api_tokens_and_sessions_are_bounded_per_person(backend: Backend) {
    let app = TestApp::spawn_sharing(backend, small()).await;
    let (ada, bob) = (app.user("ada").await, app.user("bob").await);
    let (ada_id, bob_id) = (UserId::parse(&ada.id).unwrap(), UserId::parse(&bob.id).unwrap());
    let accounts = app.core.accounts();

    // Ada holds one token already; two more reach the bound of three, a fourth is refused.
    let second = accounts.create_token(&app.admin, ada_id, None, "second").await.unwrap();
    accounts.create_token(&app.admin, ada_id, None, "third").await.unwrap();
    match accounts.create_token(&app.admin, ada_id, None, "fourth").await {
        Err(CoreError::Conflict(message)) => assert!(message.contains("holds 3 API tokens"), "{message}"),
        Err(other) => panic!("a fourth token was refused with {other:?}"),
        Ok(_) => panic!("a fourth token was created"),
    }
    accounts.create_token(&app.admin, bob_id, None, "bob's second").await.expect("bob has his own bound");
    // A revoked token makes room, and every token Ada holds still works.
    accounts.revoke_token(&app.admin, second.row.id).await.unwrap();
    let fourth = accounts.create_token(&app.admin, ada_id, None, "fourth").await.unwrap();
    let items = |project: &str| format!("{}/api/v2/projects/{project}/items", app.base_url);
    let project = app.project(&ada).await;
    for bearer in [ada.bearer(), format!("Bearer {}", fourth.secret)] {
        assert_eq!(send(&app, Method::GET, &items(&project), Some(&bearer), None).await.status, StatusCode::OK);
    }

    // A third sign-in ends the least recently used of two sessions; another person's is kept.
    app.account_user("Cy", "cy", "correct horse battery").await;
    app.account_user("Di", "di", "correct horse battery").await;
    let mut dis = SiteClient::new(&app);
    assert_eq!(dis.sign_in("di", "correct horse battery").await.status, StatusCode::SEE_OTHER);
    let mut sites = Vec::new();
    for _ in 0..3 {
        let mut site = SiteClient::new(&app);
        assert_eq!(site.sign_in("cy", "correct horse battery").await.status, StatusCode::SEE_OTHER);
        sites.push(site);
        // `last_seen_at` orders them: distinct instants on every backend.
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_ne!(sites[0].get("/account/api-tokens").await.status, StatusCode::OK, "the oldest session was ended");
    assert_eq!(sites[1].get("/account/api-tokens").await.status, StatusCode::OK);
    assert_eq!(sites[2].get("/account/api-tokens").await.status, StatusCode::OK);
    assert_eq!(dis.get("/account/api-tokens").await.status, StatusCode::OK, "another person's session is kept");
    let activity = sites[2].get("/account/activity").await;
    assert!(activity.body.contains("least recently used session(s) signed out"), "{}", activity.body);
}
