//! One module per command. Each opens the store named by `--database-url`, does its work
//! and reports in plain words; errors carry their context up to `main`.

mod accounts;
mod credits;
mod demo;
mod import;
mod keys;
mod matching;
mod serve;
mod sync;

use anyhow::Context;
use marketlens_storage::Store;
use std::process::ExitCode;
use std::sync::Arc;

use crate::cli::{Cli, Command};
use crate::config::{self, ServerConfig};

pub async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let tiers = config::tiers(&cli.tier_limits)?;
    let store = open_store(&cli.database_url).await?;
    match cli.command {
        Command::Demo(args) => demo::run(store, ServerConfig::from_args(&args, tiers)?).await,
        Command::Serve(args) => {
            let config = ServerConfig::from_args(&args.serve, tiers)?;
            serve::run(store, config, config::sync_schedule(&args)?).await
        }
        Command::Sync(args) => sync::run(store.as_ref(), &args).await,
        Command::Import(args) => import::run(store.as_ref(), &args).await,
        Command::Match(args) => matching::run(store.as_ref(), &args).await,
        Command::Accounts(command) => accounts::run(store.as_ref(), &tiers, command).await,
        Command::Keys(command) => keys::run(store.as_ref(), command).await,
        Command::Credits(command) => credits::run(store.as_ref(), command).await,
    }
}

async fn open_store(database_url: &str) -> anyhow::Result<Arc<dyn Store>> {
    marketlens_storage::open(database_url)
        .await
        .with_context(|| format!("could not open the store at {database_url}"))
}
