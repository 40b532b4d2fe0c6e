//! What the MCP gateway can be told: the settings the router needs
//! ([`McpSettings`]) and the command line of the standalone binary
//! ([`McpCli`]), which builds them.

use std::net::SocketAddr;

use clap::Parser;

/// The spec's 25 MB request limit, read as 25 MiB so a 25 MB base64 payload
/// plus its JSON-RPC envelope still fits.
pub const DEFAULT_MAX_BODY_BYTES: usize = canvas_vocabulary::limits::MAX_UPLOAD_BYTES;

/// Hosts a fresh install answers: loopback only, the safe default against DNS
/// rebinding. Deployments behind an ingress add their public host name.
pub const DEFAULT_ALLOWED_HOSTS: &[&str] = &["localhost", "127.0.0.1", "::1"];

/// The `realm` of the `WWW-Authenticate` challenge when none is configured.
pub const DEFAULT_REALM: &str = "canvas";

/// The well-known path of OAuth protected-resource metadata (RFC 9728).
pub const WELL_KNOWN_RESOURCE: &str = "/.well-known/oauth-protected-resource";

/// Everything the MCP router needs to know beyond the core-service address.
#[derive(Debug, Clone)]
pub struct McpSettings {
    /// Base of the item links handed to agents
    /// (`{web_url}/map/{projectId}?node={itemId}`); no trailing slash. Its
    /// host tells a user which environment an item lives in.
    pub web_url: String,
    /// `Host` values the gateway answers (`host` matches any port,
    /// `host:port` only that port). A `*` entry or an empty list accepts
    /// every host, for deployments where the ingress already checks it.
    pub allowed_hosts: Vec<String>,
    /// The realm named in the 401 `WWW-Authenticate` challenge, so a client
    /// can tell which service asks for a token.
    pub realm: String,
    /// Largest request body accepted; larger ones get 413 with a JSON-RPC
    /// error instead of being read into memory.
    pub max_body_bytes: usize,
    /// Browser origins allowed to call `/mcp` (`scheme://host[:port]`, or `*`). Empty: the origin
    /// of `web_url` and loopback origins. A request without `Origin` (every non-browser client)
    /// is not affected: the check exists because a web page's requests carry it.
    pub allowed_origins: Vec<String>,
    /// Deadline of core-service calls and time limit of request bodies.
    pub limits: canvas_runtime::GatewayArgs,
    /// The MCP endpoint's public URL (default `{web_url}/mcp`): the `resource` of the
    /// protected-resource metadata (RFC 9728), and sent with every core-service call
    /// (`x-canvas-resource`) so that core-service accepts only OAuth access tokens minted for it.
    pub resource_url: String,
    /// The OAuth authorization server MCP clients are sent to (the account site's base URL;
    /// default `web_url`), named in the protected-resource metadata.
    pub authorization_server: String,
}

impl McpSettings {
    /// Defaults for a service whose items are shown at `web_url`.
    pub fn new(web_url: &str) -> Self {
        let web_url = web_url.trim_end_matches('/');
        Self {
            resource_url: format!("{web_url}{}", crate::MCP_PATH),
            authorization_server: web_url.to_owned(),
            web_url: web_url.to_owned(),
            allowed_hosts: DEFAULT_ALLOWED_HOSTS.iter().map(|h| (*h).to_owned()).collect(),
            realm: DEFAULT_REALM.to_owned(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            allowed_origins: Vec::new(),
            limits: canvas_runtime::GatewayArgs::default(),
        }
    }

    /// Where the protected-resource metadata of [`Self::resource_url`] is (RFC 9728 §3.1): its
    /// origin, then `/.well-known/oauth-protected-resource`, then its path (`/mcp`). Named in the
    /// 401 challenge as `resource_metadata`.
    pub fn resource_metadata_url(&self) -> String {
        match url::Url::parse(&self.resource_url) {
            Ok(url) if url.origin().is_tuple() => {
                let path = url.path().trim_end_matches('/');
                format!("{}{WELL_KNOWN_RESOURCE}{path}", url.origin().ascii_serialization())
            }
            // Not a URL (a misconfiguration): the metadata under the web URL, where it is served.
            _ => format!("{}{WELL_KNOWN_RESOURCE}{}", self.web_url, crate::MCP_PATH),
        }
    }

    /// Whether a browser page of `origin` may call `/mcp` (the MCP transport's DNS-rebinding
    /// guard). Origins compare as browsers serialise them: scheme and host case-insensitive,
    /// default ports implied.
    pub fn origin_allowed(&self, origin: &str) -> bool {
        let origin = origin.trim();
        if self.allowed_origins.iter().any(|o| o.trim() == "*") {
            return true;
        }
        let Some(wanted) = Origin::parse(origin) else {
            // `null` (sandboxed frames, file: pages) and garbage: only when listed literally.
            return self.allowed_origins.iter().any(|o| o.trim().eq_ignore_ascii_case(origin));
        };
        if self.allowed_origins.is_empty() {
            return wanted.is_loopback() || Origin::parse(&self.web_url).is_some_and(|own| own == wanted);
        }
        self.allowed_origins.iter().filter_map(|o| Origin::parse(o.trim())).any(|o| o == wanted)
    }

    /// Whether a request's `Host` (already lower-cased, brackets removed
    /// from IPv6 literals) may be served.
    pub fn host_allowed(&self, host: &str, port: Option<u16>) -> bool {
        if self.allowed_hosts.is_empty() || self.allowed_hosts.iter().any(|h| h.trim() == "*") {
            return true;
        }
        self.allowed_hosts.iter().any(|allowed| {
            let (allowed_host, allowed_port) = split_host_port(allowed.trim());
            allowed_host.eq_ignore_ascii_case(host) && allowed_port.is_none_or(|p| Some(p) == port)
        })
    }
}

/// A web origin: scheme, host and port (the default port of the scheme when none is written).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Origin {
    scheme: String,
    host: url::Host,
    port: Option<u16>,
}

