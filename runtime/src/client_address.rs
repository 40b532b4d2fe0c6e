//! The client's address, passed to core-service with every call (gRPC metadata
//! [`METADATA`]) so that it can limit the calls of clients without valid credentials per address.
//!
//! The address is the connection's peer, or, when a trusted reverse proxy is configured
//! (rest-gateway's `--client-ip-header`), the last value of the proxy's header: the proxy appends
//! the address it saw, and earlier values are the client's own claims.

use std::net::{IpAddr, SocketAddr};
use std::sync::OnceLock;

use axum::extract::{ConnectInfo, Request};
use axum::http::HeaderName;
use axum::middleware::Next;
use axum::response::Response;

/// The gRPC metadata key core-service reads the address from.
pub const METADATA: &str = "x-canvas-client-address";

/// The trusted proxy's header, set once at start-up by the gateway that has one.
static TRUSTED_HEADER: OnceLock<HeaderName> = OnceLock::new();

tokio::task_local! {
    static CLIENT_ADDRESS: Option<IpAddr>;
}

/// Reads client addresses from `header` (written by a trusted reverse proxy) from now on.
pub fn trust_header(header: HeaderName) {
    let _ = TRUSTED_HEADER.set(header);
}

/// The address of the client this task serves, if known.
pub fn current() -> Option<IpAddr> {
    CLIENT_ADDRESS.try_with(|address| *address).ok().flatten()
}

/// The client address of a request: the trusted proxy's last value, else the peer.
pub fn of(request: &Request) -> Option<IpAddr> {
    let from_proxy = TRUSTED_HEADER
        .get()
        .and_then(|name| request.headers().get_all(name).iter().next_back())
        .and_then(|value| value.to_str().ok())
        .and_then(|list| list.rsplit(',').next())
        .and_then(|value| value.trim().parse::<IpAddr>().ok());
    from_proxy.or_else(|| request.extensions().get::<ConnectInfo<SocketAddr>>().map(|ConnectInfo(peer)| peer.ip()))
}

/// axum middleware: runs the request with its client address in scope for [`inject_grpc`].
pub async fn record(request: Request, next: Next) -> Response {
    let address = of(&request);
    CLIENT_ADDRESS.scope(address, next.run(request)).await
}

/// Writes the current client address into a gRPC call's metadata.
pub fn inject_grpc(metadata: &mut tonic::metadata::MetadataMap) {
    if let Some(value) = current().and_then(|address| address.to_string().parse().ok()) {
        metadata.insert(METADATA, value);
    }
}
