//! Charging a call (`docs/contract/decisions.md#d3`): a call is charged when, and only when, its work
//! has succeeded.
//!
//! The order is the contract's: the balance is checked before the work (a call the balance
//! cannot cover is refused with 402 without doing it), the work runs under the request
//! timeout, and then the cost is taken, atomically, by the store, which takes it only if the
//! key is still live, the account still active and the balance still covers it. Nothing is
//! taken before the call is known to succeed, and a process that dies mid-call leaves no
//! credit reserved. The one thing ever given back is a charge taken for a call answered 503
//! all the same, because the store's confirmation of it was lost ([`charger`] settles it). A
//! call answered with an error is never charged; a call charged is charged once.
//!
//! The store takes charges in batches: [`charger::Charger`] queues the charges of concurrent calls and
//! one task hands them to the store as one transaction each time the previous one commits
//! (group commit). Under light load a batch holds one charge and costs one transaction, as
//! before; under heavy load hundreds of calls share a transaction, which is what lets one
//! SQLite writer (or one hot account row in PostgreSQL) keep up.
//!
//! A call that holds an idempotency key ([`crate::idempotency`]) hands its answer to the
//! store with its charge: the store takes the charge only if the key is still the call's, and
//! keeps the answer in the same transaction, so that no call is ever charged without its
//! answer kept for its repeats, whatever happens to the node after the commit.

pub mod charger;

use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::HeaderValue;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_domain::billing::Operation;
use marketlens_storage::{AnswerToKeep, ChargeOutcome, ChargeRequest};
use std::future::Future;
use std::sync::Arc;

use crate::auth::Caller;
use crate::deadline::Deadline;
use crate::error::ApiError;
use crate::idempotency::{AnswerKept, Held, KEPT_HEADERS};
use crate::request_id::RequestId;
use crate::state::AppState;

/// A charged call's frame, from the request's extensions: who calls (set by
/// `auth::authenticate`), the server's request id its ledger line carries (set by
/// `request_id::assign_request_id`), the idempotency key it holds, if any (set by
/// `idempotency::layer`), and the request's deadline (set by `deadline::bound`; a call made
/// without it gets the request timeout from when its work begins). One extractor, so that no
/// handler reads them apart.
#[derive(Debug, Clone)]
pub struct Call {
    pub caller: Caller,
    pub request_id: RequestId,
    pub idempotency: Option<Held>,
    pub deadline: Option<Deadline>,
}

impl<S: Send + Sync> FromRequestParts<S> for Call {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let caller = Caller::from_request_parts(parts, state).await?;
        let request_id = parts.extensions.get::<RequestId>().cloned().ok_or_else(|| {
            tracing::error!("a charged route is missing the request id layer");
            ApiError::Internal
        })?;
        let idempotency = parts.extensions.get::<Held>().cloned();
        let deadline = parts.extensions.get::<Deadline>().cloned();
        Ok(Call {
            caller,
            request_id,
            idempotency,
            deadline,
        })
    }
}

/// What a charged call took: sent back as `X-Credits-Used` and `X-Credits-Remaining`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receipt {
    pub credits_used: i64,
    pub credits_remaining: i64,
}

/// A handler's successful answer with what it cost.
pub struct Charged<T> {
    pub output: T,
    pub receipt: Receipt,
}

impl<T: IntoResponse> IntoResponse for Charged<T> {
    fn into_response(self) -> Response {
        let mut response = self.output.into_response();
        let headers = response.headers_mut();
        headers.insert("x-credits-used", HeaderValue::from(self.receipt.credits_used));
        headers.insert("x-credits-remaining", HeaderValue::from(self.receipt.credits_remaining));
        response
    }
}

/// Runs `work` as a call of `operation`: the balance checked first, the work within the
/// request's deadline, then the cost taken if the work succeeded and its charge begins before
/// the deadline, with the answer kept under the call's idempotency key if it holds one.
pub async fn charged<T, Work>(
    state: &AppState,
    call: &Call,
    operation: Operation,
    work: Work,
) -> Result<Charged<Response>, ApiError>
where
    T: IntoResponse,
    Work: Future<Output = Result<T, ApiError>>,
{
    charged_per_item(state, call, operation, 1, work).await
}

