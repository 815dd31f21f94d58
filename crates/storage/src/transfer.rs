//! Reading a whole store page by page and writing it into another as it was: what
//! `marketlens copy` moves an embedded SQLite store into PostgreSQL with, and what an in-memory
//! read model loads the catalogue through.

use async_trait::async_trait;
use marketlens_domain::account::{Account, ApiKeyRecord, LedgerEntry};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::matching::MatchPair;
use std::time::Instant;
use uuid::Uuid;

use crate::StoreError;
use crate::catalog::{StoredEvent, StoredMarket};
use crate::history::history_key;

/// A key as another store needs it: its record and the hash it is found by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportedKey {
    pub record: ApiKeyRecord,
    pub hash: KeyHash,
}

#[async_trait]
pub trait TransferStore: Send + Sync {
    /// Up to `limit` markets whose ids come after `after` (from the first when `None`), by id.
    async fn scan_markets(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<StoredMarket>, StoreError>;

    /// Up to `limit` events whose ids come after `after`, by id.
    async fn scan_events(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<StoredEvent>, StoreError>;

    /// Every stored match, both directions of each pair.
    async fn match_pairs(&self) -> Result<Vec<MatchPair>, StoreError>;

    /// Every key of every account, revoked ones included, with its hash.
    async fn export_keys(&self) -> Result<Vec<ExportedKey>, StoreError>;

    /// Whether the store holds no market, event, account or price history bar.
    async fn is_empty(&self) -> Result<bool, StoreError>;

    /// Writes markets and events read from another store as they were there (their times
    /// included) into this one, which holds none of them.
    async fn restore_catalog(&self, markets: &[StoredMarket], events: &[StoredEvent]) -> Result<(), StoreError>;

    /// Writes accounts (with their balances) and keys read from another store as they were.
    async fn restore_accounts(&self, accounts: &[Account], keys: &[ExportedKey]) -> Result<(), StoreError>;

    /// Writes ledger lines read from another store, ids included, after their accounts.
    async fn restore_ledger(&self, lines: &[LedgerEntry]) -> Result<(), StoreError>;
}

/// Records read and written per page while copying.
const PAGE: u32 = 5_000;

/// What a copy moved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CopyReport {
    pub markets: u64,
    pub events: u64,
    pub match_pairs: u64,
    pub accounts: u64,
    pub keys: u64,
    pub ledger_lines: u64,
    pub history_bars: u64,
}

/// What [`copy`] is doing, for a progress display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyStep {
    Events(u64),
    Markets(u64),
    Matches(u64),
    Accounts(u64),
    LedgerLines(u64),
    HistoryBars(u64),
}

/// Copies everything `from` holds into `to`, which must hold nothing: events, markets,
/// matches, the price history, accounts with their balances, keys (by hash) and every ledger
/// line, ids and times as they were. Then checks that `to` holds the same counts and the same books, and fails if
/// it does not. Sync history is not copied: the new store's first sync is a full one.
pub async fn copy(
    from: &dyn crate::Store,
    to: &dyn crate::Store,
    mut on_progress: impl FnMut(CopyStep),
) -> Result<CopyReport, StoreError> {
    if !to.is_empty().await? {
        return Err(StoreError::Invalid(
            "the destination store is not empty; copy only into a new store".to_owned(),
        ));
    }
    let mut report = CopyReport::default();
    // The catalogue and history go in as a bulk load: indexes built once after them.
    let bulk = to.begin_bulk_load().await?;
    let catalog = copy_catalog(from, to, &mut report, &mut on_progress).await;
    if bulk {
        // Even after a failure: the destination then holds part of the copy, which another
        // copy refuses, with its indexes whole.
        let indexing = Instant::now();
        to.finish_bulk_load().await?;
        tracing::debug!(seconds = indexing.elapsed().as_secs_f64(), "copy: indexes built");
    }
    catalog?;

    let accounts = from.list_accounts().await?;
    let keys = from.export_keys().await?;
    to.restore_accounts(&accounts, &keys).await?;
    (report.accounts, report.keys) = (accounts.len() as u64, keys.len() as u64);
    on_progress(CopyStep::Accounts(report.accounts));
    for account in &accounts {
        let before = report.ledger_lines;
        report.ledger_lines += pages(
            async |after| from.ledger(account.id, after, PAGE).await,
            |line| line.id,
            async |lines| to.restore_ledger(lines).await,
            |lines| on_progress(CopyStep::LedgerLines(before + lines)),
        )
        .await?;
    }
    verify(from, to).await?;
    Ok(report)
}

