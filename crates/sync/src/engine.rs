//! One sync run of one exchange: walk the pages (full: everything; incremental: what is open),
//! normalize and store each page in one transaction, then look up the markets the store holds
//! as open that the walk did not return (they may have closed or resolved), and record the run.
//!
//! A failure ends the walk, not the program: what was stored stays stored (each page is its
//! own transaction and upserts are idempotent), the run is recorded as failed with its error,
//! and the next run completes the work.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;
use marketlens_exchanges::Normalized;
use marketlens_storage::{Store, SyncKind, SyncRun, UpsertCounts};
use std::collections::HashSet;

use crate::fetch::Fetcher;
use crate::settings::SyncSettings;
use crate::source::{LOOKUP_BATCH, Walk, market_lookup, walk_page};

use crate::write::store_normalized;

/// What a run did, so far or in the end.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncReport {
    pub exchange: Exchange,
    pub kind: SyncKind,
    pub started_at: Timestamp,
    pub finished_at: Timestamp,
    /// Pages of the walk stored.
    pub pages: u64,
    pub counts: UpsertCounts,
    /// Records the normalizers left out (malformed, placeholders), each logged with a reason.
    pub records_skipped: u64,
    /// Markets stored as open that the walk did not return, looked up one by one.
    pub markets_looked_up: u64,
    /// Requests or writes that failed for good (after retries).
    pub errors: u64,
    /// The first such failure.
    pub error: Option<String>,
}

impl SyncReport {
    fn new(exchange: Exchange, kind: SyncKind) -> SyncReport {
        let now = Utc::now();
        SyncReport {
            exchange,
            kind,
            started_at: now,
            finished_at: now,
            pages: 0,
            counts: UpsertCounts::default(),
            records_skipped: 0,
            markets_looked_up: 0,
            errors: 0,
            error: None,
        }
    }

    pub fn succeeded(&self) -> bool {
        self.errors == 0
    }

    /// Whether any market was added or changed (so matches need refreshing).
    pub fn changed_markets(&self) -> bool {
        self.counts.markets_inserted + self.counts.markets_updated > 0
    }

    pub fn duration(&self) -> chrono::TimeDelta {
        self.finished_at - self.started_at
    }

    fn fail(&mut self, error: impl std::fmt::Display) {
        let message = error.to_string();
        tracing::warn!(exchange = %self.exchange, kind = self.kind.as_str(), error = %message, "sync step failed");
        self.errors += 1;
        self.error.get_or_insert(message);
    }

    fn run(&self) -> SyncRun {
        SyncRun {
            exchange: self.exchange,
            kind: self.kind,
            started_at: self.started_at,
            finished_at: self.finished_at,
            succeeded: self.succeeded(),
            pages: self.pages,
            counts: self.counts,
            records_skipped: self.records_skipped,
            errors: self.errors,
            error: self.error.clone(),
        }
    }
}

/// Stores one normalized page in one transaction.
async fn store_page(store: &dyn Store, normalized: &Normalized, report: &mut SyncReport) -> Result<(), String> {
    let stored = store_normalized(store, normalized, Utc::now(), usize::MAX, |_, _| {})
        .await
        .map_err(|error| format!("storing a page: {error}"))?;
    report.records_skipped += stored.skipped_total();
    report.counts.add(stored.counts);
    Ok(())
}

