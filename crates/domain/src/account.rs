//! Accounts and their keys, as the stores keep them and the API reports them.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

use crate::time::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AccountStatus {
    Active,
    /// Every call is refused with 403 `ACCOUNT_SUSPENDED` until an operator reactivates it.
    Suspended,
}

impl AccountStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            AccountStatus::Active => "active",
            AccountStatus::Suspended => "suspended",
        }
    }
}

impl fmt::Display for AccountStatus {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

impl FromStr for AccountStatus {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "active" => Ok(AccountStatus::Active),
            "suspended" => Ok(AccountStatus::Suspended),
            other => Err(format!("unknown account status {other:?}")),
        }
    }
}

/// An account. Its balance obeys `credits_purchased - credits_used = credits_remaining` at
/// every moment, which the ledger lets anyone check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Account {
    pub id: Uuid,
    /// An operator's name for the account (not shown to its users).
    pub label: String,
    pub tier: String,
    /// Empty when the account has none.
    pub wallet_address: String,
    pub status: AccountStatus,
    pub credits_remaining: i64,
    pub credits_purchased: i64,
    pub credits_used: i64,
    pub created_at: Timestamp,
}

/// An issued API key: never the key itself, only what may be shown after issue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ApiKeyRecord {
    pub id: Uuid,
    pub account_id: Uuid,
    /// The truncated form, e.g. `pm_live_a1b2...9f3c`.
    pub display: String,
    pub created_at: Timestamp,
    pub revoked_at: Option<Timestamp>,
}

/// One line of an account's ledger.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LedgerEntry {
    pub id: i64,
    pub account_id: Uuid,
    pub api_key_id: Option<Uuid>,
    pub kind: LedgerKind,
    /// The operation charged (`listMarkets`, `explain`, ...); `None` for credits added.
    pub operation: Option<String>,
    /// Always positive; the kind says which way it moved the balance.
    pub credits: i64,
    pub request_id: Option<String>,
    pub created_at: Timestamp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LedgerKind {
    /// Credits added by an operator: raises purchased and remaining.
    Credit,
    /// Credits taken for a call that succeeded: raises used, lowers remaining.
    Charge,
    /// A charge given back because its call could not be answered (the store's reply to the
    /// charge was lost, and by the time it was known the call had been answered 503): lowers
    /// used, raises remaining. Its request id and operation are the charge's.
    Refund,
}

impl LedgerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerKind::Credit => "credit",
            LedgerKind::Charge => "charge",
            LedgerKind::Refund => "refund",
        }
    }
}

impl FromStr for LedgerKind {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "credit" => Ok(LedgerKind::Credit),
            "charge" => Ok(LedgerKind::Charge),
            "refund" => Ok(LedgerKind::Refund),
            other => Err(format!("unknown ledger kind {other:?}")),
        }
    }
}
