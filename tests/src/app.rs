//! The components of the service, running in this process on loopback.

use std::sync::Arc;

use canvas_embed::EmbeddingModel;
use core_service::domain::{ProjectId, ProjectRole, TokenId, UserId};
use core_service::knowledge::{EmbeddingProvider, KnowledgeConfig};
use core_service::service::Principal;
use core_service::{Core, CoreConfig};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::db::{Backend, TestDb};

/// Replaces the embedding model of a test's core.
type ModelWrapper = Box<dyn FnOnce(Arc<dyn EmbeddingModel>) -> Arc<dyn EmbeddingModel>>;

/// What a test changes of a started app besides its backend, environment, knowledge and webhooks.
#[derive(Default)]
struct Spawn {
    wrap: Option<ModelWrapper>,
    rate_limits: Option<core_service::service::rate_limits::RateLimitConfig>,
    shares: Option<core_service::service::access::fair_share::FairShareConfig>,
    read_database_url: Option<String>,
}

/// A user with a working token.
#[derive(Debug, Clone)]
pub struct TestUser {
    pub id: String,
    pub token: String,
    pub token_id: String,
}

impl TestUser {
    pub fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }
}

/// How the test app's gateways reach its core-service, from `CANVAS_TEST_CORE_LINK`:
/// `network` (the default: gRPC over loopback, as separate deployments do) or `in-process` (as
/// `canvasctl up` does). tests/run.sh runs a share of the end-to-end tests again in process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoreLink {
    Network,
    InProcess,
}

impl CoreLink {
    /// The link this test run asks for; anything but `in-process` is the network.
    pub fn chosen() -> Self {
        match std::env::var("CANVAS_TEST_CORE_LINK").as_deref() {
            Ok("in-process") => Self::InProcess,
            _ => Self::Network,
        }
    }
}

/// core-service, rest-gateway and the MCP gateway serving a fresh database.
pub struct TestApp {
    pub backend: Backend,
    /// `http://127.0.0.1:PORT` of the REST gateway (and `/mcp`).
    pub base_url: String,
    /// `http://127.0.0.1:PORT` of core-service gRPC.
    pub grpc_url: String,
    pub http: reqwest::Client,
    /// The service layer, for arranging state the API under test does not
    /// cover (creating users, changing environments).
    pub core: Arc<Core>,
    /// The system administrator's principal and token.
    pub admin: Principal,
    pub admin_token: String,
    shutdown: CancellationToken,
    /// Stops core-service alone (a child of `shutdown`).
    core_stop: CancellationToken,
    /// The running core-service, awaited by [`TestApp::stop_core`].
    core_task: tokio::sync::Mutex<Option<tokio::task::JoinHandle<anyhow::Result<()>>>>,
    /// Kept so the database lives as long as the app.
    pub db: TestDb,
}

impl TestApp {
    /// Starts everything with the server in the `development` environment.
    pub async fn spawn(backend: Backend) -> TestApp {
        Self::spawn_in(backend, "development").await
    }

    pub async fn spawn_in(backend: Backend, environment: &str) -> TestApp {
        Self::spawn_with(backend, environment, keyword_only()).await
    }

    /// Starts everything with the given knowledge settings (the real embedding model, an agents
    /// file pointing at a stand-in LLM…).
    pub async fn spawn_with(backend: Backend, environment: &str, knowledge: KnowledgeConfig) -> TestApp {
        Self::spawn_configured(backend, environment, knowledge, crate::webhooks::test_webhooks()).await
    }

    /// Starts everything with the real embedding model as `wrap` returns it (tests wrap it to
    /// count, refuse or hold its calls; see [`crate::model::ObservedModel`]).
    pub async fn spawn_with_model(
        backend: Backend,
        wrap: impl FnOnce(Arc<dyn EmbeddingModel>) -> Arc<dyn EmbeddingModel> + 'static,
    ) -> TestApp {
        Self::spawn_full(
            backend,
            "development",
            with_local_model(),
            crate::webhooks::test_webhooks(),
            Some(Box::new(wrap)),
            None,
            None,
        )
        .await
    }

