//! The queue of charges and the task that hands them to the store in batches (group commit):
//! one transaction each time the previous one commits.

use marketlens_storage::{ChargeOutcome, ChargeRequest, Store, StoreError};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// The most charges one transaction takes.
const MAX_BATCH: usize = 512;
/// Charges waiting for a transaction, at most; callers beyond it wait for room.
const QUEUE_CAPACITY: usize = 8_192;

struct QueuedCharge {
    request: ChargeRequest,
    deadline: Instant,
    reply: oneshot::Sender<Result<ChargeOutcome, StoreError>>,
}

/// The queue of charges waiting for the store; cheap to clone.
#[derive(Clone)]
pub struct Charger {
    queue: mpsc::Sender<QueuedCharge>,
    /// The longest a charge may wait for its transaction to begin. A charge that waited longer
    /// is dropped uncharged (and its call answered 503), so that no charge can commit after
    /// the request's own deadline has answered the client with an error.
    max_wait: Duration,
}

impl Charger {
    /// Starts the task that writes queued charges to `store`, each waiting at most `max_wait`
    /// for its transaction. It ends when every `Charger` clone is dropped.
    pub fn start(store: Arc<dyn Store>, max_wait: Duration) -> Charger {
        let (queue, queued) = mpsc::channel(QUEUE_CAPACITY);
        tokio::spawn(write_batches(store, queued));
        Charger { queue, max_wait }
    }

    /// Charges one call, with the charges of the calls that finish alongside it.
    pub async fn charge(&self, request: ChargeRequest) -> Result<ChargeOutcome, StoreError> {
        let (reply, outcome) = oneshot::channel();
        let queued = QueuedCharge {
            request,
            deadline: Instant::now() + self.max_wait,
            reply,
        };
        let stopped = || StoreError::Unavailable("the charging task has stopped".to_owned());
        self.queue.send(queued).await.map_err(|_| stopped())?;
        outcome.await.map_err(|_| stopped())?
    }
}

async fn write_batches(store: Arc<dyn Store>, mut queued: mpsc::Receiver<QueuedCharge>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queued.recv_many(&mut batch, MAX_BATCH).await > 0 {
        let now = Instant::now();
        let (live, late): (Vec<QueuedCharge>, Vec<QueuedCharge>) =
            batch.drain(..).partition(|charge| charge.deadline > now);
        for charge in late {
            let _ = charge.reply.send(Err(StoreError::Unavailable(
                "the charge waited too long for the store".to_owned(),
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
                tracing::error!(%error, charges = requests.len(), "a batch of charges failed; none was taken");
                let message = error.to_string();
                for charge in live {
                    let _ = charge.reply.send(Err(StoreError::Unavailable(message.clone())));
                }
            }
        }
    }
}