/// [`charged`] for a call that serves `items` items and costs its operation's cost for each
/// (`GET /api/v1/orderbooks`): all of them or, if the work fails, nothing.
pub async fn charged_per_item<T, Work>(
    state: &AppState,
    call: &Call,
    operation: Operation,
    items: i64,
    work: Work,
) -> Result<Charged<Response>, ApiError>
where
    T: IntoResponse,
    Work: Future<Output = Result<T, ApiError>>,
{
    let Call {
        caller,
        request_id,
        idempotency,
        deadline,
    } = call;
    let deadline = deadline
        .clone()
        .unwrap_or_else(|| Deadline::after(state.settings.request_timeout));
    let cost = operation.cost().saturating_mul(items);
    ensure_balance_covers(state, caller, cost).await?;
    let output = tokio::time::timeout_at(deadline.at(), work).await.unwrap_or_else(|_| {
        tracing::warn!(
            timeout_secs = state.settings.request_timeout.as_secs_f64(),
            "a call timed out before its work was done"
        );
        Err(crate::deadline::timed_out())
    })?;
    let output = output.into_response();
    if cost == 0 {
        return Ok(Charged {
            output,
            receipt: Receipt {
                credits_used: 0,
                credits_remaining: caller.account.credits_remaining,
            },
        });
    }
    let (mut output, keep) = match idempotency {
        Some(Held(claim)) => {
            let (output, answer) = answer_to_keep(output, claim, state.settings.idempotency_ttl).await?;
            (output, Some(Arc::new(answer)))
        }
        None => (output, None),
    };
    let request = ChargeRequest {
        account_id: caller.account.id,
        api_key_id: caller.key.id,
        operation,
        credits: cost,
        request_id: request_id.0.clone(),
        now: Utc::now(),
        keep: keep.clone(),
    };
    // A client gone before its charge began (the connection closed, so this future is
    // dropped) is not charged: the guard closes the gate, and the charger skips the charge.
    // One already begun is committed, as at the deadline.
    let abandoned = GiveUpUnlessAnswered(Some(deadline.clone()));
    let charging = state.charger.charge(request, deadline.clone());
    tokio::pin!(charging);
    // A charge still waiting for its turn when the store is found away (a batch before it
    // hangs on a store gone silent) gives up at once, through the same gate as a timeout; one
    // already begun is waited for.
    let charged = tokio::select! {
        charged = &mut charging => charged,
        () = state.store_health.refusing() => {
            if deadline.give_up() {
                return Err(state.store_health.check().err().unwrap_or_else(crate::deadline::timed_out));
            }
            charging.await
        }
    };
    abandoned.answered();
    let outcome = match charged {
        Ok(outcome) => outcome,
        // The gate closed before the charge began.
        Err(_) if deadline.left().is_zero() => return Err(crate::deadline::timed_out()),
        Err(error) => return Err(error.into()),
    };
    let remaining = settled(state, caller, operation, cost, outcome)?;
    if keep.is_some() {
        output.extensions_mut().insert(AnswerKept);
    }
    Ok(Charged {
        output,
        receipt: Receipt {
            credits_used: cost,
            credits_remaining: remaining,
        },
    })
}

/// Takes one `operation`'s cost from the caller's account now, for something served outside a
/// request's work: a minute of a live stream ([`crate::stream`]), charged as it begins. The
/// store takes it only if the key is live, the account active and the balance covers it, as
/// for any call; a store that fails or is away takes nothing.
pub async fn charge_now(
    state: &AppState,
    caller: &Caller,
    operation: Operation,
    request_id: &RequestId,
) -> Result<Receipt, ApiError> {
    state.store_health.check()?;
    let request = ChargeRequest {
        account_id: caller.account.id,
        api_key_id: caller.key.id,
        operation,
        credits: operation.cost(),
        request_id: request_id.0.clone(),
        now: Utc::now(),
        keep: None,
    };
    let deadline = Deadline::after(state.settings.request_timeout);
    let outcome = state.charger.charge(request, deadline).await?;
    let remaining = settled(state, caller, operation, operation.cost(), outcome)?;
    Ok(Receipt {
        credits_used: operation.cost(),
        credits_remaining: remaining,
    })
}

/// The balance left after a charge the store took, or why it did not take it.
fn settled(
    state: &AppState,
    caller: &Caller,
    operation: Operation,
    credits: i64,
    outcome: ChargeOutcome,
) -> Result<i64, ApiError> {
    if !matches!(outcome, ChargeOutcome::Charged { .. }) {
        // The caller's key or account changed since it was looked up: look it up afresh next time.
        state.keys.forget(&caller.key_hash);
    }
    match outcome {
        ChargeOutcome::Charged { remaining } => {
            metrics::counter!("marketlens_credits_charged_total", "operation" => operation.as_str())
                .increment(credits.unsigned_abs());
            Ok(remaining)
        }
        ChargeOutcome::Insufficient { required, remaining } => {
            Err(ApiError::InsufficientCredits { required, remaining })
        }
        ChargeOutcome::KeyRevoked => Err(ApiError::InvalidApiKey),
        ChargeOutcome::AccountSuspended => Err(ApiError::AccountSuspended),
        ChargeOutcome::ClaimLost => {
            tracing::warn!("a call's idempotency key lapsed before its charge; not charged");
            Err(ApiError::ServiceUnavailable {
                message: "The request took too long; try again.".to_owned(),
            })
        }
    }
}

