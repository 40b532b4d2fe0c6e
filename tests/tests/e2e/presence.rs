//! Presence on the live web map (`/api/v2/projects/{p}/presence`): an announcement reaches every
//! follower within a second with the person's name and colour, then selections, leaving and
//! expiry; access and bodies are checked like every project call; a session announces only with
//! its CSRF value; across two core-service replicas on PostgreSQL an announcement on one reaches
//! a follower on the other; and announcing writes nothing to the database.

use std::time::Duration;

use canvas_tests::{backend_tests, keyword_only, Backend, TestApp, TestUser};
use core_service::domain::{ProjectRole, UserId};
use core_service::service::items::presence::colour_for;
use reqwest::{Method, StatusCode};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::site_client::SiteClient;
use crate::support::{assert_invalid, create_label, send};

backend_tests!(
    presence_reaches_followers_with_name_colour_selection_and_leaving,
    presence_of_a_client_not_heard_from_expires,
    presence_is_checked_like_every_project_call,
    presence_from_a_session_needs_its_csrf_value,
);

/// How soon an announcement reaches a follower.
const WITHIN: Duration = Duration::from_secs(1);

/// An open `GET .../presence` stream, read event by event.
pub(crate) struct Follower {
    response: reqwest::Response,
    buffer: String,
}

impl Follower {
    pub(crate) async fn open(app: &TestApp, base_url: &str, user: &TestUser, project: &str) -> Follower {
        let url = format!("{base_url}/api/v2/projects/{project}/presence");
        let response = app.http.get(url).header("Authorization", user.bearer()).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
        Follower { response, buffer: String::new() }
    }

    /// The next event (kind, data), or `None` when none comes within `within`.
    pub(crate) async fn next(&mut self, within: Duration) -> Option<(String, Value)> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            while let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let kind = block.lines().find_map(|l| l.strip_prefix("event:")).map(|k| k.trim().to_owned());
                let data = block.lines().find_map(|l| l.strip_prefix("data:")).map(str::trim);
                if let (Some(kind), Some(data)) = (kind, data) {
                    return Some((kind, serde_json::from_str(data).expect("event data is JSON")));
                }
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk()).await.ok()?;
            let chunk = chunk.expect("the stream stays open").expect("the stream does not end");
            self.buffer.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    /// The next event, which must come within `within`.
    async fn expect(&mut self, within: Duration) -> (String, Value) {
        self.next(within).await.unwrap_or_else(|| panic!("no presence event within {within:?}"))
    }
}

pub(crate) async fn announce(
    app: &TestApp,
    base_url: &str,
    user: &TestUser,
    project: &str,
    body: Value,
) -> crate::support::Reply {
    let url = format!("{base_url}/api/v2/projects/{project}/presence");
    send(app, Method::POST, &url, Some(&user.bearer()), Some(body)).await
}

async fn announced(app: &TestApp, user: &TestUser, project: &str, body: Value) {
    let reply = announce(app, &app.base_url, user, project, body).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
}

fn colour_of(user: &TestUser) -> &'static str {
    colour_for(UserId::parse(&user.id).unwrap())
}

