//! Kalshi's WebSocket API v2 (`wss://api.elections.kalshi.com/trade-api/ws/v2`) as it
//! arrives: `{"type", "sid", "seq", "id", "msg"}`.
//!
//! - Replies to commands: `subscribed` (`id`, `msg.channel`, `msg.sid`, no `seq`), `ok`
//!   (to `update_subscription`; it **uses up a `seq` number** of its subscription),
//!   `unsubscribed`, and `error` (`msg.code`, `msg.msg`).
//! - `orderbook_snapshot`: both sides' **bids** (YES bids and NO bids) as `yes_dollars_fp` /
//!   `no_dollars_fp` `[["0.0100", "966425.00"], ...]`; older forms `yes_dollars`/`no_dollars`
//!   and cents `yes`/`no` are read too, by the REST book's code.
//! - `orderbook_delta`: a **difference** `delta_fp` (or `delta`, an integer) to the size of
//!   one bid, `side` `yes` or `no`, at `price_dollars` (or cents `price`), at `ts_ms` / `ts`.
//! - `ticker`: the market's last price and best YES bid and ask, cents and dollars side by
//!   side, no `seq`; a YES ask of 1 (or 100 cents) means no ask.
//! - `trade`: one trade, read by the REST trades' code (`ts` in seconds).
//!
//! `seq` counts every message of one subscription (`sid`), snapshots, deltas and `ok`
//! replies alike, without gaps. Other message types are read and ignored.

use marketlens_domain::depth::Level;
use marketlens_domain::time::Timestamp;
use serde::Deserialize;
use serde_json::Value;
use serde_with::serde_as;

use crate::depth::kalshi::{Sides, Trade, trade_reading};
use crate::depth::polymarket::millis_time;
use crate::depth::{DepthPayloadError, TradeReading};
use crate::lenient::{self, Finite, Number};

const FRAME: &str = "Kalshi WebSocket frame";

