//! The records a [`ReplayServer`](crate::ReplayServer) serves: the recorded payloads of
//! `demo-data/`, or copies of them with renamed ids for throughput tests.
//!
//! The records stay `serde_json::Value`s exactly as recorded (no domain parsing), so that the
//! sync engine's own parsers meet the real wire format.

use serde_json::Value;

use crate::depth::DepthRecordings;
use std::collections::HashSet;
use std::path::Path;

/// The folder of recorded exchange payloads, read at run time.
const DEMO_DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../demo-data");

/// Every record a replay server serves, as recorded on the wire.
///
/// Events keep their nested markets (`markets`); the endpoints derive what else they serve
/// from these four lists (see the crate docs).
#[derive(Debug, Clone, Default)]
pub struct ReplayData {
    /// Gamma events, each with its nested `markets`.
    pub polymarket_events: Vec<Value>,
    /// Gamma markets as `/markets` returned them (with their own `events` back-reference).
    pub polymarket_markets: Vec<Value>,
    /// Kalshi events; some carry nested `markets`.
    pub kalshi_events: Vec<Value>,
    /// Kalshi markets.
    pub kalshi_markets: Vec<Value>,
    /// Recorded order books and trades, by the market each is served for (not scaled).
    pub depth: DepthRecordings,
}

impl ReplayData {
    /// The recorded payloads of `demo-data/` (counts in the crate docs).
    ///
    /// # Panics
    ///
    /// If a file of `demo-data/` is missing or is not the JSON it was recorded as.
    pub fn recorded() -> ReplayData {
        let polymarket_events = [
            read("polymarket/gamma-events-1.json"),
            read("polymarket/gamma-events-2.json"),
        ]
        .into_iter()
        .flat_map(|file| into_list(file, None))
        .collect();
        let polymarket_markets = [
            read("polymarket/gamma-markets-1.json"),
            read("polymarket/gamma-markets-2.json"),
        ]
        .into_iter()
        .flat_map(|file| into_list(file, None))
        .collect();

        // The single-event recording nests its markets beside the event, not inside it.
        let mut single = read("kalshi/event-single-1.json");
        let mut single_event = single["event"].take();
        single_event["markets"] = single["markets"].take();
        let kalshi_event_sources = [
            into_list(read("kalshi/events-nested-1.json"), Some("events")),
            into_list(read("kalshi/events-2.json"), Some("events")),
            into_list(read("kalshi/events-1.json"), Some("events")),
            vec![single_event],
        ];
        let kalshi_events = first_of_each(kalshi_event_sources.into_iter().flatten(), "event_ticker");

        let nested_kalshi_markets: Vec<Value> = kalshi_events.iter().flat_map(nested_markets).cloned().collect();
        let kalshi_market_sources = [
            into_list(read("kalshi/markets-1.json"), Some("markets")),
            into_list(read("kalshi/markets-2.json"), Some("markets")),
            nested_kalshi_markets,
        ];
        let kalshi_markets = first_of_each(kalshi_market_sources.into_iter().flatten(), "ticker");

        let depth = DepthRecordings::read(&read_bytes("depth/recordings.json"), |file| {
            read_bytes(&format!("depth/{file}"))
        });

        ReplayData {
            polymarket_events,
            polymarket_markets,
            kalshi_events,
            kalshi_markets,
            depth,
        }
    }

    /// The recorded data repeated `copies` times (none for 0). Copy 0 is unchanged; copy
    /// `k > 0` renames every id so that ids stay unique and references stay consistent:
    ///
    /// - Polymarket: `id` becomes `"{id}c{k}"` and `slug` becomes `"{slug}-c{k}"` on events, on
    ///   their nested markets, on top-level markets and on the events a market embeds.
    /// - Kalshi: `event_ticker` and `ticker` become `"{ticker}-C{k}"` on events, nested
    ///   markets and top-level markets. `series_ticker` is kept: copies share their series.
    ///
    /// Other identifiers (condition ids, token ids) are left as recorded.
    pub fn scaled(copies: usize) -> ReplayData {
        let recorded = ReplayData::recorded();
        let mut scaled = ReplayData {
            depth: recorded.depth.clone(),
            ..ReplayData::default()
        };
        for copy in 0..copies {
            let mut data = recorded.clone();
            if copy > 0 {
                data.rename(copy);
            }
            scaled.polymarket_events.append(&mut data.polymarket_events);
            scaled.polymarket_markets.append(&mut data.polymarket_markets);
            scaled.kalshi_events.append(&mut data.kalshi_events);
            scaled.kalshi_markets.append(&mut data.kalshi_markets);
        }
        scaled
    }

    /// Renames every id for copy `copy` (see [`ReplayData::scaled`]).
    fn rename(&mut self, copy: usize) {
        let polymarket = |record: &mut Value| {
            suffix(record, "id", &format!("c{copy}"));
            suffix(record, "slug", &format!("-c{copy}"));
        };
        let kalshi = |record: &mut Value, key: &str| suffix(record, key, &format!("-C{copy}"));

        for event in &mut self.polymarket_events {
            polymarket(event);
            nested_markets_mut(event).for_each(polymarket);
        }
        for market in &mut self.polymarket_markets {
            polymarket(market);
            if let Some(Value::Array(events)) = market.get_mut("events") {
                events.iter_mut().for_each(polymarket);
            }
        }
        for event in &mut self.kalshi_events {
            kalshi(event, "event_ticker");
            for market in nested_markets_mut(event) {
                kalshi(market, "ticker");
                kalshi(market, "event_ticker");
            }
        }
        for market in &mut self.kalshi_markets {
            kalshi(market, "ticker");
            kalshi(market, "event_ticker");
        }
    }
}

