//! The stream frames the WebSocket endpoints play: the recordings of `demo-data/depth/`
//! (`ws-*` files) and the frames written where none was recorded (`written/`, with a README
//! naming the documentation they follow). Kept as JSON values, as recorded.
//!
//! Built into the crate rather than read at run time, unlike the catalogue's payloads: the
//! demo (`marketlens demo`) plays these streams from its binary, wherever it runs.

use std::collections::HashMap;

use serde_json::Value;

macro_rules! stream_files {
    ($($name:literal),+ $(,)?) => {
        /// A stream recording of `demo-data/`, by its path there.
        fn file(name: &str) -> &'static [u8] {
            match name {
                $($name => include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../demo-data/", $name)),)+
                _ => panic!("{name} is not a stream recording"),
            }
        }
    };
}

stream_files!(
    "depth/polymarket/ws-book-1.json",
    "depth/polymarket/ws-book-2.jsonl",
    "depth/polymarket/ws-last-trade-price-1.jsonl",
    "depth/written/polymarket-ws-price-change-1.jsonl",
    "depth/written/polymarket-ws-price-change-legacy-1.jsonl",
    "depth/kalshi/ws-orderbook-1.json",
    "depth/kalshi/ws-trade-1.jsonl",
    "depth/kalshi/ws-ticker-1.jsonl",
);

/// A JSON file.
fn read(name: &str) -> Value {
    serde_json::from_slice(file(name)).unwrap_or_else(|error| panic!("{name}: {error}"))
}

/// A frame and its time in milliseconds (the exchange's, or the recorder's receipt).
pub(crate) type Timed = (i64, Value);

#[derive(Debug, Clone, Default)]
pub(crate) struct StreamRecordings {
    /// Polymarket: each token's first recorded `book` event.
    pub(crate) polymarket_books: HashMap<String, Value>,
    /// Polymarket: every other event, by time.
    pub(crate) polymarket_events: Vec<Timed>,
    /// Kalshi: each market's `orderbook_snapshot` message (`msg`).
    pub(crate) kalshi_snapshots: HashMap<String, Value>,
    /// Kalshi: `orderbook_delta`, `trade` and `ticker` messages (`msg`), each by time.
    pub(crate) kalshi_deltas: Vec<Timed>,
    pub(crate) kalshi_trades: Vec<Timed>,
    pub(crate) kalshi_tickers: Vec<Timed>,
}

/// The lines of a JSON-lines file.
fn lines(name: &str) -> Vec<Value> {
    std::str::from_utf8(file(name))
        .unwrap_or_else(|error| panic!("{name}: {error}"))
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|error| panic!("{name}: {error}")))
        .collect()
}

fn millis(value: &Value) -> i64 {
    match value {
        Value::String(text) => text.parse().unwrap_or_default(),
        other => other.as_i64().unwrap_or_default(),
    }
}

impl StreamRecordings {
    /// # Panics
    ///
    /// If a file is not the JSON it was recorded as.
    pub(crate) fn recorded() -> StreamRecordings {
        let mut recordings = StreamRecordings::default();
        let books =
            std::iter::once(read("depth/polymarket/ws-book-1.json")).chain(lines("depth/polymarket/ws-book-2.jsonl"));
        for book in books {
            let token = book["asset_id"].as_str().unwrap_or_default().to_owned();
            recordings.polymarket_books.entry(token).or_insert(book);
        }
        for file in [
            "depth/polymarket/ws-last-trade-price-1.jsonl",
            "depth/written/polymarket-ws-price-change-1.jsonl",
            "depth/written/polymarket-ws-price-change-legacy-1.jsonl",
        ] {
            recordings.polymarket_events.extend(
                lines(file)
                    .into_iter()
                    .map(|event| (millis(&event["timestamp"]), event)),
            );
        }
        recordings.polymarket_events.sort_by_key(|(time, _)| *time);

        let orderbook = read("depth/kalshi/ws-orderbook-1.json");
        for entry in orderbook["frames"].as_array().into_iter().flatten() {
            let frame = &entry["frame"];
            let message = frame["msg"].clone();
            match frame["type"].as_str() {
                Some("orderbook_snapshot") => {
                    let ticker = message["market_ticker"].as_str().unwrap_or_default().to_owned();
                    recordings.kalshi_snapshots.entry(ticker).or_insert(message);
                }
                Some("orderbook_delta") => recordings.kalshi_deltas.push((millis(&entry["received_ms"]), message)),
                _ => {}
            }
        }
        let by_seconds = |file| -> Vec<Timed> {
            lines(file)
                .into_iter()
                .map(|frame| (millis(&frame["msg"]["ts"]) * 1000, frame["msg"].clone()))
                .collect()
        };
        recordings.kalshi_trades = by_seconds("depth/kalshi/ws-trade-1.jsonl");
        recordings.kalshi_tickers = by_seconds("depth/kalshi/ws-ticker-1.jsonl");
        recordings
    }
}

impl StreamRecordings {
    /// The recordings, read once per process.
    pub(crate) fn get() -> &'static StreamRecordings {
        static RECORDINGS: std::sync::OnceLock<StreamRecordings> = std::sync::OnceLock::new();
        RECORDINGS.get_or_init(StreamRecordings::recorded)
    }
}
