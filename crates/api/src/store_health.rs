//! The store's health, known without waiting for it (see [`crate::breaker`]): every call that
//! needs the store (every keyed call: the charged ones write their charge, the account call
//! reads the account) is refused at once, 503 `SERVICE_UNAVAILABLE` and uncharged, while the
//! store is down or refuses writes, instead of each waiting for the pool; `/readyz` says why.
//!
//! Two things trip the breaker: a real call's failure that says the store is away
//! ([`StoreHealth::observe`]: unreachable, out of space, read-only), and the background probe
//! ([`StoreHealth::start`]), which asks the store a trivial read every [`PROBE_EVERY`] on a
//! connection of its own (a pool busy with calls is not a store down), under a short timeout,
//! and whether it still takes writes every [`WRITE_CHECK_EVERY`] rounds. Only the probe closes
//! it: after a write check passes, and no sooner than [`MIN_TRIP`] after it tripped, so that
//! a store that fails every write but answers reads (a full disk) is not let in and out at
//! the probe's pace.
//!
//! A store that answers, but more slowly than `--store-slow-ms` on two probes in a row, is
//! reported slow: calls go on (they are answered within the request timeout, or 503), and
//! readiness says not ready, so that a load balancer sends its traffic elsewhere.

use marketlens_storage::{Store, StoreError};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use crate::breaker::{Breaker, Tripped, Trouble};
use crate::error::ApiError;

/// How often the probe asks the store.
pub const PROBE_EVERY: Duration = Duration::from_millis(250);
/// The least time the probe waits for an answer; more when the slow bound is longer.
const MIN_PROBE_TIMEOUT: Duration = Duration::from_secs(1);
/// One round in this many also checks that the store takes writes (on SQLite it takes the
/// write lock for a moment); every round does while the breaker refuses calls.
const WRITE_CHECK_EVERY: u32 = 8;
/// The least time the breaker stays open once tripped.
pub const MIN_TRIP: Duration = Duration::from_millis(500);
/// Probes over the slow bound in a row before the store is reported slow.
const SLOW_ROUNDS: u32 = 2;

/// The default bound of a probe's answer time before the store counts as slow.
pub const DEFAULT_SLOW_AFTER: Duration = Duration::from_millis(500);

pub struct StoreHealth {
    breaker: Breaker,
    /// Wakes the calls waiting for the store each time the breaker starts refusing them.
    refusing: tokio::sync::Notify,
    /// A probe answered more slowly than this is a slow one.
    slow_after: Duration,
}

impl StoreHealth {
    /// The store's health, with its probe started; the probe ends when the health is dropped.
    /// Must be called inside a Tokio runtime.
    pub fn start(store: Arc<dyn Store>, slow_after: Duration) -> Arc<StoreHealth> {
        let health = Arc::new(StoreHealth {
            breaker: Breaker::new("the store"),
            refusing: tokio::sync::Notify::new(),
            slow_after,
        });
        tokio::spawn(probe(Arc::downgrade(&health), store));
        health
    }

    /// Refuses a call that needs the store while it is down or refuses writes.
    pub fn check(&self) -> Result<(), ApiError> {
        match self.breaker.tripped() {
            Some(tripped) if tripped.refuses_calls() => Err(refusal(&tripped)),
            _ => Ok(()),
        }
    }

    /// Trips the breaker on a real call's failure that says the store is away.
    pub fn observe(&self, error: &StoreError) {
        match error {
            StoreError::Unavailable(reason) => self.trip(Trouble::Down, reason),
            StoreError::ReadOnly(reason) => self.trip(Trouble::ReadOnly, reason),
            StoreError::NotFound(_) | StoreError::Invalid(_) | StoreError::Internal(_) => {}
        }
    }

    /// Returns once the breaker refuses calls (at once if it does already): a call waiting
    /// for the store gives up then, if it still can (see `billing::charged`).
    pub async fn refusing(&self) {
        loop {
            let woken = self.refusing.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            if self.breaker.refuses_calls() {
                return;
            }
            woken.await;
        }
    }

    fn trip(&self, trouble: Trouble, reason: &str) {
        self.breaker.trip(trouble, reason);
        if self.breaker.refuses_calls() {
            self.refusing.notify_waiters();
        }
    }

    /// The store's trouble, if any, for `/readyz`.
    pub fn tripped(&self) -> Option<Tripped> {
        self.breaker.tripped()
    }

    fn probe_timeout(&self) -> Duration {
        MIN_PROBE_TIMEOUT.max(self.slow_after * 2)
    }
}

/// The answer to a call refused for the store's trouble.
pub fn refusal(tripped: &Tripped) -> ApiError {
    let message = match tripped.trouble {
        Trouble::ReadOnly => "The data store is read-only; try again later.",
        Trouble::Down | Trouble::Slow => "The data store is unavailable; try again shortly.",
    };
    ApiError::ServiceUnavailable {
        message: message.to_owned(),
    }
}

/// One probe a round while `health` lives.
async fn probe(health: Weak<StoreHealth>, store: Arc<dyn Store>) {
    let mut round: u32 = 0;
    let mut slow_rounds: u32 = 0;
    loop {
        tokio::time::sleep(PROBE_EVERY).await;
        let Some(health) = health.upgrade() else {
            return;
        };
        round = round.wrapping_add(1);
        let tripped = health.breaker.tripped();
        let refusing = tripped.as_ref().is_some_and(Tripped::refuses_calls);
        let check_writes = refusing || round.is_multiple_of(WRITE_CHECK_EVERY);
        let timeout = health.probe_timeout();
        let asked = Instant::now();
        let answered = tokio::time::timeout(timeout, async {
            store.ping().await?;
            let latency = asked.elapsed();
            if check_writes {
                store.check_writable().await?;
            }
            Ok::<_, StoreError>(latency)
        })
        .await;
        let latency = match answered {
            Ok(Ok(latency)) => latency,
            Ok(Err(error)) => {
                tracing::debug!(%error, "the store's health probe failed");
                match error {
                    StoreError::ReadOnly(reason) => health.trip(Trouble::ReadOnly, &reason),
                    other => health.trip(Trouble::Down, &other.to_string()),
                }
                continue;
            }
            Err(_) => {
                tracing::debug!(check_writes, "the store's health probe timed out");
                let reason = format!("did not answer the probe within {} ms", timeout.as_millis());
                health.trip(Trouble::Down, &reason);
                continue;
            }
        };
        if refusing
            && tripped
                .as_ref()
                .is_some_and(|tripped| tripped.since.elapsed() < MIN_TRIP)
        {
            continue;
        }
        if latency > health.slow_after {
            slow_rounds += 1;
            if slow_rounds >= SLOW_ROUNDS || refusing {
                let reason = format!(
                    "answered the probe in {} ms, over the bound of {} ms",
                    latency.as_millis(),
                    health.slow_after.as_millis()
                );
                health.trip(Trouble::Slow, &reason);
            }
        } else {
            slow_rounds = 0;
            // Not a trouble a call found while this round's probe was out: the next round,
            // checking writes, judges that one.
            health
                .breaker
                .close_unless_tripped_since(tripped.as_ref().map(|tripped| tripped.since));
        }
    }
}
