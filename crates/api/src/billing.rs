//! Charging a call: reserve its cost before the work, settle it when the work succeeds,
//! refund it when the work fails (`decisions.md` section 3).
//!
//! If the request is dropped mid-work (the client went away, the timeout fired), the
//! pending charge is refunded from `Drop`; if even that cannot run (the process died), the
//! store's stale-reservation sweep refunds it later. So a call that did not succeed never
//! keeps its credits, and one that did is charged exactly once.

use chrono::Utc;
use marketlens_domain::billing::Operation;
use marketlens_storage::{ChargeRequest, Reservation, ReserveError, Store};
use std::future::Future;
use std::sync::Arc;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::request_id::RequestId;
use crate::state::AppState;

/// A reservation that refunds itself unless settled.
struct PendingCharge {
    store: Arc<dyn Store>,
    reservation: Option<Reservation>,
}

impl PendingCharge {
    async fn settle(mut self) {
        if let Some(reservation) = self.reservation.take()
            && let Err(error) = self.store.settle(&reservation).await
        {
            // The charge stays pending and the sweep will refund it: the caller is not
            // charged for a call we could not record as earned.
            tracing::error!(%error, ledger_id = reservation.ledger_id, "could not settle a charge");
        }
    }

    async fn refund(mut self) {
        if let Some(reservation) = self.reservation.take() {
            refund(self.store.clone(), reservation).await;
        }
    }
}

async fn refund(store: Arc<dyn Store>, reservation: Reservation) {
    if let Err(error) = store.refund(&reservation, Utc::now()).await {
        tracing::error!(%error, ledger_id = reservation.ledger_id, "could not refund a charge; the sweep will");
    }
}

impl Drop for PendingCharge {
    fn drop(&mut self) {
        if let Some(reservation) = self.reservation.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
            runtime.spawn(refund(self.store.clone(), reservation));
        }
    }
}

/// Runs `work` as a charged call of `operation`. Free operations run uncharged.
pub async fn charged<T, Work>(
    state: &AppState,
    caller: &Caller,
    operation: Operation,
    request_id: &RequestId,
    work: Work,
) -> Result<T, ApiError>
where
    Work: Future<Output = Result<T, ApiError>>,
{
    if operation.cost() == 0 {
        return work.await;
    }
    let charge = ChargeRequest {
        account_id: caller.account.id,
        api_key_id: caller.key.id,
        operation,
        request_id: request_id.0.clone(),
        now: Utc::now(),
    };
    let reservation = match state.store.reserve(charge).await {
        Ok(reservation) => reservation,
        Err(ReserveError::Insufficient { required, remaining }) => {
            return Err(ApiError::InsufficientCredits { required, remaining });
        }
        Err(ReserveError::Store(error)) => return Err(error.into()),
    };
    let pending = PendingCharge {
        store: state.store.clone(),
        reservation: Some(reservation),
    };
    let outcome = work.await;
    match &outcome {
        Ok(_) => pending.settle().await,
        Err(_) => pending.refund().await,
    }
    outcome
}
