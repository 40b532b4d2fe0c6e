//! Webhook configuration of core-service: flags with environment variables,
//! turned into [`WebhookSettings`] once at start-up.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use clap::Args;

use super::keys::Sealer;
use super::retry::{parse_schedule, DisableRule, RetryPolicy};
use crate::domain::Environment;

/// The shortest rotation delay outside the development environment: receivers
/// cache key sets for up to 5 minutes, so a key must be published that long
/// before it signs.
pub const MIN_ROTATION_DELAY: Duration = Duration::from_secs(300);

/// File in the data directory holding the generated development secret.
pub const DEV_SECRET_FILE: &str = "webhook-signing-secret";

/// Flags of the webhook part of core-service.
#[derive(Debug, Clone, Args)]
pub struct WebhookConfig {
    /// Secret that encrypts signing private keys at rest (at least 32
    /// characters). Required in production and staging; in development one is
    /// generated into the data directory when missing.
    #[arg(long = "signing-key-secret", env = "CANVAS_SIGNING_KEY_SECRET", hide_env_values = true)]
    pub signing_key_secret: Option<String>,

    /// Seconds between `keys rotate` and the new key signing (at least 300
    /// outside development).
    #[arg(long = "key-rotation-delay-secs", env = "CANVAS_WEBHOOK_KEY_ROTATION_DELAY_SECS", default_value_t = 300)]
    pub key_rotation_delay_secs: u64,

    /// Delays before each retry, comma-separated (`500ms`, `5s`, `5m`, `2h`);
    /// one attempt more than entries.
    #[arg(
        long = "webhook-retry-schedule",
        env = "CANVAS_WEBHOOK_RETRY_SCHEDULE",
        default_value = "5s,5m,30m,2h,5h,10h,10h"
    )]
    pub retry_schedule: String,

    /// Automatic disable: at least this many failed attempts in a row …
    #[arg(long = "webhook-disable-failures", env = "CANVAS_WEBHOOK_DISABLE_FAILURES", default_value_t = 20)]
    pub disable_failures: u32,

    /// … the first of them at least this many seconds ago (default 5 days).
    #[arg(long = "webhook-disable-after-secs", env = "CANVAS_WEBHOOK_DISABLE_AFTER_SECS", default_value_t = 432_000)]
    pub disable_after_secs: u64,

    /// Shared secret webhook-dispatcher presents (`Bearer <secret>`). Unset:
    /// the dispatch RPCs are open in development and refused elsewhere.
    #[arg(long = "dispatcher-secret", env = "CANVAS_DISPATCHER_SECRET", hide_env_values = true)]
    pub dispatcher_secret: Option<String>,

    /// The HTTP client of test calls (same rules as the dispatcher's).
    #[command(flatten)]
    pub client: webhook_client::ClientSettings,
}

impl Default for WebhookConfig {
    /// The documented defaults, as the flags have them.
    fn default() -> Self {
        Self {
            signing_key_secret: None,
            key_rotation_delay_secs: 300,
            retry_schedule: "5s,5m,30m,2h,5h,10h,10h".into(),
            disable_failures: 20,
            disable_after_secs: 432_000,
            dispatcher_secret: None,
            client: webhook_client::ClientSettings::default(),
        }
    }
}

/// Parsed webhook settings the service layer uses.
#[derive(Debug, Clone)]
pub struct WebhookSettings {
    /// Seals and opens private signing keys.
    pub sealer: Sealer,
    /// Default delay of a key rotation.
    pub rotation_delay: Duration,
    /// Smallest delay a rotation may ask for.
    pub min_rotation_delay: Duration,
    /// When retries happen.
    pub retry: RetryPolicy,
    /// When a failing webhook is disabled.
    pub disable: DisableRule,
    /// Dispatcher credential; None means open (development only).
    pub dispatcher_secret: Option<String>,
    /// Whether the dispatch RPCs are open without a secret.
    pub dispatch_open: bool,
    /// The client settings (destination rules also validate URLs).
    pub client: webhook_client::ClientSettings,
}

