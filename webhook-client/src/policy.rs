//! Which destination addresses a webhook call may connect to.
//!
//! Webhook URLs are chosen by users, so a call is a request the service makes
//! on their behalf into its own network (SSRF). Loopback, private, link-local,
//! carrier-grade NAT, multicast, unspecified, documentation/benchmark ranges
//! and the cloud metadata addresses are refused unless an operator lists the
//! range in the allow-list (tests allow `127.0.0.1/32` to reach their local
//! receiver). The same rule runs on literal IPs in URLs (at validation and
//! before sending) and on every address DNS returns (in the resolver), so the
//! address actually connected to is always the one checked.
//!
//! A refusal reads the same wherever it is made ([`Refusal`]): at validation, at a test call and
//! in a delivery's `lastError`, for a literal address and for a name that resolves to one, and it
//! names the setting that allows the range.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use ipnet::IpNet;

/// The address rules of one process, built from configuration.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DestinationPolicy {
    /// Ranges that are called even though the built-in rules refuse them.
    allow: Vec<IpNet>,
}

impl DestinationPolicy {
    /// A policy allowing `allow` in addition to the public internet.
    pub fn new(allow: Vec<IpNet>) -> Self {
        Self { allow }
    }

    /// Parses a comma-separated list of CIDR ranges or single addresses.
    pub fn parse_allow_list(raw: &str) -> anyhow::Result<Vec<IpNet>> {
        raw.split(',')
            .map(str::trim)
            .filter(|part| !part.is_empty())
            .map(|part| {
                part.parse::<IpNet>()
                    .or_else(|_| part.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| anyhow::anyhow!("'{part}' is not an IP address or CIDR range"))
            })
            .collect()
    }

    /// Why `ip` may not be called, or None when it may.
    pub fn refusal(&self, ip: IpAddr) -> Option<&'static str> {
        let ip = canonical(ip);
        if self.allow.iter().any(|net| net.contains(&ip)) {
            return None;
        }
        forbidden_kind(ip)
    }

    /// The refusal of a URL's literal address, or None when it may be called.
    pub fn refuse_literal(&self, ip: IpAddr) -> Option<Refusal> {
        self.refusal(ip).map(|kind| Refusal { host: None, ip, kind })
    }

    /// The addresses `host` resolved to that may be called; when there were some and every one
    /// is refused, the refusal of the first.
    pub fn screen(&self, host: &str, resolved: Vec<SocketAddr>) -> Result<Vec<SocketAddr>, Refusal> {
        let mut allowed = Vec::with_capacity(resolved.len());
        let mut first_refusal = None;
        for addr in resolved {
            match self.refusal(addr.ip()) {
                None => allowed.push(addr),
                Some(kind) => {
                    first_refusal.get_or_insert(Refusal { host: Some(host.to_owned()), ip: addr.ip(), kind });
                }
            }
        }
        match first_refusal {
            Some(refusal) if allowed.is_empty() => Err(refusal),
            _ => Ok(allowed),
        }
    }
}

/// The setting (environment variable of core-service and webhook-dispatcher, and of `canvasctl
/// up`) that lists ranges the rules otherwise refuse.
pub const ALLOW_SETTING: &str = "CANVAS_WEBHOOK_ALLOW_DESTINATIONS";

/// A destination the rules refuse: the same words for a literal address and for a host name that
/// resolves to one (`localhost (127.0.0.1)`), naming [`ALLOW_SETTING`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The host name the URL gave; None for a literal address.
    pub host: Option<String>,
    /// The refused address (of a name, the first it resolved to; all were refused).
    pub ip: IpAddr,
    /// What kind of address it is, e.g. "a loopback address".
    pub kind: &'static str,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Refusal { host, ip, kind } = self;
        match host {
            Some(host) => write!(f, "destination refused: {host} ({ip}) is {kind}")?,
            None => write!(f, "destination refused: {ip} is {kind}")?,
        }
        write!(f, "; allow it with {ALLOW_SETTING}={ip} (e.g. for a local receiver in development)")
    }
}

impl std::error::Error for Refusal {}

/// IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) are judged as the IPv4
/// address they carry, else they would slip past the IPv4 rules.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

fn forbidden_kind(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        Some("a cloud metadata address")
    } else if ip.is_private() {
        Some("a private address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("a carrier-grade NAT address")
    } else if ip.is_multicast() || ip.is_broadcast() {
        Some("a multicast or broadcast address")
    } else if ip.is_unspecified() || a == 0 {
        Some("an unspecified address")
    } else if ip.is_documentation() || (a == 198 && (b == 18 || b == 19)) || (a == 192 && b == 0 && c == 0) || a >= 240
    {
        Some("a reserved address")
    } else {
        None
    }
}

fn forbidden_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        Some("a cloud metadata address")
    } else if ip.is_unspecified() {
        Some("an unspecified address")
    } else if ip.is_multicast() {
        Some("a multicast address")
    } else if first & 0xfe00 == 0xfc00 {
        Some("a private (unique local) address")
    } else if first & 0xffc0 == 0xfe80 {
        Some("a link-local address")
    } else if first == 0x2001 && ip.segments()[1] == 0x0db8 {
        Some("a reserved address")
    } else if ip.to_ipv4().is_some() {
        // IPv4-compatible (deprecated) addresses: judge by the IPv4 rules.
        ip.to_ipv4().and_then(forbidden_v4)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(policy: &DestinationPolicy, ip: &str) -> bool {
        policy.refusal(ip.parse().unwrap()).is_some()
    }

    #[test]
    fn internal_ranges_are_refused_and_public_ones_allowed() {
        let policy = DestinationPolicy::default();
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
        ] {
            assert!(refused(&policy, ip), "{ip} must be refused");
        }
        for ip in ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"] {
            assert!(!refused(&policy, ip), "{ip} must be allowed");
        }
    }

    #[test]
    fn a_name_and_its_address_are_refused_in_the_same_words() {
        let policy = DestinationPolicy::default();
        let literal = policy.refuse_literal("127.0.0.1".parse().unwrap()).unwrap().to_string();
        let resolved = vec!["127.0.0.1:0".parse().unwrap()];
        let named = policy.screen("localhost", resolved).unwrap_err().to_string();
        assert_eq!(named.replace("localhost (127.0.0.1)", "127.0.0.1"), literal);
        assert!(literal.contains("a loopback address") && literal.contains(ALLOW_SETTING), "{literal}");
        assert!(literal.chars().count() <= crate::MAX_ERROR_CHARS, "{} chars: {literal}", literal.chars().count());
        // A name with one address that may be called is not refused; the refused ones are dropped.
        let mixed = vec!["127.0.0.1:443".parse().unwrap(), "93.184.215.14:443".parse().unwrap()];
        assert_eq!(policy.screen("mixed.example", mixed).unwrap(), vec!["93.184.215.14:443".parse().unwrap()]);
        assert_eq!(policy.screen("none.example", Vec::new()).unwrap(), Vec::<SocketAddr>::new());
    }

    #[test]
    fn the_allow_list_opens_exactly_its_ranges() {
        let allow = DestinationPolicy::parse_allow_list("127.0.0.1, 10.0.0.0/8").unwrap();
        let policy = DestinationPolicy::new(allow);
        assert!(!refused(&policy, "127.0.0.1"));
        assert!(!refused(&policy, "::ffff:127.0.0.1"));
        assert!(!refused(&policy, "10.200.0.1"));
        assert!(refused(&policy, "127.0.0.2"));
        assert!(refused(&policy, "169.254.169.254"));
        assert!(DestinationPolicy::parse_allow_list("localhost").is_err());
    }
}
