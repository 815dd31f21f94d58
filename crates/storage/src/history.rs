//! Price history in the store: the bars of `marketlens_domain::history`, one row per market,
//! resolution and bucket.
//!
//! Written by the upsert (every market it writes is an observation, merged into its
//! five-minute, hourly and daily bars in the same transaction) and by
//! [`HistoryStore::record_prices`] (a live stream's prices, as observations of the markets as
//! stored, merged the same way), read by the history call one
//! resolution at a time, and kept bounded by [`HistoryStore::expire_history`], which the
//! syncing node runs every hour. What to merge and delete is decided here, once; each backend
//! only runs its statements ([`HistoryWriter`]).

use async_trait::async_trait;
use marketlens_domain::Market;
use marketlens_domain::history::{Expiry, HistoryBar, ObservedPrices, Resolution, Retention};
use marketlens_domain::time::{Timestamp, from_epoch_millis, to_epoch_millis};
use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use uuid::Uuid;

use crate::{Page, StoreError};

/// Markets whose expired bars one transaction deletes: small enough to keep each transaction
/// short (a syncing node's writes wait behind it), large enough to amortise the commit.
pub(crate) const MARKETS_PER_EXPIRY: u32 = 500;
/// Markets whose bars one read asks for.
pub(crate) const MARKETS_PER_READ: usize = 500;

/// What an insert of bars replaces (every backend speaks this SQL).
pub(crate) const ON_CONFLICT_REPLACE_BAR: &str = " ON CONFLICT (market_id, resolution, bucket_start) DO UPDATE SET \
    first_at = excluded.first_at, last_at = excluded.last_at, outcomes = excluded.outcomes, \
    volume = excluded.volume, volume_24h = excluded.volume_24h, liquidity = excluded.liquidity";

/// What an expiry deleted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ExpiryReport {
    /// Five-minute bars past their retention (their hourly bars hold them).
    pub five_minute_bars: u64,
    /// Hourly bars past their retention (their daily bars hold them).
    pub hourly_bars: u64,
}

impl ExpiryReport {
    /// Counts `deleted` bars of `resolution`.
    pub fn add(&mut self, resolution: Resolution, deleted: u64) {
        match resolution {
            Resolution::FiveMinutes => self.five_minute_bars += deleted,
            Resolution::Hour | Resolution::Day => self.hourly_bars += deleted,
        }
    }
}

#[async_trait]
pub trait HistoryStore: Send + Sync {
    /// The market's bars of `resolution` whose bucket starts in `[from, to)` (seconds), by
    /// bucket start.
    async fn history(
        &self,
        market_id: Uuid,
        resolution: Resolution,
        from: i64,
        to: i64,
    ) -> Result<Vec<HistoryBar>, StoreError> {
        let all = self
            .history_page(market_id, resolution, (from, to), u32::MAX, 0)
            .await?;
        Ok(all.items)
    }

    /// A page of those bars, and how many there are.
    async fn history_page(
        &self,
        market_id: Uuid,
        resolution: Resolution,
        range: (i64, i64),
        limit: u32,
        offset: u64,
    ) -> Result<Page<HistoryBar>, StoreError>;

    /// Merges each market's observed prices into its bars, as an observation at their time of
    /// the market as stored with those prices (its volume and liquidity the stored ones), in
    /// one transaction that waits for the catalogue's writers, as an upsert does. Markets the
    /// store does not hold are skipped; returns how many were recorded.
    async fn record_prices(&self, observed: &[ObservedPrices]) -> Result<usize, StoreError>;

    /// Deletes every fine bar past its retention at `now`.
    async fn expire_history(&self, now: Timestamp, retention: Retention) -> Result<ExpiryReport, StoreError>;

    /// Up to `limit` bars after `after` in (market, resolution, bucket start) order, from the
    /// first when `None`: how `copy` reads the history.
    async fn scan_history(&self, after: Option<HistoryKey>, limit: u32) -> Result<Vec<(Uuid, HistoryBar)>, StoreError>;

