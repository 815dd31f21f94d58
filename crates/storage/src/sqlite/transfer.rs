//! Copying into and out of SQLite.

use async_trait::async_trait;
use marketlens_domain::account::{Account, LedgerEntry};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::matching::MatchPair;
use marketlens_domain::time::to_epoch_millis;
use sqlx::sqlite::Sqlite;
use sqlx::{QueryBuilder, Row};
use uuid::Uuid;

use super::SqliteStore;
use super::upsert::SqliteWriter;
use crate::StoreError;
use crate::catalog::{StoredEvent, StoredMarket};
use crate::records::{self, EVENT_COLUMNS, KEY_COLUMNS, MARKET_COLUMNS, corrupt};
use crate::transfer::{ExportedKey, TransferStore};

/// Rows per multi-row insert of accounts (9 values), keys (6) and ledger lines (8).
const ROWS_PER_STATEMENT: usize = 1_000;

#[async_trait]
impl TransferStore for SqliteStore {
    async fn scan_markets(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<StoredMarket>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {MARKET_COLUMNS} FROM markets m WHERE m.id > ?1 ORDER BY m.id LIMIT ?2"
        )))
        .bind(after.map(|id| id.to_string()).unwrap_or_default())
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::stored_market).collect()
    }

    async fn scan_events(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<StoredEvent>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {EVENT_COLUMNS} FROM events e WHERE e.id > ?1 ORDER BY e.id LIMIT ?2"
        )))
        .bind(after.map(|id| id.to_string()).unwrap_or_default())
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::stored_event).collect()
    }

    async fn match_pairs(&self) -> Result<Vec<MatchPair>, StoreError> {
        let rows = sqlx::query(
            "SELECT market_id, matched_id, similarity, orientation FROM market_matches ORDER BY market_id, matched_id",
        )
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::match_pair).collect()
    }

    async fn export_keys(&self) -> Result<Vec<ExportedKey>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {KEY_COLUMNS}, k.key_hash FROM api_keys k ORDER BY k.created_at, k.id"
        )))
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let hash: Vec<u8> = row.try_get("key_hash")?;
                let hash: [u8; 32] = hash.try_into().map_err(|_| corrupt("key_hash", "not 32 bytes"))?;
                Ok(ExportedKey {
                    record: records::api_key(row)?,
                    hash: KeyHash(hash),
                })
            })
            .collect()
    }

    async fn is_empty(&self) -> Result<bool, StoreError> {
        let held: i64 = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM markets) OR EXISTS (SELECT 1 FROM events) OR EXISTS (SELECT 1 FROM accounts)",
        )
        .fetch_one(&self.reader)
        .await?;
        Ok(held == 0)
    }

    async fn restore_catalog(&self, markets: &[StoredMarket], events: &[StoredEvent]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        crate::upsert::restore(&mut SqliteWriter(&mut transaction), markets, events).await?;
        transaction.commit().await?;
        Ok(())
    }

    async fn restore_accounts(&self, accounts: &[Account], keys: &[ExportedKey]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        for chunk in accounts.chunks(ROWS_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO accounts (id, label, tier, wallet_address, status, credits_remaining, credits_purchased, \
                    credits_used, created_at) ",
            );
            builder.push_values(chunk, |mut row, account| {
                row.push_bind(account.id.to_string())
                    .push_bind(account.label.clone())
                    .push_bind(account.tier.clone())
                    .push_bind(account.wallet_address.clone())
                    .push_bind(account.status.as_str())
                    .push_bind(account.credits_remaining)
                    .push_bind(account.credits_purchased)
                    .push_bind(account.credits_used)
                    .push_bind(to_epoch_millis(account.created_at));
            });
            builder.build().execute(&mut *transaction).await?;
        }
        for chunk in keys.chunks(ROWS_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> =
                QueryBuilder::new("INSERT INTO api_keys (id, account_id, key_hash, display, created_at, revoked_at) ");
            builder.push_values(chunk, |mut row, key| {
                row.push_bind(key.record.id.to_string())
                    .push_bind(key.record.account_id.to_string())
                    .push_bind(key.hash.0.to_vec())
                    .push_bind(key.record.display.clone())
                    .push_bind(to_epoch_millis(key.record.created_at))
                    .push_bind(key.record.revoked_at.map(to_epoch_millis));
            });
            builder.build().execute(&mut *transaction).await?;
        }
        transaction.commit().await?;
        Ok(())
    }

    async fn restore_ledger(&self, lines: &[LedgerEntry]) -> Result<(), StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        for chunk in lines.chunks(ROWS_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO ledger (id, account_id, api_key_id, kind, operation, credits, request_id, created_at) ",
            );
            builder.push_values(chunk, |mut row, line| {
                row.push_bind(line.id)
                    .push_bind(line.account_id.to_string())
                    .push_bind(line.api_key_id.map(|id| id.to_string()))
                    .push_bind(line.kind.as_str())
                    .push_bind(line.operation.clone())
                    .push_bind(line.credits)
                    .push_bind(line.request_id.clone())
                    .push_bind(to_epoch_millis(line.created_at));
            });
            builder.build().execute(&mut *transaction).await?;
        }
        transaction.commit().await?;
        Ok(())
    }
}
