//! Order books and trades for the API, behind `marketlens_domain::depth::DepthSource`:
//!
//! - [`rest`]: [`RestDepth`], fetched from the exchanges' REST endpoints (Polymarket's CLOB and
//!   Data API, Kalshi's Trade API) with a short shared cache per node: concurrent callers of
//!   one book share one upstream fetch (single flight), and a book is reused for
//!   [`DepthSettings::cache_ttl`].
//! - [`recorded`]: [`RecordedDepth`], the recordings of `demo-data/depth/` served for the demo
//!   markets their manifest names (`marketlens demo`, where no exchange is reachable).
//!
//! Only ids the store holds are ever put into a URL, on the configured base URLs: a caller
//! names a market by our id, never an address.

pub mod recorded;
pub mod rest;

use marketlens_domain::depth::{DepthMarket, Trade};
use marketlens_exchanges::depth::TradeReading;
use std::time::Duration;

pub use recorded::RecordedDepth;
pub use rest::RestDepth;

/// Where depth is fetched from and how long a fetched book is shared.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthSettings {
    /// Polymarket's CLOB (`/book`), without a trailing slash.
    pub polymarket_clob_url: String,
    /// Polymarket's Data API (`/trades`), without a trailing slash.
    pub polymarket_data_url: String,
    /// How long a fetched book or page of trades is served to every caller on this node.
    pub cache_ttl: Duration,
    /// The longest one upstream request may take: a caller waits on it.
    pub request_timeout: Duration,
    /// Upstream requests per second, per exchange, beside the sync's own.
    pub requests_per_second: u32,
}

impl Default for DepthSettings {
    fn default() -> Self {
        DepthSettings {
            polymarket_clob_url: "https://clob.polymarket.com".to_owned(),
            polymarket_data_url: "https://data-api.polymarket.com".to_owned(),
            cache_ttl: Duration::from_millis(2_000),
            request_timeout: Duration::from_secs(5),
            requests_per_second: 8,
        }
    }
}

/// Trades named by the market's outcomes; a trade of an outcome the market does not have is
/// left out.
fn named_trades(market: &DepthMarket, readings: Vec<TradeReading>) -> Vec<Trade> {
    readings
        .into_iter()
        .filter_map(|reading| {
            Some(Trade {
                outcome: market.outcomes.get(reading.outcome_index)?.clone(),
                id: reading.id,
                time: reading.time,
                price: reading.price,
                size: reading.size,
                taker_side: reading.taker_side,
            })
        })
        .collect()
}
