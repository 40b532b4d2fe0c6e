//! The command line of canvasctl: every command's flags, as clap types. The command modules
//! (`up`, `admin`, `users`, `webhooks`, `config`, `backup`) read their flags from here and nothing here
//! reads them, so the flags of all commands are in one place and no command module is needed to
//! parse the command line.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "canvasctl", version, about = "Run and administer the canvas service")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// Parsed once per process: the size of `Up` costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run every component in one process: REST, MCP (`/mcp`), the account
    /// site and the web map on one base URL, core gRPC beside it, the webhook
    /// dispatcher, SQLite under the data directory unless CANVAS_DATABASE_URL
    /// names PostgreSQL.
    Up(UpArgs),
    /// Users.
    User {
        #[command(flatten)]
        conn: Connection,
        #[command(subcommand)]
        command: UserCommand,
    },
    /// API tokens.
    Token {
        #[command(flatten)]
        conn: Connection,
        #[command(subcommand)]
        command: TokenCommand,
    },
    /// Projects.
    Project {
        #[command(flatten)]
        conn: Connection,
        #[command(subcommand)]
        command: ProjectCommand,
    },
    /// Webhook signing keys.
    Keys {
        #[command(flatten)]
        conn: Connection,
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Webhook tools.
    Webhooks {
        #[command(subcommand)]
        command: WebhooksCommand,
    },
    /// Project members.
    Member {
        #[command(flatten)]
        conn: Connection,
        #[command(subcommand)]
        command: MemberCommand,
    },
    /// Configuration: what a running component uses, and every setting there is.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Back up a SQLite deployment while it serves: `backup --to DEST` copies the database (SQLite's
    /// online backup), then the blobs, and writes a manifest; `backup verify DEST` checks a copy.
    /// Restore by starting the service with `--data-dir DEST`. PostgreSQL: docs/OPERATIONS.md.
    Backup(BackupArgs),
}

/// Flags of `canvasctl backup`: taking a backup, unless a subcommand (`verify`) is given.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BackupArgs {
    #[command(subcommand)]
    pub command: Option<BackupCommand>,
    /// The service's data directory: its `canvas.db`, `blobs/` and the secrets kept beside them.
    #[arg(long = "data-dir", env = "CANVAS_DATA_DIR", default_value = "./canvas-data")]
    pub data_dir: PathBuf,
    /// The service's database URL: empty or `sqlite:PATH` is backed up; `postgres://…` is refused
    /// (PostgreSQL has its own tools, docs/OPERATIONS.md).
    #[arg(long = "database-url", env = "CANVAS_DATABASE_URL")]
    pub database_url: Option<String>,
    /// The service's blob store: `local` (or empty) is copied; `s3://…` is refused (S3 keeps its
    /// own copies, docs/OPERATIONS.md).
    #[arg(long = "blob-store", env = "CANVAS_BLOB_STORE")]
    pub blob_store: Option<String>,
    /// Where the backup goes: a directory that does not exist yet or is empty.
    #[arg(long = "to", required = true)]
    pub to: Option<PathBuf>,
    /// Print the manifest as one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum BackupCommand {
    /// Check a backup: its manifest, SQLite's integrity check of the database, and every blob an
    /// item names present with the SHA-256 of its name. Exits 1 naming each problem found.
    Verify {
        /// The backup's directory (what `backup --to` wrote).
        #[arg(value_name = "DEST")]
        dir: PathBuf,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print the effective configuration of a running component: each setting's value and
    /// whether it came from a flag, the environment or the default (secrets never shown). Asks
    /// `GET {url}/config`, which components answer on loopback only: run it on the same machine
    /// or through `kubectl port-forward`.
    Show {
        /// The component's HTTP address: the gateway's port, core-service's `--metrics-addr`, the
        /// dispatcher's `--health-addr`, or `canvasctl up`'s base URL [default: the base URL `up`
        /// wrote to its data directory, else http://127.0.0.1:8080].
        #[arg(long = "url")]
        url: Option<String>,
        /// Print the JSON document instead of a table.
        #[arg(long)]
        json: bool,
    },
    /// Print the table of every setting of every component (Markdown, as in docs/CONFIGURATION.md).
    Table,
}

#[derive(Debug, Args)]
pub struct UpArgs {
    /// Where SQLite and the first-start credentials live.
    #[arg(long = "data-dir", env = "CANVAS_DATA_DIR", default_value = "./canvas-data")]
    pub data_dir: PathBuf,
    /// The one base URL for REST, MCP and the map.
    #[arg(long = "http-addr", env = "CANVAS_HTTP_ADDR", default_value = "127.0.0.1:8080")]
    pub http_addr: SocketAddr,
    /// Core gRPC address (for canvasctl admin commands and other clients).
    #[arg(long = "grpc-addr", env = "CANVAS_GRPC_ADDR", default_value = "127.0.0.1:50051")]
    pub grpc_addr: SocketAddr,
    /// production, staging or development.
    #[arg(long = "environment", env = "CANVAS_ENVIRONMENT", default_value = "development")]
    pub environment: String,
    /// `postgres://…` to use PostgreSQL instead of SQLite.
    #[arg(long = "database-url", env = "CANVAS_DATABASE_URL")]
    pub database_url: Option<String>,

