//! The one HTTPS client of webhook calls.
//!
//! Real deliveries (webhook-dispatcher) and test calls (core-service's
//! `POST .../webhooks/test`) go through [`WebhookClient::send`], so both get
//! the same destination rules, the same time-out, the same refusal of
//! redirects, and neither ever reads more of the receiver's answer than its
//! status line and headers.
//!
//! # Layout
//! - [`policy`]: which destination addresses may be called.
//! - [`resolver`]: the DNS resolver that applies the policy to every address
//!   a name resolves to, i.e. to the address actually connected to.
//! - [`documents`]: fetching a small JSON document from a user-chosen URL under the same rules
//!   (OAuth Client ID Metadata Documents).
//! - [`verify`]: the receiver's six verification rules (for `canvasctl
//!   webhooks listen`, tests and anyone writing a receiver in Rust).
//! - `receiver` (feature `receiver`): a local HTTPS server with a generated
//!   CA, for `canvasctl webhooks listen`, tests and the benchmark.
//! - `listen` (feature `receiver`): the verifying receiver behind
//!   `canvasctl webhooks listen`.
//! - this file: settings, the client and one call.

pub mod documents;
#[cfg(feature = "receiver")]
pub mod listen;
pub mod policy;
#[cfg(feature = "receiver")]
pub mod receiver;
pub mod resolver;
pub mod verify;

use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Args;
use reqwest::header::{HeaderMap, HeaderValue, CONTENT_TYPE, RETRY_AFTER};
use reqwest::{redirect, StatusCode, Url};

pub use policy::{DestinationPolicy, Refusal};

/// Longest error text kept about one attempt; receivers' bodies are never read.
pub const MAX_ERROR_CHARS: usize = 200;

/// Settings of the webhook HTTP client, shared by core-service (test calls)
/// and webhook-dispatcher (deliveries): both must apply the same rules.
#[derive(Debug, Clone, Args)]
pub struct ClientSettings {
    /// Seconds one call may take, connection set-up included.
    #[arg(long = "webhook-timeout-secs", env = "CANVAS_WEBHOOK_TIMEOUT_SECS", default_value_t = 15)]
    pub timeout_secs: u64,

    /// Comma-separated IP ranges (CIDR) that may be called although they are
    /// loopback, private, link-local or otherwise internal. Empty: none.
    #[arg(long = "webhook-allow-destinations", env = "CANVAS_WEBHOOK_ALLOW_DESTINATIONS", default_value = "")]
    pub allow_destinations: String,

    /// PEM files with extra CA certificates to trust besides the public roots
    /// (comma-separated), for receivers with a private CA.
    #[arg(long = "webhook-ca-certs", env = "CANVAS_WEBHOOK_CA_CERTS", value_delimiter = ',')]
    pub extra_ca_certs: Vec<PathBuf>,
}

impl Default for ClientSettings {
    fn default() -> Self {
        Self { timeout_secs: 15, allow_destinations: String::new(), extra_ca_certs: Vec::new() }
    }
}

impl ClientSettings {
    /// The destination rules these settings describe.
    pub fn policy(&self) -> anyhow::Result<DestinationPolicy> {
        let allow = DestinationPolicy::parse_allow_list(&self.allow_destinations)
            .context("CANVAS_WEBHOOK_ALLOW_DESTINATIONS")?;
        Ok(DestinationPolicy::new(allow))
    }
}

/// One prepared call: where, which headers, which bytes.
#[derive(Debug, Clone)]
pub struct Call {
    /// The webhook's `url`.
    pub url: String,
    /// `Webhook-Id`, `Webhook-Timestamp`, `Webhook-Signature`.
    pub headers: Vec<(String, String)>,
    /// The exact bytes that were signed.
    pub body: Vec<u8>,
}

/// What happened to one call, as recorded in the webhook's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The receiver's HTTP status, when it answered.
    pub status_code: Option<u16>,
    /// From the start of the call to its answer (or failure).
    pub duration: Duration,
    /// Why the call failed, short; None on success (2xx).
    pub error: Option<String>,
    /// The receiver's `Retry-After` (seconds or HTTP-date) on 429 and 503.
    pub retry_after: Option<Duration>,
    /// Set when the destination rules refused the address (nothing was sent); `error` holds its
    /// words.
    pub refused: Option<Refusal>,
}

impl Outcome {
    /// 2xx only; redirects and everything else are failures.
    pub fn succeeded(&self) -> bool {
        self.error.is_none()
    }
}

