//! The shared rate limiter: one counter per account and UTC minute in Redis, checked and
//! incremented by one Lua script, so that concurrent requests on any number of nodes see one
//! count and a refused request is never counted.
//!
//! When Redis cannot be reached (or answers too slowly), the node fails over to counting
//! in-process: it keeps serving, with each node enforcing the limit on its own requests,
//! rather than refusing everyone (fail closed) or letting everyone through (fail open). The
//! switch is logged once each way and reported by `/readyz`; reconnection is retried in the
//! background of requests, at most every few seconds.

use async_trait::async_trait;
use marketlens_domain::rate_limit::{seconds_until_reset, window_reset, window_start};
use marketlens_domain::time::Timestamp;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::{Mutex, RwLock};
use std::time::{Duration, Instant};
use uuid::Uuid;

use super::{InProcessRateLimiter, LimiterHealth, RateLimiter, Refusal, WindowUsage};

/// Counts the request unless the window is full. KEYS[1]: the window's counter; ARGV[1]: the
/// limit; ARGV[2]: the counter's lifetime in milliseconds. Returns the new count, or -1 when
/// the request is refused (and not counted).
const COUNT_SCRIPT: &str = r"
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current >= tonumber(ARGV[1]) then
  return -1
end
current = redis.call('INCR', KEYS[1])
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return current
";

/// The longest a request waits for Redis before counting in-process instead.
const REDIS_TIMEOUT: Duration = Duration::from_millis(250);
/// How often a lost connection is tried again.
const RECONNECT_EVERY: Duration = Duration::from_secs(5);
/// A window's counter outlives its minute a little, then Redis drops it.
const COUNTER_LIFETIME_MS: u64 = 120_000;

pub struct RedisRateLimiter {
    client: redis::Client,
    script: redis::Script,
    /// Keys are `{prefix}:ratelimit:{account}:{minute}`; tests use their own prefix.
    prefix: String,
    /// The connection once made (the manager then reconnects by itself). Read by every
    /// request; a std lock held only to clone the handle out.
    established: RwLock<Option<ConnectionManager>>,
    /// Serializes connection attempts: requests arriving meanwhile wait for the attempt (at
    /// most its timeout) instead of counting in-process while Redis is fine. Holds the time of
    /// the last failed attempt, so a down Redis is tried at most every [`RECONNECT_EVERY`].
    connecting: tokio::sync::Mutex<Option<Instant>>,
    /// Why the limiter counts per node right now, if it does.
    degraded: Mutex<Option<String>>,
    fallback: InProcessRateLimiter,
}

impl RedisRateLimiter {
    /// A limiter on the Redis at `url` (`redis://host:port/db`). Only the URL is checked here;
    /// the connection is made on first use, so a node starts even while Redis is down.
    pub fn new(url: &str, prefix: &str) -> Result<RedisRateLimiter, redis::RedisError> {
        Ok(RedisRateLimiter {
            client: redis::Client::open(url)?,
            script: redis::Script::new(COUNT_SCRIPT),
            prefix: prefix.to_owned(),
            established: RwLock::new(None),
            connecting: tokio::sync::Mutex::new(None),
            degraded: Mutex::new(None),
            fallback: InProcessRateLimiter::default(),
        })
    }

    fn established(&self) -> Option<ConnectionManager> {
        self.established
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The connection, making it if there is none and no attempt failed lately.
    async fn manager(&self) -> Option<ConnectionManager> {
        if let Some(manager) = self.established() {
            return Some(manager);
        }
        let mut last_failure = self.connecting.lock().await;
        if let Some(manager) = self.established() {
            return Some(manager);
        }
        if last_failure.is_some_and(|failure| failure.elapsed() < RECONNECT_EVERY) {
            return None;
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(self.client.clone(), config);
        let failure = match tokio::time::timeout(REDIS_TIMEOUT * 2, connecting).await {
            Ok(Ok(manager)) => {
                *self
                    .established
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(manager.clone());
                *last_failure = None;
                return Some(manager);
            }
            Ok(Err(error)) => format!("cannot connect: {error}"),
            Err(_) => "cannot connect: timed out".to_owned(),
        };
        *last_failure = Some(Instant::now());
        self.set_degraded(Some(failure));
        None
    }

    /// Records whether the limiter counts per node, logging each change once.
    fn set_degraded(&self, reason: Option<String>) {
        let mut degraded = self.degraded.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match (&*degraded, &reason) {
            (None, Some(reason)) => {
                tracing::warn!(%reason, "Redis is unreachable: rate limits now count per node until it returns");
            }
            (Some(_), None) => tracing::info!("Redis is reachable again: rate limits are shared across nodes"),
            _ => {}
        }
        *degraded = reason;
    }

    async fn count_in_redis(
        &self,
        manager: &mut ConnectionManager,
        account_id: Uuid,
        limit: u32,
        now: Timestamp,
    ) -> Result<i64, String> {
        let key = format!(
            "{}:ratelimit:{account_id}:{}",
            self.prefix,
            window_start(now).timestamp() / 60
        );
        let mut invocation = self.script.key(key);
        invocation.arg(limit).arg(COUNTER_LIFETIME_MS);
        let invocation = invocation.invoke_async::<i64>(manager);
        match tokio::time::timeout(REDIS_TIMEOUT, invocation).await {
            Ok(Ok(count)) => Ok(count),
            Ok(Err(error)) => Err(error.to_string()),
            Err(_) => Err("timed out".to_owned()),
        }
    }
}

#[async_trait]
impl RateLimiter for RedisRateLimiter {
    async fn acquire(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal> {
        if let Some(mut manager) = self.manager().await {
            match self.count_in_redis(&mut manager, account_id, limit, now).await {
                Ok(count) => {
                    self.set_degraded(None);
                    if count < 0 {
                        return Err(Refusal {
                            limit,
                            resets_at: window_reset(now),
                            retry_after_seconds: seconds_until_reset(now),
                        });
                    }
                    let used = u32::try_from(count).unwrap_or(u32::MAX);
                    return Ok(WindowUsage {
                        limit,
                        used,
                        resets_at: window_reset(now),
                    });
                }
                Err(reason) => self.set_degraded(Some(reason)),
            }
        }
        self.fallback.count(account_id, limit, now)
    }

    fn health(&self) -> LimiterHealth {
        let degraded = self
            .degraded
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone();
        LimiterHealth {
            kind: "redis",
            shared: degraded.is_none(),
            degraded,
        }
    }
}