/// The catalogue's part of [`copy`]: events, markets, matches and the price history.
async fn copy_catalog(
    from: &dyn crate::Store,
    to: &dyn crate::Store,
    report: &mut CopyReport,
    on_progress: &mut impl FnMut(CopyStep),
) -> Result<(), StoreError> {
    let mut step = Instant::now();
    let mut took = |what: &str| {
        tracing::debug!(seconds = step.elapsed().as_secs_f64(), "copy: {what} copied");
        step = Instant::now();
    };
    report.events = pages(
        async |after| from.scan_events(after, PAGE).await,
        |event| event.id,
        async |events| to.restore_catalog(&[], events).await,
        |events| on_progress(CopyStep::Events(events)),
    )
    .await?;
    took("events");
    report.markets = pages(
        async |after| from.scan_markets(after, PAGE).await,
        |market| market.id,
        async |markets| to.restore_catalog(markets, &[]).await,
        |markets| on_progress(CopyStep::Markets(markets)),
    )
    .await?;
    took("markets");
    let pairs = from.match_pairs().await?;
    to.replace_matches(&pairs).await?;
    report.match_pairs = pairs.len() as u64 / 2;
    on_progress(CopyStep::Matches(report.match_pairs));
    took("matches");
    report.history_bars = pages(
        async |after| from.scan_history(after, PAGE).await,
        |(market_id, bar)| history_key(*market_id, bar),
        async |bars| to.restore_history(bars).await,
        |bars| on_progress(CopyStep::HistoryBars(bars)),
    )
    .await?;
    took("price history");
    Ok(())
}

/// Copies what `read` gives page by page (each page the one after the key `key` gives of the
/// last record read) with `write`, reading the next page while one is written. `copied` is
/// told the running count; returns the whole count.
async fn pages<T, K>(
    read: impl AsyncFn(Option<K>) -> Result<Vec<T>, StoreError>,
    key: impl Fn(&T) -> K,
    write: impl AsyncFn(&[T]) -> Result<(), StoreError>,
    mut copied: impl FnMut(u64),
) -> Result<u64, StoreError> {
    let mut count = 0;
    let mut page = read(None).await?;
    while let Some(last) = page.last() {
        let (written, next) = tokio::join!(write(&page), read(Some(key(last))));
        written?;
        count += page.len() as u64;
        copied(count);
        page = next?;
    }
    Ok(count)
}

/// Fails unless `to` holds what `from` holds: the same counts, and for every account the same
/// balance and ledger sums.
async fn verify(from: &dyn crate::Store, to: &dyn crate::Store) -> Result<(), StoreError> {
    let differs = |what: String| StoreError::Internal(format!("the copy differs from its source: {what}"));
    let (source_counts, copied_counts) = (from.catalog_counts().await?, to.catalog_counts().await?);
    if source_counts != copied_counts {
        return Err(differs(format!("{source_counts:?} against {copied_counts:?}")));
    }
    let (source_accounts, copied_accounts) = (from.list_accounts().await?, to.list_accounts().await?);
    if source_accounts != copied_accounts {
        return Err(differs("accounts or balances".to_owned()));
    }
    for account in &source_accounts {
        if from.ledger_totals(account.id).await? != to.ledger_totals(account.id).await? {
            return Err(differs(format!("the ledger of account {}", account.id)));
        }
    }
    if from.export_keys().await? != to.export_keys().await? {
        return Err(differs("keys".to_owned()));
    }
    Ok(())
}