    /// PostgreSQL: a standby (or a router to standbys) for heavy reads that has caught up with
    /// every acknowledged write, as core-service's flag.
    #[arg(long = "read-database-url", env = "CANVAS_READ_DATABASE_URL")]
    pub read_database_url: Option<String>,

    /// Milliseconds a heavy read waits for that standby to catch up before it reads the primary,
    /// as core-service's flag.
    #[arg(long = "read-database-max-wait-ms", env = "CANVAS_READ_DATABASE_MAX_WAIT_MS",
          default_value_t = core_service::storage::DEFAULT_STANDBY_MAX_WAIT_MS,
          value_parser = clap::value_parser!(u64).range(0..=core_service::storage::MAX_STANDBY_MAX_WAIT_MS))]
    pub read_database_max_wait_ms: u64,

    /// PostgreSQL: milliseconds a pooled connection may sit idle and still be used without a
    /// check first (0 checks every one), as core-service's flag.
    #[arg(long = "db-check-idle-after-ms", env = "CANVAS_DB_CHECK_IDLE_AFTER_MS",
          default_value_t = core_service::storage::DEFAULT_CHECK_IDLE_AFTER_MS)]
    pub db_check_idle_after_ms: u64,

    /// Milliseconds a token or project role read before is answered again without a read
    /// (0 to 1000; 0 reads both on every request), as core-service's flag.
    #[arg(long = "access-memory-ms", env = "CANVAS_ACCESS_MEMORY_MS", default_value_t = core_service::service::access::cache::MAX_ACCESS_MEMORY_MS,
          value_parser = clap::value_parser!(u64).range(0..=core_service::service::access::cache::MAX_ACCESS_MEMORY_MS))]
    pub access_memory_ms: u64,
    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,
    /// Knowledge retrieval: embedding model, agents (LLM), chunking; the same flags as core-service.
    #[command(flatten)]
    pub knowledge: core_service::knowledge::KnowledgeConfig,
    /// MCP at `/mcp`: item links, allowed hosts, realm, body limit; the same flags as mcp-gateway.
    #[command(flatten)]
    pub mcp: mcp_gateway::config::McpArgs,
    /// Deadline of core-service calls and time limit of request bodies, for both gateways.
    #[command(flatten)]
    pub gateway: canvas_runtime::GatewayArgs,
    /// Webhooks: signing-key secret, retries, destinations; the same flags as core-service. An
    /// in-process webhook-dispatcher uses the same client settings.
    #[command(flatten)]
    pub webhooks: core_service::webhooks::WebhookConfig,
    /// Sessions, sign-in throttling and OAuth; the same flags as core-service. Without
    /// `--oauth-resource`, OAuth tokens are minted for this process's own `/mcp`.
    #[command(flatten)]
    pub accounts: core_service::service::account_config::AccountConfig,
}

