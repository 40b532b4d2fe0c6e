//! A local deployment as separate OS processes on loopback: core-service
//! replicas on one fresh PostgreSQL database, rest-gateways, mcp-gateways and
//! webhook-dispatchers given every core address (`--core URL1,URL2`), and
//! nginx in front routing `/api` and `/map` to the REST gateways and `/mcp`
//! to the MCP gateways.
//!
//! Shared by the deployment test (tests/tests/deployment.rs) and the
//! `canvas-deploy` binary of bench/deploy.sh, which include this file with
//! `#[path]`. The component binaries are the workspace's own, found next to
//! the running executable in the cargo target directory (tests/run.sh and
//! bench/deploy.sh build them with `cargo build --workspace --bins`), or in
//! `CANVAS_BIN_DIR`.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use anyhow::{bail, Context};
use canvas_proto::v1 as pb;
use canvas_proto::v1::admin_service_client::AdminServiceClient;
use sqlx::{Connection, Executor, PgConnection};
use tokio::process::{Child, Command};

/// Where PostgreSQL databases are created (as tests/src/db.rs).
pub fn admin_url() -> String {
    std::env::var("CANVAS_TEST_POSTGRES_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

/// The signing-key secret every core replica shares.
pub const SIGNING_SECRET: &str = "deploy-signing-secret-0123456789abcdef";
/// The secret the dispatchers present to core-service.
pub const DISPATCHER_SECRET: &str = "deploy-dispatcher-secret-0123456789";

/// How many processes of each component.
#[derive(Debug, Clone)]
pub struct Options {
    pub cores: usize,
    pub rest_gateways: usize,
    pub mcp_gateways: usize,
    pub dispatchers: usize,
    /// The CA the dispatchers (and core test calls) trust for webhook receivers.
    pub ca_file: Option<PathBuf>,
    /// nginx's port; 0 picks a free one.
    pub port: u16,
}

impl Default for Options {
    fn default() -> Self {
        Options { cores: 2, rest_gateways: 2, mcp_gateways: 2, dispatchers: 2, ca_file: None, port: 0 }
    }
}

/// One child process, killed when dropped; its output goes to a log file.
pub struct Proc {
    pub name: String,
    pub child: Child,
    pub log: PathBuf,
    pub port: Option<u16>,
}

impl Proc {
    /// SIGKILL, then reaps it.
    pub async fn kill(&mut self) {
        let _ = self.child.start_kill();
        let _ = self.child.wait().await;
    }

    /// SIGTERM: the graceful shutdown a Kubernetes pod gets.
    pub fn terminate(&self) {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
        }
    }

    /// Still running?
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The last lines of its log, for failure messages.
    pub fn tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }
}

/// The running topology.
pub struct Topology {
    /// `http://127.0.0.1:PORT`: nginx.
    pub base_url: String,
    pub admin_token: String,
    pub core_urls: Vec<String>,
    pub cores: Vec<Proc>,
    pub rest: Vec<Proc>,
    pub mcp: Vec<Proc>,
    pub dispatchers: Vec<Proc>,
    pub nginx: Proc,
    pub database: String,
    pub dir: tempfile::TempDir,
}

/// A free loopback port (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The directory holding the workspace binaries.
pub fn bin_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("CANVAS_BIN_DIR") {
        return PathBuf::from(dir);
    }
    let exe = std::env::current_exe().expect("current exe");
    let mut dir = exe.parent().expect("exe dir").to_path_buf();
    if dir.file_name().is_some_and(|n| n == "deps") {
        dir.pop();
    }
    dir
}

pub fn binary(name: &str) -> anyhow::Result<PathBuf> {
    let path = bin_dir().join(name);
    if !path.is_file() {
        bail!("{} is missing: build the workspace binaries first (cargo build --workspace --bins)", path.display());
    }
    Ok(path)
}

pub fn spawn(dir: &Path, name: &str, command: &mut Command, port: Option<u16>) -> anyhow::Result<Proc> {
    let log = dir.join(format!("{name}.log"));
    let file = std::fs::File::create(&log)?;
    let child = command
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("cannot start {name}"))?;
    Ok(Proc { name: name.to_owned(), child, log, port })
}

