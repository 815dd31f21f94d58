//! Market depth in one form for both exchanges: order books per outcome and trades.
//!
//! A book lists, for each outcome of a market, its bids and asks as `{price, size}`, price a
//! fraction in `[0, 1]` and size in contracts, best first: bids by falling price, asks by
//! rising price. Both exchanges' binary markets are one pool of liquidity seen from two sides:
//! buying the first outcome at `p` is selling the second at `1 - p` (Kalshi keeps only bids of
//! each side; Polymarket matches complementary orders by minting and merging). So a book is
//! read once, for the first outcome, and the second outcome's book is its
//! [`Ladder::complement`]: its bids are the first outcome's asks at `1 - p`, and its asks the
//! first outcome's bids at `1 - p`.
//!
//! Where the data comes from ([`BookSource`]) and how it is fetched are other crates' work:
//! [`DepthSource`] names what the API needs, and `marketlens_sync::depth` implements it from
//! the exchanges' REST endpoints and from recordings; the API's stream hub serves the books a
//! live feed keeps ([`crate::stream`]) as [`BookSource::Stream`].

use async_trait::async_trait;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::exchange::Exchange;
use crate::time::Timestamp;

/// One price level: `size` contracts offered (asks) or wanted (bids) at `price`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// A fraction in `[0, 1]`: what one contract costs, in dollars.
    pub price: f64,
    /// Contracts (each pays $1 if its outcome wins); may be fractional.
    pub size: f64,
}

/// Prices are kept to six decimals: both exchanges quote on grids of 0.001 or 0.0001, and
/// `1 - p` in binary floating point would otherwise print as `0.6300000000000001`.
const PRICE_DECIMALS: f64 = 1e6;

/// `price` rounded to the book's precision.
pub fn round_price(price: f64) -> f64 {
    (price * PRICE_DECIMALS).round() / PRICE_DECIMALS
}

/// One outcome's side of the book: bids best (highest) first, asks best (lowest) first.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ladder {
    pub bids: Vec<Level>,
    pub asks: Vec<Level>,
}

impl Ladder {
    /// A ladder from levels in any order: levels whose price is not in `[0, 1]` or whose size
    /// is not a positive finite number are left out, levels of one price are added together,
    /// and each side is sorted best first.
    pub fn new(bids: impl IntoIterator<Item = Level>, asks: impl IntoIterator<Item = Level>) -> Ladder {
        let mut bids = merged(bids);
        bids.reverse();
        Ladder {
            bids,
            asks: merged(asks),
        }
    }

    /// The same liquidity seen from the other outcome of a binary market: a bid at `p` for
    /// this outcome is an ask at `1 - p` for the other, and an ask at `p` a bid at `1 - p`.
    /// Its own inverse (up to the six decimals prices are kept to).
    pub fn complement(&self) -> Ladder {
        let flip = |level: &Level| Level {
            price: round_price(1.0 - level.price),
            size: level.size,
        };
        Ladder {
            bids: self.asks.iter().map(flip).collect(),
            asks: self.bids.iter().map(flip).collect(),
        }
    }

    pub fn best_bid(&self) -> Option<f64> {
        self.bids.first().map(|level| level.price)
    }

    pub fn best_ask(&self) -> Option<f64> {
        self.asks.first().map(|level| level.price)
    }
}

/// Valid levels by rising price, one per price.
fn merged(levels: impl IntoIterator<Item = Level>) -> Vec<Level> {
    let mut levels: Vec<Level> = levels
        .into_iter()
        .filter(|level| (0.0..=1.0).contains(&level.price) && level.size.is_finite() && level.size > 0.0)
        .map(|level| Level {
            price: round_price(level.price),
            size: level.size,
        })
        .collect();
    levels.sort_by(|left, right| left.price.total_cmp(&right.price));
    levels.dedup_by(|later, earlier| {
        let same_price = later.price == earlier.price;
        if same_price {
            earlier.size += later.size;
        }
        same_price
    });
    levels
}

/// One outcome's book, named as the market names the outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeBook {
    pub outcome: String,
    #[serde(flatten)]
    pub ladder: Ladder,
}

/// Where a book or a page of trades came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookSource {
    /// Kept current by the exchange's live stream (`marketlens_connectors`, through the API's
    /// stream hub), while a stream client follows the market.
    Stream,
    /// Fetched from the exchange's REST API (and shared for a short while).
    Rest,
    /// Recorded earlier and served as recorded (the demo): its time is the recording's.
    Recording,
}

impl BookSource {
    pub const ALL: [BookSource; 3] = [BookSource::Stream, BookSource::Rest, BookSource::Recording];

    pub fn as_str(self) -> &'static str {
        match self {
            BookSource::Stream => "stream",
            BookSource::Rest => "rest",
            BookSource::Recording => "recording",
        }
    }
}

/// A market's book at one time.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderBook {
    /// When the book was as shown: the exchange's time when it says (Polymarket), else when
    /// the response arrived (Kalshi), or when it was recorded.
    pub timestamp: Timestamp,
    pub source: BookSource,
    /// The market the book was recorded on, when a recording is served for another market
    /// (the demo); `None` otherwise.
    pub recorded_from: Option<String>,
    /// One book per outcome, in the market's outcome order.
    pub outcomes: Vec<OutcomeBook>,
}

