//! One module per command. Each checks its input, then opens the store named by
//! `--database-url` (`copy` opens its two), does its work and reports in plain words; errors
//! carry their context up to `main`.

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
use marketlens_domain::depth::DepthSource;
use marketlens_domain::redact;
use marketlens_storage::Store;
use std::process::ExitCode;
use std::sync::Arc;

use crate::cli::{Cli, Command};
use crate::config::{self, ServerConfig};

pub async fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let tiers = config::tiers(&cli.tier_limits)?;
    let database_url = cli.database_url.as_str();
    // Each command checks its input (and binds its address) before it opens the store, so
    // that a refused command leaves no new store behind.
    match cli.command {
        Command::Demo(args) => {
            let news_window_set = args.news_window_days.is_some();
            let config = ServerConfig::from_args(&args, tiers)?;
            let listener = serve::listen(config.bind).await?;
            demo::run(open_store(database_url).await?, config, listener, news_window_set).await
        }
        Command::Serve(args) => {
            let config = ServerConfig::from_args(&args.serve, tiers)?;
            let schedule = config::sync_schedule(&args)?;
            let depth = config::depth_source(&args)?;
            let listener = serve::listen(config.bind).await?;
            let stream = config::live_stream(&args, database_url, depth.as_ref())?;
            let depth = depth.map(|depth| depth as Arc<dyn DepthSource>);
            serve::run(
                open_store(database_url).await?,
                config,
                schedule,
                depth,
                stream,
                listener,
            )
            .await
        }
        Command::Sync(args) => sync::run(open_store(database_url).await?.as_ref(), &args).await,
        Command::Import(args) => import::run(open_store(database_url).await?.as_ref(), &args).await,
        Command::Match(args) => matching::run(open_store(database_url).await?.as_ref(), &args).await,
        Command::Accounts(command) => accounts::run(database_url, &tiers, command).await,
        Command::Keys(command) => keys::run(open_store(database_url).await?.as_ref(), command).await,
        Command::Credits(command) => credits::run(open_store(database_url).await?.as_ref(), command).await,
        Command::Seed {
            synthetic,
            articles,
            history,
            seed,
        } => {
            let store = open_store(database_url).await?;
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
            // Opening the store applies every migration it lacks.
            open_store(database_url).await?;
            println!(
                "The store at {} is migrated to this version's schema.",
                redact::url(database_url)
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
