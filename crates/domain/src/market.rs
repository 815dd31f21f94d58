//! A market as Marketlens serves it, whichever exchange it came from.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use uuid::Uuid;

use crate::category::Category;
use crate::depth::round_price;
use crate::exchange::Exchange;
use crate::ids;
use crate::market_url;
use crate::time::Timestamp;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum MarketStatus {
    /// Trading now (or listed and about to open).
    Open,
    /// Has a final result.
    Resolved,
    /// Stopped trading without a final result (yet).
    Closed,
}

impl MarketStatus {
    pub const ALL: [MarketStatus; 3] = [MarketStatus::Open, MarketStatus::Resolved, MarketStatus::Closed];

    pub fn as_str(self) -> &'static str {
        match self {
            MarketStatus::Open => "OPEN",
            MarketStatus::Resolved => "RESOLVED",
            MarketStatus::Closed => "CLOSED",
        }
    }

    /// The two-valued status explain reports: `open`, or `closed` for anything else.
    pub fn explain_status(self) -> &'static str {
        match self {
            MarketStatus::Open => "open",
            MarketStatus::Resolved | MarketStatus::Closed => "closed",
        }
    }
}

impl fmt::Display for MarketStatus {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.as_str())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown market status {0:?}: expected OPEN, RESOLVED or CLOSED")]
pub struct UnknownStatus(pub String);

impl FromStr for MarketStatus {
    type Err = UnknownStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        MarketStatus::ALL
            .into_iter()
            .find(|status| status.as_str().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownStatus(text.to_owned()))
    }
}

/// One outcome of a market. Prices are fractions in `[0, 1]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    pub name: String,
    pub price: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_ask_price: Option<f64>,
}

/// The widest spread (best ask less best bid) at which Polymarket displays the middle of the
/// book; over it, the last trade.
pub const POLYMARKET_MIDPOINT_SPREAD: f64 = 0.10;

/// An outcome's price as `exchange` displays it, from its last trade and its book's best bid
/// and ask (`None`: no trade yet, or no real order on that side). The catalogue states this
/// price and a live stream reports it, so that a market's price history moves only when the
/// exchange's price does.
///
/// - Polymarket: the middle of the book when both sides are known and the spread is at most
///   [`POLYMARKET_MIDPOINT_SPREAD`], else the last trade. A side the book states empty counts
///   as a bid of 0 or an ask of 1 ([`polymarket_best_prices`]). Gamma's `outcomePrices`,
///   which the catalogue takes as they are, are this price.
/// - Kalshi: the last trade, else the middle of the book when both sides hold an order (its
///   normalizer reads `last_price`, `yes_bid` and `yes_ask` so).
///
/// `None` when neither gives a price.
pub fn displayed_price(
    exchange: Exchange,
    last: Option<f64>,
    best_bid: Option<f64>,
    best_ask: Option<f64>,
) -> Option<f64> {
    // A crossed book (bid over ask) has no middle.
    let spread_and_middle = match (best_bid, best_ask) {
        (Some(bid), Some(ask)) if bid <= ask => Some((round_price(ask - bid), round_price((bid + ask) / 2.0))),
        _ => None,
    };
    match exchange {
        Exchange::Polymarket => spread_and_middle
            .filter(|(spread, _)| *spread <= POLYMARKET_MIDPOINT_SPREAD)
            .map(|(_, middle)| middle)
            .or(last),
        Exchange::Kalshi => last.or(spread_and_middle.map(|(_, middle)| middle)),
    }
}

/// The best bid and ask [`displayed_price`] takes for Polymarket, from a book's: each
/// `Some(None)` when the book states that side empty, which Polymarket counts as a bid of 0
/// or an ask of 1 (its `/midpoint` of a book without bids is half its best ask), and `None`
/// while the side is not known (no book yet), which gives no middle.
pub fn polymarket_best_prices(
    best_bid: Option<Option<f64>>,
    best_ask: Option<Option<f64>>,
) -> (Option<f64>, Option<f64>) {
    (
        best_bid.map(|bid| bid.unwrap_or(0.0)),
        best_ask.map(|ask| ask.unwrap_or(1.0)),
    )
}

