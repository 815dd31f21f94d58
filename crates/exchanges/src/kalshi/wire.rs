//! Kalshi's records as they arrive, reduced to the fields the mapping uses; serde ignores the
//! rest. Every field is optional: the three schema generations each lack some of them, and
//! the trimmed records in `events-nested-1.json` keep only a handful. Whether a missing field
//! matters is decided in `normalize`, where the reason can say so.

use serde::Deserialize;
use serde_with::serde_as;

use crate::lenient::{Finite, Number};

/// A market, from `/markets`, `/markets/{ticker}` or nested in an event.
///
/// Prices come as `*_dollars` strings (`"0.0600"`, 2026 schema), as integer cents (`6`,
/// before 2026), or both side by side (January 2026); counts as `*_fp` strings or integers.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Market {
    pub ticker: Option<String>,
    pub event_ticker: Option<String>,
    pub title: Option<String>,
    /// The choice this market stands for in a multi-choice event ("Pietro Parolin").
    pub yes_sub_title: Option<String>,
    pub rules_primary: Option<String>,
    pub rules_secondary: Option<String>,
    pub status: Option<String>,
    /// `""`, `"yes"` or `"no"` (`null` in one 2025 dump).
    pub result: Option<String>,
    /// Present only in some 2025 dumps, often empty.
    pub category: Option<String>,
    #[serde_as(as = "Option<Number>")]
    pub yes_bid_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub yes_bid: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub yes_ask_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub yes_ask: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub no_bid_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub no_bid: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub no_ask_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub no_ask: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub last_price_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub last_price: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub settlement_value_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub settlement_value: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub liquidity_dollars: Option<Finite>,
    /// Cents.
    #[serde_as(as = "Option<Number>")]
    pub liquidity: Option<Finite>,
    /// Contracts, as a string with two decimals (`"12932.00"`).
    #[serde_as(as = "Option<Number>")]
    pub volume_fp: Option<Finite>,
    /// Contracts, as an integer.
    #[serde_as(as = "Option<Number>")]
    pub volume: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub volume_24h_fp: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub volume_24h: Option<Finite>,
    pub open_time: Option<String>,
    pub close_time: Option<String>,
    /// Go's zero time `0001-01-01T00:00:00Z` when Kalshi does not know.
    pub created_time: Option<String>,
    pub updated_time: Option<String>,
    /// When the market settled; on finalized markets only.
    pub settlement_ts: Option<String>,
}

/// An event, from `/events` or `/events/{ticker}` (its `markets` are read separately, as
/// records of their own).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Event {
    pub event_ticker: Option<String>,
    pub series_ticker: Option<String>,
    pub title: Option<String>,
    pub sub_title: Option<String>,
    /// Kalshi's own label: "Climate and Weather", "Companies", "Elections"…
    pub category: Option<String>,
    pub last_updated_ts: Option<String>,
}
