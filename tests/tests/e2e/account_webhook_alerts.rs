//! Operational events on the account site: a project's Managers and Admins see, on their projects
//! page, each webhook disabled by its receiver (here a 410 Gone) and the deliveries given up after
//! every attempt, with the call that brings each back; a Viewer of the same project sees none of
//! it. Recovering the given-up deliveries ends their alert.

use std::time::{Duration, Instant};

use canvas_tests::webhooks::{Answer, Receiver, WebhookEnv};
use canvas_tests::{backend_tests, Backend};
use core_service::domain::ProjectRole;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::site_client::SiteClient;
use crate::support::{create_label, send};
use crate::webhooks_delivery::{create_hook, record};

backend_tests!(managers_see_disabled_webhooks_and_given_up_deliveries_and_viewers_do_not);

const PASSWORD: &str = "correct horse battery";

async fn managers_see_disabled_webhooks_and_given_up_deliveries_and_viewers_do_not(backend: Backend) {
    // Four attempts a second apart, then a delivery is given up; failures never disable.
    let env = WebhookEnv::spawn_with(backend, |c| c.disable_failures = 1_000_000).await;
    let app = &env.app;
    let ada = app.account_user("Ada", "ada", PASSWORD).await;
    let project = app.project(&ada).await;
    let bo = app.account_user("Bo", "bo", PASSWORD).await;
    app.add_member(&project, &bo, ProjectRole::Viewer).await;

    let gone = Receiver::start(&env.ca).await;
    gone.script([Answer::Status(410)]);
    let down = json!({"name": "Billing <sync>", "url": env.receiver.url, "events": ["item.created"]});
    let down_hook = create_hook(&env, &ada, &project, down).await;
    let gone_hook = create_hook(&env, &ada, &project, json!({"url": gone.url, "events": ["item.created"]})).await;
    env.receiver.set_down(true);
    let since = chrono::Utc::now();
    create_label(app, &ada, &project, json!({"text": "one"})).await;
    create_label(app, &ada, &project, json!({"text": "two"})).await;
    // Both deliveries to the down receiver are given up after their four attempts; the 410 disables
    // the other webhook at once.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let down_status = record(&env, &ada, &project, &down_hook).await["status"].clone();
        let gone_status = record(&env, &ada, &project, &gone_hook).await["status"].clone();
        if down_status["consecutiveFailures"] == 8 && gone_status["disabledAt"].is_string() {
            break;
        }
        assert!(Instant::now() < deadline, "{down_status} {gone_status}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // The last report may be a moment behind the counter.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut site = SiteClient::new(app);
    assert_eq!(site.sign_in("ada", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let page = site.get("/account/projects").await;
    assert_eq!(page.status, StatusCode::OK);
    let body = &page.body;
    let alerts = body.split("<ul class=\"alerts\"").nth(1).unwrap_or_else(|| panic!("no alerts: {body}"));
    assert!(
        alerts.contains("Webhook <strong>Billing &lt;sync&gt;</strong> gave up 2 deliveries since"),
        "the given-up deliveries, the name escaped: {alerts}"
    );
    assert!(alerts.contains(&format!("POST /api/v2/projects/{project}/webhooks/{down_hook}/recover")), "{alerts}");
    assert!(alerts.contains(&format!("<strong>{}</strong> was disabled at", gone.url)), "{alerts}");
    assert!(alerts.contains("the receiver answered 410 Gone"), "{alerts}");
    assert!(alerts.contains("It gave up 1 delivery since"), "the 410's delivery is given up too: {alerts}");
    assert!(alerts.contains(&format!("POST /api/v2/projects/{project}/webhooks/{gone_hook}/enable")), "{alerts}");
    assert!(!body.contains("Billing <sync>"), "nothing of the name reaches the page unescaped");

    // A Viewer of the same project sees the project and no alert.
    let mut viewer = SiteClient::new(app);
    assert_eq!(viewer.sign_in("bo", PASSWORD).await.status, StatusCode::SEE_OTHER);
    let page = viewer.get("/account/projects").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("map-link") && !page.body.contains("class=\"alerts\""), "{}", page.body);

    // Recovered, the given-up deliveries are given up no more; the disabled webhook still is.
    env.receiver.set_down(false);
    let url = env.url(&project, &format!("/{down_hook}/recover?jsonCasing=camel"));
    let started = send(app, Method::POST, &url, Some(&ada.bearer()), Some(json!({"since": since.to_rfc3339()}))).await;
    assert_eq!((started.status, &started.body["total"]), (StatusCode::ACCEPTED, &json!(2)), "{}", started.body);
    let page = site.get("/account/projects").await;
    assert!(!page.body.contains("Billing"), "the recovered webhook's alert ended: {}", page.body);
    assert!(page.body.contains("was disabled at"), "{}", page.body);
}
