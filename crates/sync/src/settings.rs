//! How to reach and pace each exchange. The defaults stay inside each exchange's published
//! limits: Kalshi allows 20 reads per second on its basic tier and Gamma a few hundred
//! requests per ten seconds per endpoint; we use half or less.

use marketlens_domain::Exchange;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq)]
pub struct ExchangeSettings {
    /// The API's base URL, without a trailing slash.
    pub base_url: String,
    /// Records per page of a walk (Gamma's `/events/keyset` allows 500; Kalshi's `/events` 200).
    pub page_size: u32,
    /// Requests per second, at most.
    pub requests_per_second: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SyncSettings {
    pub polymarket: ExchangeSettings,
    pub kalshi: ExchangeSettings,
    /// The longest one HTTP request may take.
    pub request_timeout: Duration,
    /// Attempts per request, the first included.
    pub max_attempts: usize,
    /// The first retry's delay; each later one doubles (with jitter) up to `max_retry_delay`.
    pub first_retry_delay: Duration,
    pub max_retry_delay: Duration,
    /// The longest `Retry-After` a request waits for; a server asking for longer ends the
    /// request with an error at once (an order book's caller cannot wait minutes).
    pub longest_retry_after: Duration,
}

impl Default for SyncSettings {
    fn default() -> Self {
        SyncSettings {
            polymarket: ExchangeSettings {
                base_url: "https://gamma-api.polymarket.com".to_owned(),
                page_size: 200,
                requests_per_second: 10,
            },
            kalshi: ExchangeSettings {
                base_url: "https://api.elections.kalshi.com/trade-api/v2".to_owned(),
                page_size: 200,
                requests_per_second: 10,
            },
            request_timeout: Duration::from_secs(30),
            max_attempts: 5,
            first_retry_delay: Duration::from_millis(500),
            max_retry_delay: Duration::from_secs(30),
            longest_retry_after: Duration::from_secs(120),
        }
    }
}

impl SyncSettings {
    pub fn exchange(&self, exchange: Exchange) -> &ExchangeSettings {
        match exchange {
            Exchange::Polymarket => &self.polymarket,
            Exchange::Kalshi => &self.kalshi,
        }
    }
}
