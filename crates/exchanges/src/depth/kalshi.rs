//! Kalshi's `GET /markets/{ticker}/orderbook` and `GET /markets/trades`.
//!
//! An order book holds **bids only**: `yes` lists YES bids and `no` lists NO bids, each level
//! `[price, count]` ascending with the best bid last. A NO bid at `p` is an offer to sell YES
//! at `1 - p`, so the YES asks are the NO bids at `1 - p`. The body came in three generations
//! (`/work/shared/fixtures/depth/SOURCES.md`), read newest first:
//!
//! 1. `orderbook_fp.{yes_dollars, no_dollars}`: `["0.3700", "8368.00"]`, both strings (since
//!    March 2026, the only form);
//! 2. `orderbook.{yes_dollars, no_dollars}`: `["0.0100", 5000]`, a string price and an
//!    integer count;
//! 3. `orderbook.{yes, no}`: `[1, 5000]`, cents and an integer count.
//!
//! A side that is `null` (an empty multivariate book) or absent is empty. A trade's taker
//! always buys: `taker_side` says which side, so a trade is stated on the outcome the taker
//! bought, at that outcome's price.

use marketlens_domain::depth::{Ladder, Level, TakerSide};
use serde::Deserialize;
use serde_with::serde_as;

use super::{BookReading, DepthPayloadError, TradeReading, TradesReading};
use crate::lenient::{self, Finite, Number};

const ORDERBOOK: &str = "Kalshi orderbook";
const TRADES: &str = "Kalshi trades";

#[derive(Debug, Default, Deserialize)]
struct OrderbookBody {
    orderbook_fp: Option<Sides>,
    orderbook: Option<Sides>,
}

/// One generation's two arrays of bids, `[price, count]` each (also the older forms of a
/// WebSocket `orderbook_snapshot`).
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Sides {
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    pub(crate) yes_dollars: Option<Vec<(Finite, Finite)>>,
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    pub(crate) no_dollars: Option<Vec<(Finite, Finite)>>,
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    pub(crate) yes: Option<Vec<(Finite, Finite)>>,
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    pub(crate) no: Option<Vec<(Finite, Finite)>>,
}

impl Sides {
    /// YES bids and NO bids: in dollars when this generation has them, else from cents.
    pub(crate) fn bids(self) -> (Vec<Level>, Vec<Level>) {
        if self.yes_dollars.is_some() || self.no_dollars.is_some() {
            (dollars(self.yes_dollars), dollars(self.no_dollars))
        } else {
            (cents(self.yes), cents(self.no))
        }
    }
}

/// The YES ladder of an orderbook body: YES bids as bids, NO bids at `1 - p` as asks.
pub fn orderbook(bytes: &[u8]) -> Result<BookReading, DepthPayloadError> {
    let body: OrderbookBody =
        serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(ORDERBOOK, error))?;
    let (yes_bids, no_bids) = match (body.orderbook_fp, body.orderbook) {
        (Some(sides), _) | (None, Some(sides)) => sides.bids(),
        (None, None) => {
            return Err(DepthPayloadError::new(
                ORDERBOOK,
                "neither `orderbook_fp` nor `orderbook` is in the body",
            ));
        }
    };
    // A NO bid at p is an offer to sell YES at 1 - p.
    let yes_asks = no_bids.into_iter().map(|level| Level {
        price: 1.0 - level.price,
        size: level.size,
    });
    Ok(BookReading {
        ladder: Ladder::new(yes_bids, yes_asks),
        // Kalshi's orderbook carries no time: the caller stamps the response's arrival.
        timestamp: None,
    })
}

fn dollars(levels: Option<Vec<(Finite, Finite)>>) -> Vec<Level> {
    levels
        .unwrap_or_default()
        .into_iter()
        .map(|(price, size)| Level {
            price: price.0,
            size: size.0,
        })
        .collect()
}

fn cents(levels: Option<Vec<(Finite, Finite)>>) -> Vec<Level> {
    levels
        .unwrap_or_default()
        .into_iter()
        .map(|(price, size)| Level {
            price: price.0 / 100.0,
            size: size.0,
        })
        .collect()
}

#[derive(Debug, Default, Deserialize)]
struct TradesBody {
    #[serde(default)]
    trades: Option<Vec<serde_json::Value>>,
    #[serde(default)]
    cursor: Option<String>,
}

/// One trade in any of its generations: counts as `count_fp` or `count`, prices as
/// `*_price_dollars` strings, or cents (`yes_price`), or `price` in dollars. The same record
/// is a WebSocket `trade` message, timed by `ts` (seconds) instead of `created_time`.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Trade {
    pub(crate) market_ticker: Option<String>,
    trade_id: Option<String>,
    created_time: Option<String>,
    #[serde_as(as = "Option<Number>")]
    ts: Option<Finite>,
    taker_side: Option<String>,
    #[serde_as(as = "Option<Number>")]
    count_fp: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    count: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_price_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    no_price_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_price: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    no_price: Option<Finite>,
}

/// A `/markets/trades` page, newest first as Kalshi sends it. A trade missing its id, time,
/// side, count or price is left out (none of the recordings has one).
pub fn trades(bytes: &[u8]) -> Result<TradesReading, DepthPayloadError> {
    let body: TradesBody = serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(TRADES, error))?;
    let records = body.trades.unwrap_or_default();
    let count = records.len();
    let trades = records
        .into_iter()
        .filter_map(|value| serde_json::from_value::<Trade>(value).ok())
        .filter_map(|trade| trade_reading(&trade))
        .collect();
    Ok(TradesReading {
        trades,
        records: count,
        cursor: body.cursor.filter(|cursor| !cursor.is_empty()),
    })
}

pub(crate) fn trade_reading(trade: &Trade) -> Option<TradeReading> {
    let yes_price = trade
        .yes_price_dollars
        .map(|price| price.0)
        .or(trade.yes_price.map(|cents| cents.0 / 100.0))?;
    let no_price = trade
        .no_price_dollars
        .map(|price| price.0)
        .or(trade.no_price.map(|cents| cents.0 / 100.0))
        .unwrap_or(1.0 - yes_price);
    let (outcome_index, price) = match trade.taker_side.as_deref()? {
        "yes" => (0, yes_price),
        "no" => (1, no_price),
        _ => return None,
    };
    let time = match trade.ts {
        Some(seconds) => chrono::DateTime::from_timestamp(seconds.0 as i64, 0)?,
        None => lenient::timestamp("created_time", trade.created_time.as_deref()).ok()??,
    };
    Some(TradeReading {
        id: trade.trade_id.clone().filter(|id| !id.is_empty())?,
        time,
        outcome_index,
        price: marketlens_domain::depth::round_price(price),
        size: trade.count_fp.or(trade.count)?.0,
        taker_side: TakerSide::Buy,
    })
}
