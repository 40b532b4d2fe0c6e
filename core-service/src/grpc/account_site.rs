//! `canvas.v1.SessionService`, `canvas.v1.OAuthService` and
//! `canvas.v1.AccountAdminService`: the account site's and the OAuth
//! authorization server's calls. Parse, authenticate (a session, or an admin
//! token), call the service layer, convert. OAuth refusals are answers with
//! `error` set, as the RFCs render them, not gRPC failures.

use crate::grpc::status::invalid;
use std::sync::Arc;

use canvas_accounts::client_documents::document_host;
use canvas_proto::v1 as pb;
use canvas_proto::v1::account_admin_service_server::AccountAdminService;
use canvas_proto::v1::o_auth_service_server::OAuthService;
use canvas_proto::v1::session_service_server::SessionService;
use tonic::{Request, Response, Status};

use super::{authenticate, convert};
use crate::domain::{TokenId, UserId};
use crate::service::accounts::oauth::{AuthorizationProblem, AuthorizationRequest};
use crate::service::accounts::sessions::{ClientInfo, OpenedSession, SignedIn};
use crate::service::Core;
use crate::storage::{AuditRow, OAuthClientRow, OAuthGrantRow, TokenRow};
use canvas_accounts::clients::OAuthRefusal;

pub struct SessionGrpc {
    pub core: Arc<Core>,
}

pub struct OAuthGrpc {
    pub core: Arc<Core>,
}

pub struct AccountAdminGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

async fn signed_in<T>(core: &Core, request: &Request<T>) -> Result<SignedIn, Status> {
    let credentials = super::credentials(request);
    Ok(core.access().signed_in(credentials.session, credentials.client_address).await?)
}

fn session_info(who: &SignedIn, idle_secs: u64) -> pb::SessionInfo {
    let user = crate::storage::UserRow {
        id: who.principal.user_id,
        name: who.principal.name.clone(),
        system_admin: who.principal.system_admin,
        created_at: who.session.created_at,
    };
    pb::SessionInfo {
        user: Some(convert::user(user)),
        csrf_token: who.csrf.clone(),
        expires_at: Some(convert::timestamp(who.session.expires_at)),
        idle_seconds: u32::try_from(idle_secs).unwrap_or(u32::MAX),
        login: who.login.clone(),
    }
}

fn opened(core: &Core, opened: OpenedSession) -> pb::SignInResponse {
    let info = session_info(&opened.signed_in, core.accounts().config().session_idle_secs);
    pb::SignInResponse { session: opened.secret, info: Some(info) }
}

fn my_token(row: TokenRow) -> pb::MyToken {
    let prefix = row.prefix.clone();
    pb::MyToken { info: Some(convert::token(row)), prefix }
}

fn audit_record(row: AuditRow) -> pb::AuditRecord {
    pb::AuditRecord {
        record_id: row.id.to_string(),
        kind: row.kind,
        at: Some(convert::timestamp(row.at)),
        client_address: row.client_address,
        detail: row.detail,
    }
}

#[tonic::async_trait]
impl SessionService for SessionGrpc {
    async fn sign_in(&self, request: Request<pb::SignInRequest>) -> Reply<pb::SignInResponse> {
        let req = request.into_inner();
        let client = ClientInfo::new(&req.client_address, &req.user_agent);
        let session = self.core.accounts().sign_in(&req.login, &req.password, &client).await?;
        Ok(Response::new(opened(&self.core, session)))
    }

    async fn check_sign_in_link(&self, request: Request<pb::CheckSignInLinkRequest>) -> Reply<pb::SignInLinkInfo> {
        let (user, login, link) = self.core.accounts().check_sign_in_link(&request.get_ref().link).await?;
        Ok(Response::new(pb::SignInLinkInfo {
            user_name: user.name,
            login: login.login,
            password_missing: login.password_hash.is_none(),
            expires_at: Some(convert::timestamp(link.expires_at)),
        }))
    }

    async fn redeem_sign_in_link(&self, request: Request<pb::RedeemSignInLinkRequest>) -> Reply<pb::SignInResponse> {
        let req = request.into_inner();
        let client = ClientInfo::new(&req.client_address, &req.user_agent);
        let session = self.core.accounts().redeem_sign_in_link(&req.link, &req.new_password, &client).await?;
        Ok(Response::new(opened(&self.core, session)))
    }

    async fn get_session(&self, request: Request<pb::GetSessionRequest>) -> Reply<pb::SessionInfo> {
        let who = signed_in(&self.core, &request).await?;
        Ok(Response::new(session_info(&who, self.core.accounts().config().session_idle_secs)))
    }

    async fn sign_out(&self, request: Request<pb::SignOutRequest>) -> Reply<pb::SignOutResponse> {
        let who = signed_in(&self.core, &request).await?;
        self.core.accounts().sign_out(&who, &request.get_ref().csrf_token).await?;
        Ok(Response::new(pb::SignOutResponse {}))
    }

