//! Marketlens storage: the one interface through which everything else reads and writes
//! markets, events, matches, accounts, keys and credits.
//!
//! [`Store`] is the traits [`CatalogStore`], [`AccountStore`] and [`SyncStore`]; the server holds
//! an `Arc<dyn Store>` and never knows which database is behind it. [`open`] picks the
//! implementation from the database URL's scheme. SQLite ([`sqlite::SqliteStore`]) is the
//! embedded default; a PostgreSQL implementation sits beside it behind the same traits.
//!
//! What the stores guarantee, whatever the database:
//! - upserts are idempotent and keep the newest record (`marketlens_domain::upsert`);
//! - the same query gives the same page, ties broken by id;
//! - a charge never takes the balance below zero, and every change of a balance is one
//!   transaction with its ledger line.

pub mod accounts;
pub mod catalog;
mod error;
mod fingerprint;
mod records;
pub mod sqlite;
pub mod sync_runs;
mod upsert;

use std::sync::Arc;

pub use accounts::{AccountStore, ChargeOutcome, ChargeRequest, LedgerTotals, NewAccount};
pub use catalog::{
    CatalogCounts, CatalogStore, EventMarket, EventQuery, MarketFilter, MarketQuery, MarketSort, MatchedMarket, Page,
    SearchWords, SortOrder, StoredEvent, StoredMarket, UpsertCounts,
};
pub use error::StoreError;
pub use sync_runs::{SyncKind, SyncRun, SyncStatus, SyncStore};

/// Everything a server needs from its storage.
pub trait Store: CatalogStore + AccountStore + SyncStore {}

impl<T: CatalogStore + AccountStore + SyncStore> Store for T {}

/// Opens (creating if needed) the store named by `database_url` and applies its migrations.
///
/// `sqlite://PATH` (or `sqlite:PATH`) is the embedded default; `sqlite::memory:` is a
/// throw-away store for tests.
pub async fn open(database_url: &str) -> Result<Arc<dyn Store>, StoreError> {
    let scheme = database_url.split(':').next().unwrap_or_default().to_ascii_lowercase();
    match scheme.as_str() {
        "sqlite" => Ok(Arc::new(sqlite::SqliteStore::open(database_url).await?)),
        "postgres" | "postgresql" => Err(StoreError::Invalid(
            "PostgreSQL is not supported by this build yet; use a sqlite:// URL".to_owned(),
        )),
        _ => Err(StoreError::Invalid(format!(
            "unsupported database URL {database_url:?}: expected sqlite://PATH"
        ))),
    }
}
