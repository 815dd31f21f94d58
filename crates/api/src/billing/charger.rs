//! The queue of charges and the task that hands them to the store in batches (group commit):
//! one transaction each time the previous one commits.
//!
//! A charge begins only through its request's [`Deadline`] gate, so that none is taken for a
//! request already answered 503 for its timeout; and while the store's breaker refuses calls
//! ([`StoreHealth`]) a batch fails at once rather than waiting for the store. A batch that
//! fails because the store is away trips the breaker.
//!
//! A call is paid for only if it is answered. Its request waits for a charge that has begun
//! until a little past its deadline ([`CHARGE_GRACE`]); a charge whose outcome then finds no
//! request waiting (the request gave up, or its client went away) is given back if it was
//! taken. A batch whose transaction failed may still have committed (the connection broke
//! while `COMMIT` was on its way): it is settled with the store once the store answers
//! ([`Store::settle_charge_batch`]), its outcomes delivered to the requests still waiting
//! and its charges for the others given back. A charge whose call kept its answer under an
//! idempotency key is never given back: a retry with the key gets that answer, uncharged.

use chrono::Utc;
use marketlens_storage::{ChargeOutcome, ChargeRequest, Store, StoreError};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::deadline::Deadline;
use crate::store_health::StoreHealth;

/// The most charges one transaction takes.
const MAX_BATCH: usize = 512;
/// Charges waiting for a transaction, at most; callers beyond it wait for room.
const QUEUE_CAPACITY: usize = 8_192;
/// How long past its deadline a request waits for a charge that has begun: one short
/// transaction's time. After it the call is answered 503, and the charge given back if taken.
pub const CHARGE_GRACE: Duration = Duration::from_secs(1);
/// How often a batch whose transaction failed is asked after, and a refund retried, while the
/// store does not answer (it doubles from the first to the last).
const SETTLE_RETRY_FIRST: Duration = Duration::from_millis(200);
const SETTLE_RETRY_LAST: Duration = Duration::from_secs(1);

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
    /// before `deadline` (else it fails uncharged). Its outcome is waited for until
    /// [`CHARGE_GRACE`] past the deadline; after that it fails, and what it took, if anything,
    /// is given back.
    pub async fn charge(&self, request: ChargeRequest, deadline: Deadline) -> Result<ChargeOutcome, StoreError> {
        let (reply, mut outcome) = oneshot::channel();
        let waited_until = deadline.at() + CHARGE_GRACE;
        let queued = QueuedCharge {
            request,
            deadline,
            reply,
        };
        let stopped = || StoreError::Unavailable("the charging task has stopped".to_owned());
        self.queue.send(queued).await.map_err(|_| stopped())?;
        match tokio::time::timeout_at(waited_until, &mut outcome).await {
            Ok(outcome) => outcome.map_err(|_| stopped())?,
            Err(_) => {
                // Closed first, then read: an outcome sent before the close is this call's
                // answer; one sent after finds no one waiting, and its charge is given back.
                outcome.close();
                outcome.try_recv().unwrap_or_else(|_| {
                    Err(StoreError::Unavailable(
                        "the store did not confirm the charge in time; it is given back if it was taken".to_owned(),
                    ))
                })
            }
        }
    }
}

async fn write_batches(store: Arc<dyn Store>, health: Arc<StoreHealth>, mut queued: mpsc::Receiver<QueuedCharge>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while queued.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if health.check().is_err() {
            refuse(batch.drain(..), "the store is away; the charge was not attempted");
            continue;
        }
        // The gate is passed here, as the transaction begins: a charge whose request was
        // answered for its timeout meanwhile is dropped, and one let through is waited for.
        let (live, late): (Vec<QueuedCharge>, Vec<QueuedCharge>) =
            batch.drain(..).partition(|charge| charge.deadline.begin_charge());
        refuse(late, "the request's time ran out before its charge began");
        if live.is_empty() {
            continue;
        }
        let requests: Vec<ChargeRequest> = live.iter().map(|charge| charge.request.clone()).collect();
        let batch = Uuid::new_v4();
        match store.charge(batch, &requests).await {
            Ok(outcomes) => deliver(&store, batch, live, outcomes),
            Err(error) => {
                health.observe(&error);
                tracing::warn!(%error, %batch, charges = requests.len(), "a batch of charges failed; settling whether it was taken");
                tokio::spawn(settle(store.clone(), batch, live));
            }
        }
    }
}