impl WebhookConfig {
    /// Checks and parses the configuration. Outside development a missing
    /// signing secret or a rotation delay under 5 minutes stops start-up, and a missing
    /// dispatcher secret is logged: every webhook-dispatcher call will be refused until it is set.
    pub fn settings(&self, environment: Environment, data_dir: &Path) -> anyhow::Result<WebhookSettings> {
        let settings = self.parse(environment, data_dir)?;
        if !settings.dispatch_open && settings.dispatcher_secret.is_none() {
            tracing::warn!("CANVAS_DISPATCHER_SECRET is not set: webhook-dispatcher calls will be refused until it is");
        }
        Ok(settings)
    }

    /// [`WebhookConfig::settings`] without the log line: for settings no server runs with (a
    /// core built without configuration), whose dispatch rules nobody meets.
    fn parse(&self, environment: Environment, data_dir: &Path) -> anyhow::Result<WebhookSettings> {
        let development = environment == Environment::Development;
        let secret = match self.signing_key_secret.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            Some(secret) => secret.to_owned(),
            None if development => dev_secret(data_dir)?,
            None => anyhow::bail!(
                "CANVAS_SIGNING_KEY_SECRET is required outside the development environment: it encrypts the \
                 webhook signing keys at rest"
            ),
        };
        let min_rotation_delay = if development { Duration::ZERO } else { MIN_ROTATION_DELAY };
        let rotation_delay = Duration::from_secs(self.key_rotation_delay_secs);
        anyhow::ensure!(
            rotation_delay >= min_rotation_delay,
            "CANVAS_WEBHOOK_KEY_ROTATION_DELAY_SECS must be at least 300 outside development"
        );
        let dispatcher_secret = self.dispatcher_secret.clone().filter(|s| !s.trim().is_empty());
        self.client.policy().context("webhook destination allow-list")?;
        Ok(WebhookSettings {
            sealer: Sealer::from_secret(&secret)?,
            rotation_delay,
            min_rotation_delay,
            retry: RetryPolicy::new(parse_schedule(&self.retry_schedule).context("CANVAS_WEBHOOK_RETRY_SCHEDULE")?),
            disable: DisableRule {
                failures: self.disable_failures.max(1),
                span: Duration::from_secs(self.disable_after_secs),
            },
            dispatcher_secret,
            dispatch_open: development,
            client: self.client.clone(),
        })
    }
}

/// Reads the development secret from the data directory, creating it (0600)
/// on first use. Logged, so nobody mistakes it for a production set-up.
fn dev_secret(data_dir: &Path) -> anyhow::Result<String> {
    let path = data_dir.join(DEV_SECRET_FILE);
    if let Ok(text) = std::fs::read_to_string(&path) {
        return Ok(text.trim().to_owned());
    }
    std::fs::create_dir_all(data_dir)?;
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness: {e}"))?;
    let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(&path) {
        Ok(mut file) => {
            use std::io::Write;
            file.write_all(secret.as_bytes())?;
            file.sync_all()?;
            tracing::warn!(
                path = %path.display(),
                "development: generated a webhook signing-key secret; set CANVAS_SIGNING_KEY_SECRET in production"
            );
            Ok(secret)
        }
        // Another process created it first: use theirs.
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            Ok(std::fs::read_to_string(&path)?.trim().into())
        }
        Err(err) => Err(err).with_context(|| format!("cannot write {}", path.display())),
    }
}

impl WebhookSettings {
    /// Settings for code paths without configuration (unit tests, and every `Core::new` until
    /// `build` installs the configured ones): a random secret and the documented defaults,
    /// dispatch open. Nothing is logged: no dispatcher is refused by these.
    pub fn ephemeral() -> Self {
        let mut bytes = [0u8; 32];
        let _ = getrandom::fill(&mut bytes);
        let secret: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let config = WebhookConfig { signing_key_secret: Some(secret), ..WebhookConfig::default() };
        let mut settings =
            config.parse(Environment::Production, Path::new(".")).expect("the defaults are valid settings");
        settings.dispatch_open = true;
        settings
    }
}
