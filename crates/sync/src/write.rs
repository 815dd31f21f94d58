//! Normalized records into the store, the step a live sync and a file import share: count what
//! the normalizer left out (by problem; each record's reason is logged), then upsert, up to
//! `per_transaction` records at a time, markets and events together when they fit in one (a
//! sync stores each page whole, in one transaction); more are split, events first, so that an
//! import's progress bar moves and a failure loses little work.

use marketlens_domain::time::Timestamp;
use marketlens_exchanges::Normalized;
use marketlens_storage::{Store, StoreError, UpsertCounts};
use std::collections::BTreeMap;

/// Records an import writes per transaction: big enough to amortise the commit, small enough
/// that a progress bar moves and a failure loses little work.
pub const IMPORT_BATCH: usize = 2_000;

/// What storing a batch did.
#[derive(Debug, Default, Clone)]
pub struct Stored {
    pub counts: UpsertCounts,
    /// Records the normalizer left out, counted by problem.
    pub skipped: BTreeMap<String, u64>,
}

impl Stored {
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }
}

/// Stores `normalized`, observed at `observed_at` (which dates its prices in the price
/// history), at most `per_transaction` records per transaction. `on_progress` is told how many
/// records each transaction wrote, out of how many.
pub async fn store_normalized(
    store: &dyn Store,
    normalized: &Normalized,
    observed_at: Timestamp,
    per_transaction: usize,
    mut on_progress: impl FnMut(u64, u64),
) -> Result<Stored, StoreError> {
    let mut stored = Stored::default();
    for skipped in &normalized.skipped {
        tracing::debug!(reason = %skipped.reason, "record skipped");
        *stored.skipped.entry(skipped.problem.clone()).or_default() += 1;
    }
    let (markets, events) = (&normalized.markets, &normalized.events);
    let total = (markets.len() + events.len()) as u64;
    if markets.len() + events.len() <= per_transaction {
        stored.counts.add(store.upsert(markets, events, observed_at).await?);
        on_progress(total, total);
        return Ok(stored);
    }
    for events in events.chunks(per_transaction) {
        stored.counts.add(store.upsert(&[], events, observed_at).await?);
        on_progress(events.len() as u64, total);
    }
    for markets in markets.chunks(per_transaction) {
        stored.counts.add(store.upsert(markets, &[], observed_at).await?);
        on_progress(markets.len() as u64, total);
    }
    Ok(stored)
}
