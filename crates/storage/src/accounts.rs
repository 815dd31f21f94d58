//! The accounts half of the storage interface: accounts, keys and credits.
//!
//! Credits move in one step: a call is charged when its work has succeeded, by
//! [`AccountStore::charge`], which takes the cost from the balance only if the balance covers
//! it, and writes the ledger line in the same transaction. Nothing is taken before the call is
//! known to succeed, and a process that dies mid-call leaves no credit reserved.
//!
//! `charge` takes a batch: the server groups the charges of concurrent calls into one
//! transaction (group commit), which is what lets one SQLite writer, or one hot account row
//! in PostgreSQL, keep up with thousands of calls a second. Each charge in a batch is decided
//! on its own, in order, against the balance the ones before it left.
//!
//! A charge may carry an answer to keep under an idempotency key ([`ChargeRequest::keep`]):
//! it is taken only if the key's claim is still the call's, and the claim is completed with
//! the answer in the same transaction (see `idempotency.rs` for why).
//!
//! A batch's transaction also records the batch, by an id its caller chose, with what became
//! of each charge. A server whose connection to the store broke while the batch committed
//! cannot tell from the error whether it did; [`AccountStore::settle_charge_batch`] tells it
//! once the store answers again. The charges it then finds taken for calls it could not
//! answer are given back by [`AccountStore::refund`], once per batch, each with a ledger
//! refund line: so a call is paid for only when it was answered.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry, LedgerKind};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::billing::Operation;
use marketlens_domain::time::Timestamp;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use uuid::Uuid;

use crate::StoreError;
use crate::idempotency::AnswerToKeep;

#[derive(Debug, Clone)]
pub struct NewAccount {
    pub label: String,
    pub tier: String,
    pub wallet_address: String,
    pub initial_credits: i64,
}

#[derive(Debug, Clone)]
pub struct ChargeRequest {
    pub account_id: Uuid,
    pub api_key_id: Uuid,
    pub operation: Operation,
    /// What the call costs: its operation's cost, times the items it served where it is
    /// charged per item (`GET /api/v1/orderbooks`).
    pub credits: i64,
    pub request_id: String,
    pub now: Timestamp,
    /// The answer to keep under the call's idempotency key, if it has one: the charge is taken
    /// only if the key's claim is still the call's, and completes it.
    pub keep: Option<Arc<AnswerToKeep>>,
}

/// What became of one charge of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ChargeOutcome {
    /// Taken, with its ledger line; `remaining` is the balance after it.
    Charged { remaining: i64 },
    /// The balance does not cover the cost; nothing was taken.
    Insufficient { required: i64, remaining: i64 },
    /// The key is revoked, unknown, or not the account's; nothing was taken.
    KeyRevoked,
    /// The account is suspended; nothing was taken.
    AccountSuspended,
    /// The call's idempotency key is no longer its own (its claim lapsed and was taken over,
    /// or was swept); nothing was taken.
    ClaimLost,
}

/// The sums of an account's ledger, to check the books: `credited` must equal
/// `credits_purchased` and `charged - refunded` must equal `credits_used`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LedgerTotals {
    pub credited: i64,
    pub charged: i64,
    pub refunded: i64,
    pub lines: u64,
}

impl LedgerTotals {
    /// What the account has paid for: its charges less what was given back.
    pub fn used(&self) -> i64 {
        self.charged - self.refunded
    }
}

