//! Accounts, keys and credits on SQLite. Every balance change is one `BEGIN IMMEDIATE`
//! transaction with its ledger lines. `BEGIN IMMEDIATE` takes SQLite's write lock before the
//! balances are read, so a batch of charges decides against balances no other writer (of this
//! process or another) can change until it commits.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry, LedgerKind};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::time::{Timestamp, to_epoch_millis};
use sqlx::sqlite::Sqlite;
use sqlx::{QueryBuilder, Row, SqliteConnection};
use std::collections::HashMap;
use uuid::Uuid;

use super::SqliteStore;
use crate::StoreError;
use crate::accounts::{
    AccountStore, ChargeBalance, ChargeKey, ChargeOutcome, ChargeRequest, ChargeWriter, LedgerTotals, NewAccount,
    charge_batch,
};
use crate::records::{self, ACCOUNT_COLUMNS, KEY_COLUMNS, LEDGER_COLUMNS, RecordRow};

/// Ledger lines per multi-row insert: 7 values each, well under SQLite's 32,766 parameters.
const LEDGER_LINES_PER_STATEMENT: usize = 1_000;

async fn fetch_account(connection: &mut SqliteConnection, account_id: Uuid) -> Result<Account, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"
    )))
    .bind(account_id.to_string())
    .fetch_optional(&mut *connection)
    .await?
    .ok_or(StoreError::NotFound("account"))?;
    records::account(&row)
}