    /// Writes bars read from another store as they were, into a store that holds none of
    /// their keys (`copy` into a new store): a key it already holds fails the write. Straight
    /// into the table, with no conflict to look for (on PostgreSQL an upsert goes through a
    /// temporary table, twice the work).
    async fn restore_history(&self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError>;

    /// Writes bars, each replacing the stored bar of its key if there is one.
    async fn replace_history(&self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError>;
}

/// Where a bar stands in the history's order: market, resolution, bucket start.
pub type HistoryKey = (Uuid, Resolution, i64);

/// The key of a bar of `market_id`.
pub fn history_key(market_id: Uuid, bar: &HistoryBar) -> HistoryKey {
    (market_id, bar.resolution, bar.bucket_start)
}

/// How many rows a query has in all, when a page of it shows it: a page shorter than its limit
/// is the last one (unless it is empty past the first, where the rows may end anywhere before
/// `offset`). `None` when only a count can tell (counting a market's year of hourly bars reads
/// every one of them).
pub(crate) fn total_shown_by(returned: usize, limit: u32, offset: u64) -> Option<u64> {
    let returned = returned as u64;
    (returned < u64::from(limit) && (returned > 0 || offset == 0)).then(|| offset.saturating_add(returned))
}

/// A backend's statements for history, run inside a transaction.
pub(crate) trait HistoryWriter {
    /// The stored markets of these ids (those the store holds).
    async fn markets(&mut self, market_ids: &[Uuid]) -> Result<Vec<Market>, StoreError>;

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

    /// Writes the first bars of markets the store did not hold, during a bulk load: where the
    /// backend stages them ([`Backend::STAGED_HISTORY`](crate::backend::Backend)), appended
    /// until [`HistoryWriter::unstage_bars`]; else as [`HistoryWriter::write_bars`] does.
    async fn stage_bars(&mut self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError>;

    /// Moves the staged bars into the history, in its key order (nothing where the backend
    /// stages none).
    async fn unstage_bars(&mut self) -> Result<(), StoreError>;

    /// Up to `limit` markets holding bars of `resolution` that start before `before`.
    async fn markets_with_bars_before(
        &mut self,
        resolution: Resolution,
        before: i64,
        limit: u32,
    ) -> Result<Vec<Uuid>, StoreError>;

    /// Deletes these markets' bars of `resolution` that start before `before`; returns how many.
    async fn delete_bars_before(
        &mut self,
        market_ids: &[Uuid],
        resolution: Resolution,
        before: i64,
    ) -> Result<u64, StoreError>;
}

/// A market as observed at `at`, and whether the store held it before this write (a new
/// market has no bars to read).
pub(crate) struct Observation<'a> {
    pub(crate) market: &'a Market,
    pub(crate) at: Timestamp,
    pub(crate) existed: bool,
}

/// Merges each observation into its market's bar of every resolution, writing only the bars
/// it changes ([`changes_a_candle`]). During a bulk load
/// (`bulk`), a new market's bars are staged ([`HistoryWriter::stage_bars`]). Staged bars are
/// moved into the history before any bar is read, by any writer (another process may write
/// while a load runs): moving none costs two statements on an empty table.
pub(crate) async fn record_observations(
    writer: &mut impl HistoryWriter,
    observations: &[Observation<'_>],
    bulk: bool,
) -> Result<(), StoreError> {
    if observations.iter().any(|observation| observation.existed) {
        writer.unstage_bars().await?;
    }
    for resolution in Resolution::ALL {
        // One bar per market and bucket, several observations of one merged first (a row
        // written twice by one statement is an error on PostgreSQL).
        let mut observed: Vec<(Uuid, HistoryBar, bool)> = Vec::with_capacity(observations.len());
        let mut positions: HashMap<(Uuid, i64), usize> = HashMap::new();
        for observation in observations {
            let id = observation.market.id();
            let bar = HistoryBar::observed(observation.market, observation.at, resolution);
            match positions.entry((id, bar.bucket_start)) {
                Entry::Occupied(position) => observed[*position.get()].1.merge(&bar),
                Entry::Vacant(position) => {
                    position.insert(observed.len());
                    observed.push((id, bar, observation.existed));
                }
            }
        }
        // The stored bars to merge with, read per bucket (an upsert's observations share one).
        let mut existing: BTreeMap<i64, Vec<Uuid>> = BTreeMap::new();
        for (id, bar, existed) in &observed {
            if *existed {
                existing.entry(bar.bucket_start).or_default().push(*id);
            }
        }
        let mut stored: HashMap<(Uuid, i64), HistoryBar> = HashMap::new();
        for (bucket, ids) in existing {
            for chunk in ids.chunks(MARKETS_PER_READ) {
                let bars = writer.bars(chunk, resolution, bucket, bucket + 1).await?;
                stored.extend(bars.into_iter().map(|(id, bar)| ((id, bar.bucket_start), bar)));
            }
        }
        let (mut staged, mut written) = (Vec::new(), Vec::new());
        for (id, mut bar, existed) in observed {
            // Written even when only the time of its last observation moves: the close goes to
            // the latest observation, so a bar left with an older time would let an earlier-dated
            // observation committed later (a sync's lagging price) take it.
            if let Some(mut merged) = stored.remove(&(id, bar.bucket_start)) {
                merged.merge(&bar);
                bar = merged;
            }
            if bulk && !existed {
                staged.push((id, bar));
            } else {
                written.push((id, bar));
            }
        }
        writer.stage_bars(&staged).await?;
        writer.write_bars(&written).await?;
    }
    Ok(())
}

/// [`HistoryStore::record_prices`]' work in its transaction: each market the store holds, as
/// stored with the observed prices, recorded at their time (kept to milliseconds, as every
/// backend keeps times). Returns how many markets were recorded.
pub(crate) async fn record_prices(
    writer: &mut impl HistoryWriter,
    observed: &[ObservedPrices],
) -> Result<usize, StoreError> {
    let ids: Vec<Uuid> = observed.iter().map(|prices| prices.market).collect();
    let mut stored: HashMap<Uuid, Market> = HashMap::new();
    for chunk in ids.chunks(MARKETS_PER_READ) {
        let markets = writer.markets(chunk).await?;
        stored.extend(markets.into_iter().map(|market| (market.id(), market)));
    }
    let markets: Vec<(Market, Timestamp)> = observed
        .iter()
        .filter_map(|prices| {
            let market = stored.get(&prices.market)?;
            Some((prices.applied_to(market), from_epoch_millis(to_epoch_millis(prices.at))))
        })
        .collect();
    let observations: Vec<Observation> = markets
        .iter()
        .map(|(market, at)| Observation {
            market,
            at: *at,
            existed: true,
        })
        .collect();
    record_observations(writer, &observations, false).await?;
    Ok(observations.len())
}

/// One transaction's worth of expiry: the expired bars of up to [`MARKETS_PER_EXPIRY`]
/// markets deleted. Returns how many; 0 when none was due.
pub(crate) async fn expire_some(writer: &mut impl HistoryWriter, expiry: Expiry) -> Result<u64, StoreError> {
    let market_ids = writer
        .markets_with_bars_before(expiry.resolution, expiry.before, MARKETS_PER_EXPIRY)
        .await?;
    if market_ids.is_empty() {
        return Ok(0);
    }
    writer
        .delete_bars_before(&market_ids, expiry.resolution, expiry.before)
        .await
}

/// [`HistoryWriter`] and [`HistoryStore`] for a [`Backend`](crate::backend::Backend) store.
/// SQLite keeps market ids here as 16-byte blobs (its catalogue's tables keep them as text):
/// history is the largest table, and the id is in every row and its index.
macro_rules! history_store_sql {
    ($store:ty) => {
        impl $store {
            fn bars_from(
                rows: Vec<<<$store as $crate::backend::Backend>::Db as sqlx::Database>::Row>,
            ) -> Result<Vec<(uuid::Uuid, marketlens_domain::history::HistoryBar)>, $crate::StoreError> {
                use sqlx::Row;
                rows.iter()
                    .map(|row| Ok((row.try_get("market_id")?, $crate::records::history_bar(row)?)))
                    .collect()
            }
        }

        impl $crate::history::HistoryWriter for Statements<'_> {
            async fn markets(
                &mut self,
                market_ids: &[uuid::Uuid],
            ) -> Result<Vec<marketlens_domain::Market>, $crate::StoreError> {
                if market_ids.is_empty() {
                    return Ok(Vec::new());
                }
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new(format!(
                        "SELECT {} FROM markets m WHERE m.id",
                        $crate::records::MARKET_COLUMNS
                    ));
                <$store as $crate::backend::Backend>::push_ids(&mut builder, market_ids);
                let rows = builder.build().fetch_all(&mut *self.0).await?;
                rows.iter()
                    .map(|row| $crate::records::stored_market(row).map(|stored| stored.market))
                    .collect()
            }

            async fn bars(
                &mut self,
                market_ids: &[uuid::Uuid],
                resolution: marketlens_domain::history::Resolution,
                from: i64,
                to: i64,
            ) -> Result<Vec<(uuid::Uuid, marketlens_domain::history::HistoryBar)>, $crate::StoreError> {
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new(format!(
                        "SELECT {} FROM price_history WHERE market_id",
                        $crate::records::HISTORY_COLUMNS
                    ));
                <$store as $crate::backend::Backend>::push_history_ids(&mut builder, market_ids);
                builder
                    .push(" AND resolution = ")
                    .push_bind(resolution.seconds())
                    .push(" AND bucket_start >= ")
                    .push_bind(from)
                    .push(" AND bucket_start < ")
                    .push_bind(to);
                <$store>::bars_from(builder.build().fetch_all(&mut *self.0).await?)
            }

            async fn write_bars(
                &mut self,
                bars: &[(uuid::Uuid, marketlens_domain::history::HistoryBar)],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                self.upsert_rows("price_history", bars, $crate::history::ON_CONFLICT_REPLACE_BAR)
                    .await
            }

            async fn stage_bars(
                &mut self,
                bars: &[(uuid::Uuid, marketlens_domain::history::HistoryBar)],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                match <$store as $crate::backend::Backend>::STAGED_HISTORY {
                    Some(staged) => self.insert_rows(staged, bars).await,
                    None => self.write_bars(bars).await,
                }
            }

            async fn unstage_bars(&mut self) -> Result<(), $crate::StoreError> {
                let Some(staged) = <$store as $crate::backend::Backend>::STAGED_HISTORY else {
                    return Ok(());
                };
                // `WHERE true` tells SQLite's parser that `ON CONFLICT` is the upsert's.
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "INSERT INTO price_history ({columns}) SELECT {columns} FROM {staged} WHERE true \
                     ORDER BY market_id, resolution, bucket_start{}",
                    $crate::history::ON_CONFLICT_REPLACE_BAR,
                    columns = $crate::records::HISTORY_COLUMNS
                )))
                .execute(&mut *self.0)
                .await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {staged}")))
                    .execute(&mut *self.0)
                    .await?;
                Ok(())
            }

            async fn markets_with_bars_before(
                &mut self,
                resolution: marketlens_domain::history::Resolution,
                before: i64,
                limit: u32,
            ) -> Result<Vec<uuid::Uuid>, $crate::StoreError> {
                Ok(sqlx::query_scalar(
                    "SELECT DISTINCT market_id FROM price_history WHERE resolution = $1 AND bucket_start < $2 LIMIT $3",
                )
                .bind(resolution.seconds())
                .bind(before)
                .bind(i64::from(limit))
                .fetch_all(&mut *self.0)
                .await?)
            }

            async fn delete_bars_before(
                &mut self,
                market_ids: &[uuid::Uuid],
                resolution: marketlens_domain::history::Resolution,
                before: i64,
            ) -> Result<u64, $crate::StoreError> {
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new("DELETE FROM price_history WHERE market_id");
                <$store as $crate::backend::Backend>::push_history_ids(&mut builder, market_ids);
                builder
                    .push(" AND resolution = ")
                    .push_bind(resolution.seconds())
                    .push(" AND bucket_start < ")
                    .push_bind(before);
                Ok(builder.build().execute(&mut *self.0).await?.rows_affected())
            }
        }

