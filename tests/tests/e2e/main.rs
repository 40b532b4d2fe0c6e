//! End-to-end tests: the real core-service and rest-gateway on loopback, on
//! SQLite and on PostgreSQL, driven over HTTP and gRPC as a client would.

mod auth;
mod casing;
mod connectors;
mod events;
mod files;
mod grpc;
mod label_rules;
mod labels;
mod mcp;
mod mcp_clients;
mod shapes;
mod support;
mod uploads;