/// The answer to keep with the charge: the response's status, [`KEPT_HEADERS`] and body
/// (buffered; the handlers' bodies are already whole), and the response rebuilt from them.
async fn answer_to_keep(
    response: Response,
    claim: &marketlens_storage::IdempotencyClaim,
    ttl: std::time::Duration,
) -> Result<(Response, AnswerToKeep), ApiError> {
    let (parts, body) = response.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX).await.map_err(|error| {
        tracing::error!(%error, "a charged answer's body could not be read");
        ApiError::Internal
    })?;
    let headers = KEPT_HEADERS
        .iter()
        .filter_map(|name| {
            let value = parts.headers.get(*name)?.to_str().ok()?;
            Some(((*name).to_owned(), value.to_owned()))
        })
        .collect();
    let answer = AnswerToKeep {
        claim: claim.clone(),
        status: parts.status.as_u16(),
        headers,
        body: body.to_vec(),
        expires_at: Utc::now() + chrono::TimeDelta::from_std(ttl).unwrap_or(chrono::TimeDelta::MAX),
    };
    Ok((Response::from_parts(parts, Body::from(body)), answer))
}

/// Refuses, before any work, a call whose cost the balance does not cover. The caller's
/// balance may be a few seconds old; it is read afresh before a refusal.
async fn ensure_balance_covers(state: &AppState, caller: &Caller, cost: i64) -> Result<(), ApiError> {
    if caller.account.credits_remaining >= cost {
        return Ok(());
    }
    let remaining = state
        .store
        .get_account(caller.account.id)
        .await
        .inspect_err(|error| state.store_health.observe(error))?
        .map_or(0, |account| account.credits_remaining);
    if remaining >= cost {
        state.keys.forget(&caller.key_hash);
        return Ok(());
    }
    Err(ApiError::InsufficientCredits {
        required: cost,
        remaining,
    })
}

/// Closes a request's charge gate when dropped before [`GiveUpUnlessAnswered::answered`]: a
/// request dropped while its charge waits (its client went away) is never charged.
struct GiveUpUnlessAnswered(Option<crate::deadline::Deadline>);

impl GiveUpUnlessAnswered {
    fn answered(mut self) {
        self.0 = None;
    }
}