/// How admin commands reach core-service.
#[derive(Debug, Args, Clone)]
pub struct Connection {
    /// Core gRPC address [default: the address `canvasctl up` wrote to its data directory
    /// (`CANVAS_DATA_DIR` or ./canvas-data), else http://127.0.0.1:50051].
    #[arg(long = "core", env = "CANVAS_CORE_URL", global = true)]
    pub core: Option<String>,
    /// A system administrator's token [default: the one `canvasctl up` created, from its data
    /// directory].
    #[arg(long = "admin-token", env = "CANVAS_ADMIN_TOKEN", global = true, hide_env_values = true)]
    pub admin_token: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a user; with `--login`, one who can sign in to the account site.
    Create {
        /// The user's display name.
        #[arg(long)]
        name: String,
        /// Make the user a system administrator.
        #[arg(long)]
        admin: bool,
        /// The sign-in name (letters, digits and . _ - @ +; stored lower-cased).
        #[arg(long)]
        login: Option<String>,
        /// Read the password from standard input (one line), so it is not in the shell history.
        #[arg(long, requires = "login")]
        password_stdin: bool,
    },
    /// Set a user's login (and, with `--password-stdin`, password).
    Login {
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
        /// The sign-in name (letters, digits and . _ - @ +; stored lower-cased).
        #[arg(long)]
        login: String,
        /// Read the password from standard input (one line), so it is not in the shell history.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Print a one-time sign-in link for a user with a login: it signs them in and lets them
    /// set a password (an invitation, or a reset).
    Invite {
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
        /// How long the link works, in hours (at most 168).
        #[arg(long, default_value_t = 24)]
        valid_hours: u32,
        /// The account site's public URL, the start of the printed link [default: the base URL
        /// `canvasctl up` wrote to its data directory, else http://127.0.0.1:8080].
        #[arg(long, env = "CANVAS_ACCOUNT_URL")]
        account_url: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create an API token for a user; the secret is shown once.
    Create {
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
        /// production, staging or development (default: the server's).
        #[arg(long)]
        environment: Option<String>,
        /// A label for the token.
        #[arg(long, default_value = "")]
        name: String,
    },
    /// Revoke a token.
    Revoke {
        /// The token's id (as `token create` or `token list` printed it).
        #[arg(long = "token-id")]
        token_id: String,
    },
    /// List a user's tokens (never their secrets).
    List {
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum ProjectCommand {
    /// Create a project owned (as Admin) by a user.
    Create {
        /// The project's name.
        #[arg(long)]
        name: String,
        /// The owner's user id (a GUID); they become the project's Admin.
        #[arg(long)]
        owner: String,
    },
    /// List a user's projects.
    List {
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
    },
    /// Copy a project's items and webhooks into a new project; copied
    /// webhooks stay inactive until a PUT re-saves them.
    Copy {
        /// The project to copy.
        #[arg(long)]
        from: String,
        /// Name of the new project.
        #[arg(long)]
        name: String,
        /// Owner (Admin) of the new project.
        #[arg(long)]
        owner: String,
    },
    /// Write a project to one archive file (docs/ARCHIVE.md): items, diagram records, files,
    /// members by login, webhook definitions.
    Export {
        /// The project to export.
        #[arg(long)]
        project: String,
        /// Where to write the archive (a `.zip` file).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Create a new project from an archive file, with new ids; members are added by login where
    /// such a user exists, webhooks stay inactive until a PUT re-saves them.
    Import {
        /// The archive to read.
        #[arg(long)]
        file: std::path::PathBuf,
        /// Owner (Admin) of the new project; the admin token's user when absent.
        #[arg(long)]
        owner: Option<String>,
        /// Name of the new project; the archive's when absent.
        #[arg(long)]
        name: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub enum KeysCommand {
    /// Publish a new signing key that starts signing after a delay (at least
    /// 5 minutes outside development); older keys stay published.
    Rotate {
        /// Seconds until the new key signs; 0 uses the server's configured delay.
        #[arg(long = "delay-secs", default_value_t = 0)]
        delay_secs: u64,
    },
}

#[derive(Debug, Subcommand)]
pub enum WebhooksCommand {
    /// Run a local HTTPS receiver that verifies every call (the six receiver
    /// rules) and prints each event as a JSON line.
    Listen(ListenArgs),
}

/// Flags of `canvasctl webhooks listen`.
#[derive(Debug, Args)]
pub struct ListenArgs {
    /// Port of the HTTPS receiver on 127.0.0.1.
    #[arg(long, default_value_t = 8443)]
    pub port: u16,
    /// Only calls for this project are accepted (rule 3).
    #[arg(long)]
    pub project: String,
    /// Only calls of this webhook are accepted (rule 3); any of the project when absent.
    #[arg(long)]
    pub webhook: Option<String>,
    /// Where the service publishes its keys [default: `/api/v2/webhooks/keys` of the base URL
    /// `canvasctl up` wrote to its data directory, else of http://127.0.0.1:8080].
    #[arg(long = "keys-url")]
    pub keys_url: Option<String>,
    /// Where to write the generated CA certificate; point the sender's
    /// CANVAS_WEBHOOK_CA_CERTS at it.
    #[arg(long = "ca-out", default_value = "canvas-listen-ca.pem")]
    pub ca_out: PathBuf,
}

#[derive(Debug, Subcommand)]
pub enum MemberCommand {
    /// Add a user to a project.
    Add {
        /// The project's id (a GUID).
        #[arg(long)]
        project: String,
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
        /// Viewer, Editor, Manager or Admin.
        #[arg(long)]
        role: String,
    },
    /// Change a member's role.
    SetRole {
        /// The project's id (a GUID).
        #[arg(long)]
        project: String,
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
        /// Viewer, Editor, Manager or Admin.
        #[arg(long)]
        role: String,
    },
    /// Remove a member.
    Remove {
        /// The project's id (a GUID).
        #[arg(long)]
        project: String,
        /// The user's id (a GUID, as `user create` printed it).
        #[arg(long)]
        user: String,
    },
}

impl Connection {
    /// core-service's gRPC address: `--core`, else `canvasctl up`'s, else the default.
    pub fn core_url(&self) -> String {
        crate::running::Running::find().core_url(self.core.as_deref())
    }

    /// The administrator's token: `--admin-token`, else the one `canvasctl up` created.
    pub fn admin_token(&self) -> Option<String> {
        crate::running::Running::find().admin_token(self.admin_token.as_deref())
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every option and argument of every command says what it is for in `--help`.
    #[test]
    fn every_option_has_help_text() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if matches!(id, "help" | "version") {
                    continue;
                }
                if arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} --{}", arg.get_long().unwrap_or(id)));
                }
            }
            for sub in command.get_subcommands() {
                walk(sub, &format!("{path} {}", sub.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::Cli::command(), "canvasctl", &mut missing);
        assert!(missing.is_empty(), "options without help text:\n{}", missing.join("\n"));
    }
}
