//! Accounts, keys and credits on PostgreSQL. Every balance change is one transaction with its
//! ledger lines, made under `SELECT ... FOR UPDATE` of the account rows (taken in id order):
//! nodes charging one account at once queue on its row, so none can decide against a balance
//! another is about to change.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry, LedgerKind};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::time::Timestamp;
use sqlx::{PgConnection, Row};
use std::collections::HashMap;
use uuid::Uuid;

use super::PgStore;
use crate::StoreError;
use crate::accounts::{
    AccountStore, ChargeBalance, ChargeKey, ChargeOutcome, ChargeRequest, ChargeWriter, LedgerTotals, NewAccount,
    charge_batch,
};
use crate::records::{self, ACCOUNT_COLUMNS, KEY_COLUMNS, LEDGER_COLUMNS, RecordRow};

async fn fetch_account(connection: &mut PgConnection, account_id: Uuid) -> Result<Account, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1"
    )))
    .bind(account_id)
    .fetch_optional(&mut *connection)
    .await?
    .ok_or(StoreError::NotFound("account"))?;
    records::account(&row)
}

async fn write_credit_line(
    connection: &mut PgConnection,
    account_id: Uuid,
    credits: i64,
    now: Timestamp,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO ledger (account_id, kind, credits, created_at) VALUES ($1, 'credit', $2, $3)")
        .bind(account_id)
        .bind(credits)
        .bind(now)
        .execute(&mut *connection)
        .await?;
    Ok(())
}

#[async_trait]
impl AccountStore for PgStore {
    async fn create_account(&self, new_account: NewAccount, now: Timestamp) -> Result<Account, StoreError> {
        if new_account.initial_credits < 0 {
            return Err(StoreError::Invalid("initial credits cannot be negative".to_owned()));
        }
        let account_id = Uuid::new_v4();
        let mut transaction = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO accounts (id, label, tier, wallet_address, status, credits_remaining, credits_purchased, \
                credits_used, created_at) VALUES ($1, $2, $3, $4, 'active', $5, $5, 0, $6)",
        )
        .bind(account_id)
        .bind(&new_account.label)
        .bind(&new_account.tier)
        .bind(&new_account.wallet_address)
        .bind(new_account.initial_credits)
        .bind(now)
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
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::account).collect()
    }

    async fn get_account(&self, account_id: Uuid) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = $1"
        )))
        .bind(account_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(records::account).transpose()
    }

    async fn find_account_by_label(&self, label: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.label = $1 ORDER BY a.created_at, a.id LIMIT 1"
        )))
        .bind(label)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(records::account).transpose()
    }

    async fn add_credits(&self, account_id: Uuid, credits: i64, now: Timestamp) -> Result<Account, StoreError> {
        if credits <= 0 {
            return Err(StoreError::Invalid("credits to add must be at least 1".to_owned()));
        }
        let mut transaction = self.pool.begin().await?;
        let updated = sqlx::query(
            "UPDATE accounts SET credits_remaining = credits_remaining + $2, \
                credits_purchased = credits_purchased + $2 WHERE id = $1",
        )
        .bind(account_id)
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
        let mut transaction = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET status = $2 WHERE id = $1")
            .bind(account_id)
            .bind(status.as_str())
            .execute(&mut *transaction)
            .await?;
        let account = fetch_account(&mut transaction, account_id).await?;
        transaction.commit().await?;
        Ok(account)
    }

    async fn set_account_tier(&self, account_id: Uuid, tier: &str) -> Result<Account, StoreError> {
        let mut transaction = self.pool.begin().await?;
        sqlx::query("UPDATE accounts SET tier = $2 WHERE id = $1")
            .bind(account_id)
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
        let mut transaction = self.pool.begin().await?;
        fetch_account(&mut transaction, account_id).await?;
        let key_id = Uuid::new_v4();
        sqlx::query("INSERT INTO api_keys (id, account_id, key_hash, display, created_at) VALUES ($1, $2, $3, $4, $5)")
            .bind(key_id)
            .bind(account_id)
            .bind(key_hash.0.to_vec())
            .bind(display)
            .bind(now)
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
            "SELECT {KEY_COLUMNS} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at, k.id"
        )))
        .bind(account_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::api_key).collect()
    }

    async fn revoke_key(&self, key_id: Uuid, now: Timestamp) -> Result<ApiKeyRecord, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE api_keys k SET revoked_at = COALESCE(k.revoked_at, $2) WHERE k.id = $1 RETURNING {KEY_COLUMNS}"
        )))
        .bind(key_id)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?
        .ok_or(StoreError::NotFound("API key"))?;
        records::api_key(&row)
    }

    async fn authenticate(&self, key_hash: &KeyHash) -> Result<Option<(ApiKeyRecord, Account)>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {KEY_COLUMNS}, k.key_hash, a.label, a.tier, a.wallet_address, a.status, a.credits_remaining, \
                a.credits_purchased, a.credits_used, a.created_at AS account_created_at \
             FROM api_keys k JOIN accounts a ON a.id = k.account_id \
             WHERE k.key_hash = $1 AND k.revoked_at IS NULL"
        )))
        .bind(key_hash.0.to_vec())
        .fetch_optional(&self.pool)
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
        let mut transaction = self.pool.begin().await?;
        let outcomes = charge_batch(&mut PgChargeWriter(&mut transaction), charges).await?;
        transaction.commit().await?;
        Ok(outcomes)
    }

    async fn ledger(&self, account_id: Uuid, after: Option<i64>, limit: u32) -> Result<Vec<LedgerEntry>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {LEDGER_COLUMNS} FROM ledger l WHERE l.account_id = $1 AND l.id > $2 ORDER BY l.id LIMIT $3"
        )))
        .bind(account_id)
        .bind(after.unwrap_or(0))
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(records::ledger_entry).collect()
    }

    async fn ledger_totals(&self, account_id: Uuid) -> Result<LedgerTotals, StoreError> {
        let row = sqlx::query(
            "SELECT COALESCE(SUM(credits) FILTER (WHERE kind = 'credit'), 0)::bigint AS credited, \
                COALESCE(SUM(credits) FILTER (WHERE kind = 'charge'), 0)::bigint AS charged, COUNT(*) AS lines \
             FROM ledger WHERE account_id = $1",
        )
        .bind(account_id)
        .fetch_one(&self.pool)
        .await?;
        Ok(LedgerTotals {
            credited: row.integer("credited")?,
            charged: row.integer("charged")?,
            lines: row.count("lines")?,
        })
    }
}