#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Creates an account; its initial credits are a ledger credit line.
    async fn create_account(&self, new_account: NewAccount, now: Timestamp) -> Result<Account, StoreError>;

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError>;

    async fn get_account(&self, account_id: Uuid) -> Result<Option<Account>, StoreError>;

    /// The oldest account with this label, if any.
    async fn find_account_by_label(&self, label: &str) -> Result<Option<Account>, StoreError>;

    /// Adds credits (raising purchased and remaining), with a ledger credit line.
    async fn add_credits(&self, account_id: Uuid, credits: i64, now: Timestamp) -> Result<Account, StoreError>;

    async fn set_account_status(&self, account_id: Uuid, status: AccountStatus) -> Result<Account, StoreError>;

    /// Moves the account to another tier (its rate limit); the caller checks the tier exists.
    async fn set_account_tier(&self, account_id: Uuid, tier: &str) -> Result<Account, StoreError>;

    async fn create_key(
        &self,
        account_id: Uuid,
        key_hash: KeyHash,
        display: &str,
        now: Timestamp,
    ) -> Result<ApiKeyRecord, StoreError>;

    async fn list_keys(&self, account_id: Uuid) -> Result<Vec<ApiKeyRecord>, StoreError>;

    /// Revokes a key from its next request on. Revoking a revoked key changes nothing.
    async fn revoke_key(&self, key_id: Uuid, now: Timestamp) -> Result<ApiKeyRecord, StoreError>;

    /// The unrevoked key with this hash and its account.
    async fn authenticate(&self, key_hash: &KeyHash) -> Result<Option<(ApiKeyRecord, Account)>, StoreError>;

    /// Charges a batch of calls in one transaction: each charge, in order, is taken if its key
    /// is live, its account active and the balance covers its cost. One outcome per charge, in
    /// the same order. The transaction records the outcomes under `batch` (a fresh id per
    /// call). A store error means the batch was not taken, unless the error came while it
    /// committed: [`AccountStore::settle_charge_batch`] says which.
    async fn charge(&self, batch: Uuid, charges: &[ChargeRequest]) -> Result<Vec<ChargeOutcome>, StoreError>;

    /// Settles whether `batch` was taken, for a caller whose `charge` failed without saying:
    /// its outcomes if its transaction committed; if not, `None`, and the batch is recorded as
    /// never taken, so that it never can be (a transaction of it still open is waited for, or
    /// fails on the record when it commits). Also `None` once the record was swept, a day after.
    async fn settle_charge_batch(&self, batch: Uuid, now: Timestamp) -> Result<Option<Vec<ChargeOutcome>>, StoreError>;

    /// Gives back, in one transaction, charges of `batch` that were taken for calls never
    /// answered: each raises its account's remaining, lowers its used, and writes a refund
    /// line. Once per batch: `false` (and nothing given back) if the batch has no record or its
    /// charges were given back already.
    async fn refund(&self, batch: Uuid, charges: &[ChargeRequest], now: Timestamp) -> Result<bool, StoreError>;

    /// Deletes the records of charge batches committed before `before`; how many.
    async fn delete_charge_batches_before(&self, before: Timestamp) -> Result<u64, StoreError>;

    /// Up to `limit` lines of the account's ledger after line `after` (from the start when
    /// `None`), oldest first.
    async fn ledger(&self, account_id: Uuid, after: Option<i64>, limit: u32) -> Result<Vec<LedgerEntry>, StoreError>;

    /// The sums of the account's whole ledger.
    async fn ledger_totals(&self, account_id: Uuid) -> Result<LedgerTotals, StoreError>;
}

/// A key as a batch of charges sees it.
pub(crate) struct ChargeKey {
    pub account_id: Uuid,
    pub live: bool,
}

/// An account as a batch of charges sees it: its balance when the batch began, and what the
/// batch has taken so far.
pub(crate) struct ChargeBalance {
    pub status: AccountStatus,
    pub remaining: i64,
    pub taken: i64,
}

