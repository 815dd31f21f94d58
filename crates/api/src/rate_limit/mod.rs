//! Requests-per-minute limits (`docs/contract/decisions.md#d4-window`): fixed one-minute windows on the UTC
//! clock, per account; a refused request is not counted.
//!
//! - [`InProcessRateLimiter`]: counts in this process. The default, exact for one node.
//! - [`RedisRateLimiter`]: counts in Redis, so the limit holds for the account across all
//!   nodes. While Redis is unreachable it keeps the node serving by counting in-process
//!   (limits then hold per node), and says so in logs and `/readyz`.

mod in_process;
mod redis;

use async_trait::async_trait;
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

pub use in_process::InProcessRateLimiter;
pub use redis::RedisRateLimiter;

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

/// What `/readyz` says about the limiter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LimiterHealth {
    pub kind: &'static str,
    /// Whether the counts are shared by every node.
    pub shared: bool,
    /// Why the limiter is counting per node when it should not (Redis unreachable).
    pub degraded: Option<String>,
}

#[async_trait]
pub trait RateLimiter: Send + Sync {
    /// Counts a request of `account_id` if its window has room.
    async fn acquire(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal>;

    fn health(&self) -> LimiterHealth;
}
