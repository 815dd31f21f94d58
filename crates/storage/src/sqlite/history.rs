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
use crate::StoreError;
use crate::history::{
    BARS_PER_STATEMENT, HistoryKey, HistoryStore, HistoryWriter, ON_CONFLICT_REPLACE_BAR, RollUpReport, roll_up_some,
};
use crate::records::{self, HISTORY_COLUMNS};

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
                .push_bind(bar.bucket_start)
                .push_bind(bar.resolution.seconds())
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
    ) -> Result<(), StoreError> {
        let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new("DELETE FROM price_history WHERE");
        push_ids(&mut builder, market_ids);
        builder
            .push(" AND resolution = ")
            .push_bind(resolution.seconds())
            .push(" AND bucket_start < ")
            .push_bind(before);
        builder.build().execute(&mut *self.0).await?;
        Ok(())
    }
}

#[async_trait]
impl HistoryStore for SqliteStore {
    async fn history(
        &self,
        market_id: Uuid,
        resolutions: &[Resolution],
        from: i64,
        to: i64,
    ) -> Result<Vec<HistoryBar>, StoreError> {
        let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(format!(
            "SELECT {HISTORY_COLUMNS} FROM price_history WHERE market_id = "
        ));
        builder
            .push_bind(market_id)
            .push(" AND bucket_start >= ")
            .push_bind(from)
            .push(" AND bucket_start < ")
            .push_bind(to)
            .push(" AND resolution IN (");
        let mut separated = builder.separated(", ");
        for resolution in resolutions {
            separated.push_bind(resolution.seconds());
        }
        builder.push(") ORDER BY bucket_start, resolution");
        let rows = builder.build().fetch_all(&self.reader).await?;
        Ok(bars_from(rows)?.into_iter().map(|(_, bar)| bar).collect())
    }

    async fn roll_up_history(&self, now: Timestamp, retention: Retention) -> Result<RollUpReport, StoreError> {
        let mut report = RollUpReport::default();
        for roll_up in retention.roll_ups(now) {
            loop {
                let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
                let moved = roll_up_some(&mut SqliteWriter(&mut transaction), roll_up).await?;
                transaction.commit().await?;
                if moved == 0 {
                    break;
                }
                report.add(roll_up.from, moved);
            }
        }
        self.restart_wal_if_wanted().await;
        Ok(report)
    }

    async fn scan_history(&self, after: Option<HistoryKey>, limit: u32) -> Result<Vec<(Uuid, HistoryBar)>, StoreError> {
        // The smallest key there is: the nil id sorts first in both id types.
        let (market_id, bucket_start, resolution) = after.unwrap_or((Uuid::nil(), i64::MIN, Resolution::FiveMinutes));
        let resolution = if after.is_some() {
            resolution.seconds()
        } else {
            i64::MIN
        };
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {HISTORY_COLUMNS} FROM price_history WHERE (market_id, bucket_start, resolution) > (?, ?, ?) \
             ORDER BY market_id, bucket_start, resolution LIMIT ?"
        )))
        .bind(market_id)
        .bind(bucket_start)
        .bind(resolution)
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
