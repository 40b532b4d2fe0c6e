//! End-to-end tests: the real core-service and rest-gateway on loopback, on
//! SQLite and on PostgreSQL, driven over HTTP and gRPC as a client would.

mod auth;
mod casing;
mod concurrency;
mod connectors;
mod edges;
mod error_table;
mod events;
mod files;
mod grpc;
mod health;
mod knowledge;
mod knowledge_batch;
mod knowledge_llm;
mod knowledge_search;
mod label_rules;
mod labels;
mod limits;
mod map_browser;
mod mcp;
mod mcp_clients;
mod metrics;
mod openapi;
mod render;
mod replicas;
mod schemas;
mod shapes;
mod shutdown;
mod support;
mod uploads;
mod webhooks;
mod webhooks_copy;
mod webhooks_delivery;
mod webhooks_fault;
mod webhooks_listen;
mod webhooks_safety;
