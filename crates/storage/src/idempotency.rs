//! Idempotency keys: a charged call sent with an `Idempotency-Key` runs, and is charged, once
//! per account and key; its answer is kept so that a repeat gets it back uncharged.
//!
//! A key's row is first a claim (`in_progress`): [`IdempotencyStore::claim_idempotency_key`]
//! inserts it, or takes over a row whose time is up, in one statement, so that of any number
//! of requests on any number of nodes exactly one holds the key. The claim is leased: it
//! expires after the longest a call can take, so a claim whose node died frees the key.
//!
//! The claim becomes the kept answer (`completed`) **in the charge's own transaction**
//! ([`crate::AccountStore::charge`] with [`ChargeRequest::keep`](crate::ChargeRequest)): the
//! charge is taken only if the claim is still this call's, and the answer is written with the
//! ledger line. So there is no moment at which a call is charged but its answer not kept: a
//! node that dies after the commit has kept the answer, which a retry gets back; a node that
//! dies before it has charged nothing, and a retry, once the lease is up, runs the call anew. A
//! call whose claim was taken over (its lease ran out) is refused at the charge, uncharged.
//! The other way, writing the ledger line with the key and completing the row afterwards,
//! would also never charge twice, but a retry after a crash in between would run the call
//! again and answer something other than what was paid for.
//!
//! A claim that ends without a charge (an error, a timeout, a dropped connection) is released
//! ([`IdempotencyStore::release_idempotency_key`]): only charged answers are kept.
//! Rows whose time is up are ignored by every read and deleted by
//! [`IdempotencyStore::delete_expired_idempotency_records`].

use async_trait::async_trait;
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

use crate::StoreError;

/// One claim of a key: the account, the key, and the claim's own id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyClaim {
    pub account_id: Uuid,
    pub key: String,
    /// Drawn afresh for every claim; a row taken over gets another.
    pub owner: Uuid,
}

/// A claim to make.
#[derive(Debug, Clone)]
pub struct NewClaim {
    pub claim: IdempotencyClaim,
    /// What identifies the request: a hash of its method, path, query and body.
    pub fingerprint: String,
    pub request_id: String,
    pub now: Timestamp,
    /// When the claim lapses if it is neither completed nor released.
    pub lease_until: Timestamp,
}

/// An answer to keep with a charge, completing its claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerToKeep {
    pub claim: IdempotencyClaim,
    pub status: u16,
    /// The headers that matter (content type and the like), in order; the credit headers are
    /// the charge's own, kept as [`KeptAnswer::credits_used`] and `credits_remaining`.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub expires_at: Timestamp,
}

/// A kept answer, as the charge completed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptAnswer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    pub credits_used: i64,
    pub credits_remaining: i64,
}

/// Where a key's row stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IdempotencyState {
    /// A call holds the key and is running (or its node died, until the lease is up).
    InProgress,
    Completed(KeptAnswer),
}

/// A key's row, as long as its time is not up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdempotencyRecord {
    pub fingerprint: String,
    pub request_id: String,
    pub state: IdempotencyState,
    pub expires_at: Timestamp,
}

/// What a claim found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOutcome {
    /// The key is the claimant's: run the call.
    Claimed,
    /// Another request holds the key, or kept its answer under it.
    Taken(IdempotencyRecord),
}

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Claims the key for the account: inserts the row, or takes over one whose time is up
    /// (a lapsed claim or an expired answer); otherwise answers what holds it.
    async fn claim_idempotency_key(&self, claim: &NewClaim) -> Result<ClaimOutcome, StoreError>;

    /// The key's row, unless its time is up at `now`.
    async fn idempotency_record(
        &self,
        account_id: Uuid,
        key: &str,
        now: Timestamp,
    ) -> Result<Option<IdempotencyRecord>, StoreError>;

    /// Gives a claim up, if it is still held and not completed.
    async fn release_idempotency_key(&self, claim: &IdempotencyClaim) -> Result<(), StoreError>;

    /// Deletes the rows whose time is up at `now`; returns how many.
    async fn delete_expired_idempotency_records(&self, now: Timestamp) -> Result<u64, StoreError>;
}

const STATE_IN_PROGRESS: &str = "in_progress";
const STATE_COMPLETED: &str = "completed";

/// The columns [`record`] reads.
pub(crate) const RECORD_COLUMNS: &str =
    "fingerprint, request_id, state, status, headers, body, credits_used, credits_remaining, expires_at";

pub(crate) fn record(row: &impl crate::records::RecordRow) -> Result<IdempotencyRecord, StoreError> {
    use crate::records::corrupt;
    let state = match row.text("state")?.as_str() {
        STATE_IN_PROGRESS => IdempotencyState::InProgress,
        STATE_COMPLETED => {
            let status = row.integer("status")?;
            IdempotencyState::Completed(KeptAnswer {
                status: u16::try_from(status).map_err(|error| corrupt("status", error))?,
                headers: serde_json::from_str(&row.text("headers")?).map_err(|error| corrupt("headers", error))?,
                body: row.bytes("body")?,
                credits_used: row.integer("credits_used")?,
                credits_remaining: row.integer("credits_remaining")?,
            })
        }
        other => return Err(corrupt("state", format!("{other:?} is not a state"))),
    };
    Ok(IdempotencyRecord {
        fingerprint: row.text("fingerprint")?,
        request_id: row.text("request_id")?,
        state,
        expires_at: row.timestamp("expires_at")?,
    })
}

