//! `canvasctl config`: the effective configuration of a running component, and the table of
//! every setting of every component (docs/CONFIGURATION.md's).

use anyhow::Context;
use canvas_runtime::settings::{markdown_table, ConfigReport};
use clap::CommandFactory;

use crate::cli::ConfigCommand;

pub async fn run(command: ConfigCommand) -> anyhow::Result<()> {
    match command {
        ConfigCommand::Show { url, json } => {
            show(&crate::running::Running::find().base_url(url.as_deref()), json).await
        }
        ConfigCommand::Table => {
            print!("{}", settings_table());
            Ok(())
        }
    }
}

/// Every component's settings as one Markdown table; `canvasctl up` last, as it repeats most.
pub fn settings_table() -> String {
    let up = crate::cli::Cli::command().find_subcommand("up").cloned().expect("canvasctl has an `up` command");
    markdown_table(&[
        ("core-service", core_service::config::CoreCli::command()),
        ("rest-gateway", rest_gateway::config::RestCli::command()),
        ("mcp-gateway", mcp_gateway::config::McpCli::command()),
        ("webhook-dispatcher", webhook_dispatcher::cli::DispatcherCli::command()),
        ("canvasctl up", up),
    ])
}

async fn show(url: &str, json: bool) -> anyhow::Result<()> {
    let endpoint = format!("{}/config", url.trim_end_matches('/'));
    let response = reqwest::Client::new()
        .get(&endpoint)
        .timeout(std::time::Duration::from_secs(10))
        .send()
        .await
        .with_context(|| format!("cannot reach {endpoint}"))?;
    if response.status() == reqwest::StatusCode::NOT_FOUND {
        anyhow::bail!(
            "{endpoint} answered 404: the component answers /config to loopback callers only (run this on \
             its machine or through `kubectl port-forward`); for core-service use its --metrics-addr port"
        );
    }
    let response = response.error_for_status().with_context(|| format!("GET {endpoint}"))?;
    let report: ConfigReport =
        response.json().await.with_context(|| format!("{endpoint} did not answer a configuration"))?;
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(());
    }
    println!("{} {}", report.component, report.version);
    let width = report.settings.iter().map(|s| s.flag.len()).max().unwrap_or(0);
    for setting in &report.settings {
        let value = setting.value.as_deref().unwrap_or("(unset)");
        println!("  {:width$}  {:8}  {}", setting.flag, setting.source, value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The settings table of docs/CONFIGURATION.md is this command's output: a new or changed
    /// flag must be documented (regenerate with `cargo run -p canvasctl -- config table`).
    #[test]
    fn configuration_doc_table_is_current() {
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/CONFIGURATION.md"))
            .expect("docs/CONFIGURATION.md");
        let table = super::settings_table();
        assert!(
            doc.contains(&table),
            "docs/CONFIGURATION.md's settings table is out of date; replace it with the output of `canvasctl config table`:\n{table}"
        );
    }
}
