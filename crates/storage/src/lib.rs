//! Marketlens storage: the one interface through which everything else reads and writes
//! markets, events, matches, accounts, keys, credits and news.
//!
//! [`Store`] is the traits [`CatalogStore`], [`AccountStore`], [`IdempotencyStore`], [`SyncStore`],
//! [`TransferStore`], [`NewsStore`], [`HistoryStore`] and [`HealthStore`]; the server holds an `Arc<dyn Store>` and never knows
//! which database is behind it. [`open`] picks the
//! implementation from the database URL's scheme. SQLite ([`sqlite::SqliteStore`]) is the
//! embedded default; [`postgres::PgStore`] is the scale-out store, shared by several server
//! nodes, behind the same traits and giving the same answers. Each concern's SQL is written
//! once, for both (see `backend.rs` for how and for what differs between them).
//!
//! What the stores guarantee, whatever the database:
//! - upserts are idempotent and keep the newest record (`marketlens_domain::upsert`);
//! - the same query gives the same page, ties broken by id;
//! - a charge never takes the balance below zero, and every change of a balance is one
//!   transaction with its ledger line;
//! - an idempotency key runs one call at a time, and the answer it keeps is written in its
//!   charge's transaction (`idempotency.rs`).

pub mod accounts;
mod backend;
mod bulk;
pub mod catalog;
mod error;
mod fingerprint;
pub mod health;
pub mod history;
pub mod idempotency;
pub mod news;
pub mod postgres;
mod records;
pub mod sqlite;
pub mod sync_runs;
mod table_rows;
pub mod transfer;
mod upsert;

use std::sync::Arc;

pub use accounts::{AccountStore, ChargeOutcome, ChargeRequest, LedgerTotals, NewAccount};
pub use catalog::{
    CatalogCounts, CatalogStore, EventMarket, EventQuery, EventSummary, MarketFilter, MarketQuery, MarketSort,
    MarketSummary, MatchedMarket, Page, SearchWords, SortOrder, StoredEvent, StoredMarket, UpsertCounts,
};
pub use error::StoreError;
pub use health::HealthStore;
pub use history::{ExpiryReport, HistoryStore};
pub use idempotency::{
    AnswerToKeep, ClaimOutcome, IdempotencyClaim, IdempotencyRecord, IdempotencyState, IdempotencyStore, KeptAnswer,
    NewClaim,
};
pub use news::{FeedPoll, FeedStatus, NewsStore, StoredArticle};
pub use sync_runs::{SyncKind, SyncRun, SyncStatus, SyncStore};
pub use transfer::{CopyReport, CopyStep, ExportedKey, TransferStore};

/// Everything a server needs from its storage.
pub trait Store:
    CatalogStore + AccountStore + IdempotencyStore + SyncStore + TransferStore + NewsStore + HistoryStore + HealthStore
{
}

impl<
    T: CatalogStore + AccountStore + IdempotencyStore + SyncStore + TransferStore + NewsStore + HistoryStore + HealthStore,
> Store for T
{
}

/// Opens (creating if needed) the store named by `database_url` and applies its migrations.
///
/// `sqlite://PATH` (or `sqlite:PATH`) is the embedded default; `sqlite::memory:` is a
/// throw-away store for tests. `postgres://` (or `postgresql://`) is the scale-out store.
pub async fn open(database_url: &str) -> Result<Arc<dyn Store>, StoreError> {
    match scheme(database_url).as_str() {
        "sqlite" => Ok(Arc::new(sqlite::SqliteStore::open(database_url).await?)),
        "postgres" | "postgresql" => Ok(Arc::new(postgres::PgStore::open(database_url).await?)),
        _ => Err(StoreError::Invalid(
            "unsupported database URL: expected sqlite://PATH or postgres://USER@HOST/DATABASE".to_owned(),
        )),
    }
}

/// Whether the store `database_url` names can be shared by several serving nodes
/// (PostgreSQL), unlike the SQLite file of one node.
pub fn is_shared(database_url: &str) -> bool {
    matches!(scheme(database_url).as_str(), "postgres" | "postgresql")
}

fn scheme(database_url: &str) -> String {
    database_url.split(':').next().unwrap_or_default().to_ascii_lowercase()
}
