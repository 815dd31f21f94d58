//! One page from an exchange: an HTTP GET paced to the exchange's rate and retried until it
//! yields a page the normalizers can read.
//!
//! Retried, with exponential backoff and jitter: transport errors and timeouts, 5xx, 429 (after
//! `Retry-After` when the response has one; Kalshi's 429s have none, so the backoff schedule
//! applies), and 200 responses whose body is not JSON (a truncated or garbled transfer; a
//! cursor-paged walk cannot skip a page, so the page is fetched again). Not retried: other 4xx,
//! and JSON of a shape we do not know — asking again would give the same answer.

use backon::{BackoffBuilder, ExponentialBuilder};
use chrono::Utc;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use marketlens_domain::Exchange;
use marketlens_exchanges::{Page, PayloadError, normalize_page};
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
    #[error("GET {path}: refused with HTTP {status}: {body}")]
    Refused { path: String, status: u16, body: String },
    #[error("GET {path}: gave up after {attempts} attempts; last: {last}")]
    Exhausted {
        path: String,
        attempts: usize,
        last: String,
    },
    #[error("GET {path}: the response is not a page we can read: {reason}")]
    Unusable { path: String, reason: String },
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

/// Why one attempt failed, and whether to try again.
enum Attempt {
    Retry { reason: String, wait: Option<Duration> },
    Fail(FetchError),
}

/// The HTTP client of one exchange.
pub struct Fetcher {
    exchange: Exchange,
    base_url: String,
    client: reqwest::Client,
    pace: DefaultDirectRateLimiter,
    backoff: ExponentialBuilder,
    max_attempts: usize,
}

impl Fetcher {
    pub fn new(exchange: Exchange, settings: &SyncSettings) -> Result<Fetcher, FetchError> {
        let exchange_settings = settings.exchange(exchange);
        let client = reqwest::Client::builder()
            .timeout(settings.request_timeout)
            .connect_timeout(settings.request_timeout.min(Duration::from_secs(10)))
            .user_agent(concat!("marketlens/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| FetchError::Client(error.to_string()))?;
        let rate = NonZeroU32::new(exchange_settings.requests_per_second).unwrap_or(NonZeroU32::MIN);
        let backoff = ExponentialBuilder::default()
            .with_min_delay(settings.first_retry_delay)
            .with_max_delay(settings.max_retry_delay)
            .with_max_times(settings.max_attempts.saturating_sub(1))
            .with_jitter();
        Ok(Fetcher {
            exchange,
            base_url: exchange_settings.base_url.trim_end_matches('/').to_owned(),
            client,
            pace: RateLimiter::direct(Quota::per_second(rate)),
            backoff,
            max_attempts: settings.max_attempts.max(1),
        })
    }

    pub fn exchange(&self) -> Exchange {
        self.exchange
    }

    /// Fetches and normalizes the page at `path_and_query` (relative to the base URL).
    pub async fn page(&self, path_and_query: &str) -> Result<Page, FetchError> {
        let mut delays = self.backoff.build();
        let mut attempts = 0;
        loop {
            attempts += 1;
            let failure = match self.attempt(path_and_query).await {
                Ok(page) => return Ok(page),
                Err(Attempt::Fail(error)) => return Err(error),
                Err(Attempt::Retry { reason, wait }) => (reason, wait),
            };
            let (reason, retry_after) = failure;
            let Some(backoff) = delays.next().filter(|_| attempts < self.max_attempts) else {
                return Err(FetchError::Exhausted {
                    path: path_and_query.to_owned(),
                    attempts,
                    last: reason,
                });
            };
            let wait = retry_after.unwrap_or(backoff);
            tracing::warn!(exchange = %self.exchange, path = path_and_query, attempt = attempts, %reason,
                wait_ms = wait.as_millis() as u64, "retrying an exchange request");
            tokio::time::sleep(wait).await;
        }
    }

    async fn attempt(&self, path_and_query: &str) -> Result<Page, Attempt> {
        self.pace.until_ready().await;
        let url = format!("{}{path_and_query}", self.base_url);
        let response = self.client.get(&url).send().await.map_err(|error| Attempt::Retry {
            reason: transport_reason(&error),
            wait: None,
        })?;
        let status = response.status();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|value| value.to_str().ok())
            .and_then(retry_after);
        let body = response.bytes().await.map_err(|error| Attempt::Retry {
            reason: format!("reading the body: {}", transport_reason(&error)),
            wait: None,
        })?;
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Err(Attempt::Retry {
                reason: "HTTP 429 Too Many Requests".to_owned(),
                wait: retry_after,
            });
        }
        if status.is_server_error() {
            return Err(Attempt::Retry {
                reason: format!("HTTP {}", status.as_u16()),
                wait: retry_after,
            });
        }
        if !status.is_success() {
            return Err(Attempt::Fail(FetchError::Refused {
                path: path_and_query.to_owned(),
                status: status.as_u16(),
                body: preview(&body),
            }));
        }
        normalize_page(self.exchange, &body).map_err(|error| match error {
            PayloadError::NotJson(json_error) => Attempt::Retry {
                reason: format!("the body is not JSON ({json_error})"),
                wait: None,
            },
            other => Attempt::Fail(FetchError::Unusable {
                path: path_and_query.to_owned(),
                reason: other.to_string(),
            }),
        })
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
    text.chars().take(BODY_PREVIEW).collect::<String>().replace('\n', " ")
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
