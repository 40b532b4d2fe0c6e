//! The OAuth 2.1 authorization server for MCP clients: the authorization
//! request and consent, the code grant with PKCE (S256 only), refresh tokens
//! with rotation and reuse detection, revocation (RFC 7009), and the
//! authentication of access tokens, which work only at the resource they were
//! minted for (RFC 8707). Clients and redirect URIs are in [`super::oauth_clients`].

use std::collections::HashMap;

use chrono::Utc;
use uuid::Uuid;

use super::oauth_clients::redirect_uris;
use super::AccountsService;
use crate::domain::tokens;
use crate::error::{CoreError, CoreResult};
use crate::service::access::credentials::secs;
use crate::service::access::SignedIn;
use crate::storage::{CodeUse, OAuthClientRow, OAuthCodeRow, OAuthGrantRow, OAuthTokenRow, RefreshUse};
use canvas_accounts::client_documents::is_document_client_id;
use canvas_accounts::clients::{redirect_matches, OAuthRefusal};
use canvas_accounts::pkce::{is_pkce_text, pkce_matches};

pub use canvas_vocabulary::limits::oauth::SCOPE;
use canvas_vocabulary::limits::oauth::{CODE_CHALLENGE_METHODS, RESPONSE_TYPES};
const MAX_STATE_CHARS: usize = 1024;

/// An authorization request's parameters, as received.
#[derive(Debug, Clone, Default)]
pub struct AuthorizationRequest {
    pub response_type: String,
    pub client_id: String,
    pub redirect_uri: String,
    pub scope: String,
    pub state: String,
    pub code_challenge: String,
    pub code_challenge_method: String,
    pub resource: String,
    /// Not a parameter: the issuer identifier of this authorization server as the client
    /// discovered it (RFC 8414), sent back as `iss` in every answer at the redirect URI
    /// (RFC 9207), so a client talking to several servers can tell whose answer it got.
    pub issuer: String,
}

/// A request that may proceed to consent.
#[derive(Debug, Clone)]
pub struct CheckedAuthorization {
    pub client: OAuthClientRow,
    pub redirect_uri: String,
    pub scope: String,
    pub resource: String,
    /// What approving lets the client do, in words.
    pub grants: Vec<String>,
}

/// Why an authorization request cannot proceed.
#[derive(Debug, Clone)]
pub enum AuthorizationProblem {
    /// The client or its redirect URI cannot be trusted: tell the person, redirect nowhere.
    Show(OAuthRefusal),
    /// Tell the client, at its redirect URI (`to` already carries `error` and `state`).
    Redirect { to: String, refusal: OAuthRefusal },
}

/// Tokens issued by the token endpoint.
#[derive(Debug, Clone)]
pub struct IssuedTokens {
    pub access_token: String,
    pub refresh_token: String,
    pub expires_in: u64,
    pub scope: String,
}

/// The token request's form: a field is absent when missing or blank.
#[derive(Clone, Copy)]
struct Form<'a>(&'a HashMap<String, String>);

impl<'a> Form<'a> {
    fn field(self, name: &str) -> Option<&'a str> {
        self.0.get(name).map(|v| v.trim()).filter(|v| !v.is_empty())
    }
}

/// A token endpoint refusal with the HTTP status the RFC gives it.
pub type TokenRefusal = (OAuthRefusal, u16);

fn refuse(error: &'static str, text: impl Into<String>) -> TokenRefusal {
    (OAuthRefusal::new(error, text), if error == "invalid_client" { 401 } else { 400 })
}

/// `uri` with `pairs` appended to its query.
fn with_query(uri: &str, pairs: &[(&str, &str)]) -> String {
    match url::Url::parse(uri) {
        Ok(mut url) => {
            url.query_pairs_mut().extend_pairs(pairs.iter().filter(|(_, v)| !v.is_empty()));
            url.to_string()
        }
        Err(_) => uri.to_owned(),
    }
}

impl AccountsService {
    /// The resources tokens can be minted for; empty when OAuth is off.
    pub fn oauth_resources(&self) -> &[String] {
        &self.settings.accounts.oauth_resources
    }