/// Runs one sync of `fetcher`'s exchange and records it in the store. `on_progress` sees the
/// report after every stored page.
pub async fn sync_exchange(
    store: &dyn Store,
    fetcher: &Fetcher,
    settings: &SyncSettings,
    kind: SyncKind,
    on_progress: &mut (dyn FnMut(&SyncReport) + Send),
) -> SyncReport {
    let exchange = fetcher.exchange();
    let walk = match kind {
        SyncKind::Full => Walk::Everything,
        SyncKind::Incremental => Walk::Open,
    };
    let page_size = settings.exchange(exchange).page_size;
    let mut report = SyncReport::new(exchange, kind);
    let mut seen: HashSet<String> = HashSet::new();
    let mut cursor: Option<String> = None;
    let mut fetched = fetcher.page(&walk_page(exchange, walk, page_size, None)).await;
    loop {
        let page = match fetched {
            Ok(page) => page,
            Err(error) => {
                report.fail(error);
                break;
            }
        };
        let next_cursor = match page.next_cursor.clone() {
            Some(next) if cursor.as_deref() == Some(next.as_str()) => {
                report.fail(format!("the cursor did not advance past {next:?}; stopping the walk"));
                None
            }
            next => next,
        };
        // Fetch (and normalize) the next page while this one is stored: the two overlap on
        // separate cores, and a failure to store simply discards the fetched page.
        let next_path = next_cursor
            .as_deref()
            .map(|next| walk_page(exchange, walk, page_size, Some(next)));
        let prefetch = async {
            match &next_path {
                Some(path) => Some(fetcher.page(path).await),
                None => None,
            }
        };
        let (stored, prefetched) = tokio::join!(store_page(store, &page.normalized, &mut report), prefetch);
        if let Err(error) = stored {
            report.fail(error);
            break;
        }
        seen.extend(page.normalized.markets.iter().map(|market| market.external_id.clone()));
        report.pages += 1;
        on_progress(&report);
        match prefetched {
            Some(next_page) if report.succeeded() => {
                cursor = next_cursor;
                fetched = next_page;
            }
            _ => break,
        }
    }
    if report.succeeded() {
        look_up_unseen_open_markets(store, fetcher, &seen, &mut report, on_progress).await;
    }
    report.finished_at = Utc::now();
    if let Err(error) = store.record_sync_run(&report.run()).await {
        tracing::error!(%error, %exchange, "could not record the sync run");
    }
    report
}

/// Looks up every market stored as open that the walk did not return: it closed, resolved or
/// was delisted since. Markets the exchange no longer returns at all are left as they are.
async fn look_up_unseen_open_markets(
    store: &dyn Store,
    fetcher: &Fetcher,
    seen: &HashSet<String>,
    report: &mut SyncReport,
    on_progress: &mut (dyn FnMut(&SyncReport) + Send),
) {
    let open = match store.open_market_ids(fetcher.exchange()).await {
        Ok(open) => open,
        Err(error) => {
            report.fail(format!("listing open markets: {error}"));
            return;
        }
    };
    let unseen: Vec<String> = open.into_iter().filter(|id| !seen.contains(id)).collect();
    for batch in unseen.chunks(LOOKUP_BATCH) {
        let path = market_lookup(fetcher.exchange(), batch);
        match fetcher.page(&path).await {
            Ok(page) => {
                if let Err(error) = store_page(store, &page.normalized, report).await {
                    report.fail(error);
                    return;
                }
                report.markets_looked_up += batch.len() as u64;
                on_progress(report);
            }
            // One failed batch does not stop the others: they are independent look-ups.
            Err(error) => report.fail(error),
        }
    }
}

/// One line for people and logs: `Kalshi incremental sync: 3 pages, markets 5 new, ...`.
impl std::fmt::Display for SyncReport {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let counts = &self.counts;
        write!(
            formatter,
            "{} {} sync: {} pages; markets {} new, {} updated, {} unchanged, {} older than stored; events {} new, \
             {} updated, {} unchanged; {} records skipped; {} open markets looked up; {} errors; {:.1} s",
            self.exchange.display_name(),
            self.kind.as_str(),
            self.pages,
            counts.markets_inserted,
            counts.markets_updated,
            counts.markets_unchanged,
            counts.markets_stale,
            counts.events_inserted,
            counts.events_updated,
            counts.events_unchanged,
            self.records_skipped,
            self.markets_looked_up,
            self.errors,
            self.duration().num_milliseconds() as f64 / 1000.0,
        )?;
        if let Some(error) = &self.error {
            write!(formatter, "; first error: {error}")?;
        }
        Ok(())
    }
}
