//! `canvas.v1.AdminService` and `canvas.v1.ProjectService`: validate,
//! authenticate, call the service layer, convert.

use crate::grpc::status::invalid;
use std::sync::Arc;

use canvas_proto::v1 as pb;
use canvas_proto::v1::admin_service_server::AdminService;
use canvas_proto::v1::project_service_server::ProjectService;
use tonic::{Request, Response, Status};

use super::{authenticate, authenticate_reader, convert};
use crate::domain::{ProjectId, ProjectRole, TokenId, UserId};
use crate::service::Core;

/// gRPC face of account administration.
pub struct AdminGrpc {
    pub core: Arc<Core>,
}

/// gRPC face of a caller's own account.
pub struct ProjectGrpc {
    pub core: Arc<Core>,
}

type Reply<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl AdminService for AdminGrpc {
    async fn create_user(&self, request: Request<pb::CreateUserRequest>) -> Reply<pb::User> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let user = self.core.accounts().create_user(&who, &req.name, req.system_admin).await?;
        Ok(Response::new(convert::user(user)))
    }

    async fn create_token(&self, request: Request<pb::CreateTokenRequest>) -> Reply<pb::CreateTokenResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let user = UserId::parse(&req.user_id).map_err(invalid)?;
        let environment = convert::environment_from_proto(req.environment)?;
        let issued = self.core.accounts().create_token(&who, user, environment, &req.name).await?;
        Ok(Response::new(pb::CreateTokenResponse { token: issued.secret, info: Some(convert::token(issued.row)) }))
    }

    async fn revoke_token(&self, request: Request<pb::RevokeTokenRequest>) -> Reply<pb::RevokeTokenResponse> {
        let who = authenticate(&self.core, &request).await?;
        let token = TokenId::parse(&request.get_ref().token_id).map_err(invalid)?;
        let row = self.core.accounts().revoke_token(&who, token).await?;
        Ok(Response::new(pb::RevokeTokenResponse { info: Some(convert::token(row)) }))
    }

    async fn list_tokens(&self, request: Request<pb::ListTokensRequest>) -> Reply<pb::ListTokensResponse> {
        let who = authenticate(&self.core, &request).await?;
        let user = UserId::parse(&request.get_ref().user_id).map_err(invalid)?;
        let rows = self.core.accounts().list_tokens(&who, user).await?;
        Ok(Response::new(pb::ListTokensResponse { tokens: rows.into_iter().map(convert::token).collect() }))
    }

    async fn create_project(&self, request: Request<pb::CreateProjectRequest>) -> Reply<pb::Project> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let owner = UserId::parse(&req.owner_user_id).map_err(invalid)?;
        let row = self.core.accounts().create_project(&who, &req.name, owner).await?;
        Ok(Response::new(convert::project(row, Some(ProjectRole::Admin))))
    }

    async fn list_user_projects(
        &self,
        request: Request<pb::ListUserProjectsRequest>,
    ) -> Reply<pb::ListProjectsResponse> {
        let who = authenticate(&self.core, &request).await?;
        let req = request.into_inner();
        let user = UserId::parse(&req.user_id).map_err(invalid)?;
        let rows = self.core.accounts().list_user_projects(&who, user, req.page_size).await?;
        Ok(Response::new(pb::ListProjectsResponse { projects: rows.into_iter().map(convert::user_project).collect() }))
    }

    async fn add_member(&self, request: Request<pb::MemberRequest>) -> Reply<pb::Membership> {
        let who = authenticate(&self.core, &request).await?;
        let (project, user, role) = member_args(request.get_ref())?;
        let row = self.core.accounts().add_member(&who, project, user, convert::role_from_proto(role)?).await?;
        Ok(Response::new(convert::membership(row)))
    }

    async fn set_member_role(&self, request: Request<pb::MemberRequest>) -> Reply<pb::Membership> {
        let who = authenticate(&self.core, &request).await?;
        let (project, user, role) = member_args(request.get_ref())?;
        let row = self.core.accounts().set_member_role(&who, project, user, convert::role_from_proto(role)?).await?;
        Ok(Response::new(convert::membership(row)))
    }

    async fn remove_member(&self, request: Request<pb::MemberRequest>) -> Reply<pb::Membership> {
        let who = authenticate(&self.core, &request).await?;
        let (project, user, _) = member_args(request.get_ref())?;
        let row = self.core.accounts().remove_member(&who, project, user).await?;
        Ok(Response::new(convert::membership(row)))
    }

    async fn list_members(&self, request: Request<pb::ListMembersRequest>) -> Reply<pb::ListMembersResponse> {
        let who = authenticate(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let rows = self.core.accounts().list_members(&who, project).await?;
        Ok(Response::new(pb::ListMembersResponse { members: rows.into_iter().map(convert::membership).collect() }))
    }
}

fn member_args(req: &pb::MemberRequest) -> Result<(ProjectId, UserId, i32), Status> {
    Ok((ProjectId::parse(&req.project_id).map_err(invalid)?, UserId::parse(&req.user_id).map_err(invalid)?, req.role))
}

#[tonic::async_trait]
impl ProjectService for ProjectGrpc {
    async fn who_am_i(&self, request: Request<pb::WhoAmIRequest>) -> Reply<pb::User> {
        let who = authenticate_reader(&self.core, &request).await?;
        let user = self
            .core
            .accounts()
            .user(who.user_id)
            .await?
            .ok_or_else(|| crate::error::CoreError::not_found("user", who.user_id))?;
        Ok(Response::new(convert::user(user)))
    }

    async fn list_my_projects(&self, request: Request<pb::ListMyProjectsRequest>) -> Reply<pb::ListProjectsResponse> {
        let who = authenticate_reader(&self.core, &request).await?;
        let rows = self.core.accounts().list_user_projects(&who, who.user_id, request.get_ref().page_size).await?;
        let mut projects = Vec::with_capacity(rows.len());
        for row in rows {
            let (id, managed) = (row.id, ProjectRole::from_code(row.role) >= Some(ProjectRole::Manager));
            let mut project = convert::user_project(row);
            if request.get_ref().with_webhook_alerts && managed {
                let alerts = self.core.webhooks().webhook_alerts(&who, id).await?;
                project.webhook_alerts = alerts.into_iter().map(convert::webhook_alert).collect();
            }
            projects.push(project);
        }
        Ok(Response::new(pb::ListProjectsResponse { projects }))
    }

    async fn get_project(&self, request: Request<pb::GetProjectRequest>) -> Reply<pb::Project> {
        let who = authenticate_reader(&self.core, &request).await?;
        let project = ProjectId::parse(&request.get_ref().project_id).map_err(invalid)?;
        let (row, role) = self.core.accounts().get_project(&who, project).await?;
        Ok(Response::new(convert::project(row, Some(role))))
    }
}
