//! Transport limits of the gRPC contract between the components, stated once: core-service's
//! server enforces them, and every client (both gateways, the dispatcher) stays within them.

/// Largest gRPC message accepted or sent: a 25 MiB upload plus framing.
pub const MAX_MESSAGE_BYTES: usize = 32 * 1024 * 1024;

/// Largest header list (gRPC metadata) core-service accepts on one call (HTTP/2
/// `SETTINGS_MAX_HEADER_LIST_SIZE`). A call over it would be refused at the transport level (a
/// reset stream, or a `GOAWAY` for the whole connection), so the gateways' own limit on a request's
/// headers ([`MAX_FORWARDED_HEADER_BYTES`] at most) keeps what they forward well below it.
pub const MAX_METADATA_BYTES: u32 = 64 * 1024;

/// The highest a gateway's `--max-header-bytes` may be set: half of [`MAX_METADATA_BYTES`], which
/// leaves room for the metadata a gateway adds itself (request id, trace context, resource).
pub const MAX_FORWARDED_HEADER_BYTES: usize = MAX_METADATA_BYTES as usize / 2;

/// Most concurrent calls on one connection to core-service: each gateway multiplexes its callers
/// over one connection per replica, so this is a gateway's share of one replica.
pub const MAX_CONCURRENT_STREAMS: u32 = 1024;

/// Most deliveries one `LeaseDeliveries` returns.
pub const MAX_LEASE_BATCH: u32 = 256;

/// Most reports one `ReportOutcomes` call records (in one transaction).
pub const MAX_REPORT_BATCH: usize = 256;

/// Most webhooks one lease skips or limits (a dispatcher's busy destinations).
pub const MAX_SKIPPED_WEBHOOKS: usize = 256;
