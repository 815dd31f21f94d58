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