/// One message, with its subscription and sequence number when it has them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Frame {
    pub(crate) sid: Option<u64>,
    pub(crate) seq: Option<u64>,
    pub(crate) message: Message,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Message {
    Subscribed {
        id: Option<u64>,
        channel: String,
        sid: u64,
    },
    /// `ok`, `unsubscribed` and other replies that need nothing but their `seq` counted.
    Acknowledged,
    Error {
        id: Option<u64>,
        reason: String,
    },
    Snapshot {
        ticker: String,
        yes_bids: Vec<Level>,
        no_bids: Vec<Level>,
    },
    Delta(Delta),
    Ticker(Ticker),
    Trade {
        ticker: String,
        trade: TradeReading,
    },
    Ignored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BidSide {
    Yes,
    No,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Delta {
    pub(crate) ticker: String,
    pub(crate) side: BidSide,
    /// The bid's price, in its own side's terms (a NO bid's price is NO's).
    pub(crate) price: f64,
    pub(crate) delta: f64,
    pub(crate) time: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ticker {
    pub(crate) ticker: String,
    pub(crate) last: Option<f64>,
    /// The best YES bid when the message states one (`Some(None)`: stated as none).
    pub(crate) yes_bid: Option<Option<f64>>,
    /// The best YES ask when the message states one (`Some(None)`: stated as none).
    pub(crate) yes_ask: Option<Option<f64>>,
    pub(crate) time: Option<Timestamp>,
}

#[derive(Debug, Deserialize)]
struct Envelope {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    sid: Option<u64>,
    #[serde(default)]
    seq: Option<u64>,
    #[serde(default)]
    msg: Value,
}

#[derive(Debug, Deserialize)]
struct SubscribedMsg {
    channel: String,
    sid: u64,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ErrorMsg {
    code: Option<i64>,
    msg: Option<String>,
}

#[serde_as]
#[derive(Debug, Deserialize)]
struct SnapshotMsg {
    market_ticker: String,
    /// The newest form; older snapshots carry the fields of a REST book's generations.
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    #[serde(default)]
    yes_dollars_fp: Option<Vec<(Finite, Finite)>>,
    #[serde_as(as = "Option<Vec<(Number, Number)>>")]
    #[serde(default)]
    no_dollars_fp: Option<Vec<(Finite, Finite)>>,
    #[serde(flatten)]
    older: Sides,
}

impl SnapshotMsg {
    /// YES bids and NO bids, from the newest form the message carries.
    fn bids(self) -> (Vec<Level>, Vec<Level>) {
        if self.yes_dollars_fp.is_some() || self.no_dollars_fp.is_some() {
            let newest = Sides {
                yes_dollars: self.yes_dollars_fp,
                no_dollars: self.no_dollars_fp,
                yes: None,
                no: None,
            };
            newest.bids()
        } else {
            self.older.bids()
        }
    }
}

/// A delta, every field optional so that what is missing is named in the error.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct DeltaMsg {
    market_ticker: String,
    side: String,
    #[serde_as(as = "Option<Number>")]
    price_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    price: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    delta_fp: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    delta: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    ts_ms: Option<Finite>,
    ts: Option<Value>,
}

#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TickerMsg {
    market_ticker: String,
    #[serde_as(as = "Option<Number>")]
    price_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    price: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_bid_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_bid: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_ask_dollars: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    yes_ask: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    ts: Option<Finite>,
}

/// Dollars when the message has them, else cents.
fn dollars_or_cents(dollars: Option<Finite>, cents: Option<Finite>) -> Option<f64> {
    dollars.map(|price| price.0).or(cents.map(|cents| cents.0 / 100.0))
}

/// One text frame.
pub(crate) fn read(text: &str) -> Result<Frame, DepthPayloadError> {
    let shape = |error| DepthPayloadError::json(FRAME, error);
    let envelope: Envelope = serde_json::from_str(text).map_err(shape)?;
    let msg = &envelope.msg;
    let message = match envelope.kind.as_str() {
        "subscribed" => {
            let subscribed = SubscribedMsg::deserialize(msg).map_err(shape)?;
            Message::Subscribed {
                id: envelope.id,
                channel: subscribed.channel,
                sid: subscribed.sid,
            }
        }
        "ok" | "unsubscribed" => Message::Acknowledged,
        "error" => {
            let error = ErrorMsg::deserialize(msg).unwrap_or_default();
            Message::Error {
                id: envelope.id,
                reason: format!(
                    "error {}: {}",
                    error.code.map_or_else(|| "?".to_owned(), |code| code.to_string()),
                    error.msg.unwrap_or_default()
                ),
            }
        }
        "orderbook_snapshot" => {
            let snapshot = SnapshotMsg::deserialize(msg).map_err(shape)?;
            let ticker = snapshot.market_ticker.clone();
            let (yes_bids, no_bids) = snapshot.bids();
            Message::Snapshot {
                ticker,
                yes_bids,
                no_bids,
            }
        }
        "orderbook_delta" => Message::Delta(delta(DeltaMsg::deserialize(msg).map_err(shape)?)?),
        "ticker" => {
            let ticker = TickerMsg::deserialize(msg).map_err(shape)?;
            // A market never traded states a last price of 0, which is no price (as the
            // catalogue's normalizer reads `last_price`).
            let last = dollars_or_cents(ticker.price_dollars, ticker.price)
                .map(|last| DepthPayloadError::fraction(FRAME, last))
                .transpose()?;
            let last = lenient::traded(last);
            Message::Ticker(Ticker {
                last,
                yes_bid: dollars_or_cents(ticker.yes_bid_dollars, ticker.yes_bid)
                    .map(|bid| lenient::real_bid(Some(bid))),
                yes_ask: dollars_or_cents(ticker.yes_ask_dollars, ticker.yes_ask)
                    .map(|ask| lenient::real_ask(Some(ask))),
                time: ticker
                    .ts
                    .and_then(|seconds| chrono::DateTime::from_timestamp(seconds.0 as i64, 0)),
                ticker: ticker.market_ticker,
            })
        }
        "trade" => {
            let record = Trade::deserialize(msg).map_err(shape)?;
            let ticker = record
                .market_ticker
                .clone()
                .ok_or_else(|| DepthPayloadError::new(FRAME, "a trade without a market_ticker"))?;
            let trade = trade_reading(&record)
                .ok_or_else(|| DepthPayloadError::new(FRAME, "a trade without its id, time, side, count or price"))?;
            DepthPayloadError::fraction(FRAME, trade.price)?;
            Message::Trade { ticker, trade }
        }
        _ => Message::Ignored,
    };
    Ok(Frame {
        sid: envelope.sid,
        seq: envelope.seq,
        message,
    })
}

fn delta(msg: DeltaMsg) -> Result<Delta, DepthPayloadError> {
    let side = match msg.side.as_str() {
        "yes" => BidSide::Yes,
        "no" => BidSide::No,
        other => {
            return Err(DepthPayloadError::new(
                FRAME,
                format!("side {other:?} is neither yes nor no"),
            ));
        }
    };
    let price = dollars_or_cents(msg.price_dollars, msg.price)
        .ok_or_else(|| DepthPayloadError::new(FRAME, "a delta without a price"))?;
    let price = DepthPayloadError::fraction(FRAME, price)?;
    let change = msg
        .delta_fp
        .or(msg.delta)
        .ok_or_else(|| DepthPayloadError::new(FRAME, "a delta without a size"))?;
    let iso_time = match &msg.ts {
        Some(Value::String(text)) => lenient::timestamp("ts", Some(text)).ok().flatten(),
        _ => None,
    };
    Ok(Delta {
        ticker: msg.market_ticker,
        side,
        price,
        delta: change.0,
        time: msg.ts_ms.and_then(|millis| millis_time(millis.0)).or(iso_time),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_last_price_of_zero_is_no_price() {
        for (frame, last) in [
            (
                r#"{"type": "ticker", "sid": 2, "msg": {"market_ticker": "X", "price": 0, "yes_bid": 40, "yes_ask": 44}}"#,
                None,
            ),
            (
                r#"{"type": "ticker", "sid": 2, "msg": {"market_ticker": "X", "price_dollars": "0.0000"}}"#,
                None,
            ),
            (
                r#"{"type": "ticker", "sid": 2, "msg": {"market_ticker": "X", "price_dollars": "0.4100"}}"#,
                Some(0.41),
            ),
        ] {
            let Message::Ticker(ticker) = read(frame).unwrap().message else {
                panic!("not a ticker")
            };
            assert_eq!(ticker.last, last, "{frame}");
        }
    }

    #[test]
    fn cents_forms_and_replies_are_read() {
        let delta = read(
            r#"{"type": "orderbook_delta", "sid": 2, "seq": 3, "msg": {"market_ticker": "FED-23DEC-T3.00",
            "price": 96, "delta": -54, "side": "yes", "ts": "2022-11-22T20:44:01Z"}}"#,
        )
        .unwrap();
        assert_eq!((delta.sid, delta.seq), (Some(2), Some(3)));
        let Message::Delta(delta) = delta.message else {
            panic!("not a delta")
        };
        assert_eq!((delta.side, delta.price, delta.delta), (BidSide::Yes, 0.96, -54.0));
        assert_eq!(delta.time.unwrap().timestamp(), 1_669_149_841);
        let snapshot = read(
            r#"{"type": "orderbook_snapshot", "sid": 2, "seq": 2, "msg": {"market_ticker": "FED-23DEC-T3.00",
            "yes": [[8, 300], [22, 333]], "no": [[54, 20]]}}"#,
        )
        .unwrap();
        let Message::Snapshot { yes_bids, no_bids, .. } = snapshot.message else {
            panic!("not a snapshot")
        };
        assert_eq!((yes_bids.len(), no_bids[0].price, no_bids[0].size), (2, 0.54, 20.0));
        let error = read(r#"{"id": 123, "type": "error", "msg": {"code": 6, "msg": "Already subscribed"}}"#).unwrap();
        assert_eq!(
            error.message,
            Message::Error {
                id: Some(123),
                reason: "error 6: Already subscribed".into()
            }
        );
        assert_eq!(
            read(r#"{"type": "market_lifecycle_v2", "sid": 9, "msg": {}}"#)
                .unwrap()
                .message,
            Message::Ignored
        );
        for bad in [
            "heartbeat",
            r#"{"sid": 1}"#,
            r#"{"type": "orderbook_delta", "sid": 1, "seq": 1, "msg": {"market_ticker": "X", "side": "maybe", "price": 1, "delta": 1}}"#,
            // Prices are probabilities: outside 0 to 1, a frame is refused, not half applied.
            r#"{"type": "orderbook_delta", "sid": 1, "seq": 1, "msg": {"market_ticker": "X", "side": "yes", "price": 120, "delta": 1}}"#,
            r#"{"type": "orderbook_delta", "sid": 1, "seq": 1, "msg": {"market_ticker": "X", "side": "no", "price_dollars": "-0.01", "delta_fp": "1"}}"#,
            r#"{"type": "ticker", "sid": 2, "msg": {"market_ticker": "X", "price_dollars": "1.40"}}"#,
            r#"{"type": "trade", "sid": 3, "seq": 1, "msg": {"trade_id": "t", "market_ticker": "X", "yes_price_dollars": "1.7700", "count": 1, "taker_side": "yes", "ts": 1770897981}}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