/// The kept headers as their column holds them.
pub(crate) fn headers_json(headers: &[(String, String)]) -> String {
    serde_json::to_string(headers).unwrap_or_else(|_| "[]".to_owned())
}

/// How often a claim is tried when the row it met vanished before it could be read (released
/// by its holder in between).
pub(crate) const CLAIM_ATTEMPTS: usize = 3;

/// [`IdempotencyStore`] for a [`Backend`](crate::backend::Backend) store, and the statements
/// the charge runs to complete claims ([`crate::accounts::ChargeWriter`]).
macro_rules! idempotency_store_sql {
    ($store:ty) => {
        impl $store {
            async fn read_idempotency_record(
                &self,
                account_id: uuid::Uuid,
                key: &str,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<Option<$crate::idempotency::IdempotencyRecord>, $crate::StoreError> {
                let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "SELECT {} FROM idempotency_keys WHERE account_id = $1 AND idempotency_key = $2 AND expires_at > $3",
                    $crate::idempotency::RECORD_COLUMNS
                )))
                .bind(Self::id(account_id))
                .bind(key)
                .bind(Self::time(now))
                .fetch_optional(self.reader())
                .await?;
                row.as_ref().map($crate::idempotency::record).transpose()
            }
        }

        #[async_trait::async_trait]
        impl $crate::IdempotencyStore for $store {
            async fn claim_idempotency_key(
                &self,
                new_claim: &$crate::NewClaim,
            ) -> Result<$crate::ClaimOutcome, $crate::StoreError> {
                let claim = &new_claim.claim;
                for _ in 0..$crate::idempotency::CLAIM_ATTEMPTS {
                    let claimed: Option<i64> = sqlx::query_scalar(
                        "INSERT INTO idempotency_keys (account_id, idempotency_key, fingerprint, owner, request_id, \
                            state, status, headers, body, credits_used, credits_remaining, created_at, expires_at) \
                         VALUES ($1, $2, $3, $4, $5, 'in_progress', 0, '[]', $6, 0, 0, $7, $8) \
                         ON CONFLICT (account_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint, \
                            owner = excluded.owner, request_id = excluded.request_id, state = excluded.state, \
                            status = excluded.status, headers = excluded.headers, body = excluded.body, \
                            credits_used = excluded.credits_used, credits_remaining = excluded.credits_remaining, \
                            created_at = excluded.created_at, expires_at = excluded.expires_at \
                         WHERE idempotency_keys.expires_at <= $7 \
                         RETURNING credits_used",
                    )
                    .bind(Self::id(claim.account_id))
                    .bind(&claim.key)
                    .bind(&new_claim.fingerprint)
                    .bind(Self::id(claim.owner))
                    .bind(&new_claim.request_id)
                    .bind(Vec::<u8>::new())
                    .bind(Self::time(new_claim.now))
                    .bind(Self::time(new_claim.lease_until))
                    .fetch_optional(self.writer())
                    .await?;
                    if claimed.is_some() {
                        return Ok($crate::ClaimOutcome::Claimed);
                    }
                    if let Some(record) = self
                        .read_idempotency_record(claim.account_id, &claim.key, new_claim.now)
                        .await?
                    {
                        return Ok($crate::ClaimOutcome::Taken(record));
                    }
                }
                Err($crate::StoreError::Unavailable(
                    "an idempotency key was claimed and released too often to read".to_owned(),
                ))
            }

            async fn idempotency_record(
                &self,
                account_id: uuid::Uuid,
                key: &str,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<Option<$crate::idempotency::IdempotencyRecord>, $crate::StoreError> {
                self.read_idempotency_record(account_id, key, now).await
            }

            async fn release_idempotency_key(
                &self,
                claim: &$crate::idempotency::IdempotencyClaim,
            ) -> Result<(), $crate::StoreError> {
                sqlx::query(
                    "DELETE FROM idempotency_keys \
                     WHERE account_id = $1 AND idempotency_key = $2 AND owner = $3 AND state = 'in_progress'",
                )
                .bind(Self::id(claim.account_id))
                .bind(&claim.key)
                .bind(Self::id(claim.owner))
                .execute(self.writer())
                .await?;
                Ok(())
            }

            async fn delete_expired_idempotency_records(
                &self,
                now: marketlens_domain::time::Timestamp,
            ) -> Result<u64, $crate::StoreError> {
                let deleted = sqlx::query("DELETE FROM idempotency_keys WHERE expires_at <= $1")
                    .bind(Self::time(now))
                    .execute(self.writer())
                    .await?;
                Ok(deleted.rows_affected())
            }
        }
    };
}
pub(crate) use idempotency_store_sql;
