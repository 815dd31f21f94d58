//! One module per command. Each opens the store named by `--database-url` (`copy` opens its
//! two), does its work and reports in plain words; errors carry their context up to `main`.

mod accounts;
mod copy;
mod credits;
mod demo;
mod import;
mod keys;
mod matching;
mod seed;
mod serve;
mod sync;

use anyhow::Context;
use marketlens_domain::redact;
use marketlens_storage::Store;
use std::process::ExitCode;
use std::sync::Arc;

use crate::cli::{Cli, Command};
use crate::config::{self, ServerConfig};

pub async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let tiers = config::tiers(&cli.tier_limits)?;
    let command = match cli.command {
        Command::Copy { from, to } => return copy::run(&from, &to).await,
        command => command,
    };
    let store = open_store(&cli.database_url).await?;
    match command {
        Command::Demo(args) => {
            let news_window_set = args.news_window_days.is_some();
            demo::run(store, ServerConfig::from_args(&args, tiers)?, news_window_set).await
        }
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
        Command::Seed {
            synthetic,
            articles,
            history,
            seed,
        } => {
            if let Some(markets) = synthetic {
                seed::run(store.as_ref(), markets, seed).await?;
            }
            if let Some(articles) = articles {
                seed::articles(store.as_ref(), articles, seed).await?;
            }
            if let Some(markets) = history {
                seed::history(store.as_ref(), markets, seed).await?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Migrate => {
            // Opening the store applied every migration it lacked.
            println!(
                "The store at {} is migrated to this version's schema.",
                redact::url(&cli.database_url)
            );
            Ok(ExitCode::SUCCESS)
        }
        Command::Copy { from, to } => copy::run(&from, &to).await,
    }
}

async fn open_store(database_url: &str) -> anyhow::Result<Arc<dyn Store>> {
    marketlens_storage::open(database_url)
        .await
        .with_context(|| format!("could not open the store at {}", redact::url(database_url)))
}
