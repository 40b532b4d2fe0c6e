//! The limits both gateways put on a request and on their own work, as command-line settings:
//! [`GatewayArgs`] (the deadline of a core-service call, the time to send a body) and
//! [`EdgeLimits`] (head size, URI length, header count, connections, streams). One definition,
//! flattened into both gateways' and `canvasctl up`'s command lines, so the two edges cannot
//! drift apart; docs/LIMITS.md states them.

/// Time limits both gateways put on their work: how long a call to core-service may take, and how
/// long a client may take to send its request body. One definition, flattened into both gateways'
/// and `canvasctl up`'s command lines.
#[derive(Debug, Clone, clap::Args)]
pub struct GatewayArgs {
    /// Seconds a gateway waits for core-service to answer a call (the gRPC deadline, also sent to
    /// core-service so it stops working on calls nobody waits for); then the client gets a 504.
    #[arg(long = "core-timeout-secs", env = "CANVAS_CORE_TIMEOUT_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub core_timeout_secs: u64,

    /// Seconds a client may take to send a request body (a 25 MiB upload needs about 3.5 Mbit/s
    /// at the default); a slower body is answered 408 and its connection closed, so a slow sender
    /// cannot hold a connection and its memory indefinitely.
    #[arg(long = "body-timeout-secs", env = "CANVAS_BODY_TIMEOUT_SECS", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout_secs: u64,

    /// What one request and one client may occupy at the edge.
    #[command(flatten)]
    pub edge: EdgeLimits,
}

/// The edge limits of both gateways: request head size, URI length, header count, connections,
/// streams per HTTP/2 connection, and the time to send a request head. Their defaults hold every
/// request a client of the API makes (a token is 50 bytes, the longest URI a listing with every
/// filter, about 1 KiB) many times over; docs/LIMITS.md states them.
#[derive(Debug, Clone, clap::Args)]
pub struct EdgeLimits {
    /// Largest total size of a request's header fields (names and values), in bytes; a larger one
    /// is answered 431. What the gateway forwards to core-service stays within this, and
    /// core-service accepts at least twice the highest setting (`canvas_proto::limits`), so no
    /// request can break the connection other callers share.
    #[arg(long = "max-header-bytes", env = "CANVAS_MAX_HEADER_BYTES", default_value_t = 16 * 1024,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1024..=canvas_proto::limits::MAX_FORWARDED_HEADER_BYTES as u64))]
    pub max_header_bytes: usize,

    /// Most header fields in one request; more are answered 431.
    #[arg(long = "max-headers", env = "CANVAS_MAX_HEADERS", default_value_t = 100,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(8..=1000))]
    pub max_headers: usize,

    /// Longest request URI (path and query), in bytes; a longer one is answered 414.
    #[arg(long = "max-uri-bytes", env = "CANVAS_MAX_URI_BYTES", default_value_t = 8 * 1024,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(256..=64 * 1024))]
    pub max_uri_bytes: usize,

    /// Most client connections one gateway process holds open; further connections wait in the
    /// kernel's accept queue until one closes (served late, not refused).
    #[arg(long = "max-connections", env = "CANVAS_MAX_CONNECTIONS", default_value_t = 4096,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub max_connections: usize,

    /// Most concurrent requests (streams) on one HTTP/2 connection.
    #[arg(long = "max-streams", env = "CANVAS_MAX_STREAMS", default_value_t = 128,
          value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_streams: u32,

    /// Seconds a client may take to send a request's head (request line and headers), and to start
    /// its next request on a kept-alive HTTP/1 connection; then the connection is closed, so a
    /// client trickling header bytes cannot hold it.
    #[arg(long = "header-read-timeout-secs", env = "CANVAS_HEADER_READ_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_read_timeout_secs: u64,
}

impl EdgeLimits {
    /// The time limit of a request head.
    pub fn header_read_timeout(&self) -> Option<std::time::Duration> {
        Some(std::time::Duration::from_secs(self.header_read_timeout_secs))
    }
}

impl Default for EdgeLimits {
    fn default() -> Self {
        Self {
            max_header_bytes: 16 * 1024,
            max_headers: 100,
            max_uri_bytes: 8 * 1024,
            max_connections: 4096,
            max_streams: 128,
            header_read_timeout_secs: 10,
        }
    }
}

impl GatewayArgs {
    /// The deadline of a call to core-service.
    pub fn core_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.core_timeout_secs)
    }

    /// The time limit of a request body.
    pub fn body_timeout(&self) -> std::time::Duration {
        std::time::Duration::from_secs(self.body_timeout_secs)
    }
}

impl Default for GatewayArgs {
    fn default() -> Self {
        Self { core_timeout_secs: 30, body_timeout_secs: 60, edge: EdgeLimits::default() }
    }
}
