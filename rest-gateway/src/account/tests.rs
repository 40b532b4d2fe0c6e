//! A fake core-service for the account site's router tests (`flow_tests`): it answers as the
//! contract says, so the tests can check the redirects, cookies, statuses and markup
//! docs/ACCOUNTS.md names.

use std::collections::HashMap;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::Response;
use canvas_proto::v1 as pb;
use canvas_proto::v1::o_auth_service_server::{OAuthService, OAuthServiceServer};
use canvas_proto::v1::project_service_server::{ProjectService, ProjectServiceServer};
use canvas_proto::v1::session_service_server::{SessionService, SessionServiceServer};
use canvas_proto::v1::ErrorReason;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};
use tower::ServiceExt;

use crate::state::AppState;

fn refused(code: Code, reason: ErrorReason, retry: Option<u64>) -> Status {
    let mut details = ErrorDetails::new();
    details.set_error_info(reason.as_str_name(), canvas_proto::failure::ERROR_DOMAIN, HashMap::new());
    if let Some(seconds) = retry {
        details.set_retry_info(Some(Duration::from_secs(seconds)));
    }
    Status::with_error_details(code, "refused by the fake", details)
}

fn info() -> pb::SessionInfo {
    pb::SessionInfo {
        user: Some(pb::User { user_id: "u1".into(), name: "Ada <b>".into(), ..Default::default() }),
        csrf_token: "csrf-1".into(),
        idle_seconds: 43200,
        login: "ada".into(),
        ..Default::default()
    }
}

fn signed_in<T>(request: &tonic::Request<T>) -> Result<(), Status> {
    match request.metadata().get("x-canvas-session").and_then(|v| v.to_str().ok()) {
        Some("svc_ss_good") => Ok(()),
        _ => Err(refused(Code::Unauthenticated, ErrorReason::Unauthenticated, None)),
    }
}

type Answer<T> = Result<tonic::Response<T>, Status>;
struct Fake;

#[tonic::async_trait]
impl SessionService for Fake {
    async fn sign_in(&self, request: tonic::Request<pb::SignInRequest>) -> Answer<pb::SignInResponse> {
        match (request.get_ref().login.as_str(), request.get_ref().password.as_str()) {
            ("ada", "right") => {
                Ok(tonic::Response::new(pb::SignInResponse { session: "svc_ss_good".into(), info: Some(info()) }))
            }
            ("slow", _) => Err(refused(Code::ResourceExhausted, ErrorReason::RateLimited, Some(7))),
            _ => Err(refused(Code::Unauthenticated, ErrorReason::Unauthenticated, None)),
        }
    }
    async fn check_sign_in_link(&self, _: tonic::Request<pb::CheckSignInLinkRequest>) -> Answer<pb::SignInLinkInfo> {
        Err(Status::unimplemented(""))
    }
    async fn redeem_sign_in_link(&self, _: tonic::Request<pb::RedeemSignInLinkRequest>) -> Answer<pb::SignInResponse> {
        Err(Status::unimplemented(""))
    }
    async fn get_session(&self, request: tonic::Request<pb::GetSessionRequest>) -> Answer<pb::SessionInfo> {
        signed_in(&request).map(|()| tonic::Response::new(info()))
    }
    async fn sign_out(&self, request: tonic::Request<pb::SignOutRequest>) -> Answer<pb::SignOutResponse> {
        signed_in(&request)?;
        if request.get_ref().csrf_token != "csrf-1" {
            return Err(refused(Code::PermissionDenied, ErrorReason::PermissionDenied, None));
        }
        Ok(tonic::Response::new(pb::SignOutResponse {}))
    }
    async fn change_password(
        &self,
        _: tonic::Request<pb::ChangePasswordRequest>,
    ) -> Answer<pb::ChangePasswordResponse> {
        Err(Status::unimplemented(""))
    }
    async fn list_my_tokens(
        &self,
        request: tonic::Request<pb::ListMyTokensRequest>,
    ) -> Answer<pb::ListMyTokensResponse> {
        signed_in(&request)?;
        let info = pb::ApiToken { token_id: "t1".into(), name: "laptop".into(), environment: 3, ..Default::default() };
        Ok(tonic::Response::new(pb::ListMyTokensResponse {
            tokens: vec![pb::MyToken { info: Some(info), prefix: "svc_tk_abcd".into() }],
        }))
    }
    async fn create_my_token(
        &self,
        request: tonic::Request<pb::CreateMyTokenRequest>,
    ) -> Answer<pb::CreateMyTokenResponse> {
        signed_in(&request)?;
        Ok(tonic::Response::new(pb::CreateMyTokenResponse { token: "svc_tk_secret".into(), info: None }))
    }
    async fn revoke_my_token(&self, _: tonic::Request<pb::RevokeMyTokenRequest>) -> Answer<pb::MyToken> {
        Err(Status::unimplemented(""))
    }
    async fn list_my_audit_records(
        &self,
        _: tonic::Request<pb::ListMyAuditRecordsRequest>,
    ) -> Answer<pb::ListMyAuditRecordsResponse> {
        Err(Status::unimplemented(""))
    }
    async fn list_my_apps(&self, _: tonic::Request<pb::ListMyAppsRequest>) -> Answer<pb::ListMyAppsResponse> {
        Err(Status::unimplemented(""))
    }
    async fn revoke_my_app(&self, _: tonic::Request<pb::RevokeMyAppRequest>) -> Answer<pb::RevokeMyAppResponse> {
        Err(Status::unimplemented(""))
    }
}

