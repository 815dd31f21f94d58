//! [`HistoryWriter`] and [`HistoryStore`] on SQLite. Market ids are kept as 16-byte blobs
//! here (the catalogue's tables keep them as text): history is the largest table, and the id
//! is in every row and its index.

use async_trait::async_trait;
use marketlens_domain::history::{HistoryBar, Resolution, Retention};
use marketlens_domain::time::{Timestamp, to_epoch_millis};
use sqlx::sqlite::{Sqlite, SqliteRow};
use sqlx::{QueryBuilder, Row};
use uuid::Uuid;

use super::SqliteStore;
use super::upsert::SqliteWriter;
use crate::history::{
    BARS_PER_STATEMENT, ExpiryReport, HistoryKey, HistoryStore, HistoryWriter, ON_CONFLICT_REPLACE_BAR, expire_some,
};
use crate::records::{self, HISTORY_COLUMNS, to_i64};
use crate::{Page, StoreError};

fn bars_from(rows: Vec<SqliteRow>) -> Result<Vec<(Uuid, HistoryBar)>, StoreError> {
    rows.iter()
        .map(|row| Ok((row.try_get("market_id")?, records::history_bar(row)?)))
        .collect()
}

fn push_ids(builder: &mut QueryBuilder<Sqlite>, market_ids: &[Uuid]) {
    builder.push(" market_id IN (");
    let mut separated = builder.separated(", ");
    for id in market_ids {
        separated.push_bind(*id);
    }
    builder.push(")");
}

impl HistoryWriter for SqliteWriter<'_> {
    async fn bars(
        &mut self,
        market_ids: &[Uuid],
        resolution: Resolution,
        from: i64,
        to: i64,
    ) -> Result<Vec<(Uuid, HistoryBar)>, StoreError> {
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new(format!("SELECT {HISTORY_COLUMNS} FROM price_history WHERE"));
        push_ids(&mut builder, market_ids);
        builder
            .push(" AND resolution = ")
            .push_bind(resolution.seconds())
            .push(" AND bucket_start >= ")
            .push_bind(from)
            .push(" AND bucket_start < ")
            .push_bind(to);
        bars_from(builder.build().fetch_all(&mut *self.0).await?)
    }

    async fn write_bars(&mut self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError> {
        if bars.is_empty() {
            return Ok(());
        }
        let mut failure = None;
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new(format!("INSERT INTO price_history ({HISTORY_COLUMNS}) "));
        builder.push_values(bars, |mut row, (id, bar)| {
            let outcomes = serde_json::to_string(&bar.outcomes).unwrap_or_else(|error| {
                failure = Some(error.to_string());
                String::new()
            });
            row.push_bind(*id)
                .push_bind(bar.resolution.seconds())
                .push_bind(bar.bucket_start)
                .push_bind(to_epoch_millis(bar.first_at))
                .push_bind(to_epoch_millis(bar.last_at))
                .push_bind(outcomes)
                .push_bind(bar.volume)
                .push_bind(bar.volume_24h)
                .push_bind(bar.liquidity);
        });
        if let Some(error) = failure {
            return Err(StoreError::Internal(format!("a bar does not serialize: {error}")));
        }
        builder.push(ON_CONFLICT_REPLACE_BAR);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }

    async fn markets_with_bars_before(
        &mut self,
        resolution: Resolution,
        before: i64,
        limit: u32,
    ) -> Result<Vec<Uuid>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT DISTINCT market_id FROM price_history WHERE resolution = ? AND bucket_start < ? LIMIT ?",
        )
        .bind(resolution.seconds())
        .bind(before)
        .bind(i64::from(limit))
        .fetch_all(&mut *self.0)
        .await?)
    }

    async fn delete_bars_before(
        &mut self,
        market_ids: &[Uuid],
        resolution: Resolution,
        before: i64,
    ) -> Result<u64, StoreError> {
        let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new("DELETE FROM price_history WHERE");
        push_ids(&mut builder, market_ids);
        builder
            .push(" AND resolution = ")
            .push_bind(resolution.seconds())
            .push(" AND bucket_start < ")
            .push_bind(before);
        Ok(builder.build().execute(&mut *self.0).await?.rows_affected())
    }
}

#[async_trait]
impl HistoryStore for SqliteStore {
    async fn history_page(
        &self,
        market_id: Uuid,
        resolution: Resolution,
        (from, to): (i64, i64),
        limit: u32,
        offset: u64,
    ) -> Result<Page<HistoryBar>, StoreError> {
        let total: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM price_history WHERE market_id = ? AND resolution = ? AND bucket_start >= ? \
             AND bucket_start < ?",
        )
        .bind(market_id)
        .bind(resolution.seconds())
        .bind(from)
        .bind(to)
        .fetch_one(&self.reader)
        .await?;
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {HISTORY_COLUMNS} FROM price_history WHERE market_id = ? AND resolution = ? \
             AND bucket_start >= ? AND bucket_start < ? ORDER BY bucket_start LIMIT ? OFFSET ?"
        )))
        .bind(market_id)
        .bind(resolution.seconds())
        .bind(from)
        .bind(to)
        .bind(i64::from(limit))
        .bind(to_i64(offset))
        .fetch_all(&self.reader)
        .await?;
        Ok(Page {
            items: bars_from(rows)?.into_iter().map(|(_, bar)| bar).collect(),
            total: total.max(0) as u64,
        })
    }

    async fn expire_history(&self, now: Timestamp, retention: Retention) -> Result<ExpiryReport, StoreError> {
        let mut report = ExpiryReport::default();
        for expiry in retention.expiries(now) {
            loop {
                let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
                let deleted = expire_some(&mut SqliteWriter(&mut transaction), expiry).await?;
                transaction.commit().await?;
                if deleted == 0 {
                    break;
                }
                report.add(expiry.resolution, deleted);
            }
        }
        self.restart_wal_if_wanted().await;
        Ok(report)
    }

    async fn scan_history(&self, after: Option<HistoryKey>, limit: u32) -> Result<Vec<(Uuid, HistoryBar)>, StoreError> {
        // Before the smallest key there is: the nil id sorts first.
        let (market_id, resolution, bucket_start) = match after {
            Some((market_id, resolution, bucket_start)) => (market_id, resolution.seconds(), bucket_start),
            None => (Uuid::nil(), i64::MIN, i64::MIN),
        };
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {HISTORY_COLUMNS} FROM price_history WHERE (market_id, resolution, bucket_start) > (?, ?, ?) \
             ORDER BY market_id, resolution, bucket_start LIMIT ?"
        )))
        .bind(market_id)
        .bind(resolution)
        .bind(bucket_start)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        bars_from(rows)
    }

    async fn restore_history(&self, bars: &[(Uuid, HistoryBar)]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        for chunk in bars.chunks(BARS_PER_STATEMENT) {
            SqliteWriter(&mut transaction).write_bars(chunk).await?;
        }
        transaction.commit().await?;
        Ok(())
    }
}