impl Drop for GiveUpUnlessAnswered {
    fn drop(&mut self) {
        if let Some(deadline) = self.0.take() {
            deadline.give_up();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate_limit::WindowUsage;
    use crate::state::ApiSettings;
    use marketlens_domain::api_key::ApiKey;
    use marketlens_storage::NewAccount;
    use std::time::Duration;

    async fn setup(request_timeout: Duration, credits: i64) -> (AppState, Caller, tempfile::TempDir) {
        let directory = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", directory.path().join("billing.db").display());
        let store = marketlens_storage::open(&url).await.unwrap();
        let new_account = NewAccount {
            label: String::new(),
            tier: "free".into(),
            wallet_address: String::new(),
            initial_credits: credits,
        };
        let account = store.create_account(new_account, Utc::now()).await.unwrap();
        let api_key = ApiKey::generate(&mut rand::rng());
        let key = store
            .create_key(account.id, api_key.hash(), "k", Utc::now())
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
        let caller = Caller {
            key,
            key_hash: api_key.hash(),
            account,
            usage,
        };
        (state, caller, directory)
    }

    fn call_of(caller: &Caller) -> Call {
        Call {
            caller: caller.clone(),
            request_id: RequestId("r".into()),
            idempotency: None,
            deadline: None,
        }
    }

    async fn balance_and_lines(state: &AppState, caller: &Caller) -> (i64, u64) {
        let account = state.store.get_account(caller.account.id).await.unwrap().unwrap();
        let totals = state.store.ledger_totals(caller.account.id).await.unwrap();
        (account.credits_remaining, totals.lines)
    }

    #[tokio::test]
    async fn a_call_dropped_before_its_charge_begins_closes_its_gate() {
        // Dropped while waiting (its client went away): the charger's `begin_charge` is then
        // refused, and the queued charge is skipped.
        let deadline = Deadline::after(Duration::from_secs(5));
        drop(GiveUpUnlessAnswered(Some(deadline.clone())));
        assert!(!deadline.begin_charge(), "a dropped call is not charged");
        // Answered: the gate is left as it was.
        let deadline = Deadline::after(Duration::from_secs(5));
        GiveUpUnlessAnswered(Some(deadline.clone())).answered();
        assert!(deadline.begin_charge());
        // A charge already begun is not undone by the drop that follows.
        let deadline = Deadline::after(Duration::from_secs(5));
        let guard = GiveUpUnlessAnswered(Some(deadline.clone()));
        assert!(deadline.begin_charge());
        drop(guard);
        assert!(deadline.begin_charge(), "still charging");
    }

    #[tokio::test]
    async fn work_that_times_out_is_answered_503_and_not_charged() {
        let (state, caller, _directory) = setup(Duration::from_millis(50), 10).await;
        let slow = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            Ok(())
        };
        let outcome = charged(&state, &call_of(&caller), Operation::Explain, slow).await;
        assert!(
            matches!(outcome, Err(ApiError::ServiceUnavailable { .. })),
            "{:?}",
            outcome.err()
        );
        assert_eq!(
            balance_and_lines(&state, &caller).await,
            (10, 1),
            "only the credit line"
        );
    }

    #[tokio::test]
    async fn a_call_whose_deadline_passed_before_its_charge_began_is_not_charged() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 10).await;
        let call = Call {
            deadline: Some(Deadline::after(Duration::ZERO)),
            ..call_of(&caller)
        };
        // The work is done (a timeout polls its work first), but the charge cannot begin.
        let outcome = charged(&state, &call, Operation::Explain, async { Ok(()) }).await;
        assert!(
            matches!(outcome, Err(ApiError::ServiceUnavailable { .. })),
            "{:?}",
            outcome.err()
        );
        assert_eq!(balance_and_lines(&state, &caller).await, (10, 1));
    }

    #[tokio::test]
    async fn no_charge_is_attempted_while_the_store_is_known_to_be_away() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 10).await;
        state
            .store_health
            .observe(&marketlens_storage::StoreError::Unavailable("gone".into()));
        let outcome = charged(&state, &call_of(&caller), Operation::Explain, async { Ok(()) }).await;
        assert!(
            matches!(outcome, Err(ApiError::ServiceUnavailable { .. })),
            "{:?}",
            outcome.err()
        );
        assert_eq!(balance_and_lines(&state, &caller).await, (10, 1));
    }

    #[tokio::test]
    async fn successful_work_is_charged_once_and_failed_work_not_at_all() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 10).await;
        let done = charged(&state, &call_of(&caller), Operation::Explain, async { Ok(()) })
            .await
            .unwrap();
        assert_eq!(
            done.receipt,
            Receipt {
                credits_used: 5,
                credits_remaining: 5
            }
        );
        let failed: Result<Charged<Response>, ApiError> =
            charged(&state, &call_of(&caller), Operation::GetMarket, async {
                Err::<(), _>(ApiError::not_found("x"))
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(balance_and_lines(&state, &caller).await, (5, 2));
    }

    #[tokio::test]
    async fn a_balance_that_does_not_cover_the_cost_is_refused_before_the_work() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 3).await;
        let work_ran = std::sync::atomic::AtomicBool::new(false);
        let outcome = charged(&state, &call_of(&caller), Operation::Explain, async {
            work_ran.store(true, std::sync::atomic::Ordering::SeqCst);
            Ok(())
        })
        .await;
        assert!(matches!(
            outcome,
            Err(ApiError::InsufficientCredits {
                required: 5,
                remaining: 3
            })
        ));
        assert!(!work_ran.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[tokio::test]
    async fn a_stale_low_balance_is_read_afresh_before_refusing() {
        let (state, mut caller, _directory) = setup(Duration::from_secs(30), 10).await;
        caller.account.credits_remaining = 0;
        let done = charged(&state, &call_of(&caller), Operation::GetEvent, async { Ok(()) })
            .await
            .unwrap();
        assert_eq!(done.receipt.credits_remaining, 9);
    }

    #[tokio::test]
    async fn a_key_revoked_since_it_was_looked_up_is_not_charged() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 10).await;
        state.store.revoke_key(caller.key.id, Utc::now()).await.unwrap();
        let outcome = charged(&state, &call_of(&caller), Operation::GetEvent, async { Ok(()) }).await;
        assert!(matches!(outcome, Err(ApiError::InvalidApiKey)));
        assert_eq!(balance_and_lines(&state, &caller).await, (10, 1));
    }

    #[tokio::test]
    async fn concurrent_calls_share_transactions_and_take_exactly_the_balance() {
        let (state, caller, _directory) = setup(Duration::from_secs(30), 40).await;
        let calls: Vec<_> = (0..100)
            .map(|_| {
                let (state, caller) = (state.clone(), caller.clone());
                tokio::spawn(async move {
                    charged(&state, &call_of(&caller), Operation::ListMarkets, async { Ok(()) })
                        .await
                        .is_ok()
                })
            })
            .collect();
        let mut succeeded = 0;
        for call in calls {
            succeeded += usize::from(call.await.unwrap());
        }
        assert_eq!(succeeded, 40);
        assert_eq!(balance_and_lines(&state, &caller).await, (0, 41));
    }
}
