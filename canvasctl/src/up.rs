//! `canvasctl up`: every component in one process, for a newcomer.
//!
//! On the first start with an empty data directory it creates an
//! administrator, a demo user with a token and a demo project, prints them and
//! writes them to `DATA_DIR/dev-credentials.json`. Later starts reuse the data.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
use core_service::{Core, CoreConfig};
use serde::{Deserialize, Serialize};
use tokio::net::TcpListener;

use crate::cli::UpArgs;

/// What a newcomer needs to make the first call; the file is written 0600.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DevCredentials {
    pub user_id: String,
    pub token: String,
    pub project_id: String,
    pub admin_token: String,
    pub core_url: String,
    pub base_url: String,
    /// The demo user's sign-in name on the account site.
    #[serde(default)]
    pub login: String,
    /// A one-time link that signs the demo user in (and offers to set a password); a fresh one
    /// on every start, valid for 24 hours.
    #[serde(default)]
    pub sign_in_url: String,
}

/// `config_report` is what `GET /config` on the base URL shows (to loopback callers).
pub async fn up(args: UpArgs, config_report: canvas_runtime::settings::ConfigReport) -> anyhow::Result<()> {
    let _telemetry = canvas_runtime::init(&args.process, "canvasctl");
    let grpc_listener = TcpListener::bind(args.grpc_addr)
        .await
        .with_context(|| format!("cannot listen on {} (is another canvasctl up running?)", args.grpc_addr))?;
    let http_listener =
        TcpListener::bind(args.http_addr).await.with_context(|| format!("cannot listen on {}", args.http_addr))?;
    let core_url = format!("http://{}", grpc_listener.local_addr()?);
    let base_url = format!("http://{}", http_listener.local_addr()?);
    // MCP at {base_url}/mcp; item links point at the same base URL unless --web-url says otherwise.
    let mcp_settings = mcp_gateway::McpSettings { limits: args.gateway.clone(), ..args.mcp.settings(&base_url) };
    let mut accounts = args.accounts.clone();
    if accounts.oauth_resources.is_empty() {
        accounts.oauth_resources = vec![mcp_settings.resource_url.clone()];
    }
    let config = CoreConfig {
        data_dir: args.data_dir.clone(),
        database_url: args.database_url.clone(),
        read_database_url: args.read_database_url.clone(),
        read_database_max_wait_ms: args.read_database_max_wait_ms,
        environment: args.environment.clone(),
        db_max_connections: 16,
        db_acquire_timeout_secs: 5,
        db_check_idle_after_ms: args.db_check_idle_after_ms,
        access_memory_ms: args.access_memory_ms,
        blob_store: None,
        knowledge: args.knowledge.clone(),
        webhooks: args.webhooks.clone(),
        accounts,
    };
    let core = core_service::build(&config).await.context("could not open the database")?;

    let shutdown = canvas_runtime::on_signal(args.process.shutdown_grace());
    let mut components = Components::new(shutdown.clone());
    let routes = core_service::grpc::routes(core.clone(), &shutdown).await?;
    // The gateways call core-service in this process: no HTTP/2 hop on every request. The gRPC
    // listener still serves the webhook dispatcher, `grpcurl` and other processes.
    let in_process = canvas_proto::channel::CoreChannel::in_process(core_service::grpc::in_process(routes.clone()));
    components.spawn("core-service", core_service::run_routes(grpc_listener, core.clone(), routes, shutdown.clone()));

    let credentials = match first_start_or_reuse(&core, &args.data_dir, &core_url, &base_url).await {
        Ok(credentials) => credentials,
        Err(error) => {
            components.stop().await;
            return Err(error);
        }
    };
    let state = rest_gateway::AppState::from_channel(
        in_process.clone().with_deadline(args.gateway.core_timeout()),
        &args.gateway,
    )
    .with_account_url(&base_url);
    let mcp_deadline = mcp_settings.limits.core_timeout();
    let mcp = mcp_gateway::McpState::from_channel(in_process.with_deadline(mcp_deadline), mcp_settings);
    let router = rest_gateway::router(state)
        .merge(mcp_gateway::router(mcp))
        .merge(canvas_runtime::settings::route(config_report));
    // A request refused at the edge is answered in its route's protocol: `/mcp` as MCP, the rest as REST.
    let answer = mcp_gateway::edge_refusal_beside(rest_gateway::edge_refusal());
    let http = rest_gateway::serve_answering(http_listener, router, &args.gateway, answer, shutdown.clone());
    components.spawn("HTTP (REST, MCP, map)", http);
    let mut dispatcher = webhook_dispatcher::DispatcherConfig::new(&core_url, args.webhooks.client.clone());
    dispatcher.dispatcher_secret = args.webhooks.dispatcher_secret.clone();
    components.spawn("webhook-dispatcher", webhook_dispatcher::run(dispatcher, shutdown.clone()));
    print_banner(credentials.as_ref(), &args.data_dir, &base_url, &core_url);

    let outcome = components.wait().await;
    core.storage().close().await;
    outcome
}