    async fn change_password(&self, request: Request<pb::ChangePasswordRequest>) -> Reply<pb::ChangePasswordResponse> {
        let who = signed_in(&self.core, &request).await?;
        let req = request.into_inner();
        self.core.accounts().change_password(&who, &req.csrf_token, &req.current_password, &req.new_password).await?;
        Ok(Response::new(pb::ChangePasswordResponse {}))
    }

    async fn list_my_tokens(&self, request: Request<pb::ListMyTokensRequest>) -> Reply<pb::ListMyTokensResponse> {
        let who = signed_in(&self.core, &request).await?;
        let rows = self.core.accounts().list_my_tokens(&who).await?;
        Ok(Response::new(pb::ListMyTokensResponse { tokens: rows.into_iter().map(my_token).collect() }))
    }

    async fn create_my_token(&self, request: Request<pb::CreateMyTokenRequest>) -> Reply<pb::CreateMyTokenResponse> {
        let who = signed_in(&self.core, &request).await?;
        let req = request.into_inner();
        let issued = self.core.accounts().create_my_token(&who, &req.csrf_token, &req.name).await?;
        Ok(Response::new(pb::CreateMyTokenResponse { token: issued.secret, info: Some(my_token(issued.row)) }))
    }

    async fn revoke_my_token(&self, request: Request<pb::RevokeMyTokenRequest>) -> Reply<pb::MyToken> {
        let who = signed_in(&self.core, &request).await?;
        let req = request.into_inner();
        let token = TokenId::parse(&req.token_id).map_err(invalid)?;
        let row = self.core.accounts().revoke_my_token(&who, &req.csrf_token, token).await?;
        Ok(Response::new(my_token(row)))
    }

    async fn list_my_audit_records(
        &self,
        request: Request<pb::ListMyAuditRecordsRequest>,
    ) -> Reply<pb::ListMyAuditRecordsResponse> {
        let who = signed_in(&self.core, &request).await?;
        let rows = self.core.accounts().list_my_audit(&who, request.get_ref().page_size).await?;
        Ok(Response::new(pb::ListMyAuditRecordsResponse { records: rows.into_iter().map(audit_record).collect() }))
    }

    async fn list_my_apps(&self, request: Request<pb::ListMyAppsRequest>) -> Reply<pb::ListMyAppsResponse> {
        let who = signed_in(&self.core, &request).await?;
        let apps = self.core.accounts().list_my_apps(&who).await?;
        Ok(Response::new(pb::ListMyAppsResponse { apps: apps.into_iter().map(|(g, c)| connected_app(g, c)).collect() }))
    }

    async fn revoke_my_app(&self, request: Request<pb::RevokeMyAppRequest>) -> Reply<pb::RevokeMyAppResponse> {
        let who = signed_in(&self.core, &request).await?;
        let req = request.into_inner();
        let grant = uuid::Uuid::parse_str(req.grant_id.trim())
            .map_err(|_| crate::error::CoreError::invalid("grantId", "must be a UUID"))?;
        self.core.accounts().revoke_my_app(&who, &req.csrf_token, grant).await?;
        Ok(Response::new(pb::RevokeMyAppResponse {}))
    }
}

fn connected_app(grant: OAuthGrantRow, client: OAuthClientRow) -> pb::ConnectedApp {
    // The first registered redirect URI's host and port: what tells two apps of one name apart.
    let redirect_host = crate::service::accounts::oauth_clients::redirect_uris(&client)
        .first()
        .and_then(|uri| url::Url::parse(uri).ok())
        .map(|url| match (url.host_str(), url.port()) {
            (Some(host), Some(port)) => format!("{host}:{port}"),
            (Some(host), None) => host.to_owned(),
            (None, _) => url.scheme().to_owned(),
        })
        .unwrap_or_default();
    pb::ConnectedApp {
        grant_id: grant.id.to_string(),
        client_host: document_host(&client.id).unwrap_or_default(),
        client_name: client.name,
        redirect_host,
        scope: grant.scope,
        created_at: Some(convert::timestamp(grant.created_at)),
    }
}

fn oauth_error(refusal: OAuthRefusal) -> Option<pb::OAuthError> {
    Some(pb::OAuthError { error: refusal.error.to_owned(), description: refusal.description })
}

fn parameters(params: Option<pb::AuthorizationParameters>, issuer: String) -> AuthorizationRequest {
    let p = params.unwrap_or_default();
    AuthorizationRequest {
        response_type: p.response_type,
        client_id: p.client_id,
        redirect_uri: p.redirect_uri,
        scope: p.scope,
        state: p.state,
        code_challenge: p.code_challenge,
        code_challenge_method: p.code_challenge_method,
        resource: p.resource,
        issuer,
    }
}

fn problem_answer(problem: AuthorizationProblem) -> (Option<pb::OAuthError>, bool, String) {
    match problem {
        AuthorizationProblem::Show(refusal) => (oauth_error(refusal), false, String::new()),
        AuthorizationProblem::Redirect { to, refusal } => (oauth_error(refusal), true, to),
    }
}

