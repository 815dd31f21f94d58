//! The request timeout (`--request-timeout-secs`) over the whole request: authentication, the
//! rate limit, an idempotency key's claim, the work and the charge, not only the work.
//!
//! A timeout that simply dropped the request at its deadline could drop a call whose charge
//! the store was committing, charging a call whose client was told 503. So the deadline and
//! the charge decide together, once, through [`Deadline`]'s gate: at the deadline
//! [`bound`] answers 503 only if no charge has begun, and closes the gate so that none can
//! begin afterwards (the charger skips it, [`crate::billing::charger`]); a charge that began
//! first is waited for, and its outcome is the answer. So a call is answered 503 uncharged,
//! or answered with its charge recorded, never charged and answered 503. A charge begins only
//! before the deadline and takes one short transaction, so answers come within the timeout
//! plus that transaction. A charge whose outcome is not known by then (the store stopped
//! answering in the middle of its commit, or the connection was cut while its `COMMIT` was on
//! its way) is answered 503 [`crate::billing::charger::CHARGE_GRACE`] after the deadline, and
//! settled by the charger once the store answers: if it was taken, it is given back. The outer
//! backstop ([`crate::state::REQUEST_TIMEOUT_MARGIN`] later) only cuts a request stuck
//! elsewhere.

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;
use tokio::time::Instant;

use crate::error::ApiError;
use crate::state::AppState;

/// How long a request given up at its deadline may still take to answer by itself.
const ANSWER_GRACE: Duration = Duration::from_millis(100);

/// Neither answered nor charging.
const OPEN: u8 = 0;
/// A charge has begun: the request waits for its outcome.
const CHARGING: u8 = 1;
/// The deadline passed first: the request is answered 503 and no charge may begin.
const TIMED_OUT: u8 = 2;

/// A request's deadline and the gate its charge passes; cheap to clone, shared by the
/// request's layers (a request extension) and its queued charge.
#[derive(Debug, Clone)]
pub struct Deadline {
    at: Instant,
    gate: Arc<AtomicU8>,
}

impl Deadline {
    /// A deadline `timeout` from now.
    pub fn after(timeout: Duration) -> Deadline {
        Deadline {
            at: Instant::now() + timeout,
            gate: Arc::new(AtomicU8::new(OPEN)),
        }
    }

    pub fn at(&self) -> Instant {
        self.at
    }

    /// The time left, zero once passed.
    pub fn left(&self) -> Duration {
        self.at.saturating_duration_since(Instant::now())
    }

    /// Called by the charger as the charge's transaction begins: whether it may (the request
    /// has not been answered 503). A charge past the deadline closes the gate itself.
    pub fn begin_charge(&self) -> bool {
        if Instant::now() >= self.at {
            self.give_up();
            return false;
        }
        match self
            .gate
            .compare_exchange(OPEN, CHARGING, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            // Another charge of the same request (several tool calls of one `/mcp` request).
            Err(state) => state == CHARGING,
        }
    }

    /// At the deadline, or when the store goes away: whether the request gives up (no charge
    /// has begun, and none will), closing the gate; `begin_charge` then returns false.
    pub fn give_up(&self) -> bool {
        match self
            .gate
            .compare_exchange(OPEN, TIMED_OUT, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(state) => state == TIMED_OUT,
        }
    }
}

/// The middleware: gives the request its [`Deadline`] and answers 503 at it, unless its charge
/// has begun (see the module's documentation).
pub async fn bound(State(state): State<AppState>, mut request: Request, next: Next) -> Response {
    let deadline = Deadline::after(state.settings.request_timeout);
    request.extensions_mut().insert(deadline.clone());
    let response = next.run(request);
    tokio::pin!(response);
    tokio::select! {
        response = &mut response => response,
        () = tokio::time::sleep_until(deadline.at()) => {
            if deadline.give_up() {
                // No charge can begin any more, so an answer the request is about to give
                // itself (a repeat's 409 after waiting out its key) is still let through.
                tokio::time::timeout(ANSWER_GRACE, response)
                    .await
                    .unwrap_or_else(|_| timed_out().into_response())
            } else {
                // A charge has begun: its outcome is the answer.
                response.await
            }
        }
    }
}

/// The answer to a request whose deadline passed before its charge began.
pub fn timed_out() -> ApiError {
    metrics::counter!("marketlens_request_timeouts_total").increment(1);
    ApiError::ServiceUnavailable {
        message: "The request took too long; try again.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_gate_lets_either_the_timeout_or_the_charge_through_never_both() {
        let charging = Deadline::after(Duration::from_secs(60));
        assert!(charging.begin_charge());
        assert!(charging.begin_charge(), "a second charge of the same request");
        assert!(!charging.give_up(), "a charge under way is waited for");

        let timed_out = Deadline::after(Duration::from_secs(60));
        assert!(timed_out.give_up());
        assert!(timed_out.give_up());
        assert!(!timed_out.begin_charge(), "no charge after the timeout answered");

        let past = Deadline::after(Duration::ZERO);
        assert!(!past.begin_charge(), "no charge begins past the deadline");
        assert!(past.give_up());
    }
}