/// The keys a public URL can name a market by. Polymarket URLs carry slugs; Kalshi URLs
/// carry tickers, which are stored lower-cased here so that lookups ignore case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UrlKeys {
    /// Polymarket market slug, or Kalshi market ticker.
    pub market: Option<String>,
    /// Polymarket event slug, or Kalshi event ticker.
    pub event: Option<String>,
    /// Polymarket series slug, or Kalshi series ticker.
    pub series: Option<String>,
}

/// How the exchange says the market resolves, in its own words. Each part is `None` when the
/// exchange states none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// The resolution rule: Kalshi's `rules_primary`, Polymarket's `description`.
    pub primary: Option<String>,
    /// Further terms: Kalshi's `rules_secondary`. Polymarket has no second part.
    pub secondary: Option<String>,
    /// Where the result is to be read: Polymarket's `resolutionSource` (a URL or a name).
    /// Kalshi names its sources inside its rules.
    pub source: Option<String>,
}

/// The result of a market with a final result ([`MarketStatus::Resolved`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// The name of the winning outcome, as in [`Market::outcomes`]; `None` when the exchange's
    /// result names no single winner (a Kalshi scalar settlement, a Polymarket market whose
    /// final prices crown no outcome). Never guessed: the normalizers document their rule.
    pub outcome: Option<String>,
    /// When the exchange settled the market, if the payload says.
    pub resolved_at: Option<Timestamp>,
}