/// The markets nested in an event (none when it has no `markets` list).
pub(crate) fn nested_markets(event: &Value) -> impl Iterator<Item = &Value> {
    event.get("markets").and_then(Value::as_array).into_iter().flatten()
}

pub(crate) fn nested_markets_mut(event: &mut Value) -> impl Iterator<Item = &mut Value> {
    event
        .get_mut("markets")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
}

/// A record's id under `key` as text: ids are strings on the wire, but a number is accepted.
pub(crate) fn id_of<'a>(record: &'a Value, key: &str) -> Option<std::borrow::Cow<'a, str>> {
    match record.get(key)? {
        Value::String(id) => Some(id.as_str().into()),
        Value::Number(id) => Some(id.to_string().into()),
        _ => None,
    }
}

/// Appends `suffix` to the string under `key`, if there is one.
fn suffix(record: &mut Value, key: &str, suffix: &str) {
    if let Some(Value::String(id)) = record.get_mut(key) {
        id.push_str(suffix);
    }
}

/// The records in order, keeping only the first of each id under `key` (and records without
/// one).
fn first_of_each(records: impl Iterator<Item = Value>, key: &str) -> Vec<Value> {
    let mut seen = HashSet::new();
    records
        .filter(|record| match id_of(record, key) {
            Some(id) => seen.insert(id.into_owned()),
            None => true,
        })
        .collect()
}

pub(crate) fn read(file: &str) -> Value {
    serde_json::from_slice(&read_bytes(file))
        .unwrap_or_else(|error| panic!("the recorded payload {file} is not JSON: {error}"))
}

pub(crate) fn read_bytes(file: &str) -> Vec<u8> {
    let path = Path::new(DEMO_DATA).join(file);
    std::fs::read(&path).unwrap_or_else(|error| {
        panic!(
            "ReplayData::recorded() needs the recorded payload {}: {error}",
            path.display()
        )
    })
}

/// The records of a payload: the payload itself when it is a list (Gamma), else its list
/// under `key` (Kalshi's envelopes).
fn into_list(mut payload: Value, key: Option<&str>) -> Vec<Value> {
    let list = match key {
        Some(key) => payload[key].take(),
        None => payload,
    };
    match list {
        Value::Array(records) => records,
        _ => panic!("a recorded payload has no list of records under {key:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recorded_counts_match_the_crate_docs() {
        let data = ReplayData::recorded();
        assert_eq!(data.polymarket_events.len(), 110);
        assert_eq!(data.polymarket_events.iter().flat_map(nested_markets).count(), 301);
        assert_eq!(data.polymarket_markets.len(), 1000);
        assert_eq!(data.kalshi_events.len(), 203);
        assert_eq!(data.kalshi_events.iter().flat_map(nested_markets).count(), 16);
        assert_eq!(data.kalshi_markets.len(), 775);
    }

    #[test]
    fn the_nested_kalshi_recording_wins_over_the_single_event() {
        let data = ReplayData::recorded();
        let elon_mars: Vec<&Value> = data
            .kalshi_events
            .iter()
            .filter(|event| event["event_ticker"] == "KXELONMARS-99")
            .collect();
        assert_eq!(elon_mars.len(), 1);
        // events-nested-1.json carries last_updated_ts; event-single-1.json does not.
        assert!(elon_mars[0].get("last_updated_ts").is_some());
    }

    #[test]
    fn renaming_keeps_references_consistent() {
        let mut data = ReplayData {
            polymarket_events: vec![json!({"id": "1", "slug": "e", "markets": [{"id": "2", "slug": "m"}]})],
            polymarket_markets: vec![json!({"id": "3", "slug": "n", "events": [{"id": "1", "slug": "e"}]})],
            kalshi_events: vec![json!({"event_ticker": "E", "series_ticker": "S", "markets": [
                {"ticker": "E-1", "event_ticker": "E"}
            ]})],
            kalshi_markets: vec![json!({"ticker": "E-1", "event_ticker": "E"})],
            depth: DepthRecordings::default(),
        };
        data.rename(3);
        assert_eq!(
            data.polymarket_events[0],
            json!({"id": "1c3", "slug": "e-c3", "markets": [{"id": "2c3", "slug": "m-c3"}]})
        );
        assert_eq!(
            data.polymarket_markets[0],
            json!({"id": "3c3", "slug": "n-c3", "events": [{"id": "1c3", "slug": "e-c3"}]})
        );
        assert_eq!(
            data.kalshi_events[0],
            json!({"event_ticker": "E-C3", "series_ticker": "S", "markets": [
                {"ticker": "E-1-C3", "event_ticker": "E-C3"}
            ]})
        );
        assert_eq!(
            data.kalshi_markets[0],
            json!({"ticker": "E-1-C3", "event_ticker": "E-C3"})
        );
    }
}
