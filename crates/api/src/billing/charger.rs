//! The queue of charges and the task that hands them to the store in batches (group commit):
//! one transaction each time the previous one commits.
//!
//! A charge begins only through its request's [`Deadline`] gate, so that none is taken for a
//! request already answered 503 for its timeout; and while the store's breaker refuses calls
//! ([`StoreHealth`]) a batch fails at once rather than waiting for the store. A batch that
//! fails because the store is away trips the breaker.

use marketlens_storage::{ChargeOutcome, ChargeRequest, Store, StoreError};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

use crate::deadline::Deadline;
use crate::store_health::StoreHealth;

/// The most charges one transaction takes.
const MAX_BATCH: usize = 512;
/// Charges waiting for a transaction, at most; callers beyond it wait for room.
const QUEUE_CAPACITY: usize = 8_192;

struct QueuedCharge {
    request: ChargeRequest,
    deadline: Deadline,
    reply: oneshot::Sender<Result<ChargeOutcome, StoreError>>,
}

/// The queue of charges waiting for the store; cheap to clone.
#[derive(Clone)]
pub struct Charger {
    queue: mpsc::Sender<QueuedCharge>,
}

impl Charger {
    /// Starts the task that writes queued charges to `store`. It ends when every `Charger`
    /// clone is dropped.
    pub fn start(store: Arc<dyn Store>, health: Arc<StoreHealth>) -> Charger {
        let (queue, queued) = mpsc::channel(QUEUE_CAPACITY);
        tokio::spawn(write_batches(store, health, queued));
        Charger { queue }
    }

    /// Charges one call, with the charges of the calls that finish alongside it, if it begins
    /// before `deadline` (else it fails uncharged).
    pub async fn charge(&self, request: ChargeRequest, deadline: Deadline) -> Result<ChargeOutcome, StoreError> {
        let (reply, outcome) = oneshot::channel();
        let queued = QueuedCharge {
            request,
            deadline,
            reply,
        };
        let stopped = || StoreError::Unavailable("the charging task has stopped".to_owned());
        self.queue.send(queued).await.map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }
}

async fn write_batches(store: Arc<dyn Store>, health: Arc<StoreHealth>, mut queued: mpsc::Receiver<QueuedCharge>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queued.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if health.check().is_err() {
            for charge in batch.drain(..) {
                let _ = charge.reply.send(Err(StoreError::Unavailable(
                    "the store is away; the charge was not attempted".to_owned(),
                )));
            }
            continue;
        }
        // The gate is passed here, as the transaction begins: a charge whose request was
        // answered for its timeout meanwhile is dropped, and one let through is waited for.
        let (live, late): (Vec<QueuedCharge>, Vec<QueuedCharge>) =
            batch.drain(..).partition(|charge| charge.deadline.begin_charge());
        for charge in late {
            let _ = charge.reply.send(Err(StoreError::Unavailable(
                "the request's time ran out before its charge began".to_owned(),
            )));
        }
        if live.is_empty() {
            continue;
        }
        let requests: Vec<ChargeRequest> = live.iter().map(|charge| charge.request.clone()).collect();
        match store.charge(&requests).await {
            Ok(outcomes) => {
                for (charge, outcome) in live.into_iter().zip(outcomes) {
                    let _ = charge.reply.send(Ok(outcome));
                }
            }
            Err(error) => {
                health.observe(&error);
                tracing::error!(%error, charges = requests.len(), "a batch of charges failed; none was taken");
                let message = error.to_string();
                for charge in live {
                    let _ = charge.reply.send(Err(StoreError::Unavailable(message.clone())));
                }
            }
        }
    }
}