/// A normalized market, as produced by the exchange normalizers and kept by the stores.
///
/// Invariants (checked by [`Market::validate`], which normalizers call before emitting):
/// prices in `[0, 1]`, volumes and liquidity finite and not negative, a non-empty question
/// and external id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Market {
    pub exchange: Exchange,
    /// The exchange's own market id: Polymarket's numeric id, Kalshi's ticker.
    pub external_id: String,
    /// The exchange's own id of the event this market belongs to, when known.
    pub event_external_id: Option<String>,
    pub question: String,
    pub description: String,
    pub status: MarketStatus,
    pub category: Category,
    /// USD.
    pub liquidity: f64,
    /// USD. Kalshi reports contracts; a contract pays $1, so contracts are USD notional.
    pub volume: f64,
    pub volume_24h: f64,
    pub start_date: Option<Timestamp>,
    pub end_date: Option<Timestamp>,
    /// When the exchange created the market. `None` when the payload does not say (the store
    /// then keeps the time it first saw the market).
    pub created_at: Option<Timestamp>,
    /// When the exchange last changed the record, if the payload says; decides whether an
    /// incoming record is newer than the stored one.
    pub source_updated_at: Option<Timestamp>,
    pub outcomes: Vec<Outcome>,
    pub url_keys: UrlKeys,
    /// The market's public page on its exchange.
    pub url: String,
    pub image_url: String,
    pub rules: Rules,
    /// `Some` exactly when the market is [`MarketStatus::Resolved`].
    pub resolution: Option<Resolution>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidMarket {
    #[error("empty external id")]
    EmptyExternalId,
    #[error("empty question")]
    EmptyQuestion,
    #[error("no outcomes")]
    NoOutcomes,
    #[error("{field} is {value}, outside [0, 1]")]
    PriceOutOfRange { field: &'static str, value: String },
    #[error("{field} is {value}, not a finite amount of at least 0")]
    BadAmount { field: &'static str, value: String },
    #[error("status {status} with a resolution, or RESOLVED without one")]
    ResolutionMismatch { status: MarketStatus },
    #[error("the winning outcome {0:?} is none of the market's outcomes")]
    UnknownWinner(String),
}

impl Market {
    pub fn id(&self) -> Uuid {
        ids::market_id(self.exchange, &self.external_id)
    }

    pub fn event_id(&self) -> Option<Uuid> {
        self.event_external_id
            .as_deref()
            .map(|event_external_id| ids::event_id(self.exchange, event_external_id))
    }

    /// The price of the first outcome ("Yes" for binary markets), 0 when there is none.
    pub fn headline_price(&self) -> f64 {
        self.outcomes.first().map_or(0.0, |outcome| outcome.price)
    }

    /// The market's public page, when its URL is one [`market_url::parse`] reads back (a
    /// market with neither a slug nor an event on Polymarket has only the home page).
    pub fn page_url(&self) -> Option<&str> {
        market_url::parse(&self.url).map(|_| self.url.as_str())
    }

    pub fn validate(&self) -> Result<(), InvalidMarket> {
        if self.external_id.trim().is_empty() {
            return Err(InvalidMarket::EmptyExternalId);
        }
        if self.question.trim().is_empty() {
            return Err(InvalidMarket::EmptyQuestion);
        }
        if self.outcomes.is_empty() {
            return Err(InvalidMarket::NoOutcomes);
        }
        for (field, value) in [
            ("liquidity", self.liquidity),
            ("volume", self.volume),
            ("volume24h", self.volume_24h),
        ] {
            if !value.is_finite() || value < 0.0 {
                return Err(InvalidMarket::BadAmount {
                    field,
                    value: value.to_string(),
                });
            }
        }
        for outcome in &self.outcomes {
            let prices = [Some(outcome.price), outcome.best_bid_price, outcome.best_ask_price];
            for (field, price) in ["price", "bestBidPrice", "bestAskPrice"].into_iter().zip(prices) {
                if let Some(price) = price
                    && !(0.0..=1.0).contains(&price)
                {
                    return Err(InvalidMarket::PriceOutOfRange {
                        field,
                        value: price.to_string(),
                    });
                }
            }
        }
        if self.resolution.is_some() != (self.status == MarketStatus::Resolved) {
            return Err(InvalidMarket::ResolutionMismatch { status: self.status });
        }
        if let Some(winner) = self
            .resolution
            .as_ref()
            .and_then(|resolution| resolution.outcome.as_deref())
            && !self.outcomes.iter().any(|outcome| outcome.name == winner)
        {
            return Err(InvalidMarket::UnknownWinner(winner.to_owned()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polymarket_displays_the_middle_of_a_tight_book_and_else_the_last_trade() {
        let price = |last, bid, ask| displayed_price(Exchange::Polymarket, last, bid, ask);
        assert_eq!(price(Some(0.3), Some(0.46), Some(0.47)), Some(0.465));
        // A spread of exactly 0.10 is still tight, whatever the floating-point difference says.
        assert_eq!(price(Some(0.3), Some(0.45), Some(0.55)), Some(0.5));
        assert_eq!(price(Some(0.3), Some(0.45), Some(0.56)), Some(0.3));
        assert_eq!(price(Some(0.3), None, Some(0.47)), Some(0.3));
        assert_eq!(price(None, Some(0.2), Some(0.8)), None);
        assert_eq!(price(None, None, None), None);
        // A crossed book has no middle.
        assert_eq!(price(Some(0.3), Some(0.5), Some(0.49)), Some(0.3));
        // A side stated empty counts as a bid of 0 or an ask of 1: the recorded book without
        // bids and a best ask of 0.001 has Polymarket's recorded midpoint, 0.0005.
        let (bid, ask) = polymarket_best_prices(Some(None), Some(Some(0.001)));
        assert_eq!(price(Some(0.999), bid, ask), Some(0.0005));
        let (bid, ask) = polymarket_best_prices(Some(Some(0.999)), Some(None));
        assert_eq!(price(Some(0.5), bid, ask), Some(0.9995));
        // A side not known yet gives no middle.
        let (bid, ask) = polymarket_best_prices(None, Some(Some(0.001)));
        assert_eq!(price(Some(0.999), bid, ask), Some(0.999));
    }

    #[test]
    fn kalshi_displays_the_last_trade_and_else_the_middle_of_the_book() {
        let price = |last, bid, ask| displayed_price(Exchange::Kalshi, last, bid, ask);
        assert_eq!(price(Some(0.41), Some(0.3), Some(0.5)), Some(0.41));
        assert_eq!(price(None, Some(0.3), Some(0.5)), Some(0.4));
        assert_eq!(price(None, Some(0.3), None), None);
        assert_eq!(price(None, None, None), None);
    }
}
