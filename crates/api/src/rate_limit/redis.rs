//! The shared rate limiter: one counter per account and UTC minute in Redis, checked and
//! incremented by one Lua script, so that concurrent requests on any number of nodes see one
//! count and a refused request is never counted.
//!
//! When Redis cannot be reached (or answers too slowly), the node fails over to counting
//! in-process: it keeps serving, with each node enforcing the limit on its own requests,
//! rather than refusing everyone (fail closed) or letting everyone through (fail open). The
//! first failure trips a breaker ([`crate::breaker`]): from then on requests count in-process
//! at once, without trying Redis (before it, every request of an outage first waited for
//! Redis, cutting throughput by 88%), until a background probe finds Redis answering again,
//! every [`PROBE_EVERY`]. The switch is logged once each way and reported by `/readyz`.

use async_trait::async_trait;
use marketlens_domain::rate_limit::{seconds_until_reset, window_reset, window_start};
use marketlens_domain::time::Timestamp;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Duration;
use uuid::Uuid;

use super::{InProcessRateLimiter, LimiterHealth, RateLimiter, Refusal, WindowUsage};
use crate::breaker::{Breaker, Trouble};

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
/// How often the probe asks Redis while the breaker is open.
pub const PROBE_EVERY: Duration = Duration::from_millis(500);
/// A window's counter outlives its minute a little, then Redis drops it.
const COUNTER_LIFETIME_MS: u64 = 120_000;

pub struct RedisRateLimiter {
    client: redis::Client,
    script: redis::Script,
    /// Keys are `{prefix}:ratelimit:{account}:{minute}`; tests use their own prefix.
    prefix: String,
    /// The connection once made (the manager then reconnects by itself). Read by every
    /// request; a std lock held only to clone the handle out.
    established: Arc<RwLock<Option<ConnectionManager>>>,
    /// Serializes connection attempts: requests arriving meanwhile wait for the attempt (at
    /// most its timeout) instead of counting in-process while Redis is fine.
    connecting: tokio::sync::Mutex<()>,
    /// Open (tripped `Down`, the reason) while the limiter counts per node.
    breaker: Arc<Breaker>,
    /// Whether a probe task runs (one at a time).
    probing: Arc<AtomicBool>,
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
            established: Arc::default(),
            connecting: tokio::sync::Mutex::new(()),
            breaker: Arc::new(Breaker::new("Redis")),
            probing: Arc::default(),
            fallback: InProcessRateLimiter::default(),
        })
    }

    fn established(&self) -> Option<ConnectionManager> {
        self.established
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// The connection, making it if there is none.
    async fn manager(&self) -> Result<ConnectionManager, String> {
        if let Some(manager) = self.established() {
            return Ok(manager);
        }
        let _turn = self.connecting.lock().await;
        if let Some(manager) = self.established() {
            return Ok(manager);
        }
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(self.client.clone(), config);
        match tokio::time::timeout(REDIS_TIMEOUT * 2, connecting).await {
            Ok(Ok(manager)) => {
                *self
                    .established
                    .write()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(manager.clone());
                Ok(manager)
            }
            Ok(Err(error)) => Err(format!("cannot connect: {error}")),
            Err(_) => Err("cannot connect: timed out".to_owned()),
        }
    }

    /// Counts per node from now on, and starts the probe that finds Redis back.
    fn trip(&self, reason: &str) {
        self.breaker.trip(Trouble::Down, reason);
        if self.probing.swap(true, Ordering::AcqRel) {
            return;
        }
        // The breaker is held weakly: once the limiter is gone, the probe ends with it rather
        // than pinging a Redis that never comes back.
        let (client, breaker, probing) = (self.client.clone(), Arc::downgrade(&self.breaker), self.probing.clone());
        let established = self.established.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(PROBE_EVERY).await;
                let Some(breaker) = breaker.upgrade() else {
                    return;
                };
                if ping(&client).await.is_ok() {
                    // The next request connects afresh rather than on a connection the
                    // outage may have broken.
                    *established.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
                    breaker.close();
                    probing.store(false, Ordering::Release);
                    return;
                }
            }
        });
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

/// Whether Redis answers a `PING` on a connection of its own, within the timeout.
async fn ping(client: &redis::Client) -> Result<(), ()> {
    let pinged = async {
        let mut connection = client.get_multiplexed_async_connection().await?;
        redis::cmd("PING").query_async::<String>(&mut connection).await
    };
    match tokio::time::timeout(REDIS_TIMEOUT * 2, pinged).await {
        Ok(Ok(_)) => Ok(()),
        _ => Err(()),
    }
}

#[async_trait]
impl RateLimiter for RedisRateLimiter {
    async fn acquire(&self, account_id: Uuid, limit: u32, now: Timestamp) -> Result<WindowUsage, Refusal> {
        if self.breaker.refuses_calls() {
            return self.fallback.count(account_id, limit, now);
        }
        let counted = match self.manager().await {
            Ok(mut manager) => self.count_in_redis(&mut manager, account_id, limit, now).await,
            Err(failure) => Err(failure),
        };
        match counted {
            Ok(count) => {
                if count < 0 {
                    return Err(Refusal {
                        limit,
                        resets_at: window_reset(now),
                        retry_after_seconds: seconds_until_reset(now),
                    });
                }
                let used = u32::try_from(count).unwrap_or(u32::MAX);
                Ok(WindowUsage {
                    limit,
                    used,
                    resets_at: window_reset(now),
                })
            }
            Err(reason) => {
                self.trip(&reason);
                self.fallback.count(account_id, limit, now)
            }
        }
    }

    fn health(&self) -> LimiterHealth {
        let degraded = self.breaker.tripped().map(|tripped| tripped.reason);
        LimiterHealth {
            kind: "redis",
            shared: degraded.is_none(),
            degraded,
        }
    }
}