    /// Checks an authorization request before the consent page is shown (and again when the
    /// person answers). `signed_in` says whether a person's session came with it: a client's
    /// metadata document is fetched only for a signed-in person, so that strangers cannot use the
    /// unauthenticated page to make this server fetch URLs of their choosing.
    pub async fn check_authorization(
        &self,
        request: &AuthorizationRequest,
        signed_in: bool,
    ) -> CoreResult<Result<CheckedAuthorization, AuthorizationProblem>> {
        if !signed_in && is_document_client_id(request.client_id.trim()) {
            return Err(CoreError::Unauthenticated(
                "sign in first: an app's metadata document is fetched for a signed-in person only".into(),
            ));
        }
        let show = |error, text: &str| Ok(Err(AuthorizationProblem::Show(OAuthRefusal::new(error, text))));
        let client = match self.authorizing_client(request.client_id.trim()).await? {
            Ok(client) => client,
            Err(refusal) => return Ok(Err(AuthorizationProblem::Show(refusal))),
        };
        let registered = redirect_uris(&client);
        let redirect_uri = if request.redirect_uri.is_empty() && registered.len() == 1 {
            registered[0].clone()
        } else if registered.iter().any(|uri| redirect_matches(uri, &request.redirect_uri)) {
            request.redirect_uri.clone()
        } else {
            return show("invalid_request", "the redirect_uri is not one this client registered");
        };
        let state = request.state.as_str();
        let redirect = |error: &'static str, text: &str| {
            let to = with_query(
                &redirect_uri,
                &[("error", error), ("error_description", text), ("state", state), ("iss", &request.issuer)],
            );
            Ok(Err(AuthorizationProblem::Redirect { to, refusal: OAuthRefusal::new(error, text) }))
        };
        if request.state.chars().count() > MAX_STATE_CHARS {
            return redirect("invalid_request", "state must be at most 1024 characters");
        }
        if !RESPONSE_TYPES.contains(&request.response_type.as_str()) {
            return redirect("unsupported_response_type", "only response_type=code is supported");
        }
        if request.code_challenge.is_empty() {
            return redirect("invalid_request", "code_challenge is required (PKCE, S256)");
        }
        if !CODE_CHALLENGE_METHODS.contains(&request.code_challenge_method.as_str()) {
            return redirect("invalid_request", "code_challenge_method must be S256");
        }
        if !is_pkce_text(&request.code_challenge) {
            return redirect("invalid_request", "code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]");
        }
        let scope = if request.scope.trim().is_empty() { SCOPE.to_owned() } else { request.scope.trim().to_owned() };
        if scope.split_whitespace().any(|s| s != SCOPE) {
            return redirect("invalid_scope", "the only scope is 'mcp'");
        }
        let resources = self.oauth_resources();
        let resource = if request.resource.is_empty() && resources.len() == 1 {
            resources[0].clone()
        } else if resources.iter().any(|r| r == &request.resource) {
            request.resource.clone()
        } else if resources.is_empty() {
            return redirect("invalid_target", "this server mints no OAuth tokens: use an API token");
        } else {
            return redirect("invalid_target", "resource must be this server's MCP endpoint");
        };
        let grants = vec![
            "Use the MCP tools as you: read, create, change and delete items in every project you can access, and search them.".to_owned(),
            format!("Keep this access until you revoke it, or until it goes unused for {} days.", self.settings.accounts.oauth_refresh_secs / 86_400),
        ];
        Ok(Ok(CheckedAuthorization { client, redirect_uri, scope: SCOPE.to_owned(), resource, grants }))
    }

    /// The person's answer on the consent page: the URL to send the browser to.
    pub async fn authorize(
        &self,
        who: &SignedIn,
        csrf: &str,
        request: &AuthorizationRequest,
        approve: bool,
        address: &str,
    ) -> CoreResult<Result<String, AuthorizationProblem>> {
        self.check_csrf(who, csrf)?;
        let checked = match self.check_authorization(request, true).await? {
            Ok(checked) => checked,
            Err(problem) => return Ok(Err(problem)),
        };
        let client_name = if checked.client.name.is_empty() { "an unnamed client" } else { &checked.client.name };
        if !approve {
            self.audit(who.principal.user_id, "oauth_denied", address, client_name).await;
            let to = with_query(
                &checked.redirect_uri,
                &[
                    ("error", "access_denied"),
                    ("error_description", "the person declined"),
                    ("state", &request.state),
                    ("iss", &request.issuer),
                ],
            );
            return Ok(Ok(to));
        }
        let fresh = tokens::generate_with(tokens::CODE_PREFIX)?;
        let now = Utc::now();
        let code = OAuthCodeRow {
            code_hash: fresh.hash.to_vec(),
            client_id: checked.client.id.clone(),
            user_id: who.principal.user_id,
            redirect_uri: checked.redirect_uri.clone(),
            code_challenge: request.code_challenge.clone(),
            resource: checked.resource.clone(),
            scope: checked.scope.clone(),
            created_at: now,
            expires_at: now + secs(self.settings.accounts.oauth_code_secs),
            used_at: None,
            grant_id: None,
        };
        self.store.insert_oauth_code(&code).await?;
        self.audit(who.principal.user_id, "oauth_authorized", address, client_name).await;
        let answer = [("code", fresh.secret.as_str()), ("state", &request.state), ("iss", &request.issuer)];
        Ok(Ok(with_query(&checked.redirect_uri, &answer)))
    }

    /// The token endpoint (RFC 6749 §3.2) for the authorization-code and refresh-token grants.
    pub async fn oauth_token(&self, form: &HashMap<String, String>) -> CoreResult<Result<IssuedTokens, TokenRefusal>> {
        let form = Form(form);
        let Some(client_id) = form.field("client_id") else {
            return Ok(Err(refuse("invalid_request", "client_id is required")));
        };
        let Some(client) = self.store.get_oauth_client(client_id).await? else {
            return Ok(Err(refuse("invalid_client", "the client_id is unknown")));
        };
        match form.field("grant_type") {
            Some("authorization_code") => self.exchange_code(&client, form).await,
            Some("refresh_token") => self.refresh(&client, form).await,
            Some(other) => Ok(Err(refuse("unsupported_grant_type", format!("grant_type '{other}' is not supported")))),
            None => Ok(Err(refuse("invalid_request", "grant_type is required"))),
        }
    }

    async fn exchange_code(
        &self,
        client: &OAuthClientRow,
        form: Form<'_>,
    ) -> CoreResult<Result<IssuedTokens, TokenRefusal>> {
        let field = |name: &str| form.field(name);
        let (Some(code), Some(verifier)) = (field("code"), field("code_verifier")) else {
            return Ok(Err(refuse("invalid_request", "code and code_verifier are required")));
        };
        let now = Utc::now();
        let code = match self.store.use_oauth_code(&tokens::hash(code), now).await? {
            CodeUse::Fresh(code) => code,
            CodeUse::Replayed { grant_id } => {
                // RFC 6749 §4.1.2: a code presented twice revokes what its first use issued.
                if let Some(grant) = grant_id {
                    self.store.revoke_oauth_grant(grant, now).await?;
                    self.access.changed().await;
                }
                return Ok(Err(refuse("invalid_grant", "the code was already used; the tokens it issued are revoked")));
            }
            CodeUse::Unknown => return Ok(Err(refuse("invalid_grant", "the code is not valid"))),
        };
        if code.expires_at <= now {
            return Ok(Err(refuse("invalid_grant", "the code has expired")));
        }
        if code.client_id != client.id {
            return Ok(Err(refuse("invalid_grant", "the code was issued to another client")));
        }
        if field("redirect_uri").is_some_and(|uri| uri != code.redirect_uri) {
            return Ok(Err(refuse("invalid_grant", "redirect_uri does not match the authorization request's")));
        }
        if !is_pkce_text(verifier) || !pkce_matches(verifier, &code.code_challenge) {
            return Ok(Err(refuse("invalid_grant", "the code_verifier does not match the code_challenge")));
        }
        if field("resource").is_some_and(|resource| resource != code.resource) {
            return Ok(Err(refuse("invalid_target", "resource does not match the authorization request's")));
        }
        let grant = OAuthGrantRow {
            id: Uuid::now_v7(),
            client_id: client.id.clone(),
            user_id: code.user_id,
            resource: code.resource.clone(),
            scope: code.scope.clone(),
            created_at: now,
            revoked_at: None,
        };
        let (issued, rows) = self.token_pair(&grant)?;
        let most = self.settings.accounts.fair_share.oauth_grants_per_person;
        let revoked = self.store.insert_oauth_grant(&grant, &rows, &code.code_hash, most).await?;
        if revoked > 0 {
            // As GitHub does past its ten tokens per app and person: the oldest make room.
            self.access.changed().await;
            let detail = format!("{revoked} oldest grant(s) revoked: at most {most} at once");
            self.audit(grant.user_id, "oauth_revoked", "", &detail).await;
        }
        Ok(Ok(issued))
    }

    async fn refresh(&self, client: &OAuthClientRow, form: Form<'_>) -> CoreResult<Result<IssuedTokens, TokenRefusal>> {
        let field = |name: &str| form.field(name);
        let Some(refresh) = field("refresh_token") else {
            return Ok(Err(refuse("invalid_request", "refresh_token is required")));
        };
        if let Some(scope) = field("scope") {
            if scope.split_whitespace().any(|s| s != SCOPE) {
                return Ok(Err(refuse("invalid_scope", "the only scope is 'mcp'")));
            }
        }
        // Who owns the token, checked before it is rotated: another client's token stays usable.
        let digest = tokens::hash(refresh);
        match self.store.find_oauth_token(&digest).await? {
            Some((_, grant, _)) if grant.client_id != client.id => {
                return Ok(Err(refuse("invalid_grant", "the refresh token was issued to another client")));
            }
            Some((_, grant, _)) if field("resource").is_some_and(|r| r != grant.resource) => {
                return Ok(Err(refuse("invalid_target", "resource does not match the grant's")));
            }
            _ => {}
        }
        let now = Utc::now();
        let issued = std::sync::Mutex::new(None);
        let outcome = self
            .store
            .rotate_refresh_token(&digest, now, |grant| match self.token_pair(grant) {
                Ok((tokens, rows)) => {
                    *issued.lock().unwrap_or_else(|e| e.into_inner()) = Some(tokens);
                    rows
                }
                Err(_) => Vec::new(),
            })
            .await?;
        match outcome {
            RefreshUse::Rotated(_) => match issued.into_inner().unwrap_or_else(|e| e.into_inner()) {
                Some(tokens) => Ok(Ok(tokens)),
                None => Err(CoreError::Internal(anyhow::anyhow!("no randomness for new tokens"))),
            },
            RefreshUse::Replayed { grant_id } => {
                // OAuth 2.1 §4.3.1: a rotated refresh token presented again means it leaked.
                self.store.revoke_oauth_grant(grant_id, now).await?;
                self.access.changed().await;
                Ok(Err(refuse("invalid_grant", "the refresh token was already used; the grant is revoked")))
            }
            RefreshUse::Invalid => Ok(Err(refuse("invalid_grant", "the refresh token is not valid"))),
        }
    }

    /// A new access token and refresh token under `grant`.
    fn token_pair(&self, grant: &OAuthGrantRow) -> CoreResult<(IssuedTokens, Vec<OAuthTokenRow>)> {
        let settings = &self.settings.accounts;
        let now = Utc::now();
        let access = tokens::generate_with(tokens::ACCESS_PREFIX)?;
        let refresh = tokens::generate_with(tokens::REFRESH_PREFIX)?;
        let row = |hash: [u8; 32], kind: &str, life: u64| OAuthTokenRow {
            token_hash: hash.to_vec(),
            grant_id: grant.id,
            kind: kind.to_owned(),
            created_at: now,
            expires_at: now + secs(life),
            used_at: None,
        };
        let rows = vec![
            row(access.hash, "access", settings.oauth_access_secs),
            row(refresh.hash, "refresh", settings.oauth_refresh_secs),
        ];
        let issued = IssuedTokens {
            access_token: access.secret,
            refresh_token: refresh.secret,
            expires_in: settings.oauth_access_secs,
            scope: grant.scope.clone(),
        };
        Ok((issued, rows))
    }

    /// RFC 7009: revokes an access token, or a refresh token with its whole grant. Unknown
    /// tokens, and tokens of another client, are answered alike: nothing to do.
    pub async fn oauth_revoke(&self, token: &str, client_id: &str) -> CoreResult<()> {
        let digest = tokens::hash(token.trim());
        let Some((row, grant, _)) = self.store.find_oauth_token(&digest).await? else { return Ok(()) };
        if !client_id.is_empty() && client_id != grant.client_id {
            return Ok(());
        }
        let now = Utc::now();
        if row.kind == "refresh" {
            self.store.revoke_oauth_grant(grant.id, now).await?;
        } else {
            self.store.expire_oauth_token(&digest, now).await?;
        }
        self.access.changed().await;
        self.audit(grant.user_id, "oauth_revoked", "", &format!("a {} token", row.kind)).await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_appended_to_the_redirect_uris_query() {
        assert_eq!(
            with_query("http://127.0.0.1:5/cb?x=1", &[("code", "c d"), ("state", "")]),
            "http://127.0.0.1:5/cb?x=1&code=c+d"
        );
        assert_eq!(
            with_query("https://a.example/cb", &[("error", "access_denied"), ("state", "s&t")]),
            "https://a.example/cb?error=access_denied&state=s%26t"
        );
    }
}
