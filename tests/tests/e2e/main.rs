//! End-to-end tests: the real core-service and rest-gateway on loopback, on
//! SQLite and on PostgreSQL, driven over HTTP and gRPC as a client would.

mod auth;
mod casing;
mod grpc;
mod label_rules;
mod labels;
mod support;
