//! Sync runs on PostgreSQL.

use async_trait::async_trait;
use chrono::TimeDelta;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;

use super::PgStore;
use crate::StoreError;
use crate::records::{self, RUN_COLUMNS, to_i64};
use crate::sync_runs::{SyncRun, SyncStatus, SyncStore};

impl PgStore {
    async fn latest_run(&self, exchange: Exchange, condition: &'static str) -> Result<Option<SyncRun>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {RUN_COLUMNS} FROM sync_runs WHERE exchange = $1 {condition} ORDER BY id DESC LIMIT 1"
        )))
        .bind(exchange.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(records::sync_run).transpose()
    }
}

#[async_trait]
impl SyncStore for PgStore {
    async fn record_sync_run(&self, run: &SyncRun) -> Result<(), StoreError> {
        let counts = &run.counts;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO sync_runs ({RUN_COLUMNS}) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"
        )))
        .bind(run.exchange.as_str())
        .bind(run.kind.as_str())
        .bind(run.started_at)
        .bind(run.finished_at)
        .bind(run.succeeded)
        .bind(to_i64(run.pages))
        .bind(to_i64(counts.markets_inserted))
        .bind(to_i64(counts.markets_updated))
        .bind(to_i64(counts.markets_unchanged))
        .bind(to_i64(counts.markets_stale))
        .bind(to_i64(counts.events_inserted))
        .bind(to_i64(counts.events_updated))
        .bind(to_i64(counts.events_unchanged))
        .bind(to_i64(counts.events_stale))
        .bind(to_i64(run.records_skipped))
        .bind(to_i64(run.errors))
        .bind(&run.error)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    async fn sync_status(&self, exchange: Exchange) -> Result<SyncStatus, StoreError> {
        Ok(SyncStatus {
            exchange,
            latest: self.latest_run(exchange, "").await?,
            latest_success: self.latest_run(exchange, "AND succeeded").await?,
            latest_full_success: self.latest_run(exchange, "AND succeeded AND kind = 'full'").await?,
        })
    }

    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        now: Timestamp,
        duration: TimeDelta,
    ) -> Result<bool, StoreError> {
        let held: Option<String> = sqlx::query_scalar(
            "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
             WHERE leases.holder = excluded.holder OR leases.expires_at <= $4 \
             RETURNING holder",
        )
        .bind(name)
        .bind(holder)
        .bind(now + duration)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(held.is_some())
    }

    async fn release_lease(&self, name: &str, holder: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
            .bind(name)
            .bind(holder)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
