//! rest-gateway configuration.

use std::net::SocketAddr;

use clap::Parser;

#[derive(Debug, Clone, Parser)]
#[command(name = "rest-gateway", version, about = "REST gateway of the canvas service")]
pub struct RestCli {
    /// Address to serve HTTP on.
    #[arg(long = "http-addr", env = "CANVAS_HTTP_ADDR", default_value = "127.0.0.1:8080")]
    pub http_addr: SocketAddr,

    /// gRPC address of core-service, several comma-separated replicas, or `dns:///host:port`
    /// (every address the name resolves to is a replica, resolved again every 5 s: a
    /// Kubernetes headless Service): calls are balanced over them, and a read whose replica
    /// fails in transport is retried once on another.
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    pub core_url: String,

    /// Public base URL of the account site and OAuth issuer (`https://canvas.example`). An
    /// `https://` URL makes the cookies `__Host-` and `Secure`; unset, each request's own origin is
    /// used with plain cookie names, which only suits a plain-HTTP development setup.
    #[arg(long = "account-url", env = "CANVAS_ACCOUNT_URL", value_parser = parse_account_url)]
    pub account_url: Option<String>,

    /// The header a trusted reverse proxy puts the client's address in (`X-Forwarded-For`,
    /// `X-Real-IP`); its last value is the address sign-in throttling and audit records use.
    /// Unset: the connection's peer address, which behind a proxy is the proxy's, so every
    /// client would share one address's sign-in limit. Set it only behind a proxy that writes
    /// the header: otherwise clients could choose their own address.
    #[arg(long = "client-ip-header", env = "CANVAS_CLIENT_IP_HEADER")]
    pub client_ip_header: Option<String>,

    /// Deadline of core-service calls and time limit of request bodies.
    #[command(flatten)]
    pub gateway: canvas_runtime::GatewayArgs,

    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,
}

/// An `http://` or `https://` URL with a host and no query or fragment: it becomes the OAuth
/// issuer, which RFC 8414 forbids to carry either.
pub fn parse_account_url(text: &str) -> Result<String, String> {
    let url = url::Url::parse(text.trim()).map_err(|e| format!("not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err("must be an http:// or https:// URL with a host".to_owned());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("must not have a query or fragment".to_owned());
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_urls_are_checked_and_trimmed() {
        assert_eq!(parse_account_url("https://Canvas.example/").as_deref(), Ok("https://canvas.example"));
        assert_eq!(parse_account_url("http://127.0.0.1:8080").as_deref(), Ok("http://127.0.0.1:8080"));
        assert!(parse_account_url("ftp://canvas.example").is_err());
        assert!(parse_account_url("https://canvas.example/?a=1").is_err());
        assert!(parse_account_url("canvas.example").is_err());
    }
}