#[tonic::async_trait]
impl ProjectService for Fake {
    async fn who_am_i(&self, _: tonic::Request<pb::WhoAmIRequest>) -> Answer<pb::User> {
        Err(Status::unimplemented(""))
    }
    async fn list_my_projects(
        &self,
        request: tonic::Request<pb::ListMyProjectsRequest>,
    ) -> Answer<pb::ListProjectsResponse> {
        signed_in(&request)?;
        let project =
            pb::Project { project_id: "p1".into(), name: "Plan & <Build>".into(), role: 2, ..Default::default() };
        Ok(tonic::Response::new(pb::ListProjectsResponse { projects: vec![project] }))
    }
    async fn get_project(&self, _: tonic::Request<pb::GetProjectRequest>) -> Answer<pb::Project> {
        Err(Status::unimplemented(""))
    }
}

#[tonic::async_trait]
impl OAuthService for Fake {
    async fn get_server_info(&self, _: tonic::Request<pb::GetOAuthServerInfoRequest>) -> Answer<pb::OAuthServerInfo> {
        Ok(tonic::Response::new(pb::OAuthServerInfo { scopes: vec!["mcp".into()], ..Default::default() }))
    }
    async fn register_client(
        &self,
        request: tonic::Request<pb::RegisterClientRequest>,
    ) -> Answer<pb::RegisterClientResponse> {
        let client_json = request.into_inner().metadata_json.replace('{', "{\"client_id\":\"c1\",");
        Ok(tonic::Response::new(pb::RegisterClientResponse { error: None, client_json }))
    }
    async fn check_authorization(
        &self,
        request: tonic::Request<pb::CheckAuthorizationRequest>,
    ) -> Answer<pb::CheckAuthorizationResponse> {
        let parameters = request.into_inner().parameters.unwrap_or_default();
        let error = |code: &str| Some(pb::OAuthError { error: code.into(), description: String::new() });
        Ok(tonic::Response::new(match parameters.client_id.as_str() {
            "unknown" => pb::CheckAuthorizationResponse { error: error("invalid_client"), ..Default::default() },
            "plain" => pb::CheckAuthorizationResponse {
                error: error("invalid_request"),
                redirect_error: true,
                // core-service answers the whole address, error and state included.
                redirect_uri: format!("{}?error=invalid_request&state={}", parameters.redirect_uri, parameters.state),
                ..Default::default()
            },
            _ => pb::CheckAuthorizationResponse {
                redirect_uri: parameters.redirect_uri,
                client_name: "Tool".into(),
                grants: vec!["Read <maps>".into()],
                resource: "http://canvas.test/mcp".into(),
                ..Default::default()
            },
        }))
    }
    async fn authorize(&self, request: tonic::Request<pb::AuthorizeRequest>) -> Answer<pb::AuthorizeResponse> {
        signed_in(&request)?;
        let request = request.into_inner();
        let parameters = request.parameters.unwrap_or_default();
        let redirect_to =
            format!("{}?code=c{}&state={}", parameters.redirect_uri, u8::from(request.approve), parameters.state);
        Ok(tonic::Response::new(pb::AuthorizeResponse { error: None, redirect_to }))
    }
    async fn token(&self, request: tonic::Request<pb::TokenRequest>) -> Answer<pb::TokenResponse> {
        let form = request.into_inner().form;
        Ok(tonic::Response::new(match form.get("code").map(String::as_str) {
            Some("good") => pb::TokenResponse {
                access_token: "svc_at_1".into(),
                token_type: "Bearer".into(),
                expires_in: 3600,
                refresh_token: "svc_rt_1".into(),
                scope: "mcp".into(),
                ..Default::default()
            },
            _ => pb::TokenResponse {
                error: Some(pb::OAuthError { error: "invalid_grant".into(), description: "no such code".into() }),
                status: 400,
                ..Default::default()
            },
        }))
    }
    async fn revoke(&self, _: tonic::Request<pb::RevokeOAuthTokenRequest>) -> Answer<pb::RevokeOAuthTokenResponse> {
        Ok(tonic::Response::new(pb::RevokeOAuthTokenResponse {}))
    }
}

/// The REST router against the fake core-service.
pub(super) async fn app(account_url: Option<&str>) -> axum::Router {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(SessionServiceServer::new(Fake))
            .add_service(ProjectServiceServer::new(Fake))
            .add_service(OAuthServiceServer::new(Fake))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let mut state = AppState::connect(&format!("http://{address}"), &canvas_runtime::GatewayArgs::default()).unwrap();
    if let Some(url) = account_url {
        state = state.with_account_url(url);
    }
    crate::router(state)
}

pub(super) struct Answered {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: String,
}

impl Answered {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("")
    }
    pub fn cookies(&self) -> Vec<&str> {
        self.headers.get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()).collect()
    }
}

pub(super) async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Answered {
    let mut request = Request::builder().method(method).uri(uri).header("host", "canvas.test");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response: Response = app.clone().oneshot(request.body(Body::from(body.to_owned())).unwrap()).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    Answered { status, headers, body: String::from_utf8_lossy(&bytes).into_owned() }
}

pub(super) const FORM: (&str, &str) = ("content-type", "application/x-www-form-urlencoded");
pub(super) const SESSION: (&str, &str) = ("cookie", "canvas_session=svc_ss_good");
