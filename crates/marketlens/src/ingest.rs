//! Payloads into the store: normalize (pure, `marketlens-exchanges`), upsert in batches
//! (one transaction each), then recompute the cross-exchange matches. `import` and `demo`
//! use it; a bad file or record is reported and skipped, never half-written.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::matching::match_markets;
use marketlens_exchanges::{PayloadKind, normalize};
use marketlens_storage::{Store, StoreError, UpsertCounts};
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
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Normalizes and stores one payload. `on_progress` is told how many records each batch
/// wrote, out of how many.
pub async fn import_payload(
    store: &dyn Store,
    exchange: Exchange,
    bytes: &[u8],
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
        report.counts.add(store.upsert(&[], events, Utc::now()).await?);
        on_progress(events.len() as u64, total);
    }
    for markets in normalized.markets.chunks(BATCH_SIZE) {
        report.counts.add(store.upsert(markets, &[], Utc::now()).await?);
        on_progress(markets.len() as u64, total);
    }
    Ok(report)
}

/// Recomputes every cross-exchange match; returns the number of matched pairs.
pub async fn rematch(store: &dyn Store) -> Result<usize, StoreError> {
    let inputs = store.match_inputs().await?;
    let pairs = tokio::task::spawn_blocking(move || match_markets(&inputs))
        .await
        .map_err(|error| StoreError::Internal(format!("the matcher stopped: {error}")))?;
    store.replace_matches(&pairs).await?;
    Ok(pairs.len() / 2)
}