        #[async_trait::async_trait]
        impl $crate::HistoryStore for $store {
            async fn history_page(
                &self,
                market_id: uuid::Uuid,
                resolution: marketlens_domain::history::Resolution,
                (from, to): (i64, i64),
                limit: u32,
                offset: u64,
            ) -> Result<$crate::Page<marketlens_domain::history::HistoryBar>, $crate::StoreError> {
                // The LIMIT is an expression, not a bare parameter: SQLite plans a bare one
                // with its value, and so prepares the statement again at every call.
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM price_history WHERE market_id = $1 AND resolution = $2 \
                     AND bucket_start >= $3 AND bucket_start < $4 ORDER BY bucket_start LIMIT ($5 + 0) OFFSET $6",
                    $crate::records::HISTORY_COLUMNS
                )))
                .bind(market_id)
                .bind(resolution.seconds())
                .bind(from)
                .bind(to)
                .bind(i64::from(limit))
                .bind($crate::records::to_i64(offset))
                .fetch_all(self.reader())
                .await?;
                let total = match $crate::history::total_shown_by(rows.len(), limit, offset) {
                    Some(total) => total,
                    None => {
                        let counted: i64 = sqlx::query_scalar(
                            "SELECT COUNT(*) FROM price_history WHERE market_id = $1 AND resolution = $2 \
                             AND bucket_start >= $3 AND bucket_start < $4",
                        )
                        .bind(market_id)
                        .bind(resolution.seconds())
                        .bind(from)
                        .bind(to)
                        .fetch_one(self.reader())
                        .await?;
                        counted.max(0) as u64
                    }
                };
                Ok($crate::Page {
                    items: Self::bars_from(rows)?.into_iter().map(|(_, bar)| bar).collect(),
                    total,
                })
            }

            async fn record_prices(
                &self,
                observed: &[marketlens_domain::history::ObservedPrices],
            ) -> Result<usize, $crate::StoreError> {
                if observed.is_empty() {
                    return Ok(0);
                }
                // A catalogue writer's transaction: an upsert reads and merges the same bars.
                let mut transaction = self.begin_catalog_write().await?;
                let recorded = $crate::history::record_prices(&mut Statements(&mut transaction), observed).await?;
                transaction.commit().await?;
                self.after_catalog_write().await;
                Ok(recorded)
            }

            async fn expire_history(
                &self,
                now: marketlens_domain::time::Timestamp,
                retention: marketlens_domain::history::Retention,
            ) -> Result<$crate::ExpiryReport, $crate::StoreError> {
                let mut report = $crate::ExpiryReport::default();
                for expiry in retention.expiries(now) {
                    loop {
                        let mut transaction = self.begin_write().await?;
                        let deleted = $crate::history::expire_some(&mut Statements(&mut transaction), expiry).await?;
                        transaction.commit().await?;
                        if deleted == 0 {
                            break;
                        }
                        report.add(expiry.resolution, deleted);
                    }
                }
                self.after_catalog_write().await;
                Ok(report)
            }

            async fn scan_history(
                &self,
                after: Option<$crate::history::HistoryKey>,
                limit: u32,
            ) -> Result<Vec<(uuid::Uuid, marketlens_domain::history::HistoryBar)>, $crate::StoreError> {
                // Before the smallest key there is: the nil id sorts first.
                let (market_id, resolution, bucket_start) = match after {
                    Some((market_id, resolution, bucket_start)) => (market_id, resolution.seconds(), bucket_start),
                    None => (uuid::Uuid::nil(), i64::MIN, i64::MIN),
                };
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM price_history WHERE (market_id, resolution, bucket_start) > ($1, $2, $3) \
                     ORDER BY market_id, resolution, bucket_start LIMIT $4",
                    $crate::records::HISTORY_COLUMNS
                )))
                .bind(market_id)
                .bind(resolution)
                .bind(bucket_start)
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await?;
                Self::bars_from(rows)
            }

            async fn restore_history(
                &self,
                bars: &[(uuid::Uuid, marketlens_domain::history::HistoryBar)],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                let mut transaction = self.begin_write().await?;
                Statements(&mut transaction).insert_rows("price_history", bars).await?;
                transaction.commit().await?;
                Ok(())
            }

            async fn replace_history(
                &self,
                bars: &[(uuid::Uuid, marketlens_domain::history::HistoryBar)],
            ) -> Result<(), $crate::StoreError> {
                use $crate::history::HistoryWriter;
                let mut transaction = self.begin_write().await?;
                Statements(&mut transaction).write_bars(bars).await?;
                transaction.commit().await?;
                Ok(())
            }
        }
    };
}
pub(crate) use history_store_sql;

