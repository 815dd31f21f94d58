//! Polymarket's CLOB market channel (`wss://ws-subscriptions-clob.polymarket.com/ws/market`)
//! as it arrives: one event per frame, or a JSON list of events, each named by `event_type`.
//!
//! - `book`: one token's whole book, fields as a REST `/book` (read by the same code), best
//!   level last; `tick_size` and `last_trade_price` appear from February 2026.
//! - `price_change`: levels whose size is now `size` (absolute, `"0"` removes the level),
//!   `side` `BUY` for a bid and `SELL` for an ask. Since 2025-09-15 a `price_changes` list
//!   whose entries each name their `asset_id` and carry the token's `best_bid`/`best_ask`;
//!   before, a `changes` list under one top-level `asset_id`. Both are read.
//! - `last_trade_price`: a trade, `side` the taker's, `timestamp` in milliseconds, with a
//!   `transaction_hash` in every recording (older documentation examples lack it).
//! - `tick_size_change`: read and not used (prices are fractions whatever the tick).
//!
//! Other event types (`best_bid_ask`, `new_market`, `market_resolved`, sent only to clients
//! that enable custom features) are recognised and ignored. Keys may come in any order
//! (the recordings were re-serialized with sorted keys) and numbers as strings or numbers.

use marketlens_domain::depth::TakerSide;
use marketlens_domain::stream::BookSide;
use marketlens_domain::time::Timestamp;
use serde::Deserialize;
use serde_json::Value;
use serde_with::serde_as;

use crate::depth::polymarket::{Book, millis_time, trade_id};
use crate::depth::{BookReading, DepthPayloadError};
use crate::lenient::{Finite, Number};

const FRAME: &str = "Polymarket market channel frame";

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Event {
    Book {
        asset_id: String,
        book: BookReading,
    },
    PriceChange {
        time: Option<Timestamp>,
        changes: Vec<PriceChange>,
    },
    LastTrade(LastTrade),
    /// A tick size change, or an event type this reader does not use.
    Ignored,
}

/// One level of one token's book as it is now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PriceChange {
    pub(crate) asset_id: String,
    pub(crate) side: BookSide,
    pub(crate) price: f64,
    pub(crate) size: f64,
    /// The token's best bid and ask after the change (the newer form only).
    pub(crate) best: Option<(Option<f64>, Option<f64>)>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LastTrade {
    pub(crate) asset_id: String,
    pub(crate) id: String,
    pub(crate) time: Timestamp,
    pub(crate) price: f64,
    pub(crate) size: f64,
    pub(crate) taker_side: TakerSide,
}

#[derive(Debug, Deserialize)]
struct Envelope {
    event_type: String,
    #[serde(default)]
    asset_id: Option<String>,
}

#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PriceChangeEvent {
    #[serde_as(as = "Option<Number>")]
    timestamp: Option<Finite>,
    /// The newer form.
    price_changes: Option<Vec<ChangeEntry>>,
    /// The older form, under the event's `asset_id`.
    changes: Option<Vec<ChangeEntry>>,
}

#[serde_as]
#[derive(Debug, Deserialize)]
struct ChangeEntry {
    #[serde(default)]
    asset_id: Option<String>,
    side: String,
    #[serde_as(as = "Number")]
    price: Finite,
    #[serde_as(as = "Number")]
    size: Finite,
    #[serde_as(as = "Option<Number>")]
    #[serde(default)]
    best_bid: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    #[serde(default)]
    best_ask: Option<Finite>,
}

#[serde_as]
#[derive(Debug, Deserialize)]
struct LastTradeEvent {
    asset_id: String,
    #[serde_as(as = "Number")]
    price: Finite,
    #[serde_as(as = "Number")]
    size: Finite,
    side: String,
    #[serde_as(as = "Number")]
    timestamp: Finite,
    #[serde(default)]
    transaction_hash: Option<String>,
}

/// The events of one text frame.
pub(crate) fn read(text: &str) -> Result<Vec<Event>, DepthPayloadError> {
    let value: Value = serde_json::from_str(text).map_err(|error| DepthPayloadError::json(FRAME, error))?;
    match value {
        Value::Array(events) => events.into_iter().map(event).collect(),
        event_value => Ok(vec![event(event_value)?]),
    }
}

