//! Admin commands: one gRPC call each, printing one JSON object with `--json`.

use anyhow::{bail, Context};
use canvas_proto::v1 as pb;
use canvas_proto::v1::admin_service_client::AdminServiceClient;
use serde_json::{json, Value};
use tonic::metadata::MetadataValue;
use tonic::transport::Channel;
use tonic::Request;

use crate::cli::{Connection, MemberCommand, ProjectCommand, TokenCommand};

pub(crate) struct Admin {
    pub(crate) client: AdminServiceClient<Channel>,
    pub(crate) channel: Channel,
    token: String,
}

impl Admin {
    pub(crate) async fn connect(conn: &Connection) -> anyhow::Result<Self> {
        let Some(token) = conn.admin_token() else {
            bail!("an admin token is required: pass --admin-token or set CANVAS_ADMIN_TOKEN");
        };
        let channel = Channel::from_shared(conn.core_url())
            .context("--core must be a URL such as http://127.0.0.1:50051")?
            .connect()
            .await
            .with_context(|| format!("cannot reach core-service at {}", conn.core_url()))?;
        Ok(Self { client: AdminServiceClient::new(channel.clone()), channel, token })
    }

    pub(crate) fn request<T>(&self, message: T) -> anyhow::Result<Request<T>> {
        let mut request = Request::new(message);
        let value = MetadataValue::try_from(format!("Bearer {}", self.token.trim()))
            .context("the admin token is not valid text")?;
        request.metadata_mut().insert("authorization", value);
        Ok(request)
    }
}

/// Turns a gRPC failure into a one-line message naming the offending fields.
pub(crate) fn explain(status: tonic::Status) -> anyhow::Error {
    use tonic_types::StatusExt;
    let mut message = format!("{:?}: {}", status.code(), status.message());
    if let Some(bad) = status.get_error_details().bad_request() {
        for v in &bad.field_violations {
            message.push_str(&format!("\n  {}: {}", v.field, v.description));
        }
    }
    anyhow::anyhow!(message)
}

pub(crate) fn print(conn: &Connection, value: Value, text: String) {
    if conn.json {
        println!("{value}");
    } else {
        println!("{text}");
    }
}

fn role(raw: &str) -> anyhow::Result<i32> {
    let role = match raw.trim().to_ascii_lowercase().as_str() {
        "viewer" => pb::ProjectRole::Viewer,
        "editor" => pb::ProjectRole::Editor,
        "manager" => pb::ProjectRole::Manager,
        "admin" => pb::ProjectRole::Admin,
        _ => bail!("--role must be Viewer, Editor, Manager or Admin"),
    };
    Ok(role as i32)
}

fn role_name(code: i32) -> &'static str {
    match pb::ProjectRole::try_from(code) {
        Ok(pb::ProjectRole::Viewer) => "Viewer",
        Ok(pb::ProjectRole::Editor) => "Editor",
        Ok(pb::ProjectRole::Manager) => "Manager",
        Ok(pb::ProjectRole::Admin) => "Admin",
        _ => "none",
    }
}

fn environment(raw: Option<&str>) -> anyhow::Result<i32> {
    let env = match raw.map(|r| r.trim().to_ascii_lowercase()) {
        None => pb::Environment::Unspecified,
        Some(r) if r == "production" => pb::Environment::Production,
        Some(r) if r == "staging" => pb::Environment::Staging,
        Some(r) if r == "development" => pb::Environment::Development,
        Some(_) => bail!("--environment must be production, staging or development"),
    };
    Ok(env as i32)
}

