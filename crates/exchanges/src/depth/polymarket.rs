//! Polymarket's CLOB `GET /book?token_id=…`, the Data API's `GET /trades?market=…`, and the
//! ids both need, read from a Gamma market record.
//!
//! A `/book` is one token's (one outcome's) book: `bids` and `asks` as `{"price": "0.54",
//! "size": "1234.5"}` strings, **best level last** (bids ascend, asks descend), and
//! `timestamp` in milliseconds as a string. Every recorded book is that way round; the
//! ladder is sorted here whatever the order, so a change of order upstream cannot turn a
//! book inside out. The Data API's trades are plain numbers, `timestamp` in seconds, with
//! `side` (`BUY`/`SELL`, the taker's) and `outcomeIndex`.

use marketlens_domain::depth::{Ladder, Level, TakerSide};
use marketlens_domain::time::Timestamp;
use serde::Deserialize;
use serde_with::json::JsonString;
use serde_with::{PickFirst, Same, serde_as};

use super::{BookReading, DepthPayloadError, TradeReading, TradesReading};
use crate::lenient::{Finite, IdString, Number};

const BOOK: &str = "Polymarket /book";
const TRADES: &str = "Polymarket Data API /trades";
const GAMMA: &str = "Gamma market";

/// A book's fields, the same in a CLOB `/book` body and a market channel `book` event.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Book {
    #[serde_as(as = "Option<Number>")]
    timestamp: Option<Finite>,
    bids: Option<Vec<BookLevel>>,
    asks: Option<Vec<BookLevel>>,
}

#[serde_as]
#[derive(Debug, Deserialize)]
pub(crate) struct BookLevel {
    #[serde_as(as = "Number")]
    price: Finite,
    #[serde_as(as = "Number")]
    size: Finite,
}

/// The ladder of the token a `/book` body is for.
pub fn book(bytes: &[u8]) -> Result<BookReading, DepthPayloadError> {
    let book: Book = serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(BOOK, error))?;
    Ok(book.reading())
}

impl Book {
    pub(crate) fn reading(self) -> BookReading {
        let levels = |side: Option<Vec<BookLevel>>| {
            side.unwrap_or_default().into_iter().map(|level| Level {
                price: level.price.0,
                size: level.size.0,
            })
        };
        BookReading {
            timestamp: self.timestamp.and_then(|millis| millis_time(millis.0)),
            ladder: Ladder::new(levels(self.bids), levels(self.asks)),
        }
    }
}

/// A time in milliseconds since the epoch, as the CLOB sends it; `None` when not positive.
pub(crate) fn millis_time(millis: f64) -> Option<Timestamp> {
    chrono::DateTime::from_timestamp_millis(millis as i64).filter(|_| millis > 0.0)
}

#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct DataTrade {
    transaction_hash: Option<String>,
    side: Option<String>,
    #[serde_as(as = "Option<Number>")]
    size: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    price: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    timestamp: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    outcome_index: Option<Finite>,
    asset: Option<String>,
}

/// A Data API `/trades` body (a JSON list), newest first as sent. A trade missing one of the
/// fields used is left out. The Data API pages by offset, so there is no cursor.
pub fn trades(bytes: &[u8]) -> Result<TradesReading, DepthPayloadError> {
    let records: Vec<serde_json::Value> =
        serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(TRADES, error))?;
    let count = records.len();
    let trades = records
        .into_iter()
        .filter_map(|value| serde_json::from_value::<DataTrade>(value).ok())
        .filter_map(|trade| trade_reading(&trade))
        .collect();
    Ok(TradesReading {
        trades,
        records: count,
        cursor: None,
    })
}

fn trade_reading(trade: &DataTrade) -> Option<TradeReading> {
    let taker_side = match trade.side.as_deref()? {
        side if side.eq_ignore_ascii_case("BUY") => TakerSide::Buy,
        side if side.eq_ignore_ascii_case("SELL") => TakerSide::Sell,
        _ => return None,
    };
    let seconds = trade.timestamp?.0;
    let index = trade.outcome_index?.0;
    if !(0.0..16.0).contains(&index) || index.fract() != 0.0 {
        return None;
    }
    Some(TradeReading {
        id: trade_id(
            trade.transaction_hash.as_deref()?,
            trade.asset.as_deref().unwrap_or_default(),
        )?,
        time: chrono::DateTime::from_timestamp(seconds as i64, 0)?,
        outcome_index: index as usize,
        price: marketlens_domain::depth::round_price(trade.price?.0),
        size: trade.size?.0,
        taker_side,
    })
}

/// A trade's id: its transaction hash and the tail of its asset (token) id, because one
/// transaction can fill several orders and the asset keeps two outcomes' fills apart. `None`
/// without a hash.
pub(crate) fn trade_id(hash: &str, asset: &str) -> Option<String> {
    if hash.is_empty() {
        return None;
    }
    let skipped = asset.chars().count().saturating_sub(8);
    let asset_tail: String = asset.chars().skip(skipped).collect();
    Some(format!("{hash}-{asset_tail}"))
}

/// What a Polymarket market's depth is asked by: its CLOB token ids (one per outcome, in the
/// outcomes' order) and its condition id (the Data API's `market`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketTokens {
    pub condition_id: String,
    pub token_ids: Vec<String>,
}

#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct GammaMarket {
    #[serde_as(as = "Option<IdString>")]
    id: Option<String>,
    condition_id: Option<String>,
    /// A JSON-encoded list, like Gamma's `outcomes` (a real list is accepted too).
    #[serde_as(as = "Option<PickFirst<(JsonString, Same)>>")]
    clob_token_ids: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum GammaMarkets {
    Page { markets: Vec<serde_json::Value> },
    List(Vec<serde_json::Value>),
}

/// The tokens of market `external_id` in a Gamma `/markets` body (a keyset page or a list);
/// `Ok(None)` when the body does not hold it or holds it without tokens.
pub fn market_tokens(bytes: &[u8], external_id: &str) -> Result<Option<MarketTokens>, DepthPayloadError> {
    let markets = match serde_json::from_slice(bytes).map_err(|error| DepthPayloadError::json(GAMMA, error))? {
        GammaMarkets::Page { markets } | GammaMarkets::List(markets) => markets,
    };
    Ok(markets
        .into_iter()
        .filter_map(|value| serde_json::from_value::<GammaMarket>(value).ok())
        .find(|market| market.id.as_deref() == Some(external_id))
        .and_then(|market| {
            let token_ids = market.clob_token_ids.filter(|ids| !ids.is_empty())?;
            Some(MarketTokens {
                condition_id: market.condition_id.filter(|id| !id.is_empty())?,
                token_ids,
            })
        }))
}
