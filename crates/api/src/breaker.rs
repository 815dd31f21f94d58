//! What a node knows of a dependency's health (the store, Redis) without waiting for it: a
//! breaker, tripped by the failures of real calls and by a background probe, and closed
//! again only by the probe.
//!
//! Without it, every call during an outage finds out for itself, each waiting for a pool or a
//! timeout before failing: measured before it, a 10 s PostgreSQL outage made every call wait
//! 10 s for the connection pool, and a Redis outage cost every call a Redis attempt (a
//! throughput loss of 88%). With it, the first failure is paid once, by the calls already
//! under way, and the calls after it are answered at once (the store: 503; Redis: counted per
//! node) until a probe finds the dependency back.
//!
//! The breaker only holds the state and logs its changes once each way; its owners decide
//! what trips it and how they probe ([`crate::store_health`], [`crate::rate_limit`]).

use std::sync::Mutex;
use std::time::Instant;

/// What is wrong with a dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// It cannot be reached, or does not answer in time: calls that need it are refused.
    Down,
    /// It answers but refuses writes: calls that write are refused.
    ReadOnly,
    /// It answers, more slowly than the configured bound: calls go on, readiness says so.
    Slow,
}

impl Trouble {
    pub fn as_str(self) -> &'static str {
        match self {
            Trouble::Down => "down",
            Trouble::ReadOnly => "read-only",
            Trouble::Slow => "slow",
        }
    }
}

/// A dependency's trouble, why, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tripped {
    pub trouble: Trouble,
    pub reason: String,
    pub since: Instant,
}

impl Tripped {
    /// Whether calls that need the dependency are refused (it is down or refuses writes).
    pub fn refuses_calls(&self) -> bool {
        matches!(self.trouble, Trouble::Down | Trouble::ReadOnly)
    }
}

/// A dependency's health. A std mutex: it is held only to read or swap the state.
pub struct Breaker {
    /// The dependency's name in the logs ("the store", "Redis").
    name: &'static str,
    tripped: Mutex<Option<Tripped>>,
}

impl Breaker {
    pub fn new(name: &'static str) -> Breaker {
        Breaker {
            name,
            tripped: Mutex::new(None),
        }
    }

    /// The dependency's trouble, if any, as last seen.
    pub fn tripped(&self) -> Option<Tripped> {
        self.lock().clone()
    }

    /// Whether calls that need the dependency are refused right now.
    pub fn refuses_calls(&self) -> bool {
        self.lock().as_ref().is_some_and(Tripped::refuses_calls)
    }

    /// Records `trouble`, keeping the time it began if it is the trouble already recorded.
    pub fn trip(&self, trouble: Trouble, reason: &str) {
        let mut tripped = self.lock();
        match &*tripped {
            Some(current) if current.trouble == trouble => return,
            _ => {}
        }
        tracing::warn!(dependency = self.name, trouble = trouble.as_str(), %reason, "a dependency is in trouble");
        metrics::counter!("marketlens_breaker_trips_total", "dependency" => self.name, "trouble" => trouble.as_str())
            .increment(1);
        *tripped = Some(Tripped {
            trouble,
            reason: reason.to_owned(),
            since: Instant::now(),
        });
    }

    /// Records the dependency as healthy again.
    pub fn close(&self) {
        self.close_if(|_| true);
    }

    /// Records the dependency as healthy again, unless it tripped after `seen` (the trouble
    /// since then, or none): a probe that began before a call found trouble has not seen it.
    pub fn close_unless_tripped_since(&self, seen: Option<Instant>) {
        self.close_if(|current| current.map(|tripped| tripped.since) == seen);
    }

    fn close_if(&self, unchanged: impl FnOnce(Option<&Tripped>) -> bool) {
        let mut tripped = self.lock();
        if !unchanged(tripped.as_ref()) {
            return;
        }
        if let Some(previous) = tripped.take() {
            tracing::info!(
                dependency = self.name,
                trouble = previous.trouble.as_str(),
                after_secs = previous.since.elapsed().as_secs_f64(),
                "a dependency is healthy again"
            );
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Tripped>> {
        self.tripped.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trips_once_per_trouble_and_closes() {
        let breaker = Breaker::new("test");
        assert!(breaker.tripped().is_none() && !breaker.refuses_calls());
        breaker.trip(Trouble::Slow, "slow");
        assert!(!breaker.refuses_calls(), "a slow dependency still serves");
        breaker.trip(Trouble::Down, "refused");
        let since = breaker.tripped().unwrap().since;
        breaker.trip(Trouble::Down, "refused again");
        let tripped = breaker.tripped().unwrap();
        assert_eq!((tripped.since, tripped.reason.as_str()), (since, "refused"));
        assert!(breaker.refuses_calls());
        breaker.close();
        assert!(breaker.tripped().is_none());
    }

    #[test]
    fn a_probe_does_not_close_a_trouble_found_after_it_looked() {
        let breaker = Breaker::new("test");
        // The probe looked while all was well; a call then found the store down.
        let seen = breaker.tripped().map(|tripped| tripped.since);
        breaker.trip(Trouble::Down, "disk full");
        breaker.close_unless_tripped_since(seen);
        assert!(breaker.refuses_calls(), "the call's trouble stands");
        // A probe that saw this trouble and passed closes it.
        breaker.close_unless_tripped_since(breaker.tripped().map(|tripped| tripped.since));
        assert!(breaker.tripped().is_none());
    }
}
