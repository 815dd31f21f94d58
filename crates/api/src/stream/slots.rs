//! The stream connections each account holds open on this node, bounded by its tier
//! (`StreamTierTable`). A connection holds a [`StreamSlot`] from before its upgrade to its
//! end; dropping the slot frees it, however the connection ended.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use uuid::Uuid;

/// Open stream connections per account.
#[derive(Debug, Default)]
pub struct OpenStreams {
    per_account: Mutex<HashMap<Uuid, u32>>,
}

/// One open stream connection of one account.
#[derive(Debug)]
pub struct StreamSlot {
    streams: Arc<OpenStreams>,
    account: Uuid,
}

impl OpenStreams {
    /// A slot for one more connection of `account`, unless it holds `limit` already.
    pub fn open(self: &Arc<Self>, account: Uuid, limit: u32) -> Option<StreamSlot> {
        let mut per_account = self.lock();
        let open = per_account.entry(account).or_default();
        if *open >= limit {
            return None;
        }
        *open += 1;
        metrics::gauge!("marketlens_stream_connections").increment(1);
        Some(StreamSlot {
            streams: self.clone(),
            account,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, u32>> {
        self.per_account.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut per_account = self.streams.lock();
        if let Some(open) = per_account.get_mut(&self.account) {
            *open -= 1;
            if *open == 0 {
                per_account.remove(&self.account);
            }
        }
        metrics::gauge!("marketlens_stream_connections").decrement(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_holds_at_most_its_limit_and_a_dropped_slot_frees_one() {
        let streams = Arc::new(OpenStreams::default());
        let (account, other) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let first = streams.open(account, 2).unwrap();
        let _second = streams.open(account, 2).unwrap();
        assert!(streams.open(account, 2).is_none());
        assert!(streams.open(other, 2).is_some(), "limits are per account");
        drop(first);
        assert!(streams.open(account, 2).is_some());
    }
}