pub async fn token(conn: Connection, command: TokenCommand) -> anyhow::Result<()> {
    let mut admin = Admin::connect(&conn).await?;
    match command {
        TokenCommand::Create { user, environment: env, name } => {
            let req = admin.request(pb::CreateTokenRequest {
                user_id: user,
                environment: environment(env.as_deref())?,
                name,
            })?;
            let reply = admin.client.create_token(req).await.map_err(explain)?.into_inner();
            let token_id = reply.info.map(|i| i.token_id).unwrap_or_default();
            print(
                &conn,
                json!({"token": reply.token, "tokenId": token_id}),
                format!("token {token_id}:\n{}\n(shown once: store it now)", reply.token),
            );
        }
        TokenCommand::Revoke { token_id } => {
            let req = admin.request(pb::RevokeTokenRequest { token_id })?;
            let info = admin.client.revoke_token(req).await.map_err(explain)?.into_inner().info.unwrap_or_default();
            print(
                &conn,
                json!({"tokenId": info.token_id, "revoked": true}),
                format!("revoked token {}", info.token_id),
            );
        }
        TokenCommand::List { user } => {
            let req = admin.request(pb::ListTokensRequest { user_id: user })?;
            let tokens = admin.client.list_tokens(req).await.map_err(explain)?.into_inner().tokens;
            let rows: Vec<Value> = tokens
                .iter()
                .map(|t| {
                    json!({
                        "tokenId": t.token_id,
                        "name": t.name,
                        "revoked": t.revoked_at.is_some(),
                        "lastUsedAt": crate::times::rfc3339(t.last_used_at.as_ref()),
                    })
                })
                .collect();
            let text = rows.iter().map(Value::to_string).collect::<Vec<_>>().join("\n");
            print(&conn, json!({"tokens": rows}), text);
        }
    }
    Ok(())
}

pub async fn project(conn: Connection, command: ProjectCommand) -> anyhow::Result<()> {
    if let ProjectCommand::Copy { from, name, owner } = command {
        return crate::webhooks::copy_project(conn, from, name, owner).await;
    }
    let mut admin = Admin::connect(&conn).await?;
    match command {
        ProjectCommand::Create { name, owner } => {
            let req = admin.request(pb::CreateProjectRequest { name, owner_user_id: owner })?;
            let project = admin.client.create_project(req).await.map_err(explain)?.into_inner();
            print(
                &conn,
                json!({"projectId": project.project_id}),
                format!("created project {} ({})", project.project_id, project.name),
            );
        }
        ProjectCommand::List { user } => {
            let req = admin.request(pb::ListUserProjectsRequest { user_id: user, page_size: Some(1000) })?;
            let projects = admin.client.list_user_projects(req).await.map_err(explain)?.into_inner().projects;
            let rows: Vec<Value> = projects
                .iter()
                .map(|p| json!({"projectId": p.project_id, "name": p.name, "role": role_name(p.role)}))
                .collect();
            let text = projects
                .iter()
                .map(|p| format!("{}  {}  {}", p.project_id, role_name(p.role), p.name))
                .collect::<Vec<_>>()
                .join("\n");
            print(&conn, json!({"projects": rows}), text);
        }
        // Export and import are `crate::archive`'s, dispatched by `main`.
        ProjectCommand::Copy { .. } | ProjectCommand::Export { .. } | ProjectCommand::Import { .. } => {
            unreachable!("handled elsewhere")
        }
    }
    Ok(())
}

pub async fn member(conn: Connection, command: MemberCommand) -> anyhow::Result<()> {
    let mut admin = Admin::connect(&conn).await?;
    let (project_id, user_id, role_code, action) = match &command {
        MemberCommand::Add { project, user, role: r } => (project.clone(), user.clone(), role(r)?, "added"),
        MemberCommand::SetRole { project, user, role: r } => (project.clone(), user.clone(), role(r)?, "changed"),
        MemberCommand::Remove { project, user } => (project.clone(), user.clone(), 0, "removed"),
    };
    let req = admin.request(pb::MemberRequest { project_id, user_id, role: role_code })?;
    let reply = match command {
        MemberCommand::Add { .. } => admin.client.add_member(req).await,
        MemberCommand::SetRole { .. } => admin.client.set_member_role(req).await,
        MemberCommand::Remove { .. } => admin.client.remove_member(req).await,
    }
    .map_err(explain)?
    .into_inner();
    print(
        &conn,
        json!({"projectId": reply.project_id, "userId": reply.user_id, "role": role_name(reply.role), "result": action}),
        format!("{action}: user {} in project {} ({})", reply.user_id, reply.project_id, role_name(reply.role)),
    );
    Ok(())
}
