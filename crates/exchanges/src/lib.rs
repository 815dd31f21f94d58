//! Turns the raw bytes of the exchanges' public API responses into Marketlens [`Market`]s and
//! [`Event`]s.
//!
//! Architecture invariant: this crate does no I/O. It reads no files, opens no connections and
//! never looks at the clock; [`normalize`] is a pure function of its bytes, so importing a
//! recording and syncing a live response are the same operation, and every rule here is
//! testable on a literal payload. Fetching and storing belong to other crates.
//!
//! Second invariant: no input makes it panic. Whole-payload problems (not JSON, a shape we do
//! not know, the other exchange's data, a series payload) are a [`PayloadError`]. Everything
//! else is decided record by record: a record that cannot be normalized becomes a [`Skipped`]
//! entry with a one-line reason and the rest of the payload carries on.
//!
//! - [`depth`]: order books and trades (REST), into `marketlens_domain::depth`'s one form.
//! - `payload`: recognising a payload by its shape (never its file name): [`detect`].
//! - `polymarket`, `kalshi`: one module per exchange, each split into `wire` (typed structs
//!   holding only the fields we use, read with `serde_with`) and `normalize` (the mapping
//!   rules onto the domain types).
//! - `lenient`: numbers, ids and dates as the exchanges actually spell them.
//! - `record`: reading one record with a useful reason, and collecting the output.
//! - [`stream`]: the exchanges' WebSocket streams as sessions fed frames (no sockets here).

pub mod depth;
mod kalshi;
mod lenient;
mod payload;
mod polymarket;
mod record;
pub mod stream;

use marketlens_domain::{Event, Exchange, Market};

pub use payload::{PayloadError, PayloadKind, detect};

/// One page of a cursor-paged list, normalized.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub kind: PayloadKind,
    pub normalized: Normalized,
    /// The cursor of the next page; `None` on the last page (or for unpaged payloads).
    pub next_cursor: Option<String>,
}

/// What one payload turned into.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Normalized {
    pub markets: Vec<Market>,
    pub events: Vec<Event>,
    /// One entry per record left out.
    pub skipped: Vec<Skipped>,
}

/// A record left out of the output, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The exchange's id of the record, when it could be read.
    pub external_id: Option<String>,
    /// One line naming the record and the problem, e.g.
    /// `market 12345: outcomePrices has 3 prices for 2 outcomes`.
    pub reason: String,
    /// The reason without the record's name (`outcomePrices has 3 prices for 2 outcomes`), for
    /// counting records left out for the same cause.
    pub problem: String,
}

/// Normalizes one API response of `exchange`. The payload's kind is recognised from its
/// shape and returned beside the output.
///
/// Records: on Polymarket's `/markets`, each market's embedded parent event is emitted too
/// (once per payload); on both exchanges' event endpoints, each event's nested markets are
/// normalized with the event as their parent, and skipped with it when the event is. Kalshi
/// events without markets are emitted. A record whose id repeats an earlier one of the same
/// payload is skipped.
pub fn normalize(exchange: Exchange, bytes: &[u8]) -> Result<(PayloadKind, Normalized), PayloadError> {
    normalize_page(exchange, bytes).map(|page| (page.kind, page.normalized))
}

/// [`normalize`], keeping the page's cursor: Kalshi's `cursor`, or the `next_cursor` of
/// Gamma's keyset endpoints (`/events/keyset`, `/markets/keyset`).
pub fn normalize_page(exchange: Exchange, bytes: &[u8]) -> Result<Page, PayloadError> {
    let (kind, records, next_cursor) = payload::parse_page(bytes)?;
    if kind.exchange() != exchange {
        return Err(PayloadError::WrongExchange {
            expected: exchange,
            found: kind,
        });
    }
    let normalized = match records {
        payload::Records::Nothing => return Err(PayloadError::NoMarketData(kind)),
        records => match exchange {
            Exchange::Polymarket => polymarket::normalize(kind, records),
            Exchange::Kalshi => kalshi::normalize(kind, records),
        },
    };
    Ok(Page {
        kind,
        normalized,
        next_cursor,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_payload_errors_say_what_is_wrong() {
        let kalshi_markets = br#"{"cursor":"","markets":[]}"#;
        let error = normalize(Exchange::Polymarket, kalshi_markets).unwrap_err();
        assert!(matches!(
            error,
            PayloadError::WrongExchange {
                expected: Exchange::Polymarket,
                found: PayloadKind::KalshiMarkets
            }
        ));
        assert_eq!(
            error.to_string(),
            "the payload is a Kalshi /markets list, not a Polymarket response"
        );
        let series = normalize(Exchange::Kalshi, br#"{"series":[]}"#).unwrap_err();
        assert_eq!(
            series.to_string(),
            "the payload is a Kalshi /series response, which describes series and carries no markets or events"
        );
        let not_json = normalize(Exchange::Kalshi, b"<html>").unwrap_err();
        assert!(
            not_json
                .to_string()
                .starts_with("the payload is not JSON: expected value at line 1 column 1")
        );
    }

    #[test]
    fn keyset_pages_are_polymarket_and_carry_their_cursor() {
        let page = normalize_page(Exchange::Polymarket, br#"{"events": [], "next_cursor": "abc"}"#).unwrap();
        assert_eq!(
            (page.kind, page.next_cursor.as_deref()),
            (PayloadKind::PolymarketEvents, Some("abc"))
        );
        // The last keyset page has no next_cursor: its records say whose it is. Gamma events
        // carry a `ticker` of their own; only Kalshi's carry `event_ticker`.
        let last_events = br#"{"events": [{"id": "2890", "ticker": "nba-x", "slug": "nba-x", "title": "NBA: X?"}]}"#;
        assert_eq!(
            normalize_page(Exchange::Polymarket, last_events).unwrap().kind,
            PayloadKind::PolymarketEvents
        );
        let last = br#"{"markets": [{"id": "1", "question": "Will it?", "outcomes": "[\"Yes\", \"No\"]",
            "outcomePrices": "[\"0.5\", \"0.5\"]", "active": true, "closed": false}]}"#;
        let page = normalize_page(Exchange::Polymarket, last).unwrap();
        assert_eq!(
            (page.kind, page.next_cursor, page.normalized.markets.len()),
            (PayloadKind::PolymarketMarkets, None, 1)
        );
        let kalshi = normalize_page(Exchange::Kalshi, br#"{"cursor": "CgYI", "events": []}"#).unwrap();
        assert_eq!(
            (kalshi.kind, kalshi.next_cursor.as_deref()),
            (PayloadKind::KalshiEvents, Some("CgYI"))
        );
        let kalshi_last = normalize_page(Exchange::Kalshi, br#"{"cursor": "", "markets": []}"#).unwrap();
        assert_eq!(kalshi_last.next_cursor, None);
    }

    #[test]
    fn empty_pages_are_empty_not_errors() {
        for (exchange, payload) in [
            (Exchange::Polymarket, &b"[]"[..]),
            (Exchange::Kalshi, br#"{"cursor":"","markets":[]}"#),
            (Exchange::Kalshi, br#"{"cursor":"","events":null}"#),
        ] {
            let (_kind, normalized) = normalize(exchange, payload).unwrap();
            assert_eq!(normalized, Normalized::default());
        }
    }
}