async fn presence_reaches_followers_with_name_colour_selection_and_leaving(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let bo = app.user("Bo").await;
    app.add_member(&project, &bo, ProjectRole::Viewer).await;
    let label = create_label(&app, &ada, &project, json!({"text": "picked"})).await;

    let mut follower = Follower::open(&app, &app.base_url, &bo, &project).await;
    assert!(follower.next(Duration::from_millis(300)).await.is_none(), "nobody is present yet");

    let started = tokio::time::Instant::now();
    announced(
        &app,
        &ada,
        &project,
        json!({"clientId": "ada-tab_1", "cursor": {"x": 1.5, "y": -2}, "selection": [label]}),
    )
    .await;
    let (kind, data) = follower.expect(WITHIN).await;
    assert!(started.elapsed() < WITHIN, "arrived after {:?}", started.elapsed());
    assert_eq!(kind, "presence");
    assert_eq!(data["clientId"], "ada-tab_1");
    assert_eq!(data["userId"], ada.id.as_str());
    assert_eq!(data["name"], "Ada");
    let colour = data["colour"].as_str().unwrap();
    assert_eq!(colour, colour_of(&ada));
    assert!(colour.len() == 7 && colour.starts_with('#'), "{colour}");
    assert_eq!(data["cursor"], json!({"x": 1.5, "y": -2.0}));
    assert_eq!(data["selection"], json!([label]));
    let at = data["at"].as_i64().unwrap();
    assert!((chrono::Utc::now().timestamp_millis() - at).abs() < 10_000, "at is now in Unix ms: {at}");

    // The selection changes and the cursor leaves the map.
    announced(&app, &ada, &project, json!({"clientId": "ada-tab_1", "cursor": null, "selection": []})).await;
    let (kind, data) = follower.expect(WITHIN).await;
    assert_eq!((kind.as_str(), &data["cursor"], &data["selection"]), ("presence", &Value::Null, &json!([])));

    // A Viewer may announce too; a late follower gets everyone present first.
    announced(&app, &bo, &project, json!({"clientId": "bo-1", "cursor": {"x": 0, "y": 0}})).await;
    let (_, data) = follower.expect(WITHIN).await;
    assert_eq!((data["clientId"].as_str(), data["name"].as_str()), (Some("bo-1"), Some("Bo")));
    assert_eq!(data["colour"], colour_of(&bo));
    let mut late = Follower::open(&app, &app.base_url, &ada, &project).await;
    let mut present = [late.expect(WITHIN).await, late.expect(WITHIN).await];
    present.sort_by(|a, b| a.1["clientId"].as_str().cmp(&b.1["clientId"].as_str()));
    assert_eq!(
        present.iter().map(|(k, d)| (k.as_str(), d["clientId"].as_str().unwrap())).collect::<Vec<_>>(),
        [("presence", "ada-tab_1"), ("presence", "bo-1")]
    );

    // Another person cannot take a client id in use.
    let taken = announce(&app, &app.base_url, &bo, &project, json!({"clientId": "ada-tab_1"})).await;
    assert_eq!(taken.status, StatusCode::CONFLICT, "{}", taken.body);

    // Leaving is seen at once by every follower.
    let started = tokio::time::Instant::now();
    announced(&app, &ada, &project, json!({"clientId": "ada-tab_1", "leaving": true})).await;
    for follower in [&mut follower, &mut late] {
        let (kind, data) = follower.expect(WITHIN).await;
        assert_eq!((kind.as_str(), data), ("left", json!({"clientId": "ada-tab_1"})));
    }
    assert!(started.elapsed() < WITHIN * 2);
    // Once left, the id is free again.
    announced(&app, &bo, &project, json!({"clientId": "ada-tab_1"})).await;
}

async fn presence_of_a_client_not_heard_from_expires(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    app.core.items().set_presence_expiry(Duration::from_millis(1200));
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let mut follower = Follower::open(&app, &app.base_url, &ada, &project).await;

    announced(&app, &ada, &project, json!({"clientId": "quiet"})).await;
    announced(&app, &ada, &project, json!({"clientId": "busy"})).await;
    let mut seen = [follower.expect(WITHIN).await.1, follower.expect(WITHIN).await.1];
    seen.sort_by(|a, b| a["clientId"].as_str().cmp(&b["clientId"].as_str()));
    assert_eq!((seen[0]["clientId"].as_str(), seen[1]["clientId"].as_str()), (Some("busy"), Some("quiet")));
    // `busy` keeps announcing; `quiet` is not heard from again and leaves after the expiry.
    let started = tokio::time::Instant::now();
    let mut left = None;
    while started.elapsed() < Duration::from_secs(5) && left.is_none() {
        announced(&app, &ada, &project, json!({"clientId": "busy"})).await;
        while let Some((kind, data)) = follower.next(Duration::from_millis(300)).await {
            match kind.as_str() {
                "left" => left = Some((data, started.elapsed())),
                _ => assert_eq!(data["clientId"], "busy"),
            }
        }
    }
    let (data, after) = left.expect("the quiet client left");
    assert_eq!(data, json!({"clientId": "quiet"}));
    assert!(after >= Duration::from_millis(700) && after < Duration::from_millis(2500), "left after {after:?}");
    // A new follower sees only `busy`.
    let mut late = Follower::open(&app, &app.base_url, &ada, &project).await;
    assert_eq!(late.expect(WITHIN).await.1["clientId"], "busy");
    assert!(late.next(Duration::from_millis(300)).await.is_none_or(|(_, d)| d["clientId"] == "busy"));
}

