//! Recorded payload and feed files into the store, for `marketlens import` and `demo`: a
//! payload is normalized (pure, `marketlens-exchanges`) and stored by the step a live sync
//! uses ([`crate::write`]); callers then recompute the cross-exchange matches
//! ([`crate::matching`]). A bad file or record is reported and skipped, never half-written.
//! Saved news feeds go in the same way: parsed (pure, `marketlens-news`), then stored once each.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;
use marketlens_exchanges::{PayloadKind, normalize};
use marketlens_news::{Deduplicator, FeedError, parse_feed};
use marketlens_storage::{Store, StoreError};

use crate::news::{StoredNews, store_articles};
use crate::write::{IMPORT_BATCH, Stored, store_normalized};

/// What importing one payload did.
#[derive(Debug, Default, Clone)]
pub struct PayloadReport {
    pub kind: Option<PayloadKind>,
    pub stored: Stored,
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
    on_progress: impl FnMut(u64, u64),
) -> Result<PayloadReport, IngestError> {
    let (kind, normalized) = normalize(exchange, bytes)?;
    let stored = store_normalized(store, &normalized, recorded_at, IMPORT_BATCH, on_progress).await?;
    Ok(PayloadReport {
        kind: Some(kind),
        stored,
    })
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