    /// Starts everything with the given knowledge and webhook settings.
    pub async fn spawn_configured(
        backend: Backend,
        environment: &str,
        knowledge: KnowledgeConfig,
        webhooks: core_service::webhooks::WebhookConfig,
    ) -> TestApp {
        Self::spawn_full(backend, environment, knowledge, webhooks, None, None, None).await
    }

    /// Starts everything with the given request rate limits (`--rate-limit-*`).
    pub async fn spawn_rate_limited(
        backend: Backend,
        rate_limits: core_service::service::rate_limits::RateLimitConfig,
    ) -> TestApp {
        let webhooks = crate::webhooks::test_webhooks();
        Self::spawn_full(backend, "development", keyword_only(), webhooks, None, Some(rate_limits), None).await
    }

    /// Starts everything with the given bounds on what one person and one project hold open
    /// (`--max-*-per-person`, `--max-*-per-project`).
    pub async fn spawn_sharing(
        backend: Backend,
        shares: core_service::service::access::fair_share::FairShareConfig,
    ) -> TestApp {
        let webhooks = crate::webhooks::test_webhooks();
        Self::spawn_full(backend, "development", keyword_only(), webhooks, None, None, Some(shares)).await
    }

    /// Starts everything on a PostgreSQL database of the test's own (`database_url`), reading
    /// heavy reads from `read_database_url` (`--read-database-url`).
    pub async fn spawn_on_postgres(database_url: String, read_database_url: String) -> TestApp {
        let db = TestDb::external(database_url);
        let webhooks = crate::webhooks::test_webhooks();
        let settings = Spawn { read_database_url: Some(read_database_url), ..Spawn::default() };
        Self::spawn_on(db, Backend::Postgres, "development", keyword_only(), webhooks, settings).await
    }

    async fn spawn_full(
        backend: Backend,
        environment: &str,
        knowledge: KnowledgeConfig,
        webhooks: core_service::webhooks::WebhookConfig,
        wrap: Option<ModelWrapper>,
        rate_limits: Option<core_service::service::rate_limits::RateLimitConfig>,
        shares: Option<core_service::service::access::fair_share::FairShareConfig>,
    ) -> TestApp {
        let db = TestDb::new(backend).await;
        let settings = Spawn { wrap, rate_limits, shares, read_database_url: None };
        Self::spawn_on(db, backend, environment, knowledge, webhooks, settings).await
    }

