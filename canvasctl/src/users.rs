//! `canvasctl user`: people, their sign-in names and passwords, and one-time
//! sign-in links (docs/ACCOUNTS.md).

use std::io::BufRead;

use anyhow::{bail, Context};
use canvas_proto::v1 as pb;
use canvas_proto::v1::account_admin_service_client::AccountAdminServiceClient;
use serde_json::json;

use crate::admin::{explain, print, Admin};
use crate::cli::{Connection, UserCommand};

/// One line of standard input, without its line ending: a password never passes through argv.
fn password_from_stdin() -> anyhow::Result<String> {
    let mut line = String::new();
    std::io::stdin().lock().read_line(&mut line).context("reading the password from standard input")?;
    let password = line.trim_end_matches(['\r', '\n']).to_owned();
    if password.is_empty() {
        bail!("--password-stdin: standard input held no password");
    }
    Ok(password)
}

pub async fn user(conn: Connection, command: UserCommand) -> anyhow::Result<()> {
    let mut admin = Admin::connect(&conn).await?;
    let mut accounts = AccountAdminServiceClient::new(admin.channel.clone());
    match command {
        UserCommand::Create { name, admin: system_admin, login, password_stdin } => {
            let password = if password_stdin { password_from_stdin()? } else { String::new() };
            let req = admin.request(pb::CreateUserRequest { name, system_admin })?;
            let user = admin.client.create_user(req).await.map_err(explain)?.into_inner();
            if let Some(login) = &login {
                let req = admin.request(pb::SetUserLoginRequest {
                    user_id: user.user_id.clone(),
                    login: login.clone(),
                    password,
                })?;
                accounts.set_user_login(req).await.map_err(explain)?;
            }
            print(
                &conn,
                json!({"userId": user.user_id, "login": login}),
                format!("created user {} ({})", user.user_id, user.name),
            );
        }
        UserCommand::Login { user, login, password_stdin } => {
            let password = if password_stdin { password_from_stdin()? } else { String::new() };
            let req =
                admin.request(pb::SetUserLoginRequest { user_id: user.clone(), login: login.clone(), password })?;
            accounts.set_user_login(req).await.map_err(explain)?;
            print(&conn, json!({"userId": user, "login": login}), format!("user {user} signs in as {login}"));
        }
        UserCommand::Invite { user, valid_hours, account_url } => {
            let valid_seconds = valid_hours.checked_mul(3600).context("--valid-hours is too large")?;
            let req =
                admin.request(pb::CreateSignInLinkRequest { user_id: user, valid_seconds: Some(valid_seconds) })?;
            let reply = accounts.create_sign_in_link(req).await.map_err(explain)?.into_inner();
            let account_url = crate::running::Running::find().base_url(account_url.as_deref());
            let url = sign_in_url(&account_url, &reply.link);
            let expires = crate::times::rfc3339(reply.expires_at.as_ref());
            print(
                &conn,
                json!({"signInUrl": url, "expiresAt": expires}),
                format!("{url}\n(works once, for {valid_hours} hours)"),
            );
        }
    }
    Ok(())
}

/// The account site's page for a sign-in link.
pub fn sign_in_url(account_url: &str, link: &str) -> String {
    format!("{}/account/link?code={link}", account_url.trim_end_matches('/'))
}