/// A backend's statements for [`charge_batch`], run inside one transaction that holds the
/// accounts' balances against every other writer until it commits.
pub(crate) trait ChargeWriter {
    /// These keys (those that exist), by id.
    async fn keys(&mut self, key_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeKey>, StoreError>;

    /// These accounts (those that exist), by id, locked until the transaction ends.
    async fn lock_balances(&mut self, account_ids: &[Uuid]) -> Result<HashMap<Uuid, ChargeBalance>, StoreError>;

    /// Takes `credits` from the account: remaining down, used up.
    async fn take(&mut self, account_id: Uuid, credits: i64) -> Result<(), StoreError>;

    /// One ledger line of `kind` (a charge, or its refund) per charge.
    async fn write_ledger_lines(&mut self, kind: LedgerKind, charges: &[&ChargeRequest]) -> Result<(), StoreError>;

    /// Those of these idempotency claims (by owner) that are still held and not completed,
    /// locked until the transaction ends.
    async fn held_claims(&mut self, owners: &[Uuid]) -> Result<HashSet<Uuid>, StoreError>;

    /// Completes a held claim with its answer and what its charge took.
    async fn keep_answer(&mut self, answer: &AnswerToKeep, credits_used: i64, remaining: i64)
    -> Result<(), StoreError>;

    /// Records the batch and its outcomes (JSON).
    async fn record_batch(&mut self, batch: Uuid, outcomes: &str, now: Timestamp) -> Result<(), StoreError>;
}

/// Charges a batch (see [`AccountStore::charge`]) through a backend's statements.
pub(crate) async fn charge_batch(
    writer: &mut impl ChargeWriter,
    batch: Uuid,
    charges: &[ChargeRequest],
) -> Result<Vec<ChargeOutcome>, StoreError> {
    let key_ids = distinct(charges.iter().map(|charge| charge.api_key_id));
    let account_ids = distinct(charges.iter().map(|charge| charge.account_id));
    let keys = writer.keys(&key_ids).await?;
    let mut balances = writer.lock_balances(&account_ids).await?;
    let owners: Vec<Uuid> = charges
        .iter()
        .filter_map(|charge| charge.keep.as_ref().map(|answer| answer.claim.owner))
        .collect();
    let held = if owners.is_empty() {
        HashSet::new()
    } else {
        writer.held_claims(&owners).await?
    };
    let outcomes = decide_charges(charges, &keys, &mut balances, &held);
    for account_id in account_ids {
        let taken = balances.get(&account_id).map_or(0, |balance| balance.taken);
        if taken > 0 {
            writer.take(account_id, taken).await?;
        }
    }
    let charged: Vec<&ChargeRequest> = charges
        .iter()
        .zip(&outcomes)
        .filter(|(_, outcome)| matches!(outcome, ChargeOutcome::Charged { .. }))
        .map(|(charge, _)| charge)
        .collect();
    if !charged.is_empty() {
        writer.write_ledger_lines(LedgerKind::Charge, &charged).await?;
    }
    for (charge, outcome) in charges.iter().zip(&outcomes) {
        if let (Some(answer), ChargeOutcome::Charged { remaining }) = (&charge.keep, outcome) {
            writer.keep_answer(answer, charge.credits, *remaining).await?;
        }
    }
    let recorded = serde_json::to_string(&outcomes).map_err(|error| StoreError::Internal(error.to_string()))?;
    let now = charges.iter().map(|charge| charge.now).max().unwrap_or_default();
    writer.record_batch(batch, &recorded, now).await?;
    Ok(outcomes)
}

/// The outcomes a batch's record holds: `None` for a batch recorded as never taken.
pub(crate) fn recorded_outcomes(recorded: &str) -> Result<Option<Vec<ChargeOutcome>>, StoreError> {
    serde_json::from_str(recorded)
        .map_err(|error| StoreError::Internal(format!("a charge batch's recorded outcomes do not read: {error}")))
}

/// The ids once each, in order: locks are taken in id order, so that two batches on several
/// accounts never wait for each other in a circle.
fn distinct(ids: impl Iterator<Item = Uuid>) -> Vec<Uuid> {
    ids.collect::<BTreeSet<Uuid>>().into_iter().collect()
}

/// Decides each charge of a batch in order, against the balance the ones before it left; a
/// charge keeping an answer only while its claim is among the `held` ones, and once in a batch.
fn decide_charges(
    charges: &[ChargeRequest],
    keys: &HashMap<Uuid, ChargeKey>,
    balances: &mut HashMap<Uuid, ChargeBalance>,
    held: &HashSet<Uuid>,
) -> Vec<ChargeOutcome> {
    let mut completed = HashSet::new();
    charges
        .iter()
        .map(|charge| {
            if let Some(answer) = &charge.keep
                && (!held.contains(&answer.claim.owner) || completed.contains(&answer.claim.owner))
            {
                return ChargeOutcome::ClaimLost;
            }
            let key_belongs = keys
                .get(&charge.api_key_id)
                .is_some_and(|key| key.live && key.account_id == charge.account_id);
            let Some(balance) = balances.get_mut(&charge.account_id).filter(|_| key_belongs) else {
                return ChargeOutcome::KeyRevoked;
            };
            if balance.status == AccountStatus::Suspended {
                return ChargeOutcome::AccountSuspended;
            }
            let cost = charge.credits;
            let remaining = balance.remaining - balance.taken;
            if remaining < cost {
                return ChargeOutcome::Insufficient {
                    required: cost,
                    remaining,
                };
            }
            balance.taken += cost;
            if let Some(answer) = &charge.keep {
                completed.insert(answer.claim.owner);
            }
            ChargeOutcome::Charged {
                remaining: remaining - cost,
            }
        })
        .collect()
}

/// Ledger lines per multi-row insert: 7 values each, well under SQLite's 32,766 parameters
/// and PostgreSQL's 65,535.
pub(crate) const LEDGER_LINES_PER_STATEMENT: usize = 1_000;

/// [`AccountStore`] for a [`Backend`](crate::backend::Backend) store. Every balance change is
/// one transaction with its ledger lines, begun by `begin_write`: on SQLite it holds the write
/// lock from the start, so a batch of charges decides against balances no other writer (of
/// this process or another) can change until it commits; on PostgreSQL the account rows of a
/// batch are locked (`FOR UPDATE`, in id order), so nodes charging one account queue on its row.
macro_rules! account_store_sql {
    ($store:ty) => {
        impl $store {
            async fn account_in(
                connection: &mut Connection,
                account_id: uuid::Uuid,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM accounts a WHERE a.id = $1",
                    $crate::records::ACCOUNT_COLUMNS
                )))
                .bind(Self::id(account_id))
                .fetch_optional(&mut *connection)
                .await?
                .ok_or($crate::StoreError::NotFound("account"))?;
                $crate::records::account(&row)
            }