/// The client; cheap to clone (one connection pool).
#[derive(Clone, Debug)]
pub struct WebhookClient {
    /// reqwest with the policing resolver, no redirects, no proxy.
    http: reqwest::Client,
    /// Also checked on literal-IP URLs, which skip DNS.
    policy: Arc<DestinationPolicy>,
    /// Per-call time-out, for the error text.
    timeout: Duration,
}

impl WebhookClient {
    /// Builds the client: rustls with the public roots plus `extra_ca_certs`,
    /// redirects disabled, proxies ignored (a proxy would connect for us and
    /// hide the address), and the policing resolver.
    pub fn new(settings: &ClientSettings) -> anyhow::Result<Self> {
        let policy = Arc::new(settings.policy()?);
        let timeout = Duration::from_secs(settings.timeout_secs.max(1));
        let mut builder = reqwest::Client::builder()
            .use_rustls_tls()
            .https_only(true)
            .redirect(redirect::Policy::none())
            .no_proxy()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .pool_idle_timeout(Duration::from_secs(30))
            .user_agent(concat!("canvas-webhooks/", env!("CARGO_PKG_VERSION")))
            .dns_resolver(Arc::new(resolver::PolicingResolver::new(policy.clone())));
        for path in &settings.extra_ca_certs {
            let pem = std::fs::read(path).with_context(|| format!("cannot read CA file {}", path.display()))?;
            for cert in reqwest::Certificate::from_pem_bundle(&pem)
                .with_context(|| format!("{} holds no valid PEM certificate", path.display()))?
            {
                builder = builder.add_root_certificate(cert);
            }
        }
        Ok(Self { http: builder.build()?, policy, timeout })
    }

    /// The destination rules of this client.
    pub fn policy(&self) -> &DestinationPolicy {
        &self.policy
    }

    /// Sends one call and sorts the answer. Never returns the receiver's body.
    pub async fn send(&self, call: &Call) -> Outcome {
        let started = Instant::now();
        let failed = |error: String, refused: Option<Refusal>| Outcome {
            status_code: None,
            duration: started.elapsed(),
            error: Some(shorten(&error)),
            retry_after: None,
            refused,
        };
        let url = match Url::parse(&call.url) {
            Ok(url) if url.scheme() == "https" => url,
            _ => return failed("the url is not an absolute https URL".into(), None),
        };
        if let Some(refusal) = literal_ip_refusal(&self.policy, &url) {
            return failed(refusal.to_string(), Some(refusal));
        }
        let mut headers = HeaderMap::new();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        for (name, value) in &call.headers {
            match (name.parse::<reqwest::header::HeaderName>(), HeaderValue::from_str(value)) {
                (Ok(name), Ok(value)) => {
                    headers.insert(name, value);
                }
                _ => return failed(format!("header {name} is not valid"), None),
            }
        }
        let response = self.http.post(url).headers(headers).body(call.body.clone()).send().await;
        let response = match response {
            Ok(response) => response,
            Err(err) => {
                let refused = refusal_in(&err);
                let text = match &refused {
                    Some(refusal) => refusal.to_string(),
                    None => describe(&err, self.timeout),
                };
                return failed(text, refused);
            }
        };
        let status = response.status();
        let retry_after = retry_after(status, response.headers());
        // The body is dropped unread: it is never returned nor stored.
        drop(response);
        let error = if status.is_success() {
            None
        } else if status.is_redirection() {
            Some(format!("HTTP {}: redirects are not followed", status.as_u16()))
        } else {
            Some(format!("HTTP {}", status.as_u16()))
        };
        Outcome { status_code: Some(status.as_u16()), duration: started.elapsed(), error, retry_after, refused: None }
    }