/// Polls `url` until it answers 200, the process dies, or 30 s pass.
pub async fn wait_ready(http: &reqwest::Client, proc: &mut Proc, url: &str) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(reply) = http.get(url).send().await {
            if reply.status().is_success() {
                return Ok(());
            }
        }
        if !proc.alive() {
            bail!("{} exited before it was ready:\n{}", proc.name, proc.tail());
        }
        if tokio::time::Instant::now() > deadline {
            bail!("{} not ready at {url} within 30 s:\n{}", proc.name, proc.tail());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Polls until core-service answers gRPC health SERVING.
pub async fn wait_core(proc: &mut Proc, url: &str) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(channel) = tonic::transport::Endpoint::from_shared(url.to_owned())?.connect().await {
            let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
            let request = tonic_health::pb::HealthCheckRequest { service: String::new() };
            if let Ok(reply) = health.check(request).await {
                if reply.into_inner().status == tonic_health::pb::health_check_response::ServingStatus::Serving as i32 {
                    return Ok(());
                }
            }
        }
        if !proc.alive() {
            bail!("{} exited before it was ready:\n{}", proc.name, proc.tail());
        }
        if tokio::time::Instant::now() > deadline {
            bail!("{} not serving within 30 s:\n{}", proc.name, proc.tail());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn nginx_config(dir: &Path, port: u16, rest: &[u16], mcp: &[u16]) -> String {
    let servers = |ports: &[u16]| -> String {
        ports.iter().map(|p| format!("        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n")).collect()
    };
    let d = dir.display();
    let proxy = |upstream: &str| {
        format!(
            "proxy_pass http://{upstream};\n            proxy_http_version 1.1;\n            \
             proxy_set_header Connection \"\";\n            proxy_set_header Host $host;\n            \
             proxy_next_upstream error timeout http_502 http_503;\n            proxy_next_upstream_tries 2;\n            \
             proxy_connect_timeout 2s;\n            proxy_read_timeout 30s;\n            proxy_buffering off;"
        )
    };
    format!(
        // One process (no master with workers): when the test ends and the child is killed, no
        // orphaned worker keeps running with the listening socket.
        "daemon off;\nmaster_process off;\npid {d}/nginx.pid;\nerror_log {d}/nginx-error.log warn;\n\
         events {{\n    worker_connections 1024;\n}}\n\
         http {{\n    access_log off;\n    client_body_temp_path {d}/client_body;\n    proxy_temp_path {d}/proxy;\n    \
         fastcgi_temp_path {d}/fastcgi;\n    uwsgi_temp_path {d}/uwsgi;\n    scgi_temp_path {d}/scgi;\n\n    \
         upstream rest {{\n{rest}        keepalive 32;\n    }}\n    upstream mcp {{\n{mcp}        keepalive 32;\n    }}\n\n    \
         server {{\n        listen 127.0.0.1:{port};\n        \
         location = /nginx-ready {{\n            return 200 \"ok\";\n        }}\n        \
         location /api {{\n            {p_rest}\n        }}\n        \
         location /map {{\n            {p_rest}\n        }}\n        \
         location /mcp {{\n            {p_mcp}\n        }}\n    }}\n}}\n",
        rest = servers(rest),
        mcp = servers(mcp),
        p_rest = proxy("rest"),
        p_mcp = proxy("mcp"),
    )
}

impl Topology {
    /// Creates the database, migrates it, creates the administrator, starts
    /// every process and waits until each is ready.
    pub async fn start(options: Options) -> anyhow::Result<Topology> {
        let dir = tempfile::tempdir()?;
        let database = format!("canvas_deploy_{}", uuid::Uuid::new_v4().simple());
        let mut conn = PgConnection::connect(&admin_url()).await.context("connect to PostgreSQL")?;
        conn.execute(format!("CREATE DATABASE {database}").as_str()).await?;
        conn.close().await?;
        let base = admin_url();
        let prefix = base.rsplit_once('/').map(|(p, _)| p).unwrap_or(&base).to_owned();
        let database_url = format!("{prefix}/{database}");
        // The topology owns the database from here: dropped with it.
        let guard = DropDatabase(Some(database.clone()));

        let data_dir = dir.path().join("data");
        std::fs::create_dir_all(&data_dir)?;
        let core_bin = binary("core-service")?;
        let core_env = |command: &mut Command| {
            command
                .env("CANVAS_DATABASE_URL", &database_url)
                .env("CANVAS_DATA_DIR", &data_dir)
                .env("CANVAS_ENVIRONMENT", "development")
                .env("CANVAS_EMBEDDING_PROVIDER", "off")
                .env("CANVAS_SIGNING_KEY_SECRET", SIGNING_SECRET)
                .env("CANVAS_DISPATCHER_SECRET", DISPATCHER_SECRET)
                .env("CANVAS_WEBHOOK_ALLOW_DESTINATIONS", "127.0.0.1/32")
                .env("CANVAS_WEBHOOK_RETRY_SCHEDULE", "1s,1s,1s,1s,1s,1s")
                .env("CANVAS_LOG_FORMAT", "text")
                // The load comes from one token; its budget (3,000 calls a minute per replica)
                // would turn the checks' reads into 429s once the service is fast enough. The
                // limits have their own tests (e2e::rate_limits) and bench (bench/abuse.sh).
                .env("CANVAS_RATE_LIMIT_REQUESTS", "0")
                .env("RUST_LOG", "warn");
            if let Some(ca) = &options.ca_file {
                command.env("CANVAS_WEBHOOK_CA_CERTS", ca);
            }
        };

        // Migrations once, before any replica starts; then the administrator.
        let mut migrate = Command::new(&core_bin);
        core_env(&mut migrate);
        let out = migrate.arg("migrate").output().await?;
        anyhow::ensure!(out.status.success(), "core-service migrate failed: {}", String::from_utf8_lossy(&out.stderr));
        let mut bootstrap = Command::new(&core_bin);
        core_env(&mut bootstrap);
        let out = bootstrap.arg("bootstrap-admin").output().await?;
        anyhow::ensure!(out.status.success(), "bootstrap-admin failed: {}", String::from_utf8_lossy(&out.stderr));
        // Its standard output is the answer alone (its logs go to standard error).
        let stdout = String::from_utf8_lossy(&out.stdout);
        let admin: serde_json::Value = serde_json::from_str(stdout.trim())
            .with_context(|| format!("bootstrap-admin printed more than its JSON: {stdout}"))?;
        let admin_token = admin["adminToken"].as_str().context("adminToken")?.to_owned();

        let mut cores = Vec::new();
        let mut core_urls = Vec::new();
        for i in 0..options.cores {
            let port = free_port();
            let mut command = Command::new(&core_bin);
            core_env(&mut command);
            command.args(["--grpc-addr", &format!("127.0.0.1:{port}")]);
            cores.push(spawn(dir.path(), &format!("core-{i}"), &mut command, Some(port))?);
            core_urls.push(format!("http://127.0.0.1:{port}"));
        }
        for (proc, url) in cores.iter_mut().zip(&core_urls) {
            wait_core(proc, url).await?;
        }
        let core_list = core_urls.join(",");

        let http = http_client();
        let mut rest = Vec::new();
        for i in 0..options.rest_gateways {
            let port = free_port();
            let mut command = Command::new(binary("rest-gateway")?);
            command.args(["--core", &core_list, "--http-addr", &format!("127.0.0.1:{port}")]).env("RUST_LOG", "warn");
            rest.push(spawn(dir.path(), &format!("rest-gateway-{i}"), &mut command, Some(port))?);
        }
        let mut mcp = Vec::new();
        for i in 0..options.mcp_gateways {
            let port = free_port();
            let mut command = Command::new(binary("mcp-gateway")?);
            command.args(["--core", &core_list, "--http-addr", &format!("127.0.0.1:{port}")]).env("RUST_LOG", "warn");
            mcp.push(spawn(dir.path(), &format!("mcp-gateway-{i}"), &mut command, Some(port))?);
        }
        let mut dispatchers = Vec::new();
        for i in 0..options.dispatchers {
            let port = free_port();
            let mut command = Command::new(binary("webhook-dispatcher")?);
            command
                .args(["--core", &core_list, "--health-addr", &format!("127.0.0.1:{port}")])
                .args(["--webhook-allow-destinations", "127.0.0.1/32", "--webhook-timeout-secs", "2"])
                .args(["--lease-secs", "4", "--poll-interval-ms", "50"])
                .env("CANVAS_DISPATCHER_SECRET", DISPATCHER_SECRET)
                .env("RUST_LOG", "warn");
            if let Some(ca) = &options.ca_file {
                command.arg("--webhook-ca-certs").arg(ca);
            }
            dispatchers.push(spawn(dir.path(), &format!("webhook-dispatcher-{i}"), &mut command, Some(port))?);
        }
        for proc in rest.iter_mut().chain(mcp.iter_mut()).chain(dispatchers.iter_mut()) {
            let url = format!("http://127.0.0.1:{}/readyz", proc.port.unwrap());
            wait_ready(&http, proc, &url).await?;
        }

        // nginx as a non-daemon child with everything under the temp dir.
        let nginx_dir = dir.path().join("nginx");
        std::fs::create_dir_all(&nginx_dir)?;
        for sub in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            std::fs::create_dir_all(nginx_dir.join(sub))?;
        }
        // Workers may run as another user when the test runs as root.
        use std::os::unix::fs::PermissionsExt;
        for path in [dir.path().to_path_buf(), nginx_dir.clone()] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o777))?;
        }
        for sub in ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"] {
            std::fs::set_permissions(nginx_dir.join(sub), std::fs::Permissions::from_mode(0o777))?;
        }
        let port = if options.port == 0 { free_port() } else { options.port };
        let rest_ports: Vec<u16> = rest.iter().map(|p| p.port.unwrap()).collect();
        let mcp_ports: Vec<u16> = mcp.iter().map(|p| p.port.unwrap()).collect();
        let conf = nginx_dir.join("nginx.conf");
        std::fs::write(&conf, nginx_config(&nginx_dir, port, &rest_ports, &mcp_ports))?;
        let nginx_bin = ["/usr/sbin/nginx", "/usr/bin/nginx"]
            .into_iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .context("nginx is not installed (tests/run.sh installs it: apt-get install -y nginx)")?;
        let mut command = Command::new(nginx_bin);
        command.arg("-p").arg(&nginx_dir).arg("-c").arg(&conf).arg("-e").arg(nginx_dir.join("nginx-error.log"));
        let mut nginx = spawn(dir.path(), "nginx", &mut command, Some(port))?;
        let base_url = format!("http://127.0.0.1:{port}");
        wait_ready(&http, &mut nginx, &format!("{base_url}/nginx-ready")).await?;

        std::mem::forget(guard);
        Ok(Topology { base_url, admin_token, core_urls, cores, rest, mcp, dispatchers, nginx, database, dir })
    }

    /// A user with a development token who owns a fresh project: (token, project).
    pub async fn owner_with_project(&self) -> anyhow::Result<(String, String)> {
        owner_with_project(&self.core_urls, &self.admin_token).await
    }
}

