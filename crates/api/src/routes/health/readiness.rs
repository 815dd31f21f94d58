//! The last readiness reading, so that a flood of `/readyz` costs one store read a second.

use serde_json::Value;
use std::future::Future;
use std::time::{Duration, Instant};
use tokio::sync::Mutex;

use crate::error::ApiError;

/// How long a readiness reading may take: a store that answers slower is not ready. Short,
/// so that a load balancer's check gets an answer within its own timeout; the store's health
/// (`crate::store_health`) usually answers first, without waiting at all.
const READINESS_TIMEOUT: Duration = Duration::from_secs(2);
/// How old a readiness reading may be before the next request reads again.
const READINESS_MAX_AGE: Duration = Duration::from_secs(1);

/// The last readiness reading. `/readyz` needs no key and reads the store several times, so a
/// flood of it must not cost a store read per request: callers within
/// [`READINESS_MAX_AGE`] of a reading get it again, and while one caller reads, the others
/// wait for its reading rather than reading too.
#[derive(Default)]
pub struct ReadinessCache {
    last: Mutex<Option<(Instant, Result<Value, ApiError>)>>,
}

impl ReadinessCache {
    pub(super) async fn get<F: Future<Output = Result<Value, ApiError>>>(
        &self,
        read: impl FnOnce() -> F,
    ) -> Result<Value, ApiError> {
        let mut last = self.last.lock().await;
        if let Some((at, reading)) = last.as_ref()
            && at.elapsed() < READINESS_MAX_AGE
        {
            return reading.clone();
        }
        let reading = tokio::time::timeout(READINESS_TIMEOUT, read())
            .await
            .unwrap_or_else(|_| {
                Err(ApiError::ServiceUnavailable {
                    message: "Not ready: the data store did not answer in time.".to_owned(),
                })
            });
        *last = Some((Instant::now(), reading.clone()));
        reading
    }
}
