//! Recognising a payload by its shape, never by its file name: which exchange, which endpoint,
//! and where its records are.
//!
//! The shapes, as recorded in `demo-data/*/SOURCES.md`:
//! - Polymarket Gamma answers with bare JSON: a list of events (each with nested `markets`),
//!   a list of markets (each may embed its parent under `events`), or one of either.
//! - Kalshi v2 always wraps records in an envelope: `{"cursor", "markets": [...]}`,
//!   `{"cursor", "events": [...]}`, `{"event": {...}, "markets": [...]}`, `{"market": {...}}`
//!   and `{"series": ...}`.
//!
//! Shape errors concern the whole payload. Anything wrong inside a record is left for the
//! normalizers, which skip that record and carry on.

use std::fmt;

use marketlens_domain::Exchange;
use serde_json::{Map, Value};

use crate::lenient::preview_text;
use crate::record::describe;

/// The endpoint a payload answers, as recognised from its shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PayloadKind {
    /// Polymarket Gamma `GET /events`: a list of events with nested markets.
    PolymarketEvents,
    /// Polymarket Gamma `GET /markets`: a list of markets, each embedding its event.
    PolymarketMarkets,
    /// Polymarket Gamma `GET /events/{id}`: one event object.
    PolymarketEvent,
    /// Polymarket Gamma `GET /markets/{id}`: one market object.
    PolymarketMarket,
    /// Kalshi `GET /events`: `{"cursor", "events"}`, the events possibly with nested markets.
    KalshiEvents,
    /// Kalshi `GET /markets`: `{"cursor", "markets"}`.
    KalshiMarkets,
    /// Kalshi `GET /events/{ticker}`: `{"event", "markets"}`.
    KalshiEvent,
    /// Kalshi `GET /markets/{ticker}`: `{"market"}`.
    KalshiMarket,
    /// Kalshi `GET /series` or `GET /series/{ticker}`: no markets, no events.
    KalshiSeries,
}

impl PayloadKind {
    pub fn exchange(self) -> Exchange {
        match self {
            PayloadKind::PolymarketEvents
            | PayloadKind::PolymarketMarkets
            | PayloadKind::PolymarketEvent
            | PayloadKind::PolymarketMarket => Exchange::Polymarket,
            PayloadKind::KalshiEvents
            | PayloadKind::KalshiMarkets
            | PayloadKind::KalshiEvent
            | PayloadKind::KalshiMarket
            | PayloadKind::KalshiSeries => Exchange::Kalshi,
        }
    }

    /// Whether the payload's top-level records are events (whose nested markets are records
    /// too), rather than markets.
    pub fn lists_events(self) -> bool {
        matches!(
            self,
            PayloadKind::PolymarketEvents
                | PayloadKind::PolymarketEvent
                | PayloadKind::KalshiEvents
                | PayloadKind::KalshiEvent
        )
    }

    /// The endpoint in words, for messages.
    pub fn description(self) -> &'static str {
        match self {
            PayloadKind::PolymarketEvents => "Polymarket Gamma /events list",
            PayloadKind::PolymarketMarkets => "Polymarket Gamma /markets list",
            PayloadKind::PolymarketEvent => "Polymarket Gamma single event",
            PayloadKind::PolymarketMarket => "Polymarket Gamma single market",
            PayloadKind::KalshiEvents => "Kalshi /events list",
            PayloadKind::KalshiMarkets => "Kalshi /markets list",
            PayloadKind::KalshiEvent => "Kalshi single event",
            PayloadKind::KalshiMarket => "Kalshi single market",
            PayloadKind::KalshiSeries => "Kalshi /series response",
        }
    }
}

impl fmt::Display for PayloadKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.description())
    }
}