/// The components of `canvasctl up`, run as tasks of one process. The first one that fails (or
/// panics) stops the others through the shared shutdown, and its error is the process's: a
/// service half up (REST answering while core-service is gone) is worse than none.
struct Components {
    tasks: tokio::task::JoinSet<(&'static str, anyhow::Result<()>)>,
    shutdown: canvas_runtime::Shutdown,
}

impl Components {
    fn new(shutdown: canvas_runtime::Shutdown) -> Self {
        Self { tasks: tokio::task::JoinSet::new(), shutdown }
    }

    fn spawn(
        &mut self,
        name: &'static str,
        run: impl std::future::Future<Output = anyhow::Result<()>> + Send + 'static,
    ) {
        self.tasks.spawn(async move { (name, run.await) });
    }

    /// Waits for every component; the first failure cancels the rest and is returned.
    async fn wait(mut self) -> anyhow::Result<()> {
        let mut first_failure: Option<anyhow::Error> = None;
        while let Some(joined) = self.tasks.join_next().await {
            let failure = match joined {
                Ok((_, Ok(()))) => None,
                Ok((name, Err(error))) => Some(error.context(format!("{name} failed"))),
                Err(panic) => Some(anyhow::anyhow!("a component panicked: {panic}")),
            };
            if let Some(error) = failure {
                if first_failure.is_none() {
                    tracing::error!(error = %format!("{error:#}"), "stopping every component");
                    self.shutdown.token.cancel();
                    first_failure = Some(error);
                }
            } else if !self.shutdown.token.is_cancelled() {
                // A component that ends on its own leaves the service incomplete: stop the rest.
                tracing::warn!("a component stopped; stopping the others");
                self.shutdown.token.cancel();
            }
        }
        first_failure.map_or(Ok(()), Err)
    }

