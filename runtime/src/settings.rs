//! The effective configuration of a running component, as `GET /config` shows it and
//! `canvasctl config show` prints it; and the table of every setting docs/CONFIGURATION.md carries.
//!
//! Both come from the component's clap command, so a setting cannot be missing from either:
//! each argument's flag, environment variable, default and help text, and (for the effective
//! configuration) the value in force and where it came from. Secrets (arguments declared with
//! `hide_env_values`) are never shown, only whether they are set; a password inside a URL is
//! masked.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use clap::parser::ValueSource;
use clap::{ArgMatches, Command};
use serde::{Deserialize, Serialize};

/// What replaces a secret's value.
pub const REDACTED: &str = "<redacted>";

/// One setting of one component.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Setting {
    /// The command-line flag, `--http-addr`.
    pub flag: String,
    /// The environment variable read when the flag is absent.
    pub env: Option<String>,
    /// The default, as clap shows it.
    pub default: Option<String>,
    /// The first line of the flag's help.
    pub help: String,
    /// A secret: its value is never shown.
    pub secret: bool,
    /// The value in force (`None`: unset); secrets show [`REDACTED`].
    pub value: Option<String>,
    /// Where the value came from: `flag`, `env`, `default` or `unset`.
    pub source: String,
}

/// A running component's effective configuration.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfigReport {
    pub component: String,
    pub version: String,
    pub settings: Vec<Setting>,
}

impl ConfigReport {
    /// The report of `command` as parsed into `matches` (the top level's arguments, plus those of
    /// the subcommand that runs, such as `canvasctl up`).
    pub fn new(component: &str, command: &Command, matches: &ArgMatches) -> Self {
        let mut settings = settings_of(command, Some(matches));
        if let Some((name, sub_matches)) = matches.subcommand() {
            if let Some(sub) = command.find_subcommand(name) {
                settings.extend(settings_of(sub, Some(sub_matches)));
            }
        }
        Self { component: component.to_owned(), version: env!("CARGO_PKG_VERSION").to_owned(), settings }
    }
}

/// Parses the process's command line (and environment) into `T`, exiting with clap's message on
/// bad input, and keeps the effective configuration for `GET /config`.
pub fn parse<T: clap::Parser>(component: &str) -> (T, ConfigReport) {
    let command = T::command();
    let matches = ignore_empty_env(command.clone()).get_matches();
    let parsed = T::from_arg_matches(&matches).unwrap_or_else(|err| err.format(&mut T::command()).exit());
    (parsed, ConfigReport::new(component, &command, &matches))
}