/// Why a whole payload cannot be normalized. Problems with single records are not errors:
/// they become [`crate::Skipped`] entries.
#[derive(Debug, thiserror::Error)]
pub enum PayloadError {
    #[error("the payload is not JSON: {0}")]
    NotJson(#[source] serde_json::Error),
    #[error("the payload is not a Polymarket Gamma or Kalshi v2 response: {0}")]
    UnknownShape(String),
    #[error("the payload is a {found}, not a {} response", expected.display_name())]
    WrongExchange { expected: Exchange, found: PayloadKind },
    #[error("the payload is a {0}, which describes series and carries no markets or events")]
    NoMarketData(PayloadKind),
}

/// Where the records of a payload are.
pub(crate) enum Records {
    /// The top-level records: markets, or events with their nested markets, as the kind says.
    /// A single-object response is a list of one.
    List(Vec<Value>),
    /// Kalshi's single event: the event, and its markets beside it.
    EventWithMarkets { event: Value, markets: Vec<Value> },
    /// A series payload.
    Nothing,
}

/// Recognises which exchange endpoint `bytes` answers, from the JSON's shape alone (never a
/// file name), without normalizing anything. Fails when the bytes are not JSON or the shape
/// is none of the documented ones.
pub fn detect(bytes: &[u8]) -> Result<PayloadKind, PayloadError> {
    parse(bytes).map(|(kind, _records)| kind)
}

pub(crate) fn parse(bytes: &[u8]) -> Result<(PayloadKind, Records), PayloadError> {
    parse_page(bytes).map(|(kind, records, _cursor)| (kind, records))
}

/// [`parse`], plus the cursor of the next page when the payload is a page of a cursor-paged
/// list: Kalshi's `cursor`, Gamma's keyset `next_cursor`. An empty cursor means the last page.
pub(crate) fn parse_page(bytes: &[u8]) -> Result<(PayloadKind, Records, Option<String>), PayloadError> {
    // A byte-order mark is not JSON, but editors on some systems add one when saving.
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value = serde_json::from_slice(bytes).map_err(PayloadError::NotJson)?;
    match value {
        Value::Array(items) => Ok((polymarket_list_kind(&items)?, Records::List(items), None)),
        Value::Object(mut fields) => {
            let cursor = ["next_cursor", "cursor"]
                .iter()
                .find_map(|key| {
                    fields
                        .get(*key)
                        .and_then(Value::as_str)
                        .filter(|cursor| !cursor.is_empty())
                })
                .map(str::to_owned);
            // Gamma's keyset pages carry `next_cursor`, Kalshi's pages `cursor`.
            let envelope = if fields.remove("next_cursor").is_some() {
                Envelope::GammaKeyset
            } else if fields.contains_key("cursor") {
                Envelope::Kalshi
            } else {
                Envelope::Unknown
            };
            let (kind, records) = classify_object(fields, envelope)?;
            Ok((kind, records, cursor))
        }
        other => Err(PayloadError::UnknownShape(format!(
            "the top level is {}, not an object or a list",
            describe(&other)
        ))),
    }
}

/// Keys only a Polymarket market has (events have none of them).
const POLYMARKET_MARKET_KEYS: [&str; 5] = ["question", "outcomes", "outcomePrices", "conditionId", "clobTokenIds"];

/// Keys that make an object a record rather than a Kalshi envelope.
const RECORD_KEYS: [&str; 9] = [
    "id",
    "slug",
    "title",
    "ticker",
    "event_ticker",
    "question",
    "outcomes",
    "outcomePrices",
    "conditionId",
];

#[derive(Clone, Copy)]
enum PolymarketRecord {
    Event,
    Market,
}

/// Recognises a Polymarket record by its keys alone, so that a record whose values are
/// damaged is still recognised (and then skipped with a reason).
fn polymarket_record(fields: &Map<String, Value>) -> Option<PolymarketRecord> {
    if fields.contains_key("event_ticker") {
        None
    } else if POLYMARKET_MARKET_KEYS.iter().any(|key| fields.contains_key(*key)) {
        Some(PolymarketRecord::Market)
    } else if fields.contains_key("title") || fields.contains_key("markets") {
        Some(PolymarketRecord::Event)
    } else {
        None
    }
}

/// A list is Polymarket's: its first recognisable item decides between events and markets.
/// An empty list is an empty `/markets` page (from `/events` it would mean the same: nothing).
fn polymarket_list_kind(items: &[Value]) -> Result<PayloadKind, PayloadError> {
    if items.is_empty() {
        return Ok(PayloadKind::PolymarketMarkets);
    }
    let record = items.iter().filter_map(Value::as_object).find_map(polymarket_record);
    match record {
        Some(PolymarketRecord::Event) => Ok(PayloadKind::PolymarketEvents),
        Some(PolymarketRecord::Market) => Ok(PayloadKind::PolymarketMarkets),
        None if items.iter().any(|item| item.get("event_ticker").is_some()) => Err(PayloadError::UnknownShape(
            "a bare list of Kalshi records; Kalshi responses wrap them in {\"markets\": [...]} or {\"events\": [...]}"
                .to_owned(),
        )),
        None => Err(PayloadError::UnknownShape(format!(
            "a list of {} items, none of which looks like a Polymarket event or market",
            items.len()
        ))),
    }
}

/// Whose pagination an `{"events": [...]}` or `{"markets": [...]}` object follows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Envelope {
    GammaKeyset,
    Kalshi,
    /// Neither cursor key: Gamma's last keyset page, or a Kalshi file saved without its
    /// cursor. The records decide.
    Unknown,
}