/// A batch of charges on one transaction, the account rows locked until it ends.
struct PgChargeWriter<'c>(&'c mut PgConnection);

impl ChargeWriter for PgChargeWriter<'_> {
    async fn keys(&mut self, key_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeKey>, StoreError> {
        let rows = sqlx::query("SELECT id, account_id, revoked_at FROM api_keys WHERE id = ANY($1)")
            .bind(key_ids)
            .fetch_all(&mut *self.0)
            .await?;
        let mut keys = HashMap::new();
        for row in rows {
            let key = ChargeKey {
                account_id: row.uuid("account_id")?,
                live: row.optional_timestamp("revoked_at")?.is_none(),
            };
            keys.insert(row.uuid("id")?, key);
        }
        Ok(keys)
    }

    async fn lock_balances(&mut self, account_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeBalance>, StoreError> {
        let rows =
            sqlx::query("SELECT id, status, credits_remaining FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE")
                .bind(account_ids)
                .fetch_all(&mut *self.0)
                .await?;
        let mut balances = HashMap::new();
        for row in rows {
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
            "UPDATE accounts SET credits_remaining = credits_remaining - $2, credits_used = credits_used + $2 \
             WHERE id = $1",
        )
        .bind(account_id)
        .bind(credits)
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }

    async fn write_charge_lines(&mut self, charges: &[&ChargeRequest]) -> Result<(), StoreError> {
        let accounts: Vec<Uuid> = charges.iter().map(|charge| charge.account_id).collect();
        let keys: Vec<Uuid> = charges.iter().map(|charge| charge.api_key_id).collect();
        let operations: Vec<&str> = charges.iter().map(|charge| charge.operation.as_str()).collect();
        let credits: Vec<i64> = charges.iter().map(|charge| charge.operation.cost()).collect();
        let request_ids: Vec<&str> = charges.iter().map(|charge| charge.request_id.as_str()).collect();
        let times: Vec<Timestamp> = charges.iter().map(|charge| charge.now).collect();
        sqlx::query(
            "INSERT INTO ledger (account_id, api_key_id, kind, operation, credits, request_id, created_at) \
             SELECT account_id, api_key_id, $7, operation, credits, request_id, created_at \
             FROM UNNEST($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::text[], $6::timestamptz[]) \
                AS line (account_id, api_key_id, operation, credits, request_id, created_at)",
        )
        .bind(accounts)
        .bind(keys)
        .bind(operations)
        .bind(credits)
        .bind(request_ids)
        .bind(times)
        .bind(LedgerKind::Charge.as_str())
        .execute(&mut *self.0)
        .await?;
        Ok(())
    }
}
