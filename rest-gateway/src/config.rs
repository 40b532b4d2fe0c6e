//! rest-gateway configuration.

use std::net::SocketAddr;

use clap::Parser;

#[derive(Debug, Clone, Parser)]
#[command(name = "rest-gateway", version, about = "REST gateway of the canvas service")]
pub struct RestCli {
    /// Address to serve HTTP on.
    #[arg(long = "http-addr", env = "CANVAS_HTTP_ADDR", default_value = "127.0.0.1:8080")]
    pub http_addr: SocketAddr,

    /// gRPC address of core-service, or several comma-separated replicas: calls are balanced over
    /// them, and a read whose replica fails in transport is retried once on another.
    #[arg(long = "core", env = "CANVAS_CORE_URL", default_value = "http://127.0.0.1:50051")]
    pub core_url: String,

    /// Deadline of core-service calls and time limit of request bodies.
    #[command(flatten)]
    pub gateway: canvas_runtime::GatewayArgs,

    /// Log format, shutdown grace period, trace export: the same for every component.
    #[command(flatten)]
    pub process: canvas_runtime::ProcessArgs,
}