/// Through the first core replica of `core_urls` that answers, with an administrator's token: a
/// user with a development token who owns a fresh project: (token, project).
pub async fn owner_with_project(core_urls: &[String], admin_token: &str) -> anyhow::Result<(String, String)> {
    let mut last = None;
    for url in core_urls {
        match tonic::transport::Endpoint::from_shared(url.clone())?.connect().await {
            Ok(channel) => {
                let mut admin = AdminServiceClient::new(channel);
                let auth: tonic::metadata::MetadataValue<_> = format!("Bearer {admin_token}").parse()?;
                fn request<T>(
                    message: T,
                    auth: &tonic::metadata::MetadataValue<tonic::metadata::Ascii>,
                ) -> tonic::Request<T> {
                    let mut request = tonic::Request::new(message);
                    request.metadata_mut().insert("authorization", auth.clone());
                    request
                }
                let user = admin
                    .create_user(request(pb::CreateUserRequest { name: "deploy".into(), system_admin: false }, &auth))
                    .await?
                    .into_inner();
                let token = admin
                    .create_token(request(
                        pb::CreateTokenRequest {
                            user_id: user.user_id.clone(),
                            environment: pb::Environment::Development as i32,
                            name: "deploy".into(),
                        },
                        &auth,
                    ))
                    .await?
                    .into_inner()
                    .token;
                let project = admin
                    .create_project(request(
                        pb::CreateProjectRequest { name: "Deployment".into(), owner_user_id: user.user_id },
                        &auth,
                    ))
                    .await?
                    .into_inner()
                    .project_id;
                return Ok((token, project));
            }
            Err(err) => last = Some(err),
        }
    }
    bail!("no core replica answers: {last:?}")
}