    async fn spawn_on(
        db: TestDb,
        backend: Backend,
        environment: &str,
        knowledge: KnowledgeConfig,
        webhooks: core_service::webhooks::WebhookConfig,
        settings: Spawn,
    ) -> TestApp {
        let Spawn { wrap, rate_limits, shares, read_database_url } = settings;
        // The HTTP address first: OAuth access tokens are minted for `{base_url}/mcp`.
        let http_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind HTTP");
        let base_url = format!("http://{}", http_listener.local_addr().unwrap());
        let config = CoreConfig {
            data_dir: db.data_dir(),
            database_url: db.database_url.clone(),
            read_database_url,
            read_database_max_wait_ms: core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
            environment: environment.to_owned(),
            db_max_connections: 8,
            db_acquire_timeout_secs: 5,
            db_check_idle_after_ms: core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS,
            access_memory_ms: 1000,
            blob_store: None,
            knowledge,
            webhooks,
            accounts: core_service::service::account_config::AccountConfig {
                rate_limits: rate_limits.unwrap_or_default(),
                fair_share: shares.unwrap_or_default(),
                ..test_accounts(&base_url)
            },
        };
        let mut core = core_service::build(&config).await.expect("core-service starts");
        if let Some(wrap) = wrap {
            let model = core.retrieval().knowledge().embedding_model().expect("wrapping needs an embedding model");
            let knowledge = core.retrieval().knowledge().clone().with_embedding_model(wrap(model));
            core = Arc::new((*core).clone().with_knowledge(knowledge));
        }
        let shutdown = CancellationToken::new();
        let core_stop = shutdown.child_token();

        let grpc_listener = TcpListener::bind("127.0.0.1:0").await.expect("bind gRPC");
        let grpc_url = format!("http://{}", grpc_listener.local_addr().unwrap());
        let routes = core_service::grpc::routes(core.clone(), &core_stop.clone().into()).await.expect("gRPC services");
        let channel = match CoreLink::chosen() {
            CoreLink::Network => canvas_proto::channel::core_channel(&grpc_url).expect("core channel"),
            CoreLink::InProcess => {
                canvas_proto::channel::CoreChannel::in_process(core_service::grpc::in_process(routes.clone()))
            }
        };
        let core_task =
            tokio::spawn(core_service::run_routes(grpc_listener, core.clone(), routes, core_stop.clone().into()));

        let limits = canvas_runtime::GatewayArgs::default();
        let state = rest_gateway::AppState::from_channel(channel.clone().with_deadline(limits.core_timeout()), &limits)
            .with_account_url(&base_url);
        // MCP on the same base URL, as `canvasctl up` serves it.
        let mcp_settings = mcp_gateway::McpSettings::new(&base_url);
        let mcp_deadline = mcp_settings.limits.core_timeout();
        let mcp = mcp_gateway::McpState::from_channel(channel.with_deadline(mcp_deadline), mcp_settings);
        let router = rest_gateway::router(state).merge(mcp_gateway::router(mcp));
        let (limits, http_stop) = (canvas_runtime::GatewayArgs::default(), shutdown.clone());
        // Edge refusals answered as `canvasctl up` answers them: `/mcp` as MCP, the rest as REST.
        let answer = mcp_gateway::edge_refusal_beside(rest_gateway::edge_refusal());
        tokio::spawn(
            async move { rest_gateway::serve_answering(http_listener, router, &limits, answer, http_stop).await },
        );

        let (_, admin_token) = core.accounts().bootstrap_admin("admin").await.unwrap().expect("fresh database");
        let admin = core.access().authenticate(Some(&format!("Bearer {}", admin_token.secret))).await.unwrap();
        TestApp {
            backend,
            base_url,
            grpc_url,
            http: crate::http_client(),
            core,
            admin,
            admin_token: admin_token.secret,
            shutdown,
            core_stop,
            core_task: tokio::sync::Mutex::new(Some(core_task)),
            db,
        }
    }

    /// Settings of another core-service on this app's database (a replica, or a restart with
    /// other knowledge settings).
    pub fn another_core_config(&self, knowledge: KnowledgeConfig) -> CoreConfig {
        CoreConfig {
            data_dir: self.db.data_dir(),
            database_url: self.db.database_url.clone(),
            read_database_url: None,
            read_database_max_wait_ms: core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
            environment: "development".into(),
            db_max_connections: 4,
            db_acquire_timeout_secs: 5,
            db_check_idle_after_ms: core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS,
            access_memory_ms: 1000,
            blob_store: None,
            knowledge,
            webhooks: crate::webhooks::test_webhooks(),
            accounts: Default::default(),
        }
    }

    /// Serves `core` (a replica on this app's database, from [`Self::another_core_config`]) on
    /// loopback gRPC with a REST gateway in front; both stop with `stop`. Returns the gRPC URL and
    /// the gateway's base URL.
    pub async fn serve_replica(&self, core: Arc<Core>, stop: &CancellationToken) -> (String, String) {
        let grpc = TcpListener::bind("127.0.0.1:0").await.expect("bind gRPC");
        let grpc_url = format!("http://{}", grpc.local_addr().unwrap());
        tokio::spawn(core_service::run(grpc, core, stop.clone()));
        let http = TcpListener::bind("127.0.0.1:0").await.expect("bind HTTP");
        let base_url = format!("http://{}", http.local_addr().unwrap());
        let state =
            rest_gateway::AppState::connect(&grpc_url, &canvas_runtime::GatewayArgs::default()).expect("gateway state");
        let (limits, stop) = (canvas_runtime::GatewayArgs::default(), stop.clone());
        tokio::spawn(async move { rest_gateway::serve(http, rest_gateway::router(state), &limits, stop).await });
        (grpc_url, base_url)
    }