/// An environment variable set to the empty string means "unset" for every setting, as for most
/// tools (`CANVAS_WEBHOOK_CA_CERTS=` in a compose file or a Kubernetes manifest must not stop the
/// process with "a value is required"): such arguments forget their variable before parsing, so
/// their default applies. The report still names the variable (it comes from the unmodified
/// command).
pub fn ignore_empty_env(mut command: Command) -> Command {
    let empty: Vec<clap::Id> = command
        .get_arguments()
        .filter(|arg| arg.get_env().is_some_and(|name| std::env::var_os(name).is_some_and(|value| value.is_empty())))
        .map(|arg| arg.get_id().clone())
        .collect();
    for id in empty {
        command = command.mut_arg(id, |arg| arg.env(None::<&'static str>));
    }
    let subcommands: Vec<String> = command.get_subcommands().map(|sub| sub.get_name().to_owned()).collect();
    for name in subcommands {
        command = command.mut_subcommand(name, ignore_empty_env);
    }
    command
}

/// Every setting `command` declares (not its subcommands'), with values when `matches` is given.
pub fn settings_of(command: &Command, matches: Option<&ArgMatches>) -> Vec<Setting> {
    command
        .get_arguments()
        .filter(|arg| !arg.is_positional() && arg.get_long().is_some())
        .filter(|arg| !matches!(arg.get_id().as_str(), "help" | "version"))
        .map(|arg| {
            let id = arg.get_id().as_str();
            let secret = arg.is_hide_env_values_set();
            let default = (!arg.get_default_values().is_empty()).then(|| {
                arg.get_default_values().iter().map(|v| v.to_string_lossy().into_owned()).collect::<Vec<_>>().join(",")
            });
            let (value, source) = match matches {
                None => (None, "unset"),
                Some(m) => {
                    let raw = m
                        .try_get_raw(id)
                        .ok()
                        .flatten()
                        .map(|vals| vals.map(|v| v.to_string_lossy().into_owned()).collect::<Vec<_>>().join(","));
                    let source = match m.value_source(id) {
                        Some(ValueSource::CommandLine) => "flag",
                        Some(ValueSource::EnvVariable) => "env",
                        Some(ValueSource::DefaultValue) => "default",
                        _ => "unset",
                    };
                    // A switch that was not given reads as its implicit `false`.
                    (raw.filter(|_| source != "unset"), source)
                }
            };
            let value = value.map(|v| if secret { REDACTED.to_owned() } else { mask_url_password(&v) });
            Setting {
                flag: format!("--{}", arg.get_long().unwrap_or(id)),
                env: arg.get_env().map(|e| e.to_string_lossy().into_owned()),
                default,
                help: arg.get_help().map(|h| first_sentence(&h.to_string())).unwrap_or_default(),
                secret,
                value,
                source: source.to_owned(),
            }
        })
        .collect()
}

fn first_sentence(help: &str) -> String {
    help.split("\n\n").next().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `postgres://user:pw@host/db` → `postgres://user:<redacted>@host/db`; other text unchanged.
pub fn mask_url_password(value: &str) -> String {
    let Some(scheme_end) = value.find("://") else { return value.to_owned() };
    let rest = &value[scheme_end + 3..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    let Some(at) = authority.rfind('@') else { return value.to_owned() };
    let userinfo = &authority[..at];
    let Some(colon) = userinfo.find(':') else { return value.to_owned() };
    format!("{}{}:{REDACTED}{}", &value[..scheme_end + 3], &userinfo[..colon], &rest[at..])
}

/// `GET /config`, answered only to connections from loopback: an operator on the same machine
/// (`canvasctl config show`) or through `kubectl port-forward`. Anyone else gets 404, as if the
/// route did not exist, so the settings of a deployment are not published through its ingress.
pub fn route(report: ConfigReport) -> Router {
    Router::new().route("/config", get(show)).with_state(Arc::new(report))
}

async fn show(State(report): State<Arc<ConfigReport>>, request: Request) -> Response {
    match request.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(addr)) if addr.ip().is_loopback() => Json(report.as_ref().clone()).into_response(),
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

/// docs/CONFIGURATION.md's table of every setting: one row per setting, naming the components that take
/// it (a flag whose default or meaning differs between components gets a row per variant).
pub fn markdown_table(components: &[(&str, Command)]) -> String {
    let mut rows: Vec<(Setting, Vec<&str>)> = Vec::new();
    for (component, command) in components {
        for setting in settings_of(command, None) {
            match rows.iter_mut().find(|(known, _)| *known == setting) {
                Some((_, users)) => users.push(component),
                None => rows.push((setting, vec![component])),
            }
        }
    }
    let cell = |v: &str| v.replace('|', "\\|");
    let code = |v: Option<&str>| v.filter(|v| !v.is_empty()).map(|v| format!("`{}`", cell(v))).unwrap_or_default();
    let mut out =
        String::from("| Flag | Environment variable | Default | Components | Meaning |\n|---|---|---|---|---|\n");
    for (s, users) in rows {
        let secret = match (s.secret, s.help.ends_with(['.', '…'])) {
            (false, _) => "",
            (true, true) => " Secret: never logged or shown by `/config`.",
            (true, false) => ". Secret: never logged or shown by `/config`.",
        };
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {}{secret} |\n",
            s.flag,
            code(s.env.as_deref()),
            code(s.default.as_deref()),
            users.join(", "),
            cell(&s.help),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_passwords_are_masked() {
        assert_eq!(
            mask_url_password("postgres://app:s3cret@db:5432/canvas"),
            "postgres://app:<redacted>@db:5432/canvas"
        );
        assert_eq!(mask_url_password("postgres://app@db/canvas"), "postgres://app@db/canvas");
        assert_eq!(mask_url_password("http://127.0.0.1:50051"), "http://127.0.0.1:50051");
        assert_eq!(mask_url_password("text"), "text");
    }

    #[derive(clap::Parser, Debug)]
    struct EmptyEnv {
        #[arg(long = "certs", env = "CANVAS_TEST_EMPTY_CERTS", value_delimiter = ',', num_args = 1..)]
        certs: Vec<String>,
        #[arg(long = "count", env = "CANVAS_TEST_EMPTY_COUNT", default_value_t = 7)]
        count: u32,
        #[command(subcommand)]
        sub: Option<EmptySub>,
    }

    #[derive(clap::Subcommand, Debug)]
    enum EmptySub {
        Up {
            #[arg(long = "port", env = "CANVAS_TEST_EMPTY_PORT", default_value_t = 8)]
            port: u16,
        },
    }

    #[test]
    fn an_empty_environment_variable_means_unset() {
        use clap::{CommandFactory, FromArgMatches};
        // SAFETY of the test: these variables are only read by this test.
        std::env::set_var("CANVAS_TEST_EMPTY_CERTS", "");
        std::env::set_var("CANVAS_TEST_EMPTY_COUNT", "");
        std::env::set_var("CANVAS_TEST_EMPTY_PORT", "");
        assert!(EmptyEnv::command().try_get_matches_from(["x", "up"]).is_err(), "clap alone refuses them");
        let matches = ignore_empty_env(EmptyEnv::command()).try_get_matches_from(["x", "up"]).unwrap();
        let parsed = EmptyEnv::from_arg_matches(&matches).unwrap();
        assert!(parsed.certs.is_empty());
        assert_eq!(parsed.count, 7);
        assert!(matches!(parsed.sub, Some(EmptySub::Up { port: 8 })));
        std::env::set_var("CANVAS_TEST_EMPTY_COUNT", "9");
        let matches = ignore_empty_env(EmptyEnv::command()).try_get_matches_from(["x"]).unwrap();
        assert_eq!(EmptyEnv::from_arg_matches(&matches).unwrap().count, 9, "a set variable still counts");
    }

    #[derive(clap::Parser)]
    struct Demo {
        /// Where to listen.
        ///
        /// More detail.
        #[arg(long = "addr", env = "DEMO_ADDR", default_value = "127.0.0.1:1")]
        addr: String,
        /// A secret.
        #[arg(long = "secret", env = "DEMO_SECRET", hide_env_values = true)]
        secret: Option<String>,
        /// A database.
        #[arg(long = "db", env = "DEMO_DB")]
        db: Option<String>,
    }

    #[test]
    fn report_shows_values_sources_and_hides_secrets() {
        use clap::CommandFactory;
        let matches = Demo::command()
            .try_get_matches_from(["demo", "--secret", "hunter2", "--db", "postgres://u:pw@h/d"])
            .expect("parses");
        let report = ConfigReport::new("demo", &Demo::command(), &matches);
        let by_flag = |f: &str| report.settings.iter().find(|s| s.flag == f).cloned().expect(f);
        let addr = by_flag("--addr");
        assert_eq!((addr.value.as_deref(), addr.source.as_str()), (Some("127.0.0.1:1"), "default"));
        assert_eq!(addr.help, "Where to listen");
        assert_eq!(addr.env.as_deref(), Some("DEMO_ADDR"));
        let secret = by_flag("--secret");
        assert_eq!((secret.value.as_deref(), secret.source.as_str(), secret.secret), (Some(REDACTED), "flag", true));
        assert_eq!(by_flag("--db").value.as_deref(), Some("postgres://u:<redacted>@h/d"));
        assert!(!serde_json::to_string(&report).unwrap().contains("hunter2"));
    }

    #[tokio::test]
    async fn config_answers_loopback_callers_only() {
        use tower::ServiceExt;
        let ask = |peer: Option<&str>| {
            let mut request = axum::http::Request::get("/config").body(axum::body::Body::empty()).unwrap();
            if let Some(peer) = peer {
                request.extensions_mut().insert(ConnectInfo(peer.parse::<SocketAddr>().unwrap()));
            }
            route(ConfigReport::default()).oneshot(request)
        };
        assert_eq!(ask(Some("127.0.0.1:5000")).await.unwrap().status(), StatusCode::OK);
        assert_eq!(ask(Some("[::1]:5000")).await.unwrap().status(), StatusCode::OK);
        assert_eq!(ask(Some("10.1.2.3:5000")).await.unwrap().status(), StatusCode::NOT_FOUND);
        assert_eq!(ask(Some("192.168.0.7:5000")).await.unwrap().status(), StatusCode::NOT_FOUND);
        assert_eq!(ask(None).await.unwrap().status(), StatusCode::NOT_FOUND);
    }
}
