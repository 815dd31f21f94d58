//! `marketlens import --exchange EXCHANGE FILE...` and `marketlens import --news FILE...`
//!
//! A folder among the files stands for the files in it that can be imported (`.json`
//! payloads, `.xml`/`.rss`/`.atom` feeds), so that a folder of recordings, with its notes
//! beside them, imports in one go. A Kalshi series payload (`/series`) holds no markets or
//! events: it is skipped with a note rather than failing the import.

use anyhow::Context;
use chrono::Utc;
use indicatif::{ProgressBar, ProgressStyle};
use marketlens_domain::Exchange;
use marketlens_exchanges::{PayloadError, PayloadKind};
use marketlens_storage::{Store, UpsertCounts};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::{ExchangeArg, ImportArgs};
use crate::config;
use marketlens_sync::import::{self, IngestError, PayloadReport};
use marketlens_sync::matching;
use marketlens_sync::{StoredNews, news::recent_deduplicator};

pub async fn run(store: &dyn Store, args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let exchange = match args.exchange {
        Some(ExchangeArg::Polymarket) => Exchange::Polymarket,
        Some(ExchangeArg::Kalshi) => Exchange::Kalshi,
        None => return import_news(store, args).await,
    };
    let recorded_at = args.recorded_at.unwrap_or_else(Utc::now);
    let mut totals = UpsertCounts::default();
    let mut skipped: BTreeMap<String, u64> = BTreeMap::new();
    let mut failed_files = 0;
    let files = files_to_import(&args.files, PAYLOAD_EXTENSIONS);
    for path in &files {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("{}: cannot read: {error}", path.display());
                failed_files += 1;
                continue;
            }
        };
        let progress = ProgressBar::new(0).with_message(path.display().to_string());
        progress.set_style(
            ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} records")
                .context("progress template")?
                .progress_chars("=> "),
        );
        let result = import::import_payload(store, exchange, &bytes, recorded_at, |written, total| {
            progress.set_length(total);
            progress.inc(written);
        })
        .await;
        progress.finish_and_clear();
        match result {
            Ok(report) => {
                println!("{}: {}", path.display(), describe(&report));
                totals.add(report.stored.counts);
                for (reason, count) in report.stored.skipped {
                    *skipped.entry(reason).or_default() += count;
                }
            }
            Err(IngestError::Payload(PayloadError::NoMarketData(kind))) => {
                println!(
                    "{}: skipped: a {kind}, which holds no markets or events",
                    path.display()
                );
            }
            Err(error) => {
                eprintln!("{}: not imported: {error}", path.display());
                failed_files += 1;
            }
        }
    }
    let pairs = matching::rematch(store)
        .await
        .context("matching markets across exchanges")?;
    println!(
        "Markets: {} new, {} updated, {} unchanged, {} older than stored. Events: {} new, {} updated, {} unchanged, {} older than stored.",
        totals.markets_inserted,
        totals.markets_updated,
        totals.markets_unchanged,
        totals.markets_stale,
        totals.events_inserted,
        totals.events_updated,
        totals.events_unchanged,
        totals.events_stale,
    );
    let skipped_total: u64 = skipped.values().sum();
    println!("Skipped records: {skipped_total}.");
    for (reason, count) in &skipped {
        println!("  {count} × {reason}");
    }
    println!("Cross-exchange matched pairs: {pairs}.");
    if failed_files > 0 {
        eprintln!("{failed_files} of {} files could not be imported.", files.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(report: &PayloadReport) -> String {
    let counts = &report.stored.counts;
    let kind = report.kind.map(PayloadKind::description).unwrap_or_default();
    format!(
        "{kind}: markets {} new, {} updated, {} unchanged, {} stale; events {} new, {} updated, {} unchanged, {} stale; {} skipped",
        counts.markets_inserted,
        counts.markets_updated,
        counts.markets_unchanged,
        counts.markets_stale,
        counts.events_inserted,
        counts.events_updated,
        counts.events_unchanged,
        counts.events_stale,
        report.stored.skipped_total()
    )
}

/// Saved feeds into the store. A truncated file's complete articles are kept and the file is
/// reported; a file that is not a feed stores nothing. Either makes the command fail.
async fn import_news(store: &dyn Store, args: &ImportArgs) -> anyhow::Result<ExitCode> {
    let window = config::news_window(args.news_window_days)?;
    let since = chrono::Utc::now() - window;
    let mut seen = recent_deduplicator(store, since).await?;
    let mut totals = StoredNews::default();
    let mut failed_files = 0;
    let files = files_to_import(&args.files, FEED_EXTENSIONS);
    for path in &files {
        let source = path.display().to_string();
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) => {
                eprintln!("{source}: cannot read: {error}");
                failed_files += 1;
                continue;
            }
        };
        match import::import_feed(store, &source, &bytes, &mut seen, since).await {
            Ok(report) => {
                let stored = report.stored;
                println!(
                    "{source} ({}): {} articles, {} new, {} repeats, {} older than the window; {} entries without a headline or link",
                    report.publisher, stored.found, stored.added, stored.repeats, stored.too_old, report.skipped
                );
                if let Some(problem) = report.problem {
                    eprintln!("{source}: {problem}");
                    failed_files += 1;
                }
                totals.add(stored);
            }
            Err(import::IngestError::Feed(problem)) => {
                eprintln!("{source}: not imported: {problem}");
                failed_files += 1;
            }
            Err(error) => return Err(error).context("storing articles"),
        }
    }
    println!(
        "Articles: {} found, {} new, {} repeats, {} older than the window ({} days).",
        totals.found,
        totals.added,
        totals.repeats,
        totals.too_old,
        window.num_days()
    );
    if failed_files > 0 {
        eprintln!("{failed_files} of {} files could not be imported whole.", files.len());
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The name endings of payload files, and of feed files, taken from a folder.
const PAYLOAD_EXTENSIONS: &[&str] = &["json"];
const FEED_EXTENSIONS: &[&str] = &["xml", "rss", "atom"];

/// The files named, each folder among them replaced by its files ending in one of
/// `extensions` (not its subfolders), in name order. A folder that cannot be listed stays as
/// it is, so that reading it reports why.
fn files_to_import(paths: &[PathBuf], extensions: &[&str]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        let Ok(entries) = std::fs::read_dir(path) else {
            files.push(path.clone());
            continue;
        };
        let mut found: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|file| {
                file.is_file()
                    && file
                        .extension()
                        .and_then(|extension| extension.to_str())
                        .is_some_and(|extension| extensions.contains(&extension.to_ascii_lowercase().as_str()))
            })
            .collect();
        found.sort();
        files.extend(found);
    }
    files
}
