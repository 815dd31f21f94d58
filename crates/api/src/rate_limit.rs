//! The in-process rate limiter: fixed one-minute windows on the UTC clock, per account
//! (`decisions.md` section 4). It is exact for one server process; several nodes need a
//! shared counter.
//!
//! A std `Mutex` guards the map: it is held only for a hash-map update, never across an
//! `.await`, which is what std's mutex is for.

use marketlens_domain::rate_limit::{seconds_until_reset, window_reset, window_start};
use marketlens_domain::time::Timestamp;
use std::collections::HashMap;
use std::sync::Mutex;
use uuid::Uuid;

/// Where an account stands in the current window, after this request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowUsage {
    pub limit: u32,
    /// Requests counted in this window, this one included.
    pub used: u32,
    pub resets_at: Timestamp,
}

impl WindowUsage {
    pub fn remaining(&self) -> u32 {
        self.limit.saturating_sub(self.used)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub limit: u32,
    pub resets_at: Timestamp,
    pub retry_after_seconds: i64,
}

#[derive(Debug, Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<Uuid, (Timestamp, u32)>>,
}

impl RateLimiter {
    /// Counts a request of `account_id` if its window has room; a refused request is not
    /// counted.
    pub fn acquire(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal> {
        let current_window = window_start(now);
        let resets_at = window_reset(now);
        let mut windows = self.windows.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let entry = windows.entry(account_id).or_insert((current_window, 0));
        if entry.0 != current_window {
            *entry = (current_window, 0);
        }
        if entry.1 >= limit {
            return Err(Refusal {
                limit,
                resets_at,
                retry_after_seconds: seconds_until_reset(now),
            });
        }
        entry.1 += 1;
        let used = entry.1;
        if windows.len() > 10_000 {
            windows.retain(|_, (window, _)| *window == current_window);
        }
        Ok(WindowUsage { limit, used, resets_at })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone, Utc};

    #[test]
    fn counts_up_to_the_limit_then_refuses_until_the_next_minute() {
        let limiter = RateLimiter::default();
        let account = Uuid::new_v4();
        let start = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 10).unwrap();
        for expected in 1..=3 {
            assert_eq!(limiter.acquire(account, 3, start).unwrap().used, expected);
        }
        let refusal = limiter.acquire(account, 3, start + TimeDelta::seconds(5)).unwrap_err();
        assert_eq!(refusal.retry_after_seconds, 45);
        assert!(
            limiter.acquire(account, 3, start).is_err(),
            "refusals are not counted, and do not reset"
        );
        let next_minute = start + TimeDelta::seconds(50);
        assert_eq!(limiter.acquire(account, 3, next_minute).unwrap().used, 1);
        assert_eq!(
            limiter.acquire(Uuid::new_v4(), 3, start).unwrap().used,
            1,
            "accounts are separate"
        );
    }
}