/// Fails these charges, none taken, for `why`.
fn refuse(charges: impl IntoIterator<Item = QueuedCharge>, why: &str) {
    for charge in charges {
        let _ = charge.reply.send(Err(StoreError::Unavailable(why.to_owned())));
    }
}

/// Hands each charge its outcome, and gives back, in the background, those taken for calls no
/// longer waiting.
fn deliver(store: &Arc<dyn Store>, batch: Uuid, charges: Vec<QueuedCharge>, outcomes: Vec<ChargeOutcome>) {
    let mut unanswered = Vec::new();
    for (charge, outcome) in charges.into_iter().zip(outcomes) {
        let taken = matches!(outcome, ChargeOutcome::Charged { .. });
        if charge.reply.send(Ok(outcome)).is_err() && taken && charge.request.keep.is_none() {
            unanswered.push(charge.request);
        }
    }
    if !unanswered.is_empty() {
        tokio::spawn(give_back(store.clone(), batch, unanswered));
    }
}

/// Asks the store, until it answers, whether a failed batch was taken, and delivers what it
/// says: the outcomes if it committed, a failure (nothing taken) if not.
///
/// A store found read-only (a standby after a failover, or made read-only by hand) cannot
/// record the batch as never taken, and will not be writable again within a call's time: the
/// calls waiting on the batch are answered 503 at once, and the batch is settled once the store
/// takes writes again, what it took then given back, as for any call no longer waiting.
async fn settle(store: Arc<dyn Store>, batch: Uuid, mut charges: Vec<QueuedCharge>) {
    let settled = until_answered(
        || store.settle_charge_batch(batch, Utc::now()),
        |error| {
            if let StoreError::ReadOnly(reason) = error {
                answer_unsettled(&mut charges, reason);
            }
        },
    )
    .await;
    match settled {
        Err(error) => {
            // Not the store being away: nothing will change by asking again.
            tracing::error!(%error, %batch, "a failed batch of charges could not be settled; its calls are answered 503");
            refuse(charges, "the store failed while charging");
        }
        Ok(Some(outcomes)) => {
            tracing::warn!(%batch, "a failed batch of charges had committed after all");
            deliver(&store, batch, charges, outcomes);
        }
        Ok(None) => refuse(charges, "the store failed while charging; nothing was taken"),
    }
}

/// Answers the calls waiting on an unsettled batch now, with the store's read-only `reason`.
/// Each charge keeps its request but no longer anyone waiting on it, so that settling it later
/// gives back what it took.
fn answer_unsettled(charges: &mut [QueuedCharge], reason: &str) {
    for charge in charges {
        let (nobody_waiting, _) = oneshot::channel();
        let reply = std::mem::replace(&mut charge.reply, nobody_waiting);
        let _ = reply.send(Err(StoreError::ReadOnly(reason.to_owned())));
    }
}

/// Gives back charges taken for calls that were never answered.
async fn give_back(store: Arc<dyn Store>, batch: Uuid, charges: Vec<ChargeRequest>) {
    let credits: i64 = charges.iter().map(|charge| charge.credits).sum();
    match until_answered(|| store.refund(batch, &charges, Utc::now()), |_| {}).await {
        Ok(true) => {
            metrics::counter!("marketlens_credits_refunded_total").increment(credits.unsigned_abs());
            tracing::info!(%batch, calls = charges.len(), credits, "charges of calls never answered were given back");
        }
        Ok(false) => {}
        Err(error) => {
            tracing::error!(%error, %batch, calls = charges.len(), credits, "charges of calls never answered could not be given back");
        }
    }
}

/// Runs `call` until the store answers it, waiting longer between tries while the store is
/// away (unavailable or read-only), and telling `away` each time it is; any other error is
/// final.
async fn until_answered<T, F, Call>(mut call: Call, mut away: impl FnMut(&StoreError)) -> Result<T, StoreError>
where
    F: Future<Output = Result<T, StoreError>>,
    Call: FnMut() -> F,
{
    let mut wait = SETTLE_RETRY_FIRST;
    loop {
        match call().await {
            Err(error @ (StoreError::Unavailable(_) | StoreError::ReadOnly(_))) => {
                tracing::debug!(%error, "the store does not answer yet; trying again");
                away(&error);
            }
            answered => return answered,
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(SETTLE_RETRY_LAST);
    }
}