impl Origin {
    /// `https://Example.com:443` and `https://example.com` are the same origin; a path is
    /// ignored (so a web URL with a path still names its origin).
    fn parse(text: &str) -> Option<Self> {
        let url = url::Url::parse(text).ok()?;
        let host = url.host()?.to_owned();
        Some(Self { scheme: url.scheme().to_owned(), host, port: url.port_or_known_default() })
    }

    fn is_loopback(&self) -> bool {
        match &self.host {
            url::Host::Domain(name) => name.eq_ignore_ascii_case("localhost"),
            url::Host::Ipv4(ip) => ip.is_loopback(),
            url::Host::Ipv6(ip) => ip.is_loopback(),
        }
    }
}

/// Splits `host`, `host:port`, `[v6]` or `[v6]:port`; the host comes back
/// without brackets. A bare IPv6 literal (`::1`) has no port.
pub fn split_host_port(authority: &str) -> (&str, Option<u16>) {
    if let Some(rest) = authority.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((host, tail)) => (host, tail.strip_prefix(':').and_then(|p| p.parse().ok())),
            None => (rest, None),
        };
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') => match port.parse() {
            Ok(port) => (host, Some(port)),
            Err(_) => (authority, None),
        },
        _ => (authority, None),
    }
}

/// The command line of the standalone `mcp-gateway` binary.
#[derive(Debug, Clone, Parser)]
#[command(name = "mcp-gateway", version, about = "MCP gateway of the canvas service (Streamable HTTP at /mcp)")]
pub struct McpCli {
    /// Address to serve HTTP on.
    #[arg(long = "http-addr", env = "CANVAS_HTTP_ADDR", default_value = "127.0.0.1:8081")]
    pub http_addr: SocketAddr,

    /// gRPC address of core-service, several comma-separated replicas, or `dns:///host:port`
    /// (every address the name resolves to is a replica, resolved again every 5 s: a
    /// Kubernetes headless Service): calls are balanced over them, and a read whose replica
    /// fails in transport is retried once on another.
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    pub core_url: String,

    /// What the MCP router answers and how (shared with `canvasctl up`).
    #[command(flatten)]
    pub mcp: McpArgs,

    /// Deadline of core-service calls and time limit of request bodies.
    #[command(flatten)]
    pub gateway: canvas_runtime::GatewayArgs,

    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,
}

impl McpCli {
    pub fn settings(&self) -> McpSettings {
        McpSettings { limits: self.gateway.clone(), ..self.mcp.settings(&format!("http://{}", self.http_addr)) }
    }
}

/// The MCP router's settings as flags, for the standalone gateway and `canvasctl up` alike.
#[derive(Debug, Clone, clap::Args)]
pub struct McpArgs {
    /// Base URL of the web map, used in item links. Default: this server's
    /// own address.
    #[arg(long = "web-url", env = "CANVAS_WEB_URL")]
    pub web_url: Option<String>,

    /// Host names (optionally host:port) the gateway answers, comma-separated;
    /// `*` accepts any host.
    #[arg(
        long = "allowed-hosts",
        env = "CANVAS_MCP_ALLOWED_HOSTS",
        value_delimiter = ',',
        default_value = "localhost,127.0.0.1,::1"
    )]
    pub allowed_hosts: Vec<String>,

    /// Realm named in the `WWW-Authenticate` challenge of a 401.
    #[arg(long = "realm", env = "CANVAS_MCP_REALM", default_value = DEFAULT_REALM)]
    pub realm: String,

    /// Largest request body in bytes.
    #[arg(long = "max-body-bytes", env = "CANVAS_MCP_MAX_BODY_BYTES", default_value_t = DEFAULT_MAX_BODY_BYTES)]
    pub max_body_bytes: usize,

    /// Browser origins (`scheme://host[:port]`) allowed to call /mcp, comma-separated; `*` allows
    /// any. Empty: the web URL's origin and loopback origins. Requests without `Origin`
    /// (non-browser clients) are always served; any other origin gets 403.
    #[arg(long = "allowed-origins", env = "CANVAS_MCP_ALLOWED_ORIGINS", value_delimiter = ',')]
    pub allowed_origins: Vec<String>,

    /// Public URL of the MCP endpoint, the OAuth resource its access tokens are bound to and the
    /// `resource` of its protected-resource metadata. Default: the web URL + `/mcp`; set it when
    /// clients reach /mcp through another host or path.
    #[arg(long = "resource-url", env = "CANVAS_MCP_RESOURCE_URL")]
    pub resource_url: Option<String>,

    /// Base URL of the OAuth authorization server (the account site) that MCP clients are sent
    /// to for a token. Default: the web URL.
    #[arg(long = "authorization-server", env = "CANVAS_MCP_AUTHORIZATION_SERVER")]
    pub authorization_server: Option<String>,
}

