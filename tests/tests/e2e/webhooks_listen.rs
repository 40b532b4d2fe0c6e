//! The verifying receiver behind `canvasctl webhooks listen`
//! (`webhook_client::listen`), over real HTTPS: real calls are accepted and
//! reported once, a forged call is refused with 401 and reported as such.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use canvas_tests::webhooks::WebhookEnv;
use canvas_tests::{backend_tests, Backend};
use serde_json::json;
use tokio_util::sync::CancellationToken;
use webhook_client::listen::{Heard, ListenConfig};
use webhook_client::receiver::serve_tls;

use crate::support::{create_label, owner_with_project};
use crate::webhooks_delivery::create_hook;

backend_tests!(listen_accepts_signed_calls_and_refuses_forged_ones);

async fn listen_accepts_signed_calls_and_refuses_forged_ones(backend: Backend) {
    let env = WebhookEnv::spawn(backend).await;
    let (owner, project) = owner_with_project(&env.app).await;
    let heard: Arc<Mutex<Vec<Heard>>> = Arc::default();
    let noted = heard.clone();
    let config = ListenConfig {
        project: project.clone(),
        webhook: None,
        keys_url: format!("{}/api/v2/webhooks/keys", env.app.base_url),
    };
    let router = webhook_client::listen::router(config, move |h| noted.lock().unwrap().push(h));
    let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}/", tcp.local_addr().unwrap());
    let stop = CancellationToken::new();
    tokio::spawn(serve_tls(tcp, env.ca.server_config(&["127.0.0.1"]).unwrap(), router, stop.clone()));

    create_hook(&env, &owner, &project, json!({"url": url, "events": ["item.created"]})).await;
    let label = create_label(&env.app, &owner, &project, json!({"text": "heard"})).await;
    let mut accepted = None;
    for _ in 0..200 {
        accepted = heard.lock().unwrap().iter().find_map(|h| match h {
            Heard::Accepted { change, .. } => Some(change.clone()),
            _ => None,
        });
        if accepted.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let change = accepted.expect("the signed call is accepted");
    assert_eq!(change["kind"], "item.created");
    assert_eq!(change["subject"]["id"], label.as_str());

    // A forged call gets 401 and is reported as rejected, never accepted.
    let client = webhook_client::WebhookClient::new(&canvas_tests::webhooks::client_settings(&env.ca_file())).unwrap();
    let forged = webhook_client::Call {
        url,
        headers: vec![
            ("Webhook-Id".into(), "forged-1".into()),
            ("Webhook-Timestamp".into(), chrono::Utc::now().timestamp().to_string()),
            ("Webhook-Signature".into(), format!("es256;kid=unknown;{}", "A".repeat(88))),
        ],
        body: json!({"projectId": project, "changes": [{"kind": "item.deleted"}]}).to_string().into_bytes(),
    };
    let outcome = client.send(&forged).await;
    assert_eq!(outcome.status_code, Some(401));
    let heard = heard.lock().unwrap().clone();
    assert!(heard.iter().any(|h| matches!(h, Heard::Rejected { delivery_id, .. } if delivery_id == "forged-1")));
    assert_eq!(heard.iter().filter(|h| matches!(h, Heard::Accepted { .. })).count(), 1);
    stop.cancel();
}