    /// Stops whatever was started (start-up failed).
    async fn stop(self) {
        self.shutdown.token.cancel();
        let _ = self.wait().await;
    }
}

fn credentials_path(data_dir: &Path) -> PathBuf {
    data_dir.join("dev-credentials.json")
}

async fn first_start_or_reuse(
    core: &Arc<Core>,
    data_dir: &Path,
    core_url: &str,
    base_url: &str,
) -> anyhow::Result<Option<DevCredentials>> {
    let path = credentials_path(data_dir);
    if let Ok(text) = std::fs::read_to_string(&path) {
        let mut creds: DevCredentials =
            serde_json::from_str(&text).with_context(|| format!("{} is not valid", path.display()))?;
        creds.core_url = core_url.to_owned();
        creds.base_url = base_url.to_owned();
        creds.sign_in_url = fresh_sign_in_url(core, &creds.user_id, base_url).await;
        write_credentials(&path, &creds)?;
        return Ok(Some(creds));
    }
    let Some((admin, admin_token)) = core.accounts().bootstrap_admin("admin").await? else {
        tracing::warn!(
            "the database has an administrator but {} is missing; create tokens with `canvasctl token create`",
            path.display()
        );
        return Ok(None);
    };
    let admin_principal = core.access().authenticate(Some(&format!("Bearer {}", admin_token.secret))).await?;
    let demo = core.accounts().create_user(&admin_principal, "demo", false).await?;
    let demo_id = demo.id;
    let token = core.accounts().create_token(&admin_principal, demo_id, None, "canvasctl up demo").await?;
    let project = core.accounts().create_project(&admin_principal, "Demo project", demo_id).await?;
    core.accounts().set_login_of(demo_id, DEMO_LOGIN, "").await?;
    tracing::info!(admin = %admin.id, "first start: created an administrator, a demo user and a demo project");
    let creds = DevCredentials {
        user_id: demo.id.to_string(),
        token: token.secret,
        project_id: project.id.to_string(),
        admin_token: admin_token.secret,
        core_url: core_url.to_owned(),
        base_url: base_url.to_owned(),
        login: DEMO_LOGIN.to_owned(),
        sign_in_url: fresh_sign_in_url(core, &demo.id.to_string(), base_url).await,
    };
    write_credentials(&path, &creds)?;
    Ok(Some(creds))
}

/// The demo user's sign-in name.
const DEMO_LOGIN: &str = "demo";

/// A new one-time sign-in link for the demo user, or empty (with a warning) when it has no
/// login (a data directory from before the account site, say).
async fn fresh_sign_in_url(core: &Arc<Core>, user_id: &str, base_url: &str) -> String {
    let Ok(user) = core_service::domain::UserId::parse(user_id) else { return String::new() };
    match core.accounts().sign_in_link_for(user, None).await {
        Ok((link, _)) => crate::users::sign_in_url(base_url, &link),
        Err(err) => {
            tracing::warn!(error = %err, "no sign-in link for the demo user; give it one with `canvasctl user login`");
            String::new()
        }
    }
}

/// Writes the file atomically (temp file, fsync, rename) and readable only by
/// its owner: it holds secrets.
fn write_credentials(path: &Path, creds: &DevCredentials) -> anyhow::Result<()> {
    use std::io::Write;
    let dir = path.parent().context("credentials path has no directory")?;
    std::fs::create_dir_all(dir)?;
    let tmp = path.with_extension("json.tmp");
    {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&tmp)?;
        file.write_all(serde_json::to_string_pretty(creds)?.as_bytes())?;
        file.write_all(b"\n")?;
        file.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok(())
}

fn print_banner(creds: Option<&DevCredentials>, data_dir: &Path, base_url: &str, core_url: &str) {
    println!("canvas service is up");
    println!("  REST base URL : {base_url}");
    println!("  core gRPC     : {core_url}");
    println!("  MCP endpoint  : {base_url}/mcp");
    println!("  health        : {base_url}/healthz");
    println!("  API reference : {base_url}/api/docs");
    println!("  configuration : canvasctl config show --url {base_url}");
    if let Some(c) = creds {
        println!("  user id       : {}", c.user_id);
        println!("  project id    : {}", c.project_id);
        println!("  map (browser) : {base_url}/map/{}", c.project_id);
        println!("  API token     : {}", c.token);
        if !c.sign_in_url.is_empty() {
            println!("  sign in (once): {}", c.sign_in_url);
            println!("                  (signs '{}' in to {base_url}/account and offers to set a password)", c.login);
        }
        println!("  admin token   : {}", c.admin_token);
        println!("  credentials   : {}", credentials_path(data_dir).display());
        println!();
        println!("Try it:");
        println!(
            "  curl -s -X POST -H 'Authorization: Bearer {}' -H 'Content-Type: application/json' \\\n    -d '{{\"text\": \"Hello, canvas\"}}' {base_url}/api/v2/projects/{}/item/panel/label",
            c.token, c.project_id
        );
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn the_first_failure_stops_every_component_and_is_the_outcome() {
        let shutdown = canvas_runtime::Shutdown::new(Default::default(), Duration::from_secs(5));
        let mut components = Components::new(shutdown.clone());
        let token = shutdown.token.clone();
        components.spawn("patient", async move {
            token.cancelled().await;
            Ok(())
        });
        components.spawn("broken", async { anyhow::bail!("database gone") });
        let outcome = tokio::time::timeout(Duration::from_secs(5), components.wait()).await.expect("nothing hangs");
        let error = format!("{:#}", outcome.expect_err("the failure is the outcome"));
        assert!(error.contains("broken failed") && error.contains("database gone"), "{error}");
        assert!(shutdown.token.is_cancelled());
    }

    #[tokio::test]
    async fn a_component_that_ends_on_its_own_stops_the_others() {
        let shutdown = canvas_runtime::Shutdown::new(Default::default(), Duration::from_secs(5));
        let mut components = Components::new(shutdown.clone());
        let token = shutdown.token.clone();
        components.spawn("patient", async move {
            token.cancelled().await;
            Ok(())
        });
        components.spawn("quitter", async { Ok(()) });
        tokio::time::timeout(Duration::from_secs(5), components.wait()).await.expect("nothing hangs").unwrap();
        assert!(shutdown.token.is_cancelled());
    }
}
