//! Charging a call: reserve its cost before the work, settle it when the work succeeds,
//! refund it when the work fails (`decisions.md` section 3).
//!
//! The work runs under the request timeout here, inside the charge, so that settling or
//! refunding always happens before the answer is chosen: a call answered with an error is
//! never charged. Settle and refund run as tasks of their own, so a client that goes away
//! cannot cut them off half-way. If the request is dropped mid-work, the pending charge is
//! refunded from `Drop`; if even that cannot run (the process died), the stale-reservation
//! sweep refunds it later. So a call that did not succeed never keeps its credits, and one
//! that did is charged exactly once.

use chrono::Utc;
use marketlens_domain::billing::Operation;
use marketlens_storage::{ChargeRequest, Reservation, ReserveError, Store};
use std::future::Future;
use std::sync::Arc;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::request_id::RequestId;
use crate::state::AppState;

/// A reservation that refunds itself unless settled or refunded.
struct PendingCharge {
    store: Arc<dyn Store>,
    reservation: Option<Reservation>,
}

impl PendingCharge {
    async fn finish(mut self, succeeded: bool) {
        let Some(reservation) = self.reservation.take() else {
            return;
        };
        let store = self.store.clone();
        let finishing = tokio::spawn(async move {
            if succeeded {
                match store.settle(&reservation).await {
                    Ok(true) => {}
                    // Already refunded by the sweep: the call stays free rather than charged twice.
                    Ok(false) => tracing::warn!(
                        ledger_id = reservation.ledger_id,
                        "a charge was released before it settled"
                    ),
                    // Still pending: the sweep will refund it, so the caller is not charged for
                    // a call we could not record as earned.
                    Err(error) => {
                        tracing::error!(%error, ledger_id = reservation.ledger_id, "could not settle a charge")
                    }
                }
            } else {
                refund(store, reservation).await;
            }
        });
        if let Err(error) = finishing.await {
            tracing::error!(%error, "settling or refunding a charge stopped");
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

/// Runs `work` as a charged call of `operation`, under the request timeout. Free operations
/// run uncharged.
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
    let timeout = state.settings.request_timeout;
    let timed_work = async move {
        tokio::time::timeout(timeout, work).await.unwrap_or_else(|_| {
            tracing::warn!(timeout_secs = timeout.as_secs_f64(), "the work of a call timed out");
            Err(ApiError::ServiceUnavailable {
                message: "The request took too long; try again.".to_owned(),
            })
        })
    };
    if operation.cost() == 0 {
        return timed_work.await;
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
    let outcome = timed_work.await;
    pending.finish(outcome.is_ok()).await;
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate_limit::WindowUsage;
    use crate::state::ApiSettings;
    use marketlens_domain::account::LedgerKind;
    use marketlens_storage::NewAccount;
    use std::time::Duration;

    async fn setup(request_timeout: Duration) -> (AppState, Caller, tempfile::TempDir) {
        let directory = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", directory.path().join("billing.db").display());
        let store = marketlens_storage::open(&url).await.unwrap();
        let new_account = NewAccount {
            label: String::new(),
            tier: "free".into(),
            wallet_address: String::new(),
            initial_credits: 10,
        };
        let account = store.create_account(new_account, Utc::now()).await.unwrap();
        let key = store
            .create_key(
                account.id,
                marketlens_domain::api_key::KeyHash([7; 32]),
                "k",
                Utc::now(),
            )
            .await
            .unwrap();
        let state = AppState::new(
            store,
            ApiSettings {
                request_timeout,
                ..ApiSettings::default()
            },
        );
        let usage = WindowUsage {
            limit: 60,
            used: 1,
            resets_at: Utc::now(),
        };
        (state, Caller { key, account, usage }, directory)
    }

    async fn balance_and_pending(state: &AppState, caller: &Caller) -> (i64, usize) {
        let account = state.store.get_account(caller.account.id).await.unwrap().unwrap();
        let ledger = state.store.ledger(caller.account.id).await.unwrap();
        let pending = ledger
            .iter()
            .filter(|entry| entry.state.as_deref() == Some("pending"))
            .count();
        (account.credits_remaining, pending)
    }

    #[tokio::test]
    async fn work_that_times_out_is_answered_503_and_refunded() {
        let (state, caller, _directory) = setup(Duration::from_millis(50)).await;
        let slow = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(())
        };
        let outcome = charged(&state, &caller, Operation::Explain, &RequestId("r".into()), slow).await;
        assert!(
            matches!(outcome, Err(ApiError::ServiceUnavailable { .. })),
            "{outcome:?}"
        );
        assert_eq!(
            balance_and_pending(&state, &caller).await,
            (10, 0),
            "refunded before the answer"
        );
        let ledger = state.store.ledger(caller.account.id).await.unwrap();
        assert_eq!(
            ledger.iter().filter(|entry| entry.kind == LedgerKind::Refund).count(),
            1
        );
    }

    #[tokio::test]
    async fn a_call_dropped_mid_work_is_refunded() {
        let (state, caller, _directory) = setup(Duration::from_secs(30)).await;
        let slow = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(())
        };
        let request_id = RequestId("r".into());
        // The client goes away: the call's future is dropped while its work runs.
        let dropped = tokio::time::timeout(
            Duration::from_millis(100),
            charged(&state, &caller, Operation::GetMarket, &request_id, slow),
        )
        .await;
        assert!(dropped.is_err());
        for _ in 0..50 {
            if balance_and_pending(&state, &caller).await == (10, 0) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!(
            "the dropped call kept its charge: {:?}",
            balance_and_pending(&state, &caller).await
        );
    }

    #[tokio::test]
    async fn successful_work_is_charged_once_and_failed_work_not_at_all() {
        let (state, caller, _directory) = setup(Duration::from_secs(30)).await;
        let request_id = RequestId("r".into());
        charged(&state, &caller, Operation::Explain, &request_id, async { Ok(()) })
            .await
            .unwrap();
        let failed: Result<(), ApiError> = charged(&state, &caller, Operation::GetMarket, &request_id, async {
            Err(ApiError::not_found("x"))
        })
        .await;
        assert!(failed.is_err());
        assert_eq!(balance_and_pending(&state, &caller).await, (5, 0));
    }
}