async fn write_credit_line(
    connection: &mut SqliteConnection,
    account_id: Uuid,
    credits: i64,
    now: Timestamp,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO ledger (account_id, kind, credits, created_at) VALUES (?1, 'credit', ?2, ?3)")
        .bind(account_id.to_string())
        .bind(credits)
        .bind(to_epoch_millis(now))
        .execute(&mut *connection)
        .await?;
    Ok(())
}

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(&self, new_account: NewAccount, now: Timestamp) -> Result<Account, StoreError> {
        if new_account.initial_credits < 0 {
            return Err(StoreError::Invalid("initial credits cannot be negative".to_owned()));
        }
        let account_id = Uuid::new_v4();
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query(
            "INSERT INTO accounts (id, label, tier, wallet_address, status, credits_remaining, credits_purchased, \
                credits_used, created_at) VALUES (?1, ?2, ?3, ?4, 'active', ?5, ?5, 0, ?6)",
        )
        .bind(account_id.to_string())
        .bind(&new_account.label)
        .bind(&new_account.tier)
        .bind(&new_account.wallet_address)
        .bind(new_account.initial_credits)
        .bind(to_epoch_millis(now))
        .execute(&mut *transaction)
        .await?;
        if new_account.initial_credits > 0 {
            write_credit_line(&mut transaction, account_id, new_account.initial_credits, now).await?;
        }
        let account = fetch_account(&mut transaction, account_id).await?;
        transaction.commit().await?;
        Ok(account)
    }

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.created_at, a.id"
        )))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::account).collect()
    }

    async fn get_account(&self, account_id: Uuid) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"
        )))
        .bind(account_id.to_string())
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(records::account).transpose()
    }

    async fn find_account_by_label(&self, label: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.label = ?1 ORDER BY a.created_at, a.id LIMIT 1"
        )))
        .bind(label)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(records::account).transpose()
    }

    async fn add_credits(&self, account_id: Uuid, credits: i64, now: Timestamp) -> Result<Account, StoreError> {
        if credits <= 0 {
            return Err(StoreError::Invalid("credits to add must be at least 1".to_owned()));
        }
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let updated = sqlx::query(
            "UPDATE accounts SET credits_remaining = credits_remaining + ?2, \
                credits_purchased = credits_purchased + ?2 WHERE id = ?1",
        )
        .bind(account_id.to_string())
        .bind(credits)
        .execute(&mut *transaction)
        .await?;
        if updated.rows_affected() == 0 {
            return Err(StoreError::NotFound("account"));
        }
        write_credit_line(&mut transaction, account_id, credits, now).await?;
        let account = fetch_account(&mut transaction, account_id).await?;
        transaction.commit().await?;
        Ok(account)
    }

    async fn set_account_status(&self, account_id: Uuid, status: AccountStatus) -> Result<Account, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("UPDATE accounts SET status = ?2 WHERE id = ?1")
            .bind(account_id.to_string())
            .bind(status.as_str())
            .execute(&mut *transaction)
            .await?;
        let account = fetch_account(&mut transaction, account_id).await?;
        transaction.commit().await?;
        Ok(account)
    }

    async fn set_account_tier(&self, account_id: Uuid, tier: &str) -> Result<Account, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("UPDATE accounts SET tier = ?2 WHERE id = ?1")
            .bind(account_id.to_string())
            .bind(tier)
            .execute(&mut *transaction)
            .await?;
        let account = fetch_account(&mut transaction, account_id).await?;
        transaction.commit().await?;
        Ok(account)
    }

    async fn create_key(
        &self,
        account_id: Uuid,
        key_hash: KeyHash,
        display: &str,
        now: Timestamp,
    ) -> Result<ApiKeyRecord, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        fetch_account(&mut transaction, account_id).await?;
        let key_id = Uuid::new_v4();
        sqlx::query("INSERT INTO api_keys (id, account_id, key_hash, display, created_at) VALUES (?1, ?2, ?3, ?4, ?5)")
            .bind(key_id.to_string())
            .bind(account_id.to_string())
            .bind(key_hash.0.to_vec())
            .bind(display)
            .bind(to_epoch_millis(now))
            .execute(&mut *transaction)
            .await?;
        transaction.commit().await?;
        Ok(ApiKeyRecord {
            id: key_id,
            account_id,
            display: display.to_owned(),
            created_at: now,
            revoked_at: None,
        })
    }

    async fn list_keys(&self, account_id: Uuid) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.account_id = ?1 ORDER BY k.created_at, k.id"
        )))
        .bind(account_id.to_string())
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::api_key).collect()
    }

    async fn revoke_key(&self, key_id: Uuid, now: Timestamp) -> Result<ApiKeyRecord, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        sqlx::query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?2) WHERE id = ?1")
            .bind(key_id.to_string())
            .bind(to_epoch_millis(now))
            .execute(&mut *transaction)
            .await?;
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.id = ?1"
        )))
        .bind(key_id.to_string())
        .fetch_optional(&mut *transaction)
        .await?
        .ok_or(StoreError::NotFound("API key"))?;
        let key = records::api_key(&row)?;
        transaction.commit().await?;
        Ok(key)
    }

    async fn authenticate(&self, key_hash: &KeyHash) -> Result<Option<(ApiKeyRecord, Account)>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {KEY_COLUMNS}, k.key_hash, {ACCOUNT_COLUMNS_AS} FROM api_keys k JOIN accounts a ON a.id = k.account_id \
             WHERE k.key_hash = ?1 AND k.revoked_at IS NULL",
            ACCOUNT_COLUMNS_AS = "a.label, a.tier, a.wallet_address, a.status, a.credits_remaining, \
                a.credits_purchased, a.credits_used, a.created_at AS account_created_at"
        )))
        .bind(key_hash.0.to_vec())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        // The index lookup found the row by hash; compare again in constant time so that the
        // final decision never depends on how many bytes matched.
        let stored_hash: Vec<u8> = row.try_get("key_hash")?;
        let stored_hash: [u8; 32] = stored_hash
            .try_into()
            .map_err(|_| StoreError::Internal("stored key hash is not 32 bytes".to_owned()))?;
        if !KeyHash(stored_hash).matches(key_hash) {
            return Ok(None);
        }
        let key = records::api_key(&row)?;
        let account = records::account_from(&row, "account_id", "account_created_at")?;
        Ok(Some((key, account)))
    }

    async fn charge(&self, charges: &[ChargeRequest]) -> Result<Vec<ChargeOutcome>, StoreError> {
        if charges.is_empty() {
            return Ok(Vec::new());
        }
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let outcomes = charge_batch(&mut SqliteChargeWriter(&mut transaction), charges).await?;
        transaction.commit().await?;
        Ok(outcomes)
    }

    async fn ledger(&self, account_id: Uuid, after: Option<i64>, limit: u32) -> Result<Vec<LedgerEntry>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {LEDGER_COLUMNS} FROM ledger l WHERE l.account_id = ?1 AND l.id > ?2 ORDER BY l.id LIMIT ?3"
        )))
        .bind(account_id.to_string())
        .bind(after.unwrap_or(0))
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(records::ledger_entry).collect()
    }

    async fn ledger_totals(&self, account_id: Uuid) -> Result<LedgerTotals, StoreError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(CASE WHEN kind = 'credit' THEN credits END), 0) AS credited, \
                COALESCE(SUM(CASE WHEN kind = 'charge' THEN credits END), 0) AS charged, COUNT(*) AS lines \
             FROM ledger WHERE account_id = ?1",
        )
        .bind(account_id.to_string())
        .fetch_one(&self.reader)
        .await?;
        Ok(LedgerTotals {
            credited: row.try_get("credited")?,
            charged: row.try_get("charged")?,
            lines: row.try_get::<i64, _>("lines")?.max(0) as u64,
        })
    }
}

