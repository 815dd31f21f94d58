//! Which account a key belongs to, remembered for a few seconds so that a busy key costs one
//! store read every few seconds instead of one per call.
//!
//! What the cache may get wrong, and why it does not matter:
//! - A key revoked, or an account suspended, since the lookup: the charge that ends every
//!   charged call checks both again in its transaction and refuses the call (401 or 403), and
//!   the free account call always reads afresh. So "a revoked key fails from its next request
//!   on" holds exactly.
//! - A balance that changed: the balance is only used to refuse a call before its work, and
//!   it is read afresh before any refusal; the charge decides on the stored balance.
//! - A tier that changed: the new rate limit applies within [`TIME_TO_LIVE`].
//!
//! Unknown keys are remembered apart, for [`UNKNOWN_TIME_TO_LIVE`], so that a client repeating
//! a wrong or revoked key costs one store read a second, not one per call; the two caches are
//! separate, so a flood of made-up keys cannot push real ones out. A key is made at random
//! (160 bits) and never before it is stored, so no client can have presented a new key before
//! it existed; operators' changes forget both caches anyway. Distinct made-up keys are bounded
//! per address by [`crate::failed_auth`].

use marketlens_domain::account::{Account, ApiKeyRecord};
use marketlens_domain::api_key::KeyHash;
use marketlens_storage::{Store, StoreError};
use moka::sync::Cache;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, OwnedMutexGuard};

/// How long a lookup is trusted.
pub const TIME_TO_LIVE: Duration = Duration::from_secs(5);
/// How long a key found unknown is taken as unknown.
pub const UNKNOWN_TIME_TO_LIVE: Duration = Duration::from_secs(1);
/// Keys remembered at most.
const CAPACITY: u64 = 100_000;

pub struct KeyCache {
    known: Cache<KeyHash, (ApiKeyRecord, Account)>,
    unknown: Cache<KeyHash, ()>,
    /// One lock per key being looked up ([`KeyCache::lookup_turn`]).
    turns: Cache<KeyHash, Arc<Mutex<()>>>,
}

impl Default for KeyCache {
    fn default() -> Self {
        KeyCache {
            known: Cache::builder()
                .max_capacity(CAPACITY)
                .time_to_live(TIME_TO_LIVE)
                .build(),
            unknown: Cache::builder()
                .max_capacity(CAPACITY)
                .time_to_live(UNKNOWN_TIME_TO_LIVE)
                .build(),
            turns: Cache::builder()
                .max_capacity(CAPACITY)
                .time_to_idle(TIME_TO_LIVE)
                .build(),
        }
    }
}

impl KeyCache {
    /// The live key with this hash and its account, from the cache or the store.
    pub async fn lookup(
        &self,
        store: &dyn Store,
        key_hash: &KeyHash,
    ) -> Result<Option<(ApiKeyRecord, Account)>, StoreError> {
        if let Some(known) = self.cached(key_hash) {
            return Ok(Some(known));
        }
        if self.unknown.contains_key(key_hash) {
            return Ok(None);
        }
        let found = store.authenticate(key_hash).await?;
        match &found {
            Some(found) => self.known.insert(*key_hash, found.clone()),
            None => self.unknown.insert(*key_hash, ()),
        }
        Ok(found)
    }

    /// Waits for this key's turn to be looked up, after any lookup of it under way: the caller
    /// checks [`KeyCache::cached`] again once it holds the turn, and looks up only if the
    /// key is still not cached.
    pub async fn lookup_turn(&self, key_hash: &KeyHash) -> OwnedMutexGuard<()> {
        self.turns.get_with(*key_hash, Default::default).lock_owned().await
    }

    /// The live key with this hash and its account, if remembered (no store read).
    pub fn cached(&self, key_hash: &KeyHash) -> Option<(ApiKeyRecord, Account)> {
        self.known.get(key_hash)
    }

    /// Drops everything remembered, after an operator changed accounts or keys.
    pub fn forget_all(&self) {
        self.known.invalidate_all();
        self.unknown.invalidate_all();
    }

    /// Drops what is remembered of a key, so that its next call reads the store.
    pub fn forget(&self, key_hash: &KeyHash) {
        self.known.invalidate(key_hash);
        self.unknown.invalidate(key_hash);
    }
}
