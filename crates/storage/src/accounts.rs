//! The accounts half of the storage interface: accounts, keys and credits.
//!
//! Credits move in two phases so that no call can overspend and no credit stays taken for
//! a call that never finished:
//! 1. [`AccountStore::reserve`] takes the cost from the balance (only if the balance covers
//!    it) and writes a `pending` charge, in one transaction;
//! 2. the call's success [`settle`](AccountStore::settle)s the charge; its failure
//!    [`refund`](AccountStore::refund)s it, which gives the credits back with a refund line.
//!
//! A charge left `pending` (the process died mid-call) is refunded by
//! [`release_stale_reservations`](AccountStore::release_stale_reservations), which every
//! server runs periodically. Settling and refunding act only on a `pending` charge, so each
//! happens at most once however many processes try.

use async_trait::async_trait;
use marketlens_domain::account::{Account, AccountStatus, ApiKeyRecord, LedgerEntry};
use marketlens_domain::api_key::KeyHash;
use marketlens_domain::billing::Operation;
use marketlens_domain::time::Timestamp;
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

/// Credits taken for a call that has not finished yet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    pub ledger_id: i64,
    pub account_id: Uuid,
    pub credits: i64,
}

#[derive(Debug, thiserror::Error)]
pub enum ReserveError {
    #[error("insufficient credits: {required} required, {remaining} remain")]
    Insufficient { required: i64, remaining: i64 },
    #[error(transparent)]
    Store(#[from] StoreError),
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

    /// Takes the operation's cost from the balance, if the balance covers it.
    async fn reserve(&self, charge: ChargeRequest) -> Result<Reservation, ReserveError>;

    /// Marks a reserved charge as earned. Returns false if it was no longer pending.
    async fn settle(&self, reservation: &Reservation) -> Result<bool, StoreError>;

    /// Gives a reserved charge back. Returns false if it was no longer pending.
    async fn refund(&self, reservation: &Reservation, now: Timestamp) -> Result<bool, StoreError>;

    /// Refunds every charge still pending since before `older_than`; returns how many.
    async fn release_stale_reservations(&self, older_than: Timestamp, now: Timestamp) -> Result<u64, StoreError>;

    /// The account's ledger, oldest first.
    async fn ledger(&self, account_id: Uuid) -> Result<Vec<LedgerEntry>, StoreError>;
}
