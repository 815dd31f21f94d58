//! Price history in the store: the bars of `marketlens_domain::history`, one row per market,
//! resolution and bucket.
//!
//! Written by the upsert (every market it writes is an observation, merged into its
//! five-minute bar in the same transaction), read by the history call, and rolled up by
//! [`HistoryStore::roll_up_history`], which the syncing node runs after its syncs. What to
//! merge and roll is decided here, once; each backend only runs its statements
//! ([`HistoryWriter`]).

use async_trait::async_trait;
use marketlens_domain::Market;
use marketlens_domain::history::{HistoryBar, Resolution, Retention, RollUp};
use marketlens_domain::time::Timestamp;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

use crate::StoreError;

/// Markets whose bars one roll-up transaction moves: small enough to keep each transaction
/// short (a syncing node's writes wait behind it), large enough to amortise the commit.
pub(crate) const MARKETS_PER_ROLL_UP: u32 = 500;
/// Rows per multi-row history write: each binds 9 values.
pub(crate) const BARS_PER_STATEMENT: usize = 500;

/// What an insert of bars replaces (every backend speaks this SQL).
pub(crate) const ON_CONFLICT_REPLACE_BAR: &str = " ON CONFLICT (market_id, bucket_start, resolution) DO UPDATE SET \
    first_at = excluded.first_at, last_at = excluded.last_at, outcomes = excluded.outcomes, \
    volume = excluded.volume, volume_24h = excluded.volume_24h, liquidity = excluded.liquidity";

/// What a roll-up moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RollUpReport {
    /// Five-minute bars merged into hourly ones.
    pub five_minute_bars: u64,
    /// Hourly bars merged into daily ones.
    pub hourly_bars: u64,
}

impl RollUpReport {
    /// Counts `moved` bars of resolution `from`.
    pub fn add(&mut self, from: Resolution, moved: u64) {
        match from {
            Resolution::FiveMinutes => self.five_minute_bars += moved,
            Resolution::Hour | Resolution::Day => self.hourly_bars += moved,
        }
    }
}

#[async_trait]
pub trait HistoryStore: Send + Sync {
    /// The market's bars of `resolutions` whose bucket starts in `[from, to)` (seconds), by
    /// bucket start.
    async fn history(
        &self,
        market_id: Uuid,
        resolutions: &[Resolution],
        from: i64,
        to: i64,
    ) -> Result<Vec<HistoryBar>, StoreError>;

    /// Rolls every bar past its retention at `now` into the next resolution.
    async fn roll_up_history(&self, now: Timestamp, retention: Retention) -> Result<RollUpReport, StoreError>;

    /// Up to `limit` bars after `after` in (market, bucket start, resolution) order, from the
    /// first when `None`: how `copy` reads the history.
    async fn scan_history(&self, after: Option<HistoryKey>, limit: u32) -> Result<Vec<(Uuid, HistoryBar)>, StoreError>;

    /// Writes bars read from another store as they were.
    async fn restore_history(&self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError>;
}

/// Where a bar stands in the history's order: market, bucket start, resolution.
pub type HistoryKey = (Uuid, i64, Resolution);

/// The key of a bar of `market_id`.
pub fn history_key(market_id: Uuid, bar: &HistoryBar) -> HistoryKey {
    (market_id, bar.bucket_start, bar.resolution)
}

/// A backend's statements for history, run inside a transaction.
pub(crate) trait HistoryWriter {
    /// The bars of these markets at `resolution` whose bucket starts in `[from, to)`.
    async fn bars(
        &mut self,
        market_ids: &[Uuid],
        resolution: Resolution,
        from: i64,
        to: i64,
    ) -> Result<Vec<(Uuid, HistoryBar)>, StoreError>;

    /// Inserts these bars, or replaces the stored ones of the same market, resolution and bucket.
    async fn write_bars(&mut self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError>;

    /// Up to `limit` markets holding bars of `resolution` that start before `before`.
    async fn markets_with_bars_before(
        &mut self,
        resolution: Resolution,
        before: i64,
        limit: u32,
    ) -> Result<Vec<Uuid>, StoreError>;

    /// Deletes these markets' bars of `resolution` that start before `before`.
    async fn delete_bars_before(
        &mut self,
        market_ids: &[Uuid],
        resolution: Resolution,
        before: i64,
    ) -> Result<(), StoreError>;
}

/// Merges each market, as observed at `at`, into its five-minute bar.
pub(crate) async fn record_observations(
    writer: &mut impl HistoryWriter,
    markets: &[&Market],
    at: Timestamp,
) -> Result<(), StoreError> {
    let mut observed: Vec<(Uuid, HistoryBar)> = markets
        .iter()
        .map(|market| (market.id(), HistoryBar::observed(market, at)))
        .collect();
    let Some((_, first)) = observed.first() else {
        return Ok(());
    };
    let bucket = first.bucket_start;
    for chunk in observed.chunks_mut(BARS_PER_STATEMENT) {
        let ids: Vec<Uuid> = chunk.iter().map(|(id, _)| *id).collect();
        let stored: HashMap<Uuid, HistoryBar> = writer
            .bars(&ids, Resolution::FiveMinutes, bucket, bucket + 1)
            .await?
            .into_iter()
            .collect();
        for (id, bar) in chunk.iter_mut() {
            if let Some(stored) = stored.get(id) {
                let mut merged = stored.clone();
                merged.merge(bar);
                *bar = merged;
            }
        }
        writer.write_bars(chunk).await?;
    }
    Ok(())
}

/// One transaction's worth of `roll_up`: the old bars of up to [`MARKETS_PER_ROLL_UP`]
/// markets merged into their coarser bars and deleted. Returns how many bars moved; 0 when
/// none was due.
pub(crate) async fn roll_up_some(writer: &mut impl HistoryWriter, roll_up: RollUp) -> Result<u64, StoreError> {
    let market_ids = writer
        .markets_with_bars_before(roll_up.from, roll_up.before, MARKETS_PER_ROLL_UP)
        .await?;
    if market_ids.is_empty() {
        return Ok(0);
    }
    let old = writer.bars(&market_ids, roll_up.from, i64::MIN, roll_up.before).await?;
    let mut coarse: BTreeMap<(Uuid, i64), HistoryBar> = BTreeMap::new();
    for (id, bar) in &old {
        let rolled = bar.rolled_into(roll_up.into);
        match coarse.get_mut(&(*id, rolled.bucket_start)) {
            Some(existing) => existing.merge(&rolled),
            None => {
                coarse.insert((*id, rolled.bucket_start), rolled);
            }
        }
    }
    let (from, to) = match (
        coarse.keys().map(|key| key.1).min(),
        coarse.keys().map(|key| key.1).max(),
    ) {
        (Some(from), Some(to)) => (from, to + 1),
        _ => return Ok(0),
    };
    for (id, stored) in writer.bars(&market_ids, roll_up.into, from, to).await? {
        if let Some(rolled) = coarse.get_mut(&(id, stored.bucket_start)) {
            let mut merged = stored;
            merged.merge(rolled);
            *rolled = merged;
        }
    }
    let rows: Vec<(Uuid, HistoryBar)> = coarse.into_iter().map(|((id, _), bar)| (id, bar)).collect();
    for chunk in rows.chunks(BARS_PER_STATEMENT) {
        writer.write_bars(chunk).await?;
    }
    writer
        .delete_bars_before(&market_ids, roll_up.from, roll_up.before)
        .await?;
    Ok(old.len() as u64)
}
