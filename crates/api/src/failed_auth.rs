//! A limit on failed authentication per client address, API keys and the admin token alike.
//!
//! Without a key nothing else is limited: the rate limit counts per account, and an unknown
//! key has none. So a client guessing keys or admin tokens, or sending made-up keys to cost the
//! store a read each, could go as fast as the network lets it. Here each address may fail
//! [`ApiSettings::failed_auth_per_minute`](crate::state::ApiSettings) times in a minute that
//! starts at its first attempt; past that, until the minute ends, any API key from it that the
//! node has not cached is refused with 429 before it is looked up, and any wrong admin token
//! with 429 instead of 401 (the right admin token always passes: it is compared first, with no
//! store read). Attempts count from before their lookup, so concurrent guesses cannot all
//! pass; a right credential takes its attempt back, and concurrent calls with one key take
//! turns to look it up (`KeyCache::lookup_turn`), so a client's burst with its right key
//! counts once, not once per call in flight.
//!
//! The address is the TCP peer's. `X-Forwarded-For` is not read: any client can write it.
//! Behind a reverse proxy every client shares the proxy's address, so an operator there raises
//! the limit or sets it to 0 (off) and limits at the proxy. IPv6 addresses count per /64, the
//! block one host is usually given.

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use moka::sync::Cache;

use crate::error::ApiError;

/// How long an address's count lasts, from its first failure.
const WINDOW: Duration = Duration::from_secs(60);
/// Addresses remembered at most; the least used are forgotten first.
const CAPACITY: u64 = 100_000;

struct Failures {
    since: Instant,
    count: AtomicU32,
}

pub struct FailedAuth {
    limit: u32,
    by_address: Cache<IpAddr, Arc<Failures>>,
}

impl FailedAuth {
    /// At most `limit` failures per address per minute; 0 turns the limit off.
    pub fn new(limit: u32) -> FailedAuth {
        FailedAuth {
            limit,
            by_address: Cache::builder().max_capacity(CAPACITY).time_to_live(WINDOW).build(),
        }
    }

    /// Refuses (429) an address that has failed too often within its minute; otherwise counts
    /// an attempt that [`Attempt::succeeded`] takes back. Counting before the lookup bounds
    /// concurrent guesses too: an address with many in flight cannot pass the limit by all of
    /// them being checked before any is counted.
    pub fn attempt(&self, address: Option<IpAddr>) -> Result<Attempt, ApiError> {
        let Some(failures) = self.failures_for(address) else {
            return Ok(Attempt(None));
        };
        let counted = failures.count.fetch_add(1, Ordering::Relaxed);
        if counted >= self.limit {
            failures.count.fetch_sub(1, Ordering::Relaxed);
            let retry_after = WINDOW.saturating_sub(failures.since.elapsed());
            return Err(ApiError::TooManyFailedAuthentications {
                limit: self.limit,
                retry_after_seconds: retry_after.as_secs().max(1) as i64,
            });
        }
        Ok(Attempt(Some(failures)))
    }

    /// The address's count, made on first use (none without an address or a limit).
    fn failures_for(&self, address: Option<IpAddr>) -> Option<Arc<Failures>> {
        if self.limit == 0 {
            return None;
        }
        let address = counted_as(address?);
        Some(self.by_address.get_with(address, || {
            Arc::new(Failures {
                since: Instant::now(),
                count: AtomicU32::new(0),
            })
        }))
    }
}

/// An authentication attempt, counted as a failure unless it succeeded.
pub struct Attempt(Option<Arc<Failures>>);

impl Attempt {
    /// The credential was right: the attempt does not count.
    pub fn succeeded(self) {
        if let Some(failures) = self.0 {
            failures.count.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// The address failures count against: IPv4 as it is (an IPv4-mapped IPv6 address as its
/// IPv4 one), IPv6 by its /64.
fn counted_as(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(_) => address,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut segments = v6.segments();
                segments[4..].fill(0);
                IpAddr::V6(segments.into())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fail(failures: &FailedAuth, address: &str) {
        drop(failures.attempt(Some(address.parse().unwrap())).unwrap());
    }

    #[test]
    fn an_address_is_refused_past_its_limit_and_others_are_not() {
        let failures = FailedAuth::new(3);
        let attacker: IpAddr = "203.0.113.9".parse().unwrap();
        // Successes do not count.
        for _ in 0..10 {
            failures.attempt(Some(attacker)).unwrap().succeeded();
        }
        for _ in 0..3 {
            fail(&failures, "203.0.113.9");
        }
        let Err(refusal) = failures.attempt(Some(attacker)) else {
            panic!("a fourth failure within the minute was let through");
        };
        assert!(matches!(
            refusal,
            ApiError::TooManyFailedAuthentications {
                limit: 3,
                retry_after_seconds: 1..=60
            }
        ));
        assert!(failures.attempt(Some("203.0.113.10".parse().unwrap())).is_ok());
        assert!(failures.attempt(None).is_ok(), "no address, no limit");
    }

    #[test]
    fn attempts_in_flight_count_before_they_fail() {
        let failures = FailedAuth::new(3);
        let address: IpAddr = "203.0.113.9".parse().unwrap();
        let in_flight: Vec<Attempt> = (0..3).map(|_| failures.attempt(Some(address)).unwrap()).collect();
        assert!(failures.attempt(Some(address)).is_err());
        drop(in_flight);
    }

    #[test]
    fn ipv6_counts_per_64_and_mapped_ipv4_as_ipv4() {
        let failures = FailedAuth::new(1);
        fail(&failures, "2001:db8:1:2:aaaa::1");
        assert!(failures.attempt(Some("2001:db8:1:2:bbbb::7".parse().unwrap())).is_err());
        assert!(failures.attempt(Some("2001:db8:1:3::1".parse().unwrap())).is_ok());
        fail(&failures, "::ffff:198.51.100.4");
        assert!(failures.attempt(Some("198.51.100.4".parse().unwrap())).is_err());
    }

    #[test]
    fn zero_turns_the_limit_off() {
        let failures = FailedAuth::new(0);
        for _ in 0..100 {
            fail(&failures, "192.0.2.1");
        }
        assert!(failures.attempt(Some("192.0.2.1".parse().unwrap())).is_ok());
    }
}