fn event(value: Value) -> Result<Event, DepthPayloadError> {
    let shape = |error| DepthPayloadError::json(FRAME, error);
    let envelope = Envelope::deserialize(&value).map_err(shape)?;
    match envelope.event_type.as_str() {
        "book" => {
            let asset_id = envelope
                .asset_id
                .ok_or_else(|| DepthPayloadError::new(FRAME, "a book without an asset_id"))?;
            let book = Book::deserialize(&value).map_err(shape)?.reading();
            Ok(Event::Book { asset_id, book })
        }
        "price_change" => {
            let event = PriceChangeEvent::deserialize(&value).map_err(shape)?;
            let entries = event.price_changes.or(event.changes).unwrap_or_default();
            let changes = entries
                .into_iter()
                .map(|entry| price_change(entry, envelope.asset_id.as_deref()))
                .collect::<Result<_, _>>()?;
            Ok(Event::PriceChange {
                time: event.timestamp.and_then(|millis| millis_time(millis.0)),
                changes,
            })
        }
        "last_trade_price" => last_trade(LastTradeEvent::deserialize(&value).map_err(shape)?).map(Event::LastTrade),
        _ => Ok(Event::Ignored),
    }
}

fn price_change(entry: ChangeEntry, event_asset: Option<&str>) -> Result<PriceChange, DepthPayloadError> {
    let asset_id = entry
        .asset_id
        .or_else(|| event_asset.map(str::to_owned))
        .ok_or_else(|| DepthPayloadError::new(FRAME, "a price change without an asset_id"))?;
    let side = match side(&entry.side)? {
        TakerSide::Buy => BookSide::Bid,
        TakerSide::Sell => BookSide::Ask,
    };
    let best = (entry.best_bid.is_some() || entry.best_ask.is_some()).then(|| {
        (
            crate::lenient::real_bid(entry.best_bid.map(|bid| bid.0)),
            crate::lenient::real_ask(entry.best_ask.map(|ask| ask.0)),
        )
    });
    Ok(PriceChange {
        asset_id,
        side,
        price: entry.price.0,
        size: entry.size.0,
        best,
    })
}

fn last_trade(event: LastTradeEvent) -> Result<LastTrade, DepthPayloadError> {
    let time = millis_time(event.timestamp.0).ok_or_else(|| DepthPayloadError::new(FRAME, "a trade without a time"))?;
    // A trade without a hash (as older documentation shows) is named by its time instead.
    let hash = event
        .transaction_hash
        .filter(|hash| !hash.is_empty())
        .unwrap_or_else(|| format!("t{}", event.timestamp.0 as i64));
    Ok(LastTrade {
        id: trade_id(&hash, &event.asset_id).unwrap_or_default(),
        asset_id: event.asset_id,
        time,
        price: event.price.0,
        size: event.size.0,
        taker_side: side(&event.side)?,
    })
}

fn side(text: &str) -> Result<TakerSide, DepthPayloadError> {
    if text.eq_ignore_ascii_case("BUY") {
        Ok(TakerSide::Buy)
    } else if text.eq_ignore_ascii_case("SELL") {
        Ok(TakerSide::Sell)
    } else {
        Err(DepthPayloadError::new(
            FRAME,
            format!("side {text:?} is neither BUY nor SELL"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_of_price_change_are_read() {
        let newer = r#"{"event_type": "price_change", "market": "0x5f", "timestamp": "1757908892351",
            "price_changes": [{"asset_id": "A", "price": "0.5", "size": "200", "side": "BUY",
            "hash": "56", "best_bid": "0.5", "best_ask": "1"}]}"#;
        let older = r#"{"event_type": "price_change", "asset_id": "A", "market": "0x5f",
            "timestamp": 1729084877448, "hash": "3c", "changes": [{"price": ".4", "side": "SELL", "size": 3300}]}"#;
        let Ok::<[Event; 1], _>([Event::PriceChange { changes: newer, time }]) = read(newer).unwrap().try_into() else {
            panic!("not one price change")
        };
        assert_eq!(time.unwrap().timestamp_millis(), 1_757_908_892_351);
        assert_eq!(
            newer,
            vec![PriceChange {
                asset_id: "A".into(),
                side: BookSide::Bid,
                price: 0.5,
                size: 200.0,
                best: Some((Some(0.5), None)),
            }]
        );
        let Ok::<[Event; 1], _>([Event::PriceChange { changes: older, .. }]) = read(older).unwrap().try_into() else {
            panic!("not one price change")
        };
        assert_eq!(
            (older[0].side, older[0].price, older[0].best),
            (BookSide::Ask, 0.4, None)
        );
    }

    #[test]
    fn unknown_events_are_ignored_and_nonsense_is_an_error() {
        assert_eq!(
            read(r#"{"event_type": "best_bid_ask", "asset_id": "A"}"#).unwrap(),
            vec![Event::Ignored]
        );
        assert_eq!(read(r#"[]"#).unwrap(), vec![]);
        for bad in [
            "PONG",
            r#"{"asset_id": "A"}"#,
            r#"{"event_type": "book", "bids": []}"#,
            r#"{"event_type": "price_change", "price_changes": [{"asset_id": "A", "price": "x", "size": "1", "side": "BUY"}]}"#,
            r#"{"event_type": "last_trade_price", "asset_id": "A", "price": "0.5", "size": "1", "side": "HOLD", "timestamp": "1"}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