/// Books of a binary market from its first outcome's ladder: the second outcome's is its
/// complement. A market whose outcome count is not two gets only the first outcome's book.
pub fn binary_books(outcome_names: &[String], first: Ladder) -> Vec<OutcomeBook> {
    let mut books = Vec::with_capacity(2);
    let second = (outcome_names.len() == 2).then(|| first.complement());
    if let Some(name) = outcome_names.first() {
        books.push(OutcomeBook {
            outcome: name.clone(),
            ladder: first,
        });
    }
    if let (Some(name), Some(ladder)) = (outcome_names.get(1), second) {
        books.push(OutcomeBook {
            outcome: name.clone(),
            ladder,
        });
    }
    books
}

/// Which side the taker of a trade was on, for the trade's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TakerSide {
    Buy,
    Sell,
}

impl TakerSide {
    pub const ALL: [TakerSide; 2] = [TakerSide::Buy, TakerSide::Sell];

    pub fn as_str(self) -> &'static str {
        match self {
            TakerSide::Buy => "BUY",
            TakerSide::Sell => "SELL",
        }
    }
}

/// One trade: `size` contracts of `outcome` changed hands at `price`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trade {
    /// The exchange's id of the trade (Kalshi's `trade_id`; Polymarket's transaction hash).
    pub id: String,
    pub time: Timestamp,
    /// The outcome traded, named as the market names it.
    pub outcome: String,
    pub price: f64,
    pub size: f64,
    pub taker_side: TakerSide,
}

/// A page of a market's trades, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct TradePage {
    pub trades: Vec<Trade>,
    /// The exchange's token for the next page; `None` on the last.
    pub next: Option<String>,
    pub source: BookSource,
    /// As [`OrderBook::recorded_from`].
    pub recorded_from: Option<String>,
}

/// The stored facts a depth fetch needs: ids come from the store, never from a caller.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthMarket {
    pub id: Uuid,
    pub exchange: Exchange,
    /// Polymarket's numeric market id, or Kalshi's ticker.
    pub external_id: String,
    /// The market's outcome names, in order.
    pub outcomes: Vec<String>,
}

/// Why depth could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DepthError {
    /// This source has nothing for the market (the demo's recordings are of a few markets; a
    /// Polymarket market may have no CLOB tokens).
    #[error("no depth for this market")]
    NotAvailable,
    /// The exchange did not answer, or not usably; the reason is fit to log.
    #[error("the exchange did not answer usably: {0}")]
    Upstream(String),
    /// A page token that this source did not issue.
    #[error("a trades cursor this server did not issue")]
    BadCursor,
}

/// Where books and trades come from. The API holds one; `marketlens_sync::depth` implements
/// it over the exchanges' REST endpoints and over recordings.
#[async_trait]
pub trait DepthSource: Send + Sync {
    /// The market's book now (or as recorded).
    async fn book(&self, market: &DepthMarket) -> Result<OrderBook, DepthError>;

    /// A page of at most `limit` of the market's trades, newest first, after the page whose
    /// token is `after` (the first page when `None`).
    async fn trades(&self, market: &DepthMarket, after: Option<&str>, limit: u32) -> Result<TradePage, DepthError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(price: f64, size: f64) -> Level {
        Level { price, size }
    }

    #[test]
    fn a_ladder_sorts_best_first_merges_and_drops_bad_levels() {
        let ladder = Ladder::new(
            [
                level(0.3, 1.0),
                level(0.35, 2.0),
                level(0.3, 4.0),
                level(1.5, 1.0),
                level(0.2, 0.0),
            ],
            [level(0.9, 1.0), level(0.4, 3.0), level(f64::NAN, 1.0)],
        );
        assert_eq!(ladder.bids, vec![level(0.35, 2.0), level(0.3, 5.0)]);
        assert_eq!(ladder.asks, vec![level(0.4, 3.0), level(0.9, 1.0)]);
    }

    #[test]
    fn the_complement_turns_bids_into_asks_at_one_minus_the_price() {
        // Kalshi's worked example in docs/API.md: YES bids 0.70, NO bids 0.28, so YES asks 0.72.
        let yes = Ladder::new([level(0.70, 10.0)], [level(0.72, 7.0)]);
        let no = yes.complement();
        assert_eq!(no.bids, vec![level(0.28, 7.0)]);
        assert_eq!(no.asks, vec![level(0.3, 10.0)]);
        assert_eq!(no.complement(), yes);
    }

    #[test]
    fn binary_books_name_both_outcomes() {
        let names = vec!["Up".to_owned(), "Down".to_owned()];
        let books = binary_books(&names, Ladder::new([level(0.4, 1.0)], [level(0.6, 2.0)]));
        assert_eq!(books[1].outcome, "Down");
        assert_eq!(books[1].ladder.bids, vec![level(0.4, 2.0)]);
        assert_eq!(books[1].ladder.asks, vec![level(0.6, 1.0)]);
        assert_eq!(binary_books(&names[..1], Ladder::default()).len(), 1);
    }
}
