//! Payloads into the store: normalize (pure, `marketlens-exchanges`), upsert in batches
//! (one transaction each); callers then recompute the cross-exchange matches (`matches`). `import` and `demo`
//! use it; a bad file or record is reported and skipped, never half-written. Saved news feeds
//! go in the same way: parsed (pure, `marketlens-news`), then stored once each.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;
use marketlens_exchanges::{PayloadKind, normalize};
use marketlens_news::{Deduplicator, FeedError, parse_feed};
use marketlens_storage::{Store, StoreError, UpsertCounts};
use marketlens_sync::{StoredNews, news::store_articles};
use std::collections::BTreeMap;

/// Records written per transaction: big enough to amortise the commit, small enough that a
/// progress bar moves and a failure loses little work.
const BATCH_SIZE: usize = 2_000;

/// What importing one payload did.
#[derive(Debug, Default, Clone)]
pub struct PayloadReport {
    pub kind: Option<PayloadKind>,
    pub counts: UpsertCounts,
    /// Records left out, counted by problem (each record's own reason is logged).
    pub skipped: BTreeMap<String, u64>,
}

impl PayloadReport {
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{0}")]
    Payload(#[from] marketlens_exchanges::PayloadError),
    #[error("{0}")]
    Feed(FeedError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Normalizes and stores one payload, as observed at `recorded_at` (which dates its prices in
/// the price history). `on_progress` is told how many records each batch wrote, out of how
/// many.
pub async fn import_payload(
    store: &dyn Store,
    exchange: Exchange,
    bytes: &[u8],
    recorded_at: Timestamp,
    mut on_progress: impl FnMut(u64, u64),
) -> Result<PayloadReport, IngestError> {
    let (kind, normalized) = normalize(exchange, bytes)?;
    let mut report = PayloadReport {
        kind: Some(kind),
        ..PayloadReport::default()
    };
    for skipped in &normalized.skipped {
        tracing::debug!(reason = %skipped.reason, "record skipped");
        *report.skipped.entry(skipped.problem.clone()).or_default() += 1;
    }
    let total = (normalized.events.len() + normalized.markets.len()) as u64;
    for events in normalized.events.chunks(BATCH_SIZE) {
        report.counts.add(store.upsert(&[], events, recorded_at).await?);
        on_progress(events.len() as u64, total);
    }
    for markets in normalized.markets.chunks(BATCH_SIZE) {
        report.counts.add(store.upsert(markets, &[], recorded_at).await?);
        on_progress(markets.len() as u64, total);
    }
    Ok(report)
}

/// What importing one saved feed did.
#[derive(Debug, Clone)]
pub struct FeedReport {
    pub publisher: String,
    pub stored: StoredNews,
    /// Entries without a headline or a link.
    pub skipped: usize,
    /// Why the file was not read whole (a truncated file's complete articles are stored).
    pub problem: Option<String>,
}

/// Parses a saved feed file and stores its articles dated at or after `since` that `seen`
/// does not hold yet. `source` names the file (it stands for the feed's URL).
pub async fn import_feed(
    store: &dyn Store,
    source: &str,
    bytes: &[u8],
    seen: &mut Deduplicator,
    since: Timestamp,
) -> Result<FeedReport, IngestError> {
    let (parsed, problem) = match parse_feed(bytes, source, Utc::now()) {
        Ok(parsed) => (parsed, None),
        Err(error @ FeedError::Truncated { .. }) => {
            let problem = error.to_string();
            let FeedError::Truncated { recovered } = error else {
                unreachable!("matched as truncated")
            };
            (*recovered, Some(problem))
        }
        Err(problem) => return Err(IngestError::Feed(problem)),
    };
    let skipped = parsed.skipped.no_title + parsed.skipped.no_link;
    let stored = store_articles(store, parsed.articles, seen, since).await?;
    Ok(FeedReport {
        publisher: parsed.publisher,
        stored,
        skipped,
        problem,
    })
}