    /// Applies the destination rules to a URL as a call would, before any call: a literal address,
    /// or every address its host name resolves to now. `Err` when the call would be refused; a name
    /// that does not resolve (or not within [`CHECK_RESOLVE_TIMEOUT`]) is not refused here, the call
    /// itself reports it. Calls are still checked at connect time (a name may resolve differently
    /// then).
    pub async fn check_destination(&self, url: &str) -> Result<(), Refusal> {
        let Ok(url) = Url::parse(url) else { return Ok(()) };
        if let Some(refusal) = literal_ip_refusal(&self.policy, &url) {
            return Err(refusal);
        }
        let Some(url::Host::Domain(host)) = url.host() else { return Ok(()) };
        match tokio::time::timeout(CHECK_RESOLVE_TIMEOUT, resolver::resolve(&self.policy, host)).await {
            Ok(Err(error)) => match error.downcast::<Refusal>() {
                Ok(refusal) => Err(*refusal),
                Err(_) => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

/// How long [`WebhookClient::check_destination`] waits for DNS.
pub const CHECK_RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// A URL whose host is a literal IP never reaches the resolver, so it is
/// checked here.
fn literal_ip_refusal(policy: &DestinationPolicy, url: &Url) -> Option<Refusal> {
    let ip: IpAddr = match url.host()? {
        url::Host::Ipv4(v4) => v4.into(),
        url::Host::Ipv6(v6) => v6.into(),
        url::Host::Domain(_) => return None,
    };
    policy.refuse_literal(ip)
}

/// The destination refusal a failed call carries (from the policing resolver), if any.
fn refusal_in(err: &reqwest::Error) -> Option<Refusal> {
    let mut source: Option<&(dyn std::error::Error + 'static)> = std::error::Error::source(err);
    while let Some(cause) = source {
        if let Some(refusal) = cause.downcast_ref::<Refusal>() {
            return Some(refusal.clone());
        }
        source = cause.source();
    }
    None
}

fn retry_after(status: StatusCode, headers: &HeaderMap) -> Option<Duration> {
    if status != StatusCode::TOO_MANY_REQUESTS && status != StatusCode::SERVICE_UNAVAILABLE {
        return None;
    }
    parse_retry_after(headers.get(RETRY_AFTER)?.to_str().ok()?, std::time::SystemTime::now())
}

/// `Retry-After` in either form RFC 9110 allows: delay-seconds, or an HTTP-date (a date in the
/// past is no delay). Anything else names no delay.
fn parse_retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        // Digits too many for u64 are a very long delay, capped by whoever honours it.
        return Some(Duration::from_secs(value.parse().unwrap_or(u64::MAX)));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// A short, safe description of a transport failure.
fn describe(err: &reqwest::Error, timeout: Duration) -> String {
    if err.is_timeout() {
        return format!("timed out after {} s", timeout.as_secs());
    }
    // The source chain holds the useful part (refused destination, TLS, DNS).
    let mut text = String::new();
    let mut source: Option<&dyn std::error::Error> = std::error::Error::source(err);
    while let Some(cause) = source {
        text = cause.to_string();
        if text.contains("destination refused") {
            break;
        }
        source = cause.source();
    }
    if text.is_empty() {
        text = err.to_string();
    }
    if err.is_connect() && !text.contains("destination refused") {
        format!("could not connect: {text}")
    } else {
        text
    }
}

fn shorten(text: &str) -> String {
    text.chars().take(MAX_ERROR_CHARS).collect()
}

#[cfg(test)]
mod retry_after_tests {
    use std::time::{Duration, SystemTime, UNIX_EPOCH};

    use proptest::prelude::*;

    use super::parse_retry_after;

    fn at(secs: u64) -> SystemTime {
        UNIX_EPOCH + Duration::from_secs(secs)
    }

    #[test]
    fn both_forms_of_rfc_9110_are_read() {
        let now = at(1_764_979_200); // 2025-12-06T00:00:00Z
        assert_eq!(parse_retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(" 7 ", now), Some(Duration::from_secs(7)));
        assert_eq!(parse_retry_after("0", now), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("Sat, 06 Dec 2025 00:01:30 GMT", now), Some(Duration::from_secs(90)));
        assert_eq!(parse_retry_after("Fri, 05 Dec 2025 23:00:00 GMT", now), Some(Duration::ZERO), "a past date");
        assert_eq!(
            parse_retry_after("99999999999999999999999", now),
            Some(Duration::from_secs(u64::MAX)),
            "too many digits is a long delay, capped by whoever honours it"
        );
    }

    #[test]
    fn anything_else_names_no_delay() {
        let now = at(1_764_979_200);
        for value in ["", " ", "-1", "1.5", "+5", "5s", "0x10", "tomorrow", "Sat, 06 Dec 2025", "١٢"] {
            assert_eq!(parse_retry_after(value, now), None, "{value:?}");
        }
    }

    proptest! {
        #[test]
        fn any_seconds_value_is_read_exactly(secs in any::<u64>()) {
            prop_assert_eq!(parse_retry_after(&secs.to_string(), at(0)), Some(Duration::from_secs(secs)));
        }

        #[test]
        fn any_future_http_date_is_the_time_until_it(now in 0u64..4_000_000_000, ahead in 0u64..10_000_000) {
            let date = httpdate::fmt_http_date(at(now + ahead));
            prop_assert_eq!(parse_retry_after(&date, at(now)), Some(Duration::from_secs(ahead)));
        }

        #[test]
        fn no_text_panics(value in ".{0,64}") {
            let _ = parse_retry_after(&value, SystemTime::now());
        }
    }
}