/// A batch of charges on one `BEGIN IMMEDIATE` transaction: SQLite's write lock is already
/// held, so the balances read here cannot change before the commit.
struct SqliteChargeWriter<'c>(&'c mut SqliteConnection);

impl ChargeWriter for SqliteChargeWriter<'_> {
    async fn keys(&mut self, key_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeKey>, StoreError> {
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new("SELECT id, account_id, revoked_at FROM api_keys WHERE id IN (");
        let mut separated = builder.separated(", ");
        for key_id in key_ids {
            separated.push_bind(key_id.to_string());
        }
        builder.push(")");
        let mut keys = HashMap::new();
        for row in builder.build().fetch_all(&mut *self.0).await? {
            let key = ChargeKey {
                account_id: row.uuid("account_id")?,
                live: row.optional_timestamp("revoked_at")?.is_none(),
            };
            keys.insert(row.uuid("id")?, key);
        }
        Ok(keys)
    }

    async fn lock_balances(&mut self, account_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeBalance>, StoreError> {
        let mut builder: QueryBuilder<Sqlite> =
            QueryBuilder::new("SELECT id, status, credits_remaining FROM accounts WHERE id IN (");
        let mut separated = builder.separated(", ");
        for account_id in account_ids {
            separated.push_bind(account_id.to_string());
        }
        builder.push(")");
        let mut balances = HashMap::new();
        for row in builder.build().fetch_all(&mut *self.0).await? {
            let balance = ChargeBalance {
                status: row.parsed("status")?,
                remaining: row.integer("credits_remaining")?,
                taken: 0,
            };
            balances.insert(row.uuid("id")?, balance);
        }
        Ok(balances)
    }

    async fn take(&mut self, account_id: Uuid, credits: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE accounts SET credits_remaining = credits_remaining - ?2, credits_used = credits_used + ?2 \
             WHERE id = ?1",
        )
        .bind(account_id.to_string())
        .bind(credits)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn write_charge_lines(&mut self, charges: &[&ChargeRequest]) -> Result<(), StoreError> {
        for chunk in charges.chunks(LEDGER_LINES_PER_STATEMENT) {
            let mut builder: QueryBuilder<Sqlite> = QueryBuilder::new(
                "INSERT INTO ledger (account_id, api_key_id, kind, operation, credits, request_id, created_at) ",
            );
            builder.push_values(chunk, |mut row, charge| {
                row.push_bind(charge.account_id.to_string())
                    .push_bind(charge.api_key_id.to_string())
                    .push_bind(LedgerKind::Charge.as_str())
                    .push_bind(charge.operation.as_str())
                    .push_bind(charge.operation.cost())
                    .push_bind(charge.request_id.clone())
                    .push_bind(to_epoch_millis(charge.now));
            });
            builder.build().execute(&mut *self.0).await?;
        }
        Ok(())
    }
}