    /// Stops core-service (its indexer hands its leases back) and waits for it, leaving the
    /// database and the gateway: a test can then start another core on the same database.
    pub async fn stop_core(&self) {
        self.core_stop.cancel();
        if let Some(task) = self.core_task.lock().await.take() {
            let _ = tokio::time::timeout(std::time::Duration::from_secs(30), task).await;
        }
    }

    /// A new user with a token of the server's environment.
    pub async fn user(&self, name: &str) -> TestUser {
        let user = self.core.accounts().create_user(&self.admin, name, false).await.unwrap();
        let token = self.core.accounts().create_token(&self.admin, user.id, None, "test").await.unwrap();
        TestUser { id: user.id.to_string(), token: token.secret, token_id: token.row.id.to_string() }
    }

    /// A new user with an API token who signs in to the account site as `login` with `password`.
    pub async fn account_user(&self, name: &str, login: &str, password: &str) -> TestUser {
        let user = self.user(name).await;
        self.core
            .accounts()
            .set_user_login(&self.admin, UserId::parse(&user.id).unwrap(), login, password)
            .await
            .unwrap();
        user
    }

    /// A full one-time sign-in link for `user` (who must have a login), valid for a day.
    pub async fn sign_in_link(&self, user: &TestUser) -> String {
        let id = UserId::parse(&user.id).unwrap();
        let (link, _) = self.core.accounts().create_sign_in_link(&self.admin, id, None).await.unwrap();
        format!("{}/account/link?code={link}", self.base_url)
    }

    /// A new project owned (Admin) by `owner`.
    pub async fn project(&self, owner: &TestUser) -> String {
        let owner = UserId::parse(&owner.id).unwrap();
        self.core.accounts().create_project(&self.admin, "Test project", owner).await.unwrap().id.to_string()
    }

    pub async fn add_member(&self, project: &str, user: &TestUser, role: ProjectRole) {
        let project = ProjectId::parse(project).unwrap();
        let user = UserId::parse(&user.id).unwrap();
        self.core.accounts().add_member(&self.admin, project, user, role).await.unwrap();
    }

    pub async fn revoke(&self, user: &TestUser) {
        self.core.accounts().revoke_token(&self.admin, TokenId::parse(&user.token_id).unwrap()).await.unwrap();
    }

    /// `{base_url}/mcp`: the MCP endpoint on the same base URL.
    pub fn mcp_url(&self) -> String {
        format!("{}/mcp", self.base_url)
    }

    /// `{base_url}/api/v2/projects/{project}/item{rest}`
    pub fn item_url(&self, project: &str, rest: &str) -> String {
        format!("{}/api/v2/projects/{project}/item{rest}", self.base_url)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

/// Account settings of the test stack: OAuth tokens for its own `/mcp`, and a short code life
/// and sign-in delay cap, so expiry and throttling can be waited out in a test.
pub fn test_accounts(base_url: &str) -> core_service::service::account_config::AccountConfig {
    core_service::service::account_config::AccountConfig {
        oauth_resources: vec![format!("{base_url}/mcp")],
        oauth_code_secs: TEST_OAUTH_CODE_SECS,
        sign_in_max_delay_secs: TEST_SIGN_IN_MAX_DELAY_SECS,
        // A document sent with `no-store` is fetched again a second later: caching is testable.
        oauth_document_fresh_min_secs: 1,
        ..Default::default()
    }
}

/// How long an OAuth code lives in the test stack.
pub const TEST_OAUTH_CODE_SECS: u64 = 3;
/// The longest sign-in wait in the test stack.
pub const TEST_SIGN_IN_MAX_DELAY_SECS: u64 = 4;

/// Knowledge settings of most tests: no embedding model to load, keyword retrieval only.
pub fn keyword_only() -> KnowledgeConfig {
    KnowledgeConfig { embedding_provider: EmbeddingProvider::Off, index_poll_ms: 200, ..KnowledgeConfig::default() }
}

/// Knowledge settings with the real all-MiniLM-L6-v2, provisioned into the user's model cache
/// (outside the clone) on first use.
pub fn with_local_model() -> KnowledgeConfig {
    KnowledgeConfig { embedding_provider: EmbeddingProvider::Local, index_poll_ms: 200, ..KnowledgeConfig::default() }
}
