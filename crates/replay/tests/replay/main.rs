//! HTTP integration tests: each test starts a replay server on a free port and speaks HTTP to
//! it with reqwest, as the sync engine will.

mod depth;
mod faults;
mod filters;
mod lifecycle;
mod pagination;
mod scaled;
mod stream;
mod updates;

use marketlens_replay::{ReplayData, ReplayServer};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::OnceLock;

/// The recorded data, read once per test binary.
pub fn recorded() -> ReplayData {
    static RECORDED: OnceLock<ReplayData> = OnceLock::new();
    RECORDED.get_or_init(ReplayData::recorded).clone()
}

/// The four paginated listings, with what differs between them on the wire.
#[derive(Debug, Clone, Copy)]
pub enum Endpoint {
    GammaEvents,
    GammaMarkets,
    KalshiEvents,
    KalshiMarkets,
}

impl Endpoint {
    pub const ALL: [Endpoint; 4] = [
        Endpoint::GammaEvents,
        Endpoint::GammaMarkets,
        Endpoint::KalshiEvents,
        Endpoint::KalshiMarkets,
    ];

    pub fn url(self, server: &ReplayServer) -> String {
        match self {
            Endpoint::GammaEvents => format!("{}/events/keyset", server.polymarket_url()),
            Endpoint::GammaMarkets => format!("{}/markets/keyset", server.polymarket_url()),
            Endpoint::KalshiEvents => format!("{}/events", server.kalshi_url()),
            Endpoint::KalshiMarkets => format!("{}/markets", server.kalshi_url()),
        }
    }

    pub fn default_limit(self) -> usize {
        match self {
            Endpoint::GammaEvents | Endpoint::GammaMarkets => 20,
            Endpoint::KalshiEvents | Endpoint::KalshiMarkets => 100,
        }
    }

    pub fn max_limit(self) -> usize {
        match self {
            Endpoint::GammaEvents => 500,
            Endpoint::GammaMarkets => 100,
            Endpoint::KalshiEvents => 200,
            Endpoint::KalshiMarkets => 1000,
        }
    }

    /// The key of the page's record list.
    pub fn records_key(self) -> &'static str {
        match self {
            Endpoint::GammaEvents | Endpoint::KalshiEvents => "events",
            Endpoint::GammaMarkets | Endpoint::KalshiMarkets => "markets",
        }
    }

    /// The key of a record's id.
    pub fn id_key(self) -> &'static str {
        match self {
            Endpoint::GammaEvents | Endpoint::GammaMarkets => "id",
            Endpoint::KalshiEvents => "event_ticker",
            Endpoint::KalshiMarkets => "ticker",
        }
    }

    fn cursor_parameter(self) -> &'static str {
        match self {
            Endpoint::GammaEvents | Endpoint::GammaMarkets => "after_cursor",
            Endpoint::KalshiEvents | Endpoint::KalshiMarkets => "cursor",
        }
    }

    /// The cursor of the next page, checking how each exchange marks the last page: Gamma
    /// leaves `next_cursor` out, Kalshi sends `"cursor": ""`.
    pub fn next_cursor(self, page: &Value) -> Option<String> {
        match self {
            Endpoint::GammaEvents | Endpoint::GammaMarkets => page.get("next_cursor").map(|cursor| {
                let cursor = cursor.as_str().expect("next_cursor is a string");
                assert!(!cursor.is_empty(), "Gamma omits next_cursor rather than send it empty");
                cursor.to_owned()
            }),
            Endpoint::KalshiEvents | Endpoint::KalshiMarkets => {
                let cursor = page["cursor"].as_str().expect("every Kalshi page has a cursor");
                (!cursor.is_empty()).then(|| cursor.to_owned())
            }
        }
    }

    /// The ids of records, in order.
    pub fn ids(self, records: &[Value]) -> Vec<String> {
        records
            .iter()
            .map(|record| record[self.id_key()].as_str().expect("a string id").to_owned())
            .collect()
    }
}

/// The status and JSON body of a GET.
pub async fn get(client: &Client, url: &str) -> (StatusCode, Value) {
    let response = client.get(url).send().await.expect("the replay server answers");
    let status = response.status();
    let body = response.json().await.expect("a JSON body");
    (status, body)
}

/// The JSON body of a GET that must succeed.
pub async fn get_ok(client: &Client, url: &str) -> Value {
    let (status, body) = get(client, url).await;
    assert_eq!(status, StatusCode::OK, "GET {url}: {body}");
    body
}

/// Every record of `endpoint` under `query`, walking the cursors with `limit` a page (the
/// default when `None`). Checks that every page but the last is full and none is over-full.
pub async fn walk(server: &ReplayServer, endpoint: Endpoint, query: &str, limit: Option<usize>) -> Vec<Value> {
    let client = Client::new();
    let page_size = limit.unwrap_or(endpoint.default_limit());
    let mut url = format!("{}?{query}", endpoint.url(server));
    if let Some(limit) = limit {
        url.push_str(&format!("&limit={limit}"));
    }
    let mut records = Vec::new();
    let mut cursor = None;
    loop {
        let page_url = match &cursor {
            Some(cursor) => format!("{url}&{}={cursor}", endpoint.cursor_parameter()),
            None => url.clone(),
        };
        let page = get_ok(&client, &page_url).await;
        let page_records = page[endpoint.records_key()].as_array().expect("a record list").clone();
        cursor = endpoint.next_cursor(&page);
        match cursor {
            Some(_) => assert_eq!(page_records.len(), page_size, "a page before the last is full"),
            None => assert!(page_records.len() <= page_size, "the last page is not over-full"),
        }
        records.extend(page_records);
        if cursor.is_none() {
            return records;
        }
    }
}

/// The ids Gamma's `/markets/keyset` serves for `data`: top-level markets, then nested ones
/// not seen yet.
pub fn gamma_market_ids(data: &ReplayData) -> Vec<String> {
    let nested = data
        .polymarket_events
        .iter()
        .flat_map(|event| event["markets"].as_array().into_iter().flatten());
    let mut seen = HashSet::new();
    data.polymarket_markets
        .iter()
        .chain(nested)
        .map(|market| market["id"].as_str().expect("a string id").to_owned())
        .filter(|id| seen.insert(id.clone()))
        .collect()
}

/// The ids each endpoint serves for `data`, in order, with no filter.
pub fn expected_ids(data: &ReplayData, endpoint: Endpoint) -> Vec<String> {
    match endpoint {
        Endpoint::GammaEvents => endpoint.ids(&data.polymarket_events),
        Endpoint::GammaMarkets => gamma_market_ids(data),
        Endpoint::KalshiEvents => endpoint.ids(&data.kalshi_events),
        Endpoint::KalshiMarkets => endpoint.ids(&data.kalshi_markets),
    }
}

/// Asserts that `ids` has no repeats.
pub fn assert_unique(ids: &[String]) {
    let unique: HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "ids repeat");
}
