//! Accounts, keys and credits on SQLite. Every balance change is one `BEGIN IMMEDIATE`
//! transaction with its ledger line; the balance check is the `UPDATE ... WHERE
//! credits_remaining >= cost` itself, so two concurrent reservations cannot both pass it.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::time::{Timestamp, to_epoch_millis};
use sqlx::{Row, SqliteConnection};
use uuid::Uuid;

use super::SqliteStore;
use super::rows::{self, ACCOUNT_COLUMNS, KEY_COLUMNS, LEDGER_COLUMNS};
use crate::StoreError;
use crate::accounts::{AccountStore, ChargeRequest, NewAccount, Reservation, ReserveError};

async fn fetch_account(connection: &mut SqliteConnection, account_id: Uuid) -> Result<Account, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"
    )))
    .bind(account_id.to_string())
    .fetch_optional(&mut *connection)
    .await?
    .ok_or(StoreError::NotFound("account"))?;
    rows::account(&row)
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

/// Gives back a pending charge. Does nothing (and returns false) unless it is still pending.
async fn refund_pending(connection: &mut SqliteConnection, ledger_id: i64, now: Timestamp) -> Result<bool, StoreError> {
    let charge = sqlx::query(
        "UPDATE ledger SET state = 'refunded' WHERE id = ?1 AND kind = 'charge' AND state = 'pending' \
         RETURNING account_id, api_key_id, operation, credits, request_id",
    )
    .bind(ledger_id)
    .fetch_optional(&mut *connection)
    .await?;
    let Some(charge) = charge else {
        return Ok(false);
    };
    let account_id: String = charge.try_get("account_id")?;
    let credits: i64 = charge.try_get("credits")?;
    sqlx::query(
        "UPDATE accounts SET credits_remaining = credits_remaining + ?2, credits_used = credits_used - ?2 WHERE id = ?1",
    )
    .bind(&account_id)
    .bind(credits)
    .execute(&mut *connection)
    .await?;
    sqlx::query(
        "INSERT INTO ledger (account_id, api_key_id, kind, operation, credits, refund_of, request_id, created_at) \
         VALUES (?1, ?2, 'refund', ?3, ?4, ?5, ?6, ?7)",
    )
    .bind(&account_id)
    .bind(charge.try_get::<Option<String>, _>("api_key_id")?)
    .bind(charge.try_get::<Option<String>, _>("operation")?)
    .bind(credits)
    .bind(ledger_id)
    .bind(charge.try_get::<Option<String>, _>("request_id")?)
    .bind(to_epoch_millis(now))
    .execute(&mut *connection)
    .await?;
    Ok(true)
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
        rows.iter().map(rows::account).collect()
    }

    async fn get_account(&self, account_id: Uuid) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?1"
        )))
        .bind(account_id.to_string())
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(rows::account).transpose()
    }

    async fn find_account_by_label(&self, label: &str) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {ACCOUNT_COLUMNS} FROM accounts a WHERE a.label = ?1 ORDER BY a.created_at, a.id LIMIT 1"
        )))
        .bind(label)
        .fetch_optional(&self.reader)
        .await?;
        row.as_ref().map(rows::account).transpose()
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
        rows.iter().map(rows::api_key).collect()
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
        let key = rows::api_key(&row)?;
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
        let key = rows::api_key(&row)?;
        let account = Account {
            id: key.account_id,
            label: row.try_get("label")?,
            tier: row.try_get("tier")?,
            wallet_address: row.try_get("wallet_address")?,
            status: rows::parsed(&row, "status")?,
            credits_remaining: row.try_get("credits_remaining")?,
            credits_purchased: row.try_get("credits_purchased")?,
            credits_used: row.try_get("credits_used")?,
            created_at: rows::timestamp(&row, "account_created_at")?,
        };
        Ok(Some((key, account)))
    }

    async fn reserve(&self, charge: ChargeRequest) -> Result<Reservation, ReserveError> {
        let cost = charge.operation.cost();
        let mut transaction = self
            .writer
            .begin_with("BEGIN IMMEDIATE")
            .await
            .map_err(StoreError::from)?;
        let reserved: Option<i64> = sqlx::query_scalar(
            "UPDATE accounts SET credits_remaining = credits_remaining - ?2, credits_used = credits_used + ?2 \
             WHERE id = ?1 AND credits_remaining >= ?2 RETURNING credits_remaining",
        )
        .bind(charge.account_id.to_string())
        .bind(cost)
        .fetch_optional(&mut *transaction)
        .await
        .map_err(StoreError::from)?;
        if reserved.is_none() {
            let account = fetch_account(&mut transaction, charge.account_id).await?;
            return Err(ReserveError::Insufficient {
                required: cost,
                remaining: account.credits_remaining,
            });
        };
        let ledger_id: i64 = sqlx::query_scalar(
            "INSERT INTO ledger (account_id, api_key_id, kind, operation, credits, state, request_id, created_at) \
             VALUES (?1, ?2, 'charge', ?3, ?4, 'pending', ?5, ?6) RETURNING id",
        )
        .bind(charge.account_id.to_string())
        .bind(charge.api_key_id.to_string())
        .bind(charge.operation.as_str())
        .bind(cost)
        .bind(&charge.request_id)
        .bind(to_epoch_millis(charge.now))
        .fetch_one(&mut *transaction)
        .await
        .map_err(StoreError::from)?;
        transaction.commit().await.map_err(StoreError::from)?;
        Ok(Reservation {
            ledger_id,
            account_id: charge.account_id,
            credits: cost,
        })
    }

    async fn settle(&self, reservation: &Reservation) -> Result<bool, StoreError> {
        let updated = sqlx::query("UPDATE ledger SET state = 'settled' WHERE id = ?1 AND state = 'pending'")
            .bind(reservation.ledger_id)
            .execute(&self.writer)
            .await?;
        Ok(updated.rows_affected() == 1)
    }

    async fn refund(&self, reservation: &Reservation, now: Timestamp) -> Result<bool, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let refunded = refund_pending(&mut transaction, reservation.ledger_id, now).await?;
        transaction.commit().await?;
        Ok(refunded)
    }

    async fn release_stale_reservations(&self, older_than: Timestamp, now: Timestamp) -> Result<u64, StoreError> {
        let mut transaction = self.writer.begin_with("BEGIN IMMEDIATE").await?;
        let stale: Vec<i64> =
            sqlx::query_scalar("SELECT id FROM ledger WHERE state = 'pending' AND created_at < ?1 ORDER BY id")
                .bind(to_epoch_millis(older_than))
                .fetch_all(&mut *transaction)
                .await?;
        let mut released = 0;
        for ledger_id in stale {
            if refund_pending(&mut transaction, ledger_id, now).await? {
                released += 1;
            }
        }
        transaction.commit().await?;
        Ok(released)
    }

    async fn ledger(&self, account_id: Uuid) -> Result<Vec<LedgerEntry>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {LEDGER_COLUMNS} FROM ledger l WHERE l.account_id = ?1 ORDER BY l.id"
        )))
        .bind(account_id.to_string())
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(rows::ledger_entry).collect()
    }
}
