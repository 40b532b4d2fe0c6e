//! Starts the local deployment of the deployment test (tests/src/deploy.rs)
//! for bench/deploy.sh: `canvas-deploy --cores N [--port P]` creates a fresh
//! PostgreSQL database, starts N core-service replicas, two of each gateway,
//! two webhook-dispatchers and nginx, creates a user with a project, prints
//! one JSON line `{"baseUrl","token","projectId","database"}` and runs until
//! SIGINT or SIGTERM; then stops everything and drops the
//! database.

#[path = "../deploy.rs"]
mod deploy;

use clap::Parser;

#[derive(Debug, Parser)]
#[command(name = "canvas-deploy", about = "The multi-process deployment of the deployment test, for benchmarks")]
struct Cli {
    /// core-service replicas.
    #[arg(long, default_value_t = 2)]
    cores: usize,
    /// rest-gateway and mcp-gateway replicas (each).
    #[arg(long, default_value_t = 2)]
    gateways: usize,
    /// webhook-dispatcher replicas.
    #[arg(long, default_value_t = 2)]
    dispatchers: usize,
    /// nginx's loopback port; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let topology = deploy::Topology::start(deploy::Options {
        cores: cli.cores,
        rest_gateways: cli.gateways,
        mcp_gateways: cli.gateways,
        dispatchers: cli.dispatchers,
        ca_file: None,
        port: cli.port,
    })
    .await?;
    let (token, project) = topology.owner_with_project().await?;
    println!(
        "{}",
        serde_json::json!({
            "baseUrl": topology.base_url,
            "token": token,
            "projectId": project,
            "database": topology.database,
        })
    );
    let shutdown = canvas_runtime::shutdown_token();
    shutdown.cancelled().await;
    drop(topology);
    Ok(())
}
