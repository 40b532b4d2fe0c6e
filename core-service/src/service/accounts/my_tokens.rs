//! A signed-in person's own API tokens, connected MCP clients and audit
//! records, for the account site's `/account/api-tokens`, `/account/apps` and
//! `/account/activity`. Tokens made here belong to the server's environment,
//! as the spec's account site makes them.

use chrono::Utc;

use super::sessions::SignedIn;
use super::users_projects::IssuedToken;
use super::AccountsService;
use crate::domain::TokenId;
use crate::error::{CoreError, CoreResult};
use crate::service::page_size;
use crate::storage::{AuditRow, OAuthClientRow, OAuthGrantRow, TokenRow};
use canvas_vocabulary::limits::AUDIT_PAGE;

impl AccountsService {
    pub async fn list_my_tokens(&self, who: &SignedIn) -> CoreResult<Vec<TokenRow>> {
        self.store.list_tokens(who.principal.user_id).await
    }

    pub async fn create_my_token(&self, who: &SignedIn, csrf: &str, name: &str) -> CoreResult<IssuedToken> {
        self.check_csrf(who, csrf)?;
        if name.trim().is_empty() {
            return Err(CoreError::invalid("name", "is required: name the token after where it will be used"));
        }
        let issued = self.issue_token(who.principal.user_id, self.settings.environment, name).await?;
        self.audit(who.principal.user_id, "token_created", &who.session.client_address, &issued.row.name).await;
        Ok(issued)
    }

    /// Revokes one of the caller's tokens; another user's token is "not found", as it is not theirs to see.
    pub async fn revoke_my_token(&self, who: &SignedIn, csrf: &str, token: TokenId) -> CoreResult<TokenRow> {
        self.check_csrf(who, csrf)?;
        let mine = self.store.list_tokens(who.principal.user_id).await?.into_iter().any(|row| row.id == token);
        if !mine {
            return Err(CoreError::not_found("token", token));
        }
        let revoked = self.store.revoke_token(token, Utc::now()).await?;
        self.access.changed().await;
        let row = revoked.ok_or_else(|| CoreError::not_found("token", token))?;
        self.audit(who.principal.user_id, "token_revoked", &who.session.client_address, &row.name).await;
        Ok(row)
    }

    /// The MCP clients the caller let act for them that still can (a live grant).
    pub async fn list_my_apps(&self, who: &SignedIn) -> CoreResult<Vec<(OAuthGrantRow, OAuthClientRow)>> {
        self.store.list_user_grants(who.principal.user_id, Utc::now()).await
    }

    /// Ends one of the caller's grants: its access and refresh tokens stop working at once.
    /// Another user's grant is "not found", as it is not theirs to see.
    pub async fn revoke_my_app(&self, who: &SignedIn, csrf: &str, grant_id: uuid::Uuid) -> CoreResult<()> {
        self.check_csrf(who, csrf)?;
        let grant = self.store.get_oauth_grant(grant_id).await?;
        let Some(grant) = grant.filter(|g| g.user_id == who.principal.user_id) else {
            return Err(CoreError::not_found("app", grant_id));
        };
        self.store.revoke_oauth_grant(grant.id, Utc::now()).await?;
        self.access.changed().await;
        let client = self.store.get_oauth_client(&grant.client_id).await?.map(|c| c.name).unwrap_or_default();
        self.audit(who.principal.user_id, "oauth_revoked", &who.session.client_address, &format!("access of {client}"))
            .await;
        Ok(())
    }

    pub async fn list_my_audit(&self, who: &SignedIn, requested: Option<u32>) -> CoreResult<Vec<AuditRow>> {
        self.store.list_audit(who.principal.user_id, page_size(requested, AUDIT_PAGE)?).await
    }
}