impl McpArgs {
    /// The settings; item links point at `default_web_url` unless `--web-url` says otherwise.
    pub fn settings(&self, default_web_url: &str) -> McpSettings {
        let web_url = self.web_url.clone().unwrap_or_else(|| default_web_url.to_owned());
        let defaults = McpSettings::new(&web_url);
        let given = |value: &Option<String>| {
            value.as_deref().map(|v| v.trim().trim_end_matches('/').to_owned()).filter(|v| !v.is_empty())
        };
        McpSettings {
            resource_url: given(&self.resource_url).unwrap_or_else(|| defaults.resource_url.clone()),
            authorization_server: given(&self.authorization_server)
                .unwrap_or_else(|| defaults.authorization_server.clone()),
            allowed_hosts: self.allowed_hosts.iter().map(|h| h.trim().to_owned()).filter(|h| !h.is_empty()).collect(),
            realm: self.realm.clone(),
            max_body_bytes: self.max_body_bytes,
            allowed_origins: self
                .allowed_origins
                .iter()
                .map(|o| o.trim().to_owned())
                .filter(|o| !o.is_empty())
                .collect(),
            ..defaults
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_host_and_port() {
        assert_eq!(split_host_port("example.com"), ("example.com", None));
        assert_eq!(split_host_port("example.com:8080"), ("example.com", Some(8080)));
        assert_eq!(split_host_port("[::1]:80"), ("::1", Some(80)));
        assert_eq!(split_host_port("::1"), ("::1", None));
    }

    #[test]
    fn resource_defaults_follow_the_web_url() {
        let settings = McpSettings::new("https://canvas.example/");
        assert_eq!(settings.resource_url, "https://canvas.example/mcp");
        assert_eq!(settings.authorization_server, "https://canvas.example");
        assert_eq!(settings.resource_metadata_url(), "https://canvas.example/.well-known/oauth-protected-resource/mcp");
        let moved = McpSettings { resource_url: "https://API.example:8443/tools/mcp/".into(), ..settings.clone() };
        assert_eq!(
            moved.resource_metadata_url(),
            "https://api.example:8443/.well-known/oauth-protected-resource/tools/mcp"
        );
        let root = McpSettings { resource_url: "https://mcp.example".into(), ..settings };
        assert_eq!(root.resource_metadata_url(), "https://mcp.example/.well-known/oauth-protected-resource");
    }

    #[test]
    fn host_allow_list_matches_ports_only_when_given() {
        let mut settings = McpSettings::new("http://x");
        assert!(settings.host_allowed("127.0.0.1", Some(4000)));
        assert!(settings.host_allowed("::1", None));
        assert!(!settings.host_allowed("evil.example", Some(80)));
        settings.allowed_hosts = vec!["canvas.example:443".into()];
        assert!(settings.host_allowed("canvas.example", Some(443)));
        assert!(!settings.host_allowed("canvas.example", Some(8443)));
        settings.allowed_hosts = vec!["*".into()];
        assert!(settings.host_allowed("anything", None));
    }

    #[test]
    fn origins_default_to_the_web_url_and_loopback() {
        let mut settings = McpSettings::new("https://Canvas.example/app");
        for allowed in [
            "https://canvas.example",
            "https://canvas.example:443",
            "http://localhost:6274",
            "http://127.0.0.1",
            "http://[::1]:3000",
        ] {
            assert!(settings.origin_allowed(allowed), "{allowed}");
        }
        for refused in [
            "http://evil.example",
            "http://canvas.example",
            "https://canvas.example:8443",
            "null",
            "",
            "javascript:alert(1)",
            "https://canvas.example.evil.example",
        ] {
            assert!(!settings.origin_allowed(refused), "{refused}");
        }
        settings.allowed_origins = vec!["https://tools.example".into()];
        assert!(settings.origin_allowed("https://TOOLS.example"));
        assert!(!settings.origin_allowed("http://localhost:6274"), "a list replaces the default");
        settings.allowed_origins = vec!["*".into()];
        assert!(settings.origin_allowed("http://evil.example"));
    }
}