async fn presence_is_checked_like_every_project_call(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let stranger = app.user("Stranger").await;
    let url = format!("{}/api/v2/projects/{project}/presence", app.base_url);
    let body = json!({"clientId": "c1"});

    // Access: like every other project call.
    let reply = announce(&app, &app.base_url, &stranger, &project, body.clone()).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    let reply = send(&app, Method::GET, &url, Some(&stranger.bearer()), None).await;
    assert_eq!(reply.status, StatusCode::FORBIDDEN, "{}", reply.body);
    assert_eq!(reply.content_type, "application/problem+json");
    let unknown = uuid::Uuid::new_v4().to_string();
    let reply = announce(&app, &app.base_url, &ada, &unknown, body.clone()).await;
    assert_eq!(reply.status, StatusCode::NOT_FOUND, "{}", reply.body);
    let missing = format!("{}/api/v2/projects/{unknown}/presence", app.base_url);
    assert_eq!(send(&app, Method::GET, &missing, Some(&ada.bearer()), None).await.status, StatusCode::NOT_FOUND);
    assert_eq!(send(&app, Method::POST, &url, None, Some(body.clone())).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(send(&app, Method::GET, &url, None, None).await.status, StatusCode::UNAUTHORIZED);
    let reply = announce(&app, &app.base_url, &ada, "not-a-project", body.clone()).await;
    assert_invalid(&reply, "projectId");

    // Bodies: a 400 naming the field.
    let too_many: Vec<String> = (0..201).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    let cases = [
        (json!({"clientId": ""}), "clientId"),
        (json!({"clientId": "has space"}), "clientId"),
        (json!({"clientId": "x".repeat(65)}), "clientId"),
        (json!({"cursor": {"x": 1, "y": 2}}), "clientId"),
        (json!({"clientId": "c1", "selection": too_many}), "selection"),
        (json!({"clientId": "c1", "selection": ["not-an-id"]}), "selection[0]"),
        (json!({"clientId": "c1", "cursor": {"x": "left", "y": 2}}), "cursor.x"),
        (json!({"clientId": "c1", "cursor": {"x": 1}}), "cursor.y"),
        (json!({"clientId": "c1", "colour": "red"}), "colour"),
        (json!({"clientId": "c1", "leaving": "yes"}), "leaving"),
    ];
    for (body, field) in cases {
        let reply = announce(&app, &app.base_url, &ada, &project, body.clone()).await;
        assert_invalid(&reply, field);
    }
    let at_most: Vec<String> = (0..200).map(|_| uuid::Uuid::new_v4().to_string()).collect();
    announced(&app, &ada, &project, json!({"clientId": "c1", "selection": at_most, "cursor": {"x": -1e9, "y": 1e9}}))
        .await;
}

async fn presence_from_a_session_needs_its_csrf_value(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let ada = app.account_user("Ada", "ada", "correct horse battery").await;
    let project = app.project(&ada).await;
    let mut site = SiteClient::new(&app);
    assert_eq!(site.sign_in("ada", "correct horse battery").await.status, StatusCode::SEE_OTHER);
    let csrf = site.csrf();
    let path = format!("/api/v2/projects/{project}/presence");
    let mut follower = Follower::open(&app, &app.base_url, &ada, &project).await;

    let alone = site.api_with(Method::POST, &path, Some(json!({"clientId": "page"})), &[]).await;
    assert_eq!(alone.status, StatusCode::UNAUTHORIZED, "a cookie alone does not announce: {}", alone.body);
    let wrong = site.api_with(Method::POST, &path, Some(json!({"clientId": "page"})), &[("x-canvas-csrf", "x")]).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);
    let foreign = [("x-canvas-csrf", csrf.as_str()), ("origin", "https://evil.example")];
    let foreign = site.api_with(Method::POST, &path, Some(json!({"clientId": "page"})), &foreign).await;
    assert_eq!(foreign.status, StatusCode::FORBIDDEN, "{}", foreign.body);
    assert!(follower.next(Duration::from_millis(300)).await.is_none(), "nothing was announced");

    let base = app.base_url.clone();
    let own = [("x-canvas-csrf", csrf.as_str()), ("origin", base.as_str())];
    let ok =
        site.api_with(Method::POST, &path, Some(json!({"clientId": "page", "cursor": {"x": 3, "y": 4}})), &own).await;
    assert_eq!(ok.status, StatusCode::NO_CONTENT, "{}", ok.body);
    let (kind, data) = follower.expect(WITHIN).await;
    assert_eq!(
        (kind.as_str(), data["name"].as_str(), &data["cursor"]),
        ("presence", Some("Ada"), &json!({"x": 3.0, "y": 4.0}))
    );

    // Following is a read: the cookie alone opens it.
    let cookie = format!("canvas_session={}", site.session().unwrap());
    let stream = app.http.get(format!("{base}{path}")).header("cookie", cookie).send().await.unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
}