impl Drop for Topology {
    fn drop(&mut self) {
        // Children die first (kill_on_drop only signals), then the database goes.
        for proc in self.cores.iter_mut().chain(&mut self.rest).chain(&mut self.mcp).chain(&mut self.dispatchers) {
            let _ = proc.child.start_kill();
        }
        let _ = self.nginx.child.start_kill();
        drop(DropDatabase(Some(self.database.clone())));
    }
}

/// Drops the named database (FORCE: connections of killed processes may linger).
struct DropDatabase(Option<String>);

impl Drop for DropDatabase {
    fn drop(&mut self) {
        let Some(name) = self.0.take() else { return };
        let _ = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("runtime");
            runtime.block_on(async {
                if let Ok(mut conn) = PgConnection::connect(&admin_url()).await {
                    let _ = conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str()).await;
                }
            });
        })
        .join();
    }
}

/// The HTTP client of the tests, pooling as a well-behaved client of ours should: a kept-alive
/// connection is reused only within 5 s of its last answer. The gateways close one left idle
/// for `--header-read-timeout-secs` (10 s); a client that reuses it at that moment sees the
/// close as `IncompleteMessage` (a race no server can remove, so the client stays below it, as
/// docs/LIMITS.md tells integrators).
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .pool_idle_timeout(std::time::Duration::from_secs(5))
        .build()
        .expect("the test HTTP client builds")
}
