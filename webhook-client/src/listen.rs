//! The receiving side of `canvasctl webhooks listen`, as a router: every call
//! is checked by the six receiver rules of [`crate::verify`] before anything
//! in its body is believed, and each outcome is handed to a callback.

use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;

use crate::verify::{check_identity, check_timestamp, parse_signature, KeyCache, KeySet, SeenIds};

/// Which calls a listener accepts and where it finds the keys.
#[derive(Debug, Clone)]
pub struct ListenConfig {
    /// The registered project (rule 3).
    pub project: String,
    /// The registered webhook, or any of the project's when None (rule 3).
    pub webhook: Option<String>,
    /// The service's JWK set URL (rules 1, 5, 6).
    pub keys_url: String,
}

/// What happened to one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// Verified; one entry per change of the body.
    Accepted { delivery_id: String, change: Value },
    /// Verified, but its `Webhook-Id` was processed before (rule 4).
    Duplicate { delivery_id: String },
    /// Refused (answered 401) for the reason given.
    Rejected { delivery_id: String, reason: String },
}

struct State {
    config: ListenConfig,
    http: reqwest::Client,
    keys: Mutex<KeyCache>,
    seen: Mutex<SeenIds>,
    report: Box<dyn Fn(Heard) + Send + Sync>,
}

/// A router answering every path: 200 for verified calls (duplicates
/// included, so the sender stops retrying), 401 for the rest.
pub fn router(config: ListenConfig, report: impl Fn(Heard) + Send + Sync + 'static) -> axum::Router {
    let state = Arc::new(State {
        config,
        http: reqwest::Client::new(),
        keys: Mutex::new(KeyCache::default()),
        seen: Mutex::new(SeenIds::new(100_000)),
        report: Box::new(report),
    });
    axum::Router::new().fallback(move |headers: HeaderMap, body: Bytes| {
        let state = state.clone();
        async move { receive(&state, &headers, &body).await }
    })
}

async fn verified(state: &State, headers: &HeaderMap, body: &[u8]) -> Result<Value, String> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    let signature = parse_signature(&header("webhook-signature")).map_err(|r| format!("{r:?}"))?;
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or_default();
    let timestamp = header("webhook-timestamp");
    check_timestamp(&timestamp, now).map_err(|r| format!("{r:?}"))?;
    let reload = state.keys.lock().expect("key cache").needs_reload(&signature.kid, Instant::now());
    if reload {
        let response = state.http.get(&state.config.keys_url).send().await.map_err(|e| format!("key set: {e}"))?;
        let jwks: Value = response
            .error_for_status()
            .map_err(|e| format!("key set: {e}"))?
            .json()
            .await
            .map_err(|e| format!("key set: {e}"))?;
        state.keys.lock().expect("key cache").store(KeySet::from_jwks(&jwks), Instant::now());
    }
    let keys = state.keys.lock().expect("key cache").keys().cloned().unwrap_or_default();
    keys.verify(&signature, &header("webhook-id"), &timestamp, body).map_err(|r| format!("{r:?}"))?;
    let parsed: Value = serde_json::from_slice(body).map_err(|e| format!("body: {e}"))?;
    check_identity(&parsed, &state.config.project, state.config.webhook.as_deref()).map_err(|r| format!("{r:?}"))?;
    Ok(parsed)
}

async fn receive(state: &State, headers: &HeaderMap, body: &[u8]) -> (StatusCode, &'static str) {
    let delivery_id = headers.get("webhook-id").and_then(|v| v.to_str().ok()).unwrap_or("").to_owned();
    match verified(state, headers, body).await {
        Err(reason) => {
            (state.report)(Heard::Rejected { delivery_id, reason });
            (StatusCode::UNAUTHORIZED, "rejected")
        }
        Ok(_) if !state.seen.lock().expect("seen ids").first_time(&delivery_id) => {
            (state.report)(Heard::Duplicate { delivery_id });
            (StatusCode::OK, "duplicate")
        }
        Ok(parsed) => {
            for change in parsed["changes"].as_array().into_iter().flatten() {
                (state.report)(Heard::Accepted { delivery_id: delivery_id.clone(), change: change.clone() });
            }
            (StatusCode::OK, "ok")
        }
    }
}
