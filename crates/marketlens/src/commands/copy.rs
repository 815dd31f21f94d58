//! `marketlens copy --from URL --to URL`: moves a whole store into a new one, typically the
//! embedded SQLite file into PostgreSQL when one node is no longer enough. Everything is
//! copied as it was (markets, events, matches, accounts with their balances, keys by hash,
//! every ledger line), and the copy is checked against its source before the command says so.

use anyhow::Context;
use indicatif::ProgressBar;
use marketlens_storage::CopyStep;
use std::process::ExitCode;
use std::time::Duration;

use super::open_store;

pub async fn run(from: &str, to: &str) -> anyhow::Result<ExitCode> {
    let source = open_store(from).await.context("the source store (--from)")?;
    let destination = open_store(to).await.context("the destination store (--to)")?;
    let progress = ProgressBar::new_spinner();
    progress.enable_steady_tick(Duration::from_millis(120));
    let report = marketlens_storage::transfer::copy(source.as_ref(), destination.as_ref(), |step| {
        progress.set_message(match step {
            CopyStep::Events(count) => format!("{count} events"),
            CopyStep::Markets(count) => format!("{count} markets"),
            CopyStep::Matches(count) => format!("{count} matched pairs"),
            CopyStep::Accounts(count) => format!("{count} accounts and their keys"),
            CopyStep::LedgerLines(count) => format!("{count} ledger lines"),
            CopyStep::HistoryBars(count) => format!("{count} price history bars"),
        });
    })
    .await;
    progress.finish_and_clear();
    let report =
        report.context("the copy failed; the destination may hold part of it: empty it before trying again")?;
    println!(
        "Copied {} markets, {} events, {} matched pairs, {} price history bars, {} accounts, {} keys and {} ledger \
         lines; the copy holds the same counts, balances and ledger sums as its source.",
        report.markets,
        report.events,
        report.match_pairs,
        report.history_bars,
        report.accounts,
        report.keys,
        report.ledger_lines
    );
    Ok(ExitCode::SUCCESS)
}
