//! `marketlens sync [--exchange EXCHANGE] [--full]`: one sync, with progress, then a summary,
//! then the price history's expiry (as `serve`'s syncing node does hourly).
//! `marketlens sync --news`: one poll of the news feeds, then a summary.

use indicatif::{ProgressBar, ProgressStyle};
use marketlens_domain::Exchange;
use marketlens_storage::{Store, SyncKind};
use marketlens_sync::{FeedFetcher, Fetcher, SyncSettings, poll_feeds, sync_exchange};
use std::process::ExitCode;
use std::time::Duration;

use crate::cli::SyncCommandArgs;
use marketlens_sync::matching;

use crate::config;

pub async fn run(store: &dyn Store, args: &SyncCommandArgs) -> anyhow::Result<ExitCode> {
    let settings = config::sync_settings(&args.sync)?;
    let retention = config::retention(&args.history)?;
    if args.news {
        return sync_news(store, args, &settings).await;
    }
    let exchanges = args
        .exchange
        .map_or_else(|| Exchange::ALL.to_vec(), |exchange| vec![exchange.exchange()]);
    let kind = if args.full {
        SyncKind::Full
    } else {
        SyncKind::Incremental
    };
    let mut failed = false;
    let mut changed = false;
    for exchange in exchanges {
        let fetcher = Fetcher::new(exchange, &settings)?;
        let spinner = ProgressBar::new_spinner();
        spinner.set_style(ProgressStyle::with_template("{spinner} {msg}")?);
        spinner.enable_steady_tick(Duration::from_millis(120));
        spinner.set_message(format!("{} {} sync: starting", exchange.display_name(), kind.as_str()));
        let report = sync_exchange(store, &fetcher, &settings, kind, &mut |report| {
            spinner.set_message(format!(
                "{} {} sync: {} pages, {} markets stored, {} looked up",
                exchange.display_name(),
                kind.as_str(),
                report.pages,
                report.counts.markets_inserted + report.counts.markets_updated + report.counts.markets_unchanged,
                report.markets_looked_up
            ));
        })
        .await;
        spinner.finish_and_clear();
        println!("{report}");
        failed |= !report.succeeded();
        changed |= report.changed_markets();
    }
    if changed {
        let pairs = matching::rematch(store).await?;
        println!("Cross-exchange matched pairs: {pairs}.");
    }
    // Where syncs run from a scheduler rather than `serve`, they keep the history bounded too.
    let expired = store.expire_history(chrono::Utc::now(), retention).await?;
    println!(
        "Price history: {} five-minute and {} hourly bars past their retention deleted.",
        expired.five_minute_bars, expired.hourly_bars
    );
    Ok(if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

async fn sync_news(store: &dyn Store, args: &SyncCommandArgs, settings: &SyncSettings) -> anyhow::Result<ExitCode> {
    let feeds = config::news_feeds(&args.feeds)?;
    let window = config::news_window(args.news_window_days)?;
    let fetcher = FeedFetcher::new(settings)?;
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(ProgressStyle::with_template("{spinner} {msg}")?);
    spinner.enable_steady_tick(Duration::from_millis(120));
    spinner.set_message(format!("polling {} news feeds", feeds.len()));
    let report = poll_feeds(store, &fetcher, &feeds, window, chrono::Utc::now()).await;
    spinner.finish_and_clear();
    let report = report?;
    println!("{report}");
    for (feed, error) in &report.failed {
        eprintln!("  {feed}: {error}");
    }
    Ok(if report.failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
