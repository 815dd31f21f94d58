//! The in-process rate limiter: the default for one server node, and the fallback of the Redis
//! limiter while Redis is unreachable. Exact for one process; several nodes each count their
//! own requests with it.
//!
//! A std `Mutex` guards the map: it is held only for a hash-map update, never across an
//! `.await`, which is what std's mutex is for.

use async_trait::async_trait;
use marketlens_domain::rate_limit::{seconds_until_reset, window_reset, window_start};
use marketlens_domain::time::Timestamp;
use std::collections::HashMap;
use std::sync::Mutex;
use uuid::Uuid;

use super::{LimiterHealth, RateLimiter, Refusal, WindowUsage};

#[derive(Debug, Default)]
pub struct InProcessRateLimiter {
    windows: Mutex<HashMap<Uuid, (Timestamp, u32)>>,
}

impl InProcessRateLimiter {
    /// Counts a request of `account_id` if its window has room; a refused request is not
    /// counted.
    pub fn count(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal> {
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

#[async_trait]
impl RateLimiter for InProcessRateLimiter {
    async fn acquire(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal> {
        self.count(account_id, limit, now)
    }

    fn health(&self) -> LimiterHealth {
        LimiterHealth {
            kind: "in-process",
            shared: false,
            degraded: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeDelta, TimeZone, Utc};

    #[test]
    fn counts_up_to_the_limit_then_refuses_until_the_next_minute() {
        let limiter = InProcessRateLimiter::default();
        let account = Uuid::new_v4();
        let start = Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 10).unwrap();
        for expected in 1..=3 {
            assert_eq!(limiter.count(account, 3, start).unwrap().used, expected);
        }
        let refusal = limiter.count(account, 3, start + TimeDelta::seconds(5)).unwrap_err();
        assert_eq!(refusal.retry_after_seconds, 45);
        assert!(
            limiter.count(account, 3, start).is_err(),
            "refusals are not counted, and do not reset"
        );
        let next_minute = start + TimeDelta::seconds(50);
        assert_eq!(limiter.count(account, 3, next_minute).unwrap().used, 1);
        assert_eq!(
            limiter.count(Uuid::new_v4(), 3, start).unwrap().used,
            1,
            "accounts are separate"
        );
    }
}