/// Two core-service replicas on one PostgreSQL database, each with its own gateway: an
/// announcement made through one reaches a follower on the other within a second.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_crosses_replicas_on_postgres() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let bo = app.user("Bo").await;
    app.add_member(&project, &bo, ProjectRole::Editor).await;

    let second = core_service::build(&app.another_core_config(keyword_only())).await.expect("a second replica starts");
    let stop_second = CancellationToken::new();
    let (_, second_gateway) = app.serve_replica(second, &stop_second).await;

    let mut follower = Follower::open(&app, &second_gateway, &bo, &project).await;
    // Until the second replica listens, an announcement may pass it by: announce until one arrives.
    let warm = tokio::time::Instant::now();
    loop {
        announced(&app, &ada, &project, json!({"clientId": "warm-up"})).await;
        if follower.next(Duration::from_millis(250)).await.is_some() {
            break;
        }
        assert!(warm.elapsed() < Duration::from_secs(15), "the second replica never heard the first");
    }
    while follower.next(Duration::from_millis(200)).await.is_some() {}

    for (n, x) in [10.0, 20.0, 30.0].into_iter().enumerate() {
        let started = tokio::time::Instant::now();
        announced(&app, &ada, &project, json!({"clientId": "ada-1", "cursor": {"x": x, "y": 1}})).await;
        let (kind, data) = follower.expect(WITHIN).await;
        assert!(started.elapsed() < WITHIN, "announcement {n} took {:?}", started.elapsed());
        assert_eq!(
            (kind.as_str(), data["clientId"].as_str(), data["name"].as_str()),
            ("presence", Some("ada-1"), Some("Ada"))
        );
        assert_eq!(data["cursor"]["x"], json!(x));
        assert_eq!(data["colour"], colour_of(&ada));
    }
    // And the other way: announced through the second replica, seen by a follower of the first.
    let mut first = Follower::open(&app, &app.base_url, &ada, &project).await;
    while first.next(Duration::from_millis(300)).await.is_some() {}
    let reply = announce(&app, &second_gateway, &bo, &project, json!({"clientId": "bo-1", "leaving": false})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT, "{}", reply.body);
    let (_, data) = first.expect(WITHIN).await;
    assert_eq!((data["clientId"].as_str(), data["name"].as_str()), (Some("bo-1"), Some("Bo")));
    let reply = announce(&app, &second_gateway, &bo, &project, json!({"clientId": "bo-1", "leaving": true})).await;
    assert_eq!(reply.status, StatusCode::NO_CONTENT);
    assert_eq!(first.expect(WITHIN).await, ("left".to_owned(), json!({"clientId": "bo-1"})));
    stop_second.cancel();
}

/// Inserted, updated and deleted rows of each table of the test's database, as PostgreSQL's
/// statistics count them (after flushing what backends hold back, and a fresh snapshot).
async fn rows_written(pool: &sqlx::PgPool) -> std::collections::BTreeMap<String, i64> {
    // Backends report their counts when idle, at most about once a second.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut conn = pool.acquire().await.unwrap();
    sqlx::query("SELECT pg_stat_clear_snapshot()").execute(&mut *conn).await.unwrap();
    sqlx::query_as::<_, (String, i64)>(
        "SELECT relname::text, (n_tup_ins + n_tup_upd + n_tup_del)::bigint FROM pg_stat_user_tables",
    )
    .fetch_all(&mut *conn)
    .await
    .unwrap()
    .into_iter()
    .collect()
}