#[cfg(test)]
mod tests {
    use super::total_shown_by;
    use proptest::prelude::*;

    proptest! {
        /// Whatever the rows, the page's limit and offset: a total read off a page is the true
        /// one, and a count is asked for only when the page cannot tell (a full page, or an
        /// empty one past the first). Small ranges, so that the edges (no rows, an offset at
        /// the end, a page that ends exactly at it) come up often.
        #[test]
        fn a_total_read_off_a_page_is_the_count(
            rows in 0u64..50,
            limit in prop_oneof![0u32..20, Just(u32::MAX)],
            offset in 0u64..60,
        ) {
            let returned = rows.saturating_sub(offset).min(u64::from(limit));
            match total_shown_by(returned as usize, limit, offset) {
                Some(total) => prop_assert_eq!(total, rows),
                None => prop_assert!(returned == u64::from(limit) || (returned == 0 && offset > 0)),
            }
        }
    }

    #[test]
    fn only_a_full_page_or_an_empty_one_past_the_first_needs_a_count() {
        assert_eq!(total_shown_by(40, 100, 0), Some(40));
        assert_eq!(total_shown_by(0, 100, 0), Some(0));
        assert_eq!(total_shown_by(40, 100, 200), Some(240));
        assert_eq!(total_shown_by(100, 100, 0), None);
        assert_eq!(total_shown_by(0, 100, 200), None);
    }
}
