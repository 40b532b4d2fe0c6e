//! OAuth clients: dynamic registration of public clients (RFC 7591), stored. The registration
//! and redirect-URI rules themselves are `canvas_accounts::clients`.

use chrono::Utc;
use serde_json::{json, Value};

use super::AccountsService;
use crate::error::CoreResult;
use crate::storage::OAuthClientRow;
use canvas_accounts::clients::{checked_registration, OAuthRefusal, Registration};

/// The registered redirect URIs of a client.
pub fn redirect_uris(client: &OAuthClientRow) -> Vec<String> {
    serde_json::from_str(&client.redirect_uris).unwrap_or_default()
}

impl AccountsService {
    /// Registers a public client; the RFC 7591 client information response.
    pub async fn register_oauth_client(&self, metadata_json: &str) -> CoreResult<Result<String, OAuthRefusal>> {
        let Registration { name, redirect_uris: uris, info: mut metadata } = match checked_registration(metadata_json) {
            Ok(checked) => checked,
            Err(refusal) => return Ok(Err(refusal)),
        };
        let now = Utc::now();
        let id = uuid::Uuid::now_v7().to_string();
        metadata.insert("client_id".into(), json!(id));
        metadata.insert("client_id_issued_at".into(), json!(now.timestamp()));
        let answer = Value::Object(metadata).to_string();
        let row = OAuthClientRow {
            id,
            name,
            redirect_uris: serde_json::to_string(&uris).map_err(anyhow::Error::from)?,
            metadata: answer.clone(),
            created_at: now,
        };
        self.store.insert_oauth_client(&row).await?;
        Ok(Ok(answer))
    }
}
