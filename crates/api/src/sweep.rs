//! The records that outlive their use, deleted now and then: expired idempotency records
//! (kept answers and lapsed claims; reads ignore them anyway) and the records of charge
//! batches ([`crate::billing::charger`]), which only a node settling a failed batch reads,
//! within seconds or minutes of it.
//!
//! Every serving node runs the sweep (`demo` and `serve --no-sync` too): the deletes are
//! idempotent and cheap, so nodes need not agree on who sweeps.

use chrono::{TimeDelta, Utc};
use marketlens_storage::Store;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// How often every node sweeps.
pub const SWEEP_EVERY: Duration = Duration::from_secs(600);

/// How long a charge batch's record is kept: far longer than any store outage a node settles
/// its failed batches across.
pub const CHARGE_BATCH_RECORDS_FOR: TimeDelta = TimeDelta::days(1);

/// Sweeps every [`SWEEP_EVERY`] until `shutdown`.
pub fn sweep_expired(store: Arc<dyn Store>, shutdown: CancellationToken) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let now = Utc::now();
            match store.delete_expired_idempotency_records(now).await {
                Ok(0) => {}
                Ok(deleted) => tracing::info!(deleted, "expired idempotency records deleted"),
                Err(error) => tracing::warn!(%error, "could not delete expired idempotency records"),
            }
            match store.delete_charge_batches_before(now - CHARGE_BATCH_RECORDS_FOR).await {
                Ok(0) => {}
                Ok(deleted) => tracing::info!(deleted, "day-old charge batch records deleted"),
                Err(error) => tracing::warn!(%error, "could not delete old charge batch records"),
            }
            tokio::select! {
                _ = shutdown.cancelled() => return,
                _ = tokio::time::sleep(SWEEP_EVERY) => {}
            }
        }
    })
}
