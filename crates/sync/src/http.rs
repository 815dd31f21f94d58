//! One HTTP GET retried until it yields a body its reader accepts: what every outbound request
//! of the sync (exchange pages, news feeds) goes through.
//!
//! Retried, with exponential backoff and jitter: transport errors and timeouts, 5xx, 429 (after
//! `Retry-After` when the response has one), and bodies the reader calls garbled (a truncated
//! transfer). Not retried: other 4xx, and bodies the reader refuses for good: asking again
//! would give the same answer.

use backon::{BackoffBuilder, ExponentialBuilder};
use chrono::Utc;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use marketlens_domain::redact;
use reqwest::StatusCode;
use reqwest::header::RETRY_AFTER;
use std::num::NonZeroU32;
use std::time::Duration;

use crate::settings::SyncSettings;

/// The longest `Retry-After` honoured; a longer one is cut to this.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(120);
/// How much of an error body goes into a log line or error.
const BODY_PREVIEW: usize = 200;

#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("GET {target}: refused with HTTP {status}: {body}")]
    Refused { target: String, status: u16, body: String },
    #[error("GET {target}: gave up after {attempts} attempts; last: {last}")]
    Exhausted {
        target: String,
        attempts: usize,
        last: String,
    },
    #[error("GET {target}: the response is not one we can read: {reason}")]
    Unusable { target: String, reason: String },
    #[error("GET {target}: the response is larger than {limit} bytes")]
    TooLarge { target: String, limit: usize },
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

/// What a reader makes of a successful response's body.
pub enum Reading<T> {
    Read(T),
    /// Garbled (a cut-off transfer): worth asking again.
    Garbled(String),
    /// Never readable: fail now.
    Refused(String),
}

/// An HTTP client with its pace, retries and largest accepted body.
pub struct Retrying {
    client: reqwest::Client,
    pace: DefaultDirectRateLimiter,
    backoff: ExponentialBuilder,
    max_attempts: usize,
    /// The longest `Retry-After` waited for; one asking for more ends the request.
    longest_retry_after: Duration,
    max_body_bytes: usize,
}

enum Attempt<T> {
    Done(T),
    Retry { reason: String, wait: Option<Duration> },
    Fail(FetchError),
}

impl Retrying {
    pub fn new(
        settings: &SyncSettings,
        requests_per_second: u32,
        max_body_bytes: usize,
    ) -> Result<Retrying, FetchError> {
        let client = reqwest::Client::builder()
            .timeout(settings.request_timeout)
            .connect_timeout(settings.request_timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("marketlens/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| FetchError::Client(error.to_string()))?;
        let rate = NonZeroU32::new(requests_per_second).unwrap_or(NonZeroU32::MIN);
        let backoff = ExponentialBuilder::default()
            .with_min_delay(settings.first_retry_delay)
            .with_max_delay(settings.max_retry_delay)
            .with_max_times(settings.max_attempts.saturating_sub(1))
            .with_jitter();
        Ok(Retrying {
            client,
            pace: RateLimiter::direct(Quota::per_second(rate)),
            backoff,
            max_attempts: settings.max_attempts.max(1),
            longest_retry_after: settings.longest_retry_after,
            max_body_bytes,
        })
    }

    /// GETs `url` until `read` accepts a successful response's body. `target` names the request
    /// in logs and errors, with any URL in it redacted, as in every reason given: errors end up
    /// in logs, in the store and on `/readyz`.
    pub async fn get<T>(&self, target: &str, url: &str, read: impl Fn(&[u8]) -> Reading<T>) -> Result<T, FetchError> {
        let target = &redact::urls_in(target);
        let mut delays = self.backoff.build();
        let mut attempts = 0;
        loop {
            attempts += 1;
            let (reason, retry_after) = match self.attempt(target, url, &read).await {
                Attempt::Done(value) => return Ok(value),
                Attempt::Fail(error) => return Err(error),
                Attempt::Retry { reason, wait } => (redact::urls_in(&reason), wait),
            };
            // A server asking for a longer pause than this client waits for (an order book's
            // caller, half a second) ends the request now rather than holding it.
            let too_long = retry_after.is_some_and(|wait| wait > self.longest_retry_after);
            let Some(backoff) = delays.next().filter(|_| attempts < self.max_attempts && !too_long) else {
                return Err(FetchError::Exhausted {
                    target: target.to_owned(),
                    attempts,
                    last: reason,
                });
            };
            let wait = retry_after.unwrap_or(backoff);
            tracing::warn!(target, attempt = attempts, %reason, wait_ms = wait.as_millis() as u64, "retrying a request");
            tokio::time::sleep(wait).await;
        }
    }

    async fn attempt<T>(&self, target: &str, url: &str, read: &impl Fn(&[u8]) -> Reading<T>) -> Attempt<T> {
        self.pace.until_ready().await;
        let mut response = match self.client.get(url).send().await {
            Ok(response) => response,
            Err(error) => {
                return Attempt::Retry {
                    reason: transport_reason(&error),
                    wait: None,
                };
            }
        };
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(retry_after);
        let mut body = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) if body.len() + chunk.len() > self.max_body_bytes => {
                    return Attempt::Fail(FetchError::TooLarge {
                        target: target.to_owned(),
                        limit: self.max_body_bytes,
                    });
                }
                Ok(Some(chunk)) => body.extend_from_slice(&chunk),
                Ok(None) => break,
                Err(error) => {
                    return Attempt::Retry {
                        reason: format!("reading the body: {}", transport_reason(&error)),
                        wait: None,
                    };
                }
            }
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Attempt::Retry {
                reason: "HTTP 429 Too Many Requests".to_owned(),
                wait: retry_after,
            };
        }
        if status.is_server_error() {
            return Attempt::Retry {
                reason: format!("HTTP {}", status.as_u16()),
                wait: retry_after,
            };
        }
        if !status.is_success() {
            return Attempt::Fail(FetchError::Refused {
                target: target.to_owned(),
                status: status.as_u16(),
                body: preview(&body),
            });
        }
        match read(&body) {
            Reading::Read(value) => Attempt::Done(value),
            Reading::Garbled(reason) => Attempt::Retry { reason, wait: None },
            Reading::Refused(reason) => Attempt::Fail(FetchError::Unusable {
                target: target.to_owned(),
                reason: redact::urls_in(&reason),
            }),
        }
    }
}

fn transport_reason(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        format!("cannot connect: {error}")
    } else {
        error.to_string()
    }
}

/// `Retry-After` as seconds or an HTTP date, capped at [`MAX_RETRY_AFTER`].
fn retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    let wait = match value.parse::<u64>() {
        Ok(seconds) => Duration::from_secs(seconds),
        Err(_) => {
            let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
            (date.with_timezone(&Utc) - Utc::now())
                .to_std()
                .unwrap_or(Duration::ZERO)
        }
    };
    Some(wait.min(MAX_RETRY_AFTER))
}

fn preview(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    redact::urls_in(&text.chars().take(BODY_PREVIEW).collect::<String>().replace('\n', " "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_retry_after_in_both_forms() {
        assert_eq!(retry_after("7"), Some(Duration::from_secs(7)));
        assert_eq!(retry_after("100000"), Some(MAX_RETRY_AFTER));
        assert_eq!(
            retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO),
            "a date in the past"
        );
        let soon = (Utc::now() + chrono::TimeDelta::seconds(30)).to_rfc2822();
        assert!(
            retry_after(&soon).is_some_and(|wait| wait <= Duration::from_secs(30) && wait >= Duration::from_secs(28))
        );
        assert_eq!(retry_after("soon"), None);
    }
}