/// The tables only a replica's start writes: the migrations, the first signing key, the
/// once-per-database repair's record.
const START_UP_ONLY: [&str; 3] = ["_sqlx_migrations", "signing_keys", "data_repairs"];

/// 200 announcements write nothing: no row of any table changes, and no change event is recorded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn presence_announcements_write_nothing_to_the_database() {
    let Some(backend) = Backend::postgres_or_skip() else { return };
    let app = TestApp::spawn(backend).await;
    let ada = app.user("Ada").await;
    let project = app.project(&ada).await;
    let pool = sqlx::PgPool::connect(app.db.database_url.as_deref().unwrap()).await.unwrap();
    let mut follower = Follower::open(&app, &app.base_url, &ada, &project).await;
    // The first call notes the token's use; after that, within the touch interval, nothing does.
    // The replica relays announcements through its LISTEN connection, which it opens in the
    // background at start: announce until the follower sees one (so the relay is listening), then
    // let the echoes of the others arrive, before anything is counted.
    let listening = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        announced(&app, &ada, &project, json!({"clientId": "warm"})).await;
        if follower.next(Duration::from_millis(500)).await.is_some() {
            break;
        }
        assert!(tokio::time::Instant::now() < listening, "no presence event within 30 s of announcing");
    }
    while follower.next(Duration::from_secs(1)).await.is_some() {}
    // Whatever the set-up wrote settles first (the indexer, the token's use). The start-up's own
    // writes (the migrations, the first signing key, the once-per-database repair's record) are
    // counted only when their connection
    // reports them, which PostgreSQL 15 does for an idle connection after up to 10 s
    // (PGSTAT_IDLE_INTERVAL): seen late, they looked like writes of the announcements on a loaded
    // machine. So they are waited for (at most 90 s: under a full test run's load, 30 s was seen
    // to pass without the migrations' report) before the steady readings.
    for _ in 0..60 {
        let seen = rows_written(&pool).await;
        if START_UP_ONLY.iter().all(|t| seen.get(*t).is_some_and(|n| *n > 0)) {
            break;
        }
    }
    // Then three equal readings in a row (3 s without a write), at most 30 s: on a loaded machine
    // the start-up's background work (the indexer) lands late.
    let mut before = rows_written(&pool).await;
    let mut steady = 0;
    for _ in 0..20 {
        let again = rows_written(&pool).await;
        steady = if again == before { steady + 1 } else { 0 };
        before = again;
        if steady == 2 {
            break;
        }
    }
    let events_before: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await.unwrap();

    for n in 0..200 {
        let selection: Vec<String> = (0..(n % 5)).map(|_| uuid::Uuid::new_v4().to_string()).collect();
        announced(
            &app,
            &ada,
            &project,
            json!({"clientId": "busy", "cursor": {"x": n, "y": -n}, "selection": selection}),
        )
        .await;
    }
    let mut received = 0;
    while let Some((kind, _)) = follower.next(Duration::from_millis(500)).await {
        assert_eq!(kind, "presence");
        received += 1;
    }
    assert_eq!(received, 200, "every announcement reached the follower");
    let after = rows_written(&pool).await;
    let events_after: i64 = sqlx::query_scalar("SELECT count(*) FROM events").fetch_one(&pool).await.unwrap();
    // A start-up-only table first reported after the baseline is the start-up's late report (no
    // announcement can write a migration, a signing key or a repair record); any other change is
    // a write.
    let late_start_up = |table: &str| START_UP_ONLY.contains(&table) && before.get(table).is_none_or(|n| *n == 0);
    let changed: Vec<(&String, i64)> = after
        .iter()
        .map(|(table, n)| (table, n - before.get(table).copied().unwrap_or(0)))
        .filter(|(table, d)| *d != 0 && !late_start_up(table))
        .collect();
    assert!(changed.is_empty(), "200 announcements changed rows: {changed:?}");
    assert_eq!(events_after, events_before, "no change event was recorded");
}
