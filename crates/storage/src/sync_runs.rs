//! The record of sync runs: what each run of an exchange's sync did and whether it finished,
//! kept in the store so that every server node (and the operator's `marketlens sync`) sees the
//! same freshness; and the lease that lets one node at a time run the background sync.

use async_trait::async_trait;
use chrono::TimeDelta;
use marketlens_domain::Exchange;
use marketlens_domain::time::Timestamp;

use crate::{StoreError, UpsertCounts};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyncKind {
    /// Every page of every list.
    Full,
    /// What is open or changed.
    Incremental,
}

impl SyncKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SyncKind::Full => "full",
            SyncKind::Incremental => "incremental",
        }
    }
}

impl std::str::FromStr for SyncKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "full" => Ok(SyncKind::Full),
            "incremental" => Ok(SyncKind::Incremental),
            other => Err(format!("unknown sync kind {other:?}")),
        }
    }
}

/// One finished run.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncRun {
    pub exchange: Exchange,
    pub kind: SyncKind,
    pub started_at: Timestamp,
    pub finished_at: Timestamp,
    /// The run walked everything it meant to. A failed run still stored what it fetched.
    pub succeeded: bool,
    pub pages: u64,
    pub counts: UpsertCounts,
    pub records_skipped: u64,
    pub errors: u64,
    /// The error that ended or marred the run.
    pub error: Option<String>,
}

/// An exchange's freshness: its latest run and its latest successful one.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncStatus {
    pub exchange: Exchange,
    pub latest: Option<SyncRun>,
    pub latest_success: Option<SyncRun>,
    /// The latest successful full run (a sync that never completed one walks everything).
    pub latest_full_success: Option<SyncRun>,
}

#[async_trait]
pub trait SyncStore: Send + Sync {
    async fn record_sync_run(&self, run: &SyncRun) -> Result<(), StoreError>;

    /// The status of `exchange`'s syncs.
    async fn sync_status(&self, exchange: Exchange) -> Result<SyncStatus, StoreError>;

    /// Takes or renews the lease `name` for `holder` until `now + duration`, if it is free,
    /// expired, or already `holder`'s. Returns whether `holder` holds it now.
    async fn acquire_lease(
        &self,
        name: &str,
        holder: &str,
        now: Timestamp,
        duration: TimeDelta,
    ) -> Result<bool, StoreError>;

    /// Gives the lease `name` up, if `holder` holds it.
    async fn release_lease(&self, name: &str, holder: &str) -> Result<(), StoreError>;
}

/// [`SyncStore`] for a [`Backend`](crate::backend::Backend) store.
macro_rules! sync_store_sql {
    ($store:ty) => {
        impl $store {
            async fn latest_run(
                &self,
                exchange: marketlens_domain::Exchange,
                condition: &'static str,
            ) -> Result<Option<$crate::SyncRun>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM sync_runs WHERE exchange = $1 {condition} ORDER BY id DESC LIMIT 1",
                    $crate::records::RUN_COLUMNS
                )))
                .bind(exchange.as_str())
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::records::sync_run).transpose()
            }
        }

        #[async_trait::async_trait]
        impl $crate::SyncStore for $store {
            async fn record_sync_run(&self, run: &$crate::SyncRun) -> Result<(), $crate::StoreError> {
                use $crate::records::to_i64;
                let counts = &run.counts;
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "INSERT INTO sync_runs ({}) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
                    $crate::records::RUN_COLUMNS
                )))
                .bind(run.exchange.as_str())
                .bind(run.kind.as_str())
                .bind(Self::time(run.started_at))
                .bind(Self::time(run.finished_at))
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
                .execute(self.writer())
                .await?;
                Ok(())
            }

            async fn sync_status(
                &self,
                exchange: marketlens_domain::Exchange,
            ) -> Result<$crate::SyncStatus, $crate::StoreError> {
                Ok($crate::SyncStatus {
                    exchange,
                    latest: self.latest_run(exchange, "").await?,
                    latest_success: self.latest_run(exchange, "AND succeeded = TRUE").await?,
                    latest_full_success: self.latest_run(exchange, "AND succeeded = TRUE AND kind = 'full'").await?,
                })
            }

            async fn acquire_lease(
                &self,
                name: &str,
                holder: &str,
                now: marketlens_domain::time::Timestamp,
                duration: chrono::TimeDelta,
            ) -> Result<bool, $crate::StoreError> {
                let held: Option<String> = sqlx::query_scalar(
                    "INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at \
                     WHERE leases.holder = excluded.holder OR leases.expires_at <= $4 \
                     RETURNING holder",
                )
                .bind(name)
                .bind(holder)
                .bind(Self::time(now + duration))
                .bind(Self::time(now))
                .fetch_optional(self.writer())
                .await?;
                Ok(held.is_some())
            }

            async fn release_lease(&self, name: &str, holder: &str) -> Result<(), $crate::StoreError> {
                sqlx::query("DELETE FROM leases WHERE name = $1 AND holder = $2")
                    .bind(name)
                    .bind(holder)
                    .execute(self.writer())
                    .await?;
                Ok(())
            }
        }
    };
}
pub(crate) use sync_store_sql;