#[tonic::async_trait]
impl OAuthService for OAuthGrpc {
    async fn get_server_info(&self, _request: Request<pb::GetOAuthServerInfoRequest>) -> Reply<pb::OAuthServerInfo> {
        let settings = self.core.accounts().config();
        let secs = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        Ok(Response::new(pb::OAuthServerInfo {
            resources: settings.oauth_resources.clone(),
            scopes: vec![crate::service::accounts::oauth::SCOPE.to_owned()],
            access_token_seconds: secs(settings.oauth_access_secs),
            refresh_token_seconds: secs(settings.oauth_refresh_secs),
            code_seconds: secs(settings.oauth_code_secs),
        }))
    }

    async fn register_client(&self, request: Request<pb::RegisterClientRequest>) -> Reply<pb::RegisterClientResponse> {
        Ok(Response::new(match self.core.accounts().register_oauth_client(&request.get_ref().metadata_json).await? {
            Ok(client_json) => pb::RegisterClientResponse { error: None, client_json },
            Err(refusal) => pb::RegisterClientResponse { error: oauth_error(refusal), client_json: String::new() },
        }))
    }

    async fn check_authorization(
        &self,
        request: Request<pb::CheckAuthorizationRequest>,
    ) -> Reply<pb::CheckAuthorizationResponse> {
        let person = signed_in(&self.core, &request).await.is_ok();
        let request = request.into_inner();
        let params = parameters(request.parameters, request.issuer);
        Ok(Response::new(match self.core.accounts().check_authorization(&params, person).await? {
            Ok(checked) => pb::CheckAuthorizationResponse {
                error: None,
                redirect_error: false,
                redirect_uri: checked.redirect_uri,
                client_host: document_host(&checked.client.id).unwrap_or_default(),
                client_name: checked.client.name,
                grants: checked.grants,
                resource: checked.resource,
                scope: checked.scope,
            },
            Err(problem) => {
                let (error, redirect_error, redirect_uri) = problem_answer(problem);
                pb::CheckAuthorizationResponse { error, redirect_error, redirect_uri, ..Default::default() }
            }
        }))
    }

    async fn authorize(&self, request: Request<pb::AuthorizeRequest>) -> Reply<pb::AuthorizeResponse> {
        let who = signed_in(&self.core, &request).await?;
        let req = request.into_inner();
        let params = parameters(req.parameters, req.issuer);
        let answer =
            self.core.accounts().authorize(&who, &req.csrf_token, &params, req.approve, &req.client_address).await?;
        Ok(Response::new(match answer {
            Ok(redirect_to) => pb::AuthorizeResponse { error: None, redirect_to },
            Err(problem) => {
                let (error, _, redirect_to) = problem_answer(problem);
                pb::AuthorizeResponse { error, redirect_to }
            }
        }))
    }

    async fn token(&self, request: Request<pb::TokenRequest>) -> Reply<pb::TokenResponse> {
        let form: std::collections::HashMap<String, String> = request.into_inner().form;
        Ok(Response::new(match self.core.accounts().oauth_token(&form).await? {
            Ok(issued) => pb::TokenResponse {
                error: None,
                status: 200,
                access_token: issued.access_token,
                token_type: "Bearer".into(),
                expires_in: u32::try_from(issued.expires_in).unwrap_or(u32::MAX),
                refresh_token: issued.refresh_token,
                scope: issued.scope,
            },
            Err((refusal, status)) => {
                pb::TokenResponse { error: oauth_error(refusal), status: u32::from(status), ..Default::default() }
            }
        }))
    }

    async fn revoke(&self, request: Request<pb::RevokeOAuthTokenRequest>) -> Reply<pb::RevokeOAuthTokenResponse> {
        let req = request.into_inner();
        self.core.accounts().oauth_revoke(&req.token, &req.client_id).await?;
        Ok(Response::new(pb::RevokeOAuthTokenResponse {}))
    }
}

#[tonic::async_trait]
impl AccountAdminService for AccountAdminGrpc {
    async fn create_sign_in_link(
        &self,
        request: Request<pb::CreateSignInLinkRequest>,
    ) -> Reply<pb::CreateSignInLinkResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let user = UserId::parse(&req.user_id).map_err(invalid)?;
        let (link, expires_at) = self.core.accounts().create_sign_in_link(&who, user, req.valid_seconds).await?;
        Ok(Response::new(pb::CreateSignInLinkResponse { link, expires_at: Some(convert::timestamp(expires_at)) }))
    }

    async fn set_user_login(&self, request: Request<pb::SetUserLoginRequest>) -> Reply<pb::User> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let user = UserId::parse(&req.user_id).map_err(invalid)?;
        let row = self.core.accounts().set_user_login(&who, user, &req.login, &req.password).await?;
        Ok(Response::new(convert::user(row)))
    }
}
