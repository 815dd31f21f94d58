//! The accounts half of the storage interface: accounts, keys and credits.
//!
//! Credits move in one step: a call is charged when its work has succeeded, by
//! [`AccountStore::charge`], which takes the cost from the balance only if the balance covers
//! it, and writes the ledger line in the same transaction. Nothing is taken before the call is
//! known to succeed, so nothing ever has to be given back, and a process that dies mid-call
//! leaves no credit reserved.
//!
//! `charge` takes a batch: the server groups the charges of concurrent calls into one
//! transaction (group commit), which is what lets one SQLite writer, or one hot account row
//! in PostgreSQL, keep up with thousands of calls a second. Each charge in a batch is decided
//! on its own, in order, against the balance the ones before it left.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::billing::Operation;
use marketlens_domain::time::Timestamp;
use std::collections::{BTreeSet, HashMap};
use uuid::Uuid;

use crate::StoreError;

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
    pub request_id: String,
    pub now: Timestamp,
}

/// What became of one charge of a batch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChargeOutcome {
    /// Taken, with its ledger line; `remaining` is the balance after it.
    Charged { remaining: i64 },
    /// The balance does not cover the cost; nothing was taken.
    Insufficient { required: i64, remaining: i64 },
    /// The key is revoked, unknown, or not the account's; nothing was taken.
    KeyRevoked,
    /// The account is suspended; nothing was taken.
    AccountSuspended,
}

/// The sums of an account's ledger, to check the books: `credited` must equal
/// `credits_purchased` and `charged` must equal `credits_used`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LedgerTotals {
    pub credited: i64,
    pub charged: i64,
    pub lines: u64,
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
    /// the same order. A store error means nothing of the batch was taken.
    async fn charge(&self, charges: &[ChargeRequest]) -> Result<Vec<ChargeOutcome>, StoreError>;

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

    /// One ledger charge line per charge.
    async fn write_charge_lines(&mut self, charges: &[&ChargeRequest]) -> Result<(), StoreError>;
}

/// Charges a batch (see [`AccountStore::charge`]) through a backend's statements.
pub(crate) async fn charge_batch(
    writer: &mut impl ChargeWriter,
    charges: &[ChargeRequest],
) -> Result<Vec<ChargeOutcome>, StoreError> {
    let key_ids = distinct(charges.iter().map(|charge| charge.api_key_id));
    let account_ids = distinct(charges.iter().map(|charge| charge.account_id));
    let keys = writer.keys(&key_ids).await?;
    let mut balances = writer.lock_balances(&account_ids).await?;
    let outcomes = decide_charges(charges, &keys, &mut balances);
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
        writer.write_charge_lines(&charged).await?;
    }
    Ok(outcomes)
}

/// The ids once each, in order: locks are taken in id order, so that two batches on several
/// accounts never wait for each other in a circle.
fn distinct(ids: impl Iterator<Item = Uuid>) -> Vec<Uuid> {
    ids.collect::<BTreeSet<Uuid>>().into_iter().collect()
}

/// Decides each charge of a batch in order, against the balance the ones before it left.
fn decide_charges(
    charges: &[ChargeRequest],
    keys: &HashMap<Uuid, ChargeKey>,
    balances: &mut HashMap<Uuid, ChargeBalance>,
) -> Vec<ChargeOutcome> {
    charges
        .iter()
        .map(|charge| {
            let key_belongs = keys
                .get(&charge.api_key_id)
                .is_some_and(|key| key.live && key.account_id == charge.account_id);
            let Some(balance) = balances.get_mut(&charge.account_id).filter(|_| key_belongs) else {
                return ChargeOutcome::KeyRevoked;
            };
            if balance.status == AccountStatus::Suspended {
                return ChargeOutcome::AccountSuspended;
            }
            let cost = charge.operation.cost();
            let remaining = balance.remaining - balance.taken;
            if remaining < cost {
                return ChargeOutcome::Insufficient {
                    required: cost,
                    remaining,
                };
            }
            balance.taken += cost;
            ChargeOutcome::Charged {
                remaining: remaining - cost,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn charge(account_id: Uuid, api_key_id: Uuid, operation: Operation) -> ChargeRequest {
        ChargeRequest {
            account_id,
            api_key_id,
            operation,
            request_id: "r".into(),
            now: Utc::now(),
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