/// A record only Polymarket would send: no Kalshi `event_ticker` (which every Kalshi event and
/// market has), and a Gamma id, slug or market key. (Gamma events have a `ticker` too.)
fn distinctly_polymarket(record: &Value) -> bool {
    let Some(fields) = record.as_object() else {
        return false;
    };
    !fields.contains_key("event_ticker")
        && (fields.contains_key("id")
            || fields.contains_key("slug")
            || POLYMARKET_MARKET_KEYS.iter().any(|key| fields.contains_key(*key)))
}

fn classify_object(mut fields: Map<String, Value>, envelope: Envelope) -> Result<(PayloadKind, Records), PayloadError> {
    if RECORD_KEYS.iter().any(|key| fields.contains_key(*key)) {
        if fields.contains_key("event_ticker") {
            return Err(PayloadError::UnknownShape(
                "a bare Kalshi record; Kalshi responses wrap it in {\"market\": ...} or {\"event\": ...}".to_owned(),
            ));
        }
        let kind = match polymarket_record(&fields) {
            Some(PolymarketRecord::Event) => PayloadKind::PolymarketEvent,
            Some(PolymarketRecord::Market) => PayloadKind::PolymarketMarket,
            None => return Err(unknown_object(&fields)),
        };
        return Ok((kind, Records::List(vec![Value::Object(fields)])));
    }
    if let Some(event) = fields.remove("event") {
        let event = expect_object("event", event)?;
        let markets = take_list(&mut fields, "markets")?;
        return Ok((PayloadKind::KalshiEvent, Records::EventWithMarkets { event, markets }));
    }
    if let Some(market) = fields.remove("market") {
        let market = expect_object("market", market)?;
        return Ok((PayloadKind::KalshiMarket, Records::List(vec![market])));
    }
    for (list, polymarket_kind, kalshi_kind) in [
        ("events", PayloadKind::PolymarketEvents, PayloadKind::KalshiEvents),
        ("markets", PayloadKind::PolymarketMarkets, PayloadKind::KalshiMarkets),
    ] {
        if fields.contains_key(list) {
            let records = take_list(&mut fields, list)?;
            let polymarket = match envelope {
                Envelope::GammaKeyset => true,
                Envelope::Kalshi => false,
                Envelope::Unknown => records.iter().any(distinctly_polymarket),
            };
            let kind = if polymarket { polymarket_kind } else { kalshi_kind };
            return Ok((kind, Records::List(records)));
        }
    }
    if fields.contains_key("series") {
        return Ok((PayloadKind::KalshiSeries, Records::Nothing));
    }
    Err(unknown_object(&fields))
}

fn expect_object(key: &str, value: Value) -> Result<Value, PayloadError> {
    if value.is_object() {
        Ok(value)
    } else {
        Err(PayloadError::UnknownShape(format!(
            "\"{key}\" is {}, not an object",
            describe(&value)
        )))
    }
}

/// The list under `key`; `null` is an empty list (Go writes an empty slice as `null`).
fn take_list(fields: &mut Map<String, Value>, key: &str) -> Result<Vec<Value>, PayloadError> {
    match fields.remove(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(PayloadError::UnknownShape(format!(
            "\"{key}\" is {}, not a list",
            describe(&other)
        ))),
    }
}