            async fn write_credit_line(
                connection: &mut Connection,
                account_id: uuid::Uuid,
                credits: i64,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<(), $crate::StoreError> {
                sqlx::query("INSERT INTO ledger (account_id, kind, credits, created_at) VALUES ($1, 'credit', $2, $3)")
                    .bind(Self::id(account_id))
                    .bind(credits)
                    .bind(Self::time(now))
                    .execute(&mut *connection)
                    .await?;
                Ok(())
            }

            /// Sets one column of an account and returns the account.
            async fn update_account(
                &self,
                account_id: uuid::Uuid,
                assignment: &'static str,
                value: &str,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                let mut transaction = self.begin_write().await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("UPDATE accounts SET {assignment} = $2 WHERE id = $1")))
                    .bind(Self::id(account_id))
                    .bind(value)
                    .execute(&mut *transaction)
                    .await?;
                let account = Self::account_in(&mut transaction, account_id).await?;
                transaction.commit().await?;
                Ok(account)
            }
        }

        #[async_trait::async_trait]
        impl $crate::AccountStore for $store {
            async fn create_account(
                &self,
                new_account: $crate::NewAccount,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                if new_account.initial_credits < 0 {
                    return Err($crate::StoreError::Invalid("initial credits cannot be negative".to_owned()));
                }
                let account_id = uuid::Uuid::new_v4();
                let mut transaction = self.begin_write().await?;
                sqlx::query(
                    "INSERT INTO accounts (id, label, tier, wallet_address, status, credits_remaining, \
                        credits_purchased, credits_used, created_at) VALUES ($1, $2, $3, $4, 'active', $5, $5, 0, $6)",
                )
                .bind(Self::id(account_id))
                .bind(&new_account.label)
                .bind(&new_account.tier)
                .bind(&new_account.wallet_address)
                .bind(new_account.initial_credits)
                .bind(Self::time(now))
                .execute(&mut *transaction)
                .await?;
                if new_account.initial_credits > 0 {
                    Self::write_credit_line(&mut transaction, account_id, new_account.initial_credits, now).await?;
                }
                let account = Self::account_in(&mut transaction, account_id).await?;
                transaction.commit().await?;
                Ok(account)
            }

            async fn list_accounts(&self) -> Result<Vec<marketlens_domain::account::Account>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM accounts a ORDER BY a.created_at, a.id",
                    $crate::records::ACCOUNT_COLUMNS
                )))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::account).collect()
            }

            async fn get_account(
                &self,
                account_id: uuid::Uuid,
            ) -> Result<Option<marketlens_domain::account::Account>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM accounts a WHERE a.id = $1",
                    $crate::records::ACCOUNT_COLUMNS
                )))
                .bind(Self::id(account_id))
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::records::account).transpose()
            }

            async fn find_account_by_label(
                &self,
                label: &str,
            ) -> Result<Option<marketlens_domain::account::Account>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM accounts a WHERE a.label = $1 ORDER BY a.created_at, a.id LIMIT 1",
                    $crate::records::ACCOUNT_COLUMNS
                )))
                .bind(label)
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::records::account).transpose()
            }

            async fn add_credits(
                &self,
                account_id: uuid::Uuid,
                credits: i64,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                if credits <= 0 {
                    return Err($crate::StoreError::Invalid("credits to add must be at least 1".to_owned()));
                }
                let mut transaction = self.begin_write().await?;
                let updated = sqlx::query(
                    "UPDATE accounts SET credits_remaining = credits_remaining + $2, \
                        credits_purchased = credits_purchased + $2 WHERE id = $1",
                )
                .bind(Self::id(account_id))
                .bind(credits)
                .execute(&mut *transaction)
                .await?;
                if updated.rows_affected() == 0 {
                    return Err($crate::StoreError::NotFound("account"));
                }
                Self::write_credit_line(&mut transaction, account_id, credits, now).await?;
                let account = Self::account_in(&mut transaction, account_id).await?;
                transaction.commit().await?;
                Ok(account)
            }

            async fn set_account_status(
                &self,
                account_id: uuid::Uuid,
                status: marketlens_domain::account::AccountStatus,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                self.update_account(account_id, "status", status.as_str()).await
            }

            async fn set_account_tier(
                &self,
                account_id: uuid::Uuid,
                tier: &str,
            ) -> Result<marketlens_domain::account::Account, $crate::StoreError> {
                self.update_account(account_id, "tier", tier).await
            }

            async fn create_key(
                &self,
                account_id: uuid::Uuid,
                key_hash: marketlens_domain::api_key::KeyHash,
                display: &str,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<marketlens_domain::account::ApiKeyRecord, $crate::StoreError> {
                let mut transaction = self.begin_write().await?;
                Self::account_in(&mut transaction, account_id).await?;
                let key_id = uuid::Uuid::new_v4();
                sqlx::query(
                    "INSERT INTO api_keys (id, account_id, key_hash, display, created_at) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(Self::id(key_id))
                .bind(Self::id(account_id))
                .bind(key_hash.0.to_vec())
                .bind(display)
                .bind(Self::time(now))
                .execute(&mut *transaction)
                .await?;
                transaction.commit().await?;
                Ok(marketlens_domain::account::ApiKeyRecord {
                    id: key_id,
                    account_id,
                    display: display.to_owned(),
                    created_at: now,
                    revoked_at: None,
                })
            }

            async fn list_keys(
                &self,
                account_id: uuid::Uuid,
            ) -> Result<Vec<marketlens_domain::account::ApiKeyRecord>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM api_keys k WHERE k.account_id = $1 ORDER BY k.created_at, k.id",
                    $crate::records::KEY_COLUMNS
                )))
                .bind(Self::id(account_id))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::api_key).collect()
            }

            async fn revoke_key(
                &self,
                key_id: uuid::Uuid,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<marketlens_domain::account::ApiKeyRecord, $crate::StoreError> {
                let mut transaction = self.begin_write().await?;
                sqlx::query("UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1")
                    .bind(Self::id(key_id))
                    .bind(Self::time(now))
                    .execute(&mut *transaction)
                    .await?;
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM api_keys k WHERE k.id = $1",
                    $crate::records::KEY_COLUMNS
                )))
                .bind(Self::id(key_id))
                .fetch_optional(&mut *transaction)
                .await?
                .ok_or($crate::StoreError::NotFound("API key"))?;
                let key = $crate::records::api_key(&row)?;
                transaction.commit().await?;
                Ok(key)
            }

            async fn authenticate(
                &self,
                key_hash: &marketlens_domain::api_key::KeyHash,
            ) -> Result<
                Option<(marketlens_domain::account::ApiKeyRecord, marketlens_domain::account::Account)>,
                $crate::StoreError,
            > {
                use sqlx::Row;
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {}, k.key_hash, a.label, a.tier, a.wallet_address, a.status, a.credits_remaining, \
                        a.credits_purchased, a.credits_used, a.created_at AS account_created_at \
                     FROM api_keys k JOIN accounts a ON a.id = k.account_id \
                     WHERE k.key_hash = $1 AND k.revoked_at IS NULL",
                    $crate::records::KEY_COLUMNS
                )))
                .bind(key_hash.0.to_vec())
                .fetch_optional(self.reader())
                .await?;
                let Some(row) = row else {
                    return Ok(None);
                };
                // The index lookup found the row by hash; compare again in constant time so that
                // the final decision never depends on how many bytes matched.
                let stored_hash: Vec<u8> = row.try_get("key_hash")?;
                let stored_hash: [u8; 32] = stored_hash
                    .try_into()
                    .map_err(|_| $crate::StoreError::Internal("stored key hash is not 32 bytes".to_owned()))?;
                if !marketlens_domain::api_key::KeyHash(stored_hash).matches(key_hash) {
                    return Ok(None);
                }
                let key = $crate::records::api_key(&row)?;
                let account = $crate::records::account_from(&row, "account_id", "account_created_at")?;
                Ok(Some((key, account)))
            }

            async fn charge(
                &self,
                batch: uuid::Uuid,
                charges: &[$crate::ChargeRequest],
            ) -> Result<Vec<$crate::ChargeOutcome>, $crate::StoreError> {
                if charges.is_empty() {
                    return Ok(Vec::new());
                }
                let mut transaction = self.begin_write().await?;
                let outcomes =
                    $crate::accounts::charge_batch(&mut Statements(&mut transaction), batch, charges).await?;
                transaction.commit().await?;
                Ok(outcomes)
            }

            async fn settle_charge_batch(
                &self,
                batch: uuid::Uuid,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<Option<Vec<$crate::ChargeOutcome>>, $crate::StoreError> {
                use $crate::records::RecordRow;
                let mut transaction = self.begin_write().await?;
                // A void record, unless the batch's own is there: its primary key makes this
                // wait for a transaction of the batch still open, and makes a later commit of
                // that transaction fail.
                let voided = sqlx::query(
                    "INSERT INTO charge_batches (id, outcomes, created_at) VALUES ($1, 'null', $2) \
                     ON CONFLICT (id) DO NOTHING",
                )
                .bind(Self::id(batch))
                .bind(Self::time(now))
                .execute(&mut *transaction)
                .await?;
                let outcomes = if voided.rows_affected() == 1 {
                    None
                } else {
                    let row = sqlx::query("SELECT outcomes FROM charge_batches WHERE id = $1")
                        .bind(Self::id(batch))
                        .fetch_one(&mut *transaction)
                        .await?;
                    $crate::accounts::recorded_outcomes(&row.text("outcomes")?)?
                };
                transaction.commit().await?;
                Ok(outcomes)
            }

            async fn refund(
                &self,
                batch: uuid::Uuid,
                charges: &[$crate::ChargeRequest],
                now: marketlens_domain::time::Timestamp,
            ) -> Result<bool, $crate::StoreError> {
                let mut transaction = self.begin_write().await?;
                let claimed = sqlx::query(
                    "UPDATE charge_batches SET refunded_at = $2 \
                     WHERE id = $1 AND refunded_at IS NULL AND outcomes <> 'null'",
                )
                .bind(Self::id(batch))
                .bind(Self::time(now))
                .execute(&mut *transaction)
                .await?;
                if claimed.rows_affected() == 0 {
                    return Ok(false);
                }
                // One update per account, in id order, as a batch of charges locks them: two
                // transactions on the same accounts never wait for each other in a circle.
                let mut given_back = std::collections::BTreeMap::<uuid::Uuid, i64>::new();
                for charge in charges {
                    *given_back.entry(charge.account_id).or_default() += charge.credits;
                }
                use $crate::accounts::ChargeWriter;
                let mut statements = Statements(&mut transaction);
                for (account_id, credits) in given_back {
                    // Giving back is taking a negative amount: remaining up, used down.
                    statements.take(account_id, -credits).await?;
                }
                let lines: Vec<&$crate::ChargeRequest> = charges.iter().collect();
                statements
                    .write_ledger_lines(marketlens_domain::account::LedgerKind::Refund, &lines)
                    .await?;
                transaction.commit().await?;
                Ok(true)
            }

            async fn delete_charge_batches_before(
                &self,
                before: marketlens_domain::time::Timestamp,
            ) -> Result<u64, $crate::StoreError> {
                let deleted = sqlx::query("DELETE FROM charge_batches WHERE created_at < $1")
                    .bind(Self::time(before))
                    .execute(self.writer())
                    .await?;
                Ok(deleted.rows_affected())
            }

            async fn ledger(
                &self,
                account_id: uuid::Uuid,
                after: Option<i64>,
                limit: u32,
            ) -> Result<Vec<marketlens_domain::account::LedgerEntry>, $crate::StoreError> {
                let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM ledger l WHERE l.account_id = $1 AND l.id > $2 ORDER BY l.id LIMIT $3",
                    $crate::records::LEDGER_COLUMNS
                )))
                .bind(Self::id(account_id))
                .bind(after.unwrap_or(0))
                .bind(i64::from(limit))
                .fetch_all(self.reader())
                .await?;
                rows.iter().map($crate::records::ledger_entry).collect()
            }

            async fn ledger_totals(&self, account_id: uuid::Uuid) -> Result<$crate::LedgerTotals, $crate::StoreError> {
                use $crate::records::RecordRow;
                let row = sqlx::query(
                    "SELECT CAST(COALESCE(SUM(CASE WHEN kind = 'credit' THEN credits END), 0) AS BIGINT) AS credited, \
                        CAST(COALESCE(SUM(CASE WHEN kind = 'charge' THEN credits END), 0) AS BIGINT) AS charged, \
                        CAST(COALESCE(SUM(CASE WHEN kind = 'refund' THEN credits END), 0) AS BIGINT) AS refunded, \
                        COUNT(*) AS lines \
                     FROM ledger WHERE account_id = $1",
                )
                .bind(Self::id(account_id))
                .fetch_one(self.reader())
                .await?;
                Ok($crate::LedgerTotals {
                    credited: row.integer("credited")?,
                    charged: row.integer("charged")?,
                    refunded: row.integer("refunded")?,
                    lines: row.count("lines")?,
                })
            }
        }

        impl $crate::accounts::ChargeWriter for Statements<'_> {
            async fn keys(
                &mut self,
                key_ids: &[uuid::Uuid],
            ) -> Result<std::collections::HashMap<uuid::Uuid, $crate::accounts::ChargeKey>, $crate::StoreError> {
                use $crate::records::RecordRow;
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new("SELECT id, account_id, revoked_at FROM api_keys WHERE id");
                <$store as $crate::backend::Backend>::push_ids(&mut builder, key_ids);
                let mut keys = std::collections::HashMap::new();
                for row in builder.build().fetch_all(&mut *self.0).await? {
                    let key = $crate::accounts::ChargeKey {
                        account_id: row.uuid("account_id")?,
                        live: row.optional_timestamp("revoked_at")?.is_none(),
                    };
                    keys.insert(row.uuid("id")?, key);
                }
                Ok(keys)
            }

            async fn lock_balances(
                &mut self,
                account_ids: &[uuid::Uuid],
            ) -> Result<std::collections::HashMap<uuid::Uuid, $crate::accounts::ChargeBalance>, $crate::StoreError>
            {
                use $crate::records::RecordRow;
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new("SELECT id, status, credits_remaining FROM accounts WHERE id");
                <$store as $crate::backend::Backend>::push_ids(&mut builder, account_ids);
                builder
                    .push(" ORDER BY id")
                    .push(<$store as $crate::backend::Backend>::FOR_UPDATE);
                let mut balances = std::collections::HashMap::new();
                for row in builder.build().fetch_all(&mut *self.0).await? {
                    let balance = $crate::accounts::ChargeBalance {
                        status: row.parsed("status")?,
                        remaining: row.integer("credits_remaining")?,
                        taken: 0,
                    };
                    balances.insert(row.uuid("id")?, balance);
                }
                Ok(balances)
            }

            async fn take(&mut self, account_id: uuid::Uuid, credits: i64) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "UPDATE accounts SET credits_remaining = credits_remaining - $2, credits_used = credits_used + $2 \
                     WHERE id = $1",
                )
                .bind(<$store as $crate::backend::Backend>::id(account_id))
                .bind(credits)
                .execute(&mut *self.0)
                .await?;
                Ok(())
            }

            async fn write_ledger_lines(
                &mut self,
                kind: marketlens_domain::account::LedgerKind,
                charges: &[&$crate::ChargeRequest],
            ) -> Result<(), $crate::StoreError> {
                use $crate::backend::Backend;
                for chunk in charges.chunks($crate::accounts::LEDGER_LINES_PER_STATEMENT) {
                    let mut builder: sqlx::QueryBuilder<<$store as Backend>::Db> = sqlx::QueryBuilder::new(
                        "INSERT INTO ledger (account_id, api_key_id, kind, operation, credits, request_id, created_at) ",
                    );
                    builder.push_values(chunk, |mut row, charge| {
                        row.push_bind(<$store>::id(charge.account_id))
                            .push_bind(<$store>::id(charge.api_key_id))
                            .push_bind(kind.as_str())
                            .push_bind(charge.operation.as_str())
                            .push_bind(charge.credits)
                            .push_bind(charge.request_id.clone())
                            .push_bind(<$store>::time(charge.now));
                    });
                    builder.build().execute(&mut *self.0).await?;
                }
                Ok(())
            }

            async fn held_claims(
                &mut self,
                owners: &[uuid::Uuid],
            ) -> Result<std::collections::HashSet<uuid::Uuid>, $crate::StoreError> {
                use $crate::records::RecordRow;
                let mut builder: sqlx::QueryBuilder<<$store as $crate::backend::Backend>::Db> =
                    sqlx::QueryBuilder::new("SELECT owner FROM idempotency_keys WHERE state = 'in_progress' AND owner");
                <$store as $crate::backend::Backend>::push_ids(&mut builder, owners);
                builder.push(<$store as $crate::backend::Backend>::FOR_UPDATE);
                let mut held = std::collections::HashSet::new();
                for row in builder.build().fetch_all(&mut *self.0).await? {
                    held.insert(row.uuid("owner")?);
                }
                Ok(held)
            }

            async fn keep_answer(
                &mut self,
                answer: &$crate::idempotency::AnswerToKeep,
                credits_used: i64,
                remaining: i64,
            ) -> Result<(), $crate::StoreError> {
                use $crate::backend::Backend;
                sqlx::query(
                    "UPDATE idempotency_keys SET state = 'completed', status = $2, headers = $3, body = $4, \
                        credits_used = $5, credits_remaining = $6, expires_at = $7 \
                     WHERE owner = $1 AND state = 'in_progress'",
                )
                .bind(<$store>::id(answer.claim.owner))
                .bind(i64::from(answer.status))
                .bind($crate::idempotency::headers_json(&answer.headers))
                .bind(answer.body.as_slice())
                .bind(credits_used)
                .bind(remaining)
                .bind(<$store>::time(answer.expires_at))
                .execute(&mut *self.0)
                .await?;
                Ok(())
            }

            async fn record_batch(
                &mut self,
                batch: uuid::Uuid,
                outcomes: &str,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<(), $crate::StoreError> {
                sqlx::query("INSERT INTO charge_batches (id, outcomes, created_at) VALUES ($1, $2, $3)")
                    .bind(<$store>::id(batch))
                    .bind(outcomes)
                    .bind(<$store>::time(now))
                    .execute(&mut *self.0)
                    .await?;
                Ok(())
            }
        }
    };
}
pub(crate) use account_store_sql;

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn charge(account_id: Uuid, api_key_id: Uuid, operation: Operation) -> ChargeRequest {
        ChargeRequest {
            account_id,
            api_key_id,
            operation,
            credits: operation.cost(),
            request_id: "r".into(),
            now: Utc::now(),
            keep: None,
        }
    }

    #[test]
    fn decides_in_order_against_what_the_batch_has_taken() {
        let (account, key, revoked, other_account, other_key) = (
            Uuid::from_u128(1),
            Uuid::from_u128(2),
            Uuid::from_u128(3),
            Uuid::from_u128(4),
            Uuid::from_u128(5),
        );
        let keys = HashMap::from([
            (
                key,
                ChargeKey {
                    account_id: account,
                    live: true,
                },
            ),
            (
                revoked,
                ChargeKey {
                    account_id: account,
                    live: false,
                },
            ),
            (
                other_key,
                ChargeKey {
                    account_id: other_account,
                    live: true,
                },
            ),
        ]);
        let mut balances = HashMap::from([
            (
                account,
                ChargeBalance {
                    status: AccountStatus::Active,
                    remaining: 7,
                    taken: 0,
                },
            ),
            (
                other_account,
                ChargeBalance {
                    status: AccountStatus::Suspended,
                    remaining: 9,
                    taken: 0,
                },
            ),
        ]);
        let outcomes = decide_charges(
            &[
                charge(account, key, Operation::Explain),
                charge(account, key, Operation::Explain),
                charge(account, key, Operation::GetMarket),
                charge(account, revoked, Operation::GetMarket),
                charge(account, other_key, Operation::GetMarket),
                charge(other_account, other_key, Operation::GetMarket),
                charge(account, key, Operation::GetMarket),
                charge(account, key, Operation::GetMarket),
            ],
            &keys,
            &mut balances,
            &HashSet::new(),
        );
        assert_eq!(
            outcomes,
            [
                ChargeOutcome::Charged { remaining: 2 },
                ChargeOutcome::Insufficient {
                    required: 5,
                    remaining: 2
                },
                ChargeOutcome::Charged { remaining: 1 },
                ChargeOutcome::KeyRevoked,
                ChargeOutcome::KeyRevoked,
                ChargeOutcome::AccountSuspended,
                ChargeOutcome::Charged { remaining: 0 },
                ChargeOutcome::Insufficient {
                    required: 1,
                    remaining: 0
                },
            ]
        );
        assert_eq!(balances[&account].taken, 7);
        assert_eq!(balances[&other_account].taken, 0);
    }
}