/// [`TransferStore`] for a [`Backend`](crate::backend::Backend) store (its pages read through
/// `rows_after`, which [`crate::catalog`]'s macro defines for the same store).
macro_rules! transfer_store_sql {
    ($store:ty) => {
        #[async_trait::async_trait]
        impl $crate::TransferStore for $store {
            async fn scan_markets(
                &self,
                after: Option<uuid::Uuid>,
                limit: u32,
            ) -> Result<Vec<$crate::StoredMarket>, $crate::StoreError> {
                let rows = self
                    .rows_after($crate::records::MARKET_COLUMNS, "markets m", after, limit)
                    .await?;
                rows.iter().map($crate::records::stored_market).collect()
            }

            async fn scan_events(
                &self,
                after: Option<uuid::Uuid>,
                limit: u32,
            ) -> Result<Vec<$crate::StoredEvent>, $crate::StoreError> {
                let rows = self
                    .rows_after($crate::records::EVENT_COLUMNS, "events e", after, limit)
                    .await?;
                rows.iter().map($crate::records::stored_event).collect()
            }

            async fn match_pairs(&self) -> Result<Vec<marketlens_domain::matching::MatchPair>, $crate::StoreError> {
                let rows = sqlx::query(
                    "SELECT market_id, matched_id, similarity, orientation FROM market_matches \
                     ORDER BY market_id, matched_id",
                )
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::match_pair).collect()
            }

            async fn export_keys(&self) -> Result<Vec<$crate::ExportedKey>, $crate::StoreError> {
                use sqlx::Row;
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {}, k.key_hash FROM api_keys k ORDER BY k.created_at, k.id",
                    $crate::records::KEY_COLUMNS
                )))
                .fetch_all(self.reader())
                .await?;
                rows.iter()
                    .map(|row| {
                        let hash: Vec<u8> = row.try_get("key_hash")?;
                        let hash: [u8; 32] = hash
                            .try_into()
                            .map_err(|_| $crate::records::corrupt("key_hash", "not 32 bytes"))?;
                        Ok($crate::ExportedKey {
                            record: $crate::records::api_key(row)?,
                            hash: marketlens_domain::api_key::KeyHash(hash),
                        })
                    })
                    .collect()
            }

            async fn is_empty(&self) -> Result<bool, $crate::StoreError> {
                let held: i64 = sqlx::query_scalar(
                    "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM markets LIMIT 1) AS m) \
                        + (SELECT COUNT(*) FROM (SELECT 1 FROM events LIMIT 1) AS e) \
                        + (SELECT COUNT(*) FROM (SELECT 1 FROM accounts LIMIT 1) AS a) \
                        + (SELECT COUNT(*) FROM (SELECT 1 FROM price_history LIMIT 1) AS h)",
                )
                .fetch_one(self.reader())
                .await?;
                Ok(held == 0)
            }

            async fn restore_catalog(
                &self,
                markets: &[$crate::StoredMarket],
                events: &[$crate::StoredEvent],
            ) -> Result<(), $crate::StoreError> {
                let mut transaction = self.begin_catalog_write().await?;
                $crate::upsert::restore(&mut Statements(&mut transaction), markets, events).await?;
                transaction.commit().await?;
                Ok(())
            }

            async fn restore_accounts(
                &self,
                accounts: &[marketlens_domain::account::Account],
                keys: &[$crate::ExportedKey],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                let mut transaction = self.begin_write().await?;
                Statements(&mut transaction)
                    .insert_rows("accounts", accounts)
                    .await?;
                Statements(&mut transaction).insert_rows("api_keys", keys).await?;
                transaction.commit().await?;
                Ok(())
            }

            async fn restore_ledger(
                &self,
                lines: &[marketlens_domain::account::LedgerEntry],
            ) -> Result<(), $crate::StoreError> {
                use $crate::table_rows::RowWriter;
                let mut transaction = self.begin_write().await?;
                Statements(&mut transaction).insert_rows("ledger", lines).await?;
                if let Some(statement) = <$store as $crate::backend::Backend>::CONTINUE_LEDGER_IDS {
                    sqlx::query(statement).execute(&mut *transaction).await?;
                }
                transaction.commit().await?;
                Ok(())
            }
        }
    };
}
pub(crate) use transfer_store_sql;