fn unknown_object(fields: &Map<String, Value>) -> PayloadError {
    const SHOWN_KEYS: usize = 8;
    if fields.is_empty() {
        return PayloadError::UnknownShape("an empty object".to_owned());
    }
    let mut keys: Vec<String> = fields.keys().take(SHOWN_KEYS).map(|key| preview_text(key)).collect();
    if fields.len() > SHOWN_KEYS {
        keys.push(format!("and {} more", fields.len() - SHOWN_KEYS));
    }
    PayloadError::UnknownShape(format!("an object with keys {}", keys.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(json: &str) -> Result<PayloadKind, PayloadError> {
        detect(json.as_bytes())
    }

    #[test]
    fn recognises_every_documented_shape() {
        assert_eq!(
            kind(r#"[{"id":"1","title":"E","markets":[]}]"#).unwrap(),
            PayloadKind::PolymarketEvents
        );
        assert_eq!(
            kind(r#"[{"id":"1","question":"Q?"}]"#).unwrap(),
            PayloadKind::PolymarketMarkets
        );
        assert_eq!(kind(r#"[]"#).unwrap(), PayloadKind::PolymarketMarkets);
        assert_eq!(
            kind(r#"{"id":"1","title":"E","markets":[]}"#).unwrap(),
            PayloadKind::PolymarketEvent
        );
        assert_eq!(
            kind(r#"{"id":"1","question":"Q?","events":[]}"#).unwrap(),
            PayloadKind::PolymarketMarket
        );
        assert_eq!(
            kind(r#"{"cursor":"","markets":[]}"#).unwrap(),
            PayloadKind::KalshiMarkets
        );
        assert_eq!(
            kind(r#"{"cursor":"","markets":null}"#).unwrap(),
            PayloadKind::KalshiMarkets
        );
        assert_eq!(
            kind(r#"{"cursor":"x","events":[],"milestones":[]}"#).unwrap(),
            PayloadKind::KalshiEvents
        );
        assert_eq!(
            kind(r#"{"event":{"event_ticker":"E"},"markets":[]}"#).unwrap(),
            PayloadKind::KalshiEvent
        );
        assert_eq!(
            kind(r#"{"event":{"event_ticker":"E"}}"#).unwrap(),
            PayloadKind::KalshiEvent
        );
        assert_eq!(kind(r#"{"market":{"ticker":"M"}}"#).unwrap(), PayloadKind::KalshiMarket);
        assert_eq!(
            kind(r#"{"series":{"ticker":"CO2"}}"#).unwrap(),
            PayloadKind::KalshiSeries
        );
        assert_eq!(kind(r#"{"cursor":"","series":[]}"#).unwrap(), PayloadKind::KalshiSeries);
    }

    #[test]
    fn a_damaged_record_keeps_its_shape() {
        assert_eq!(
            kind(r#"[5, {"id":"1","question":null}]"#).unwrap(),
            PayloadKind::PolymarketMarkets
        );
        assert_eq!(
            kind(r#"[{"title":7,"markets":"x"}]"#).unwrap(),
            PayloadKind::PolymarketEvents
        );
    }

    #[test]
    fn refuses_other_shapes_with_a_reason() {
        let message = |json: &str| kind(json).unwrap_err().to_string();
        assert!(matches!(kind("not json"), Err(PayloadError::NotJson(_))));
        assert!(matches!(kind(""), Err(PayloadError::NotJson(_))));
        assert_eq!(
            message("42"),
            "the payload is not a Polymarket Gamma or Kalshi v2 response: the top level is the number 42, not an object or a list"
        );
        assert_eq!(
            message("{}"),
            "the payload is not a Polymarket Gamma or Kalshi v2 response: an empty object"
        );
        assert!(message(r#"{"foo":1,"bar":2}"#).ends_with("an object with keys \"bar\", \"foo\""));
        assert!(
            message(r#"[1, 2]"#).ends_with("a list of 2 items, none of which looks like a Polymarket event or market")
        );
        assert!(message(r#"[{"ticker":"M","event_ticker":"E"}]"#).contains("bare list of Kalshi records"));
        assert!(message(r#"{"ticker":"M","event_ticker":"E"}"#).contains("bare Kalshi record"));
        assert!(message(r#"{"cursor":"","markets":5}"#).ends_with("\"markets\" is the number 5, not a list"));
        assert!(message(r#"{"market":[1]}"#).ends_with("\"market\" is a list of 1 item, not an object"));
    }

    #[test]
    fn accepts_a_byte_order_mark() {
        assert_eq!(detect(b"\xEF\xBB\xBF[]").unwrap(), PayloadKind::PolymarketMarkets);
    }

    #[test]
    fn kinds_know_their_exchange() {
        assert_eq!(PayloadKind::KalshiSeries.exchange(), Exchange::Kalshi);
        assert_eq!(PayloadKind::PolymarketEvent.exchange(), Exchange::Polymarket);
        assert!(PayloadKind::KalshiEvent.lists_events());
        assert!(!PayloadKind::KalshiMarket.lists_events());
    }
}
