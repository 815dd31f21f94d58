//! The sync engine against the replay server: the real HTTP code paths, the recorded
//! payloads, each exchange's pagination, and injected faults.

mod faults;
mod runs;

use marketlens_domain::{Event, Exchange, Market};
use marketlens_exchanges::normalize;
use marketlens_replay::{ReplayData, ReplayServer};
use marketlens_storage::{EventQuery, MarketFilter, MarketQuery, MarketSort, SortOrder, Store, SyncKind};
use marketlens_sync::{Fetcher, SyncReport, SyncSettings, sync_exchange};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tempfile::TempDir;

pub struct Harness {
    pub replay: Arc<ReplayServer>,
    pub store: Arc<dyn Store>,
    pub settings: SyncSettings,
    _directory: TempDir,
}

impl Harness {
    pub async fn new() -> Harness {
        let replay = Arc::new(ReplayServer::start(ReplayData::recorded()));
        let directory = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", directory.path().join("sync.db").display());
        let store = marketlens_storage::open(&url).await.unwrap();
        let mut settings = SyncSettings::default();
        settings.polymarket.base_url = replay.polymarket_url();
        settings.kalshi.base_url = replay.kalshi_url();
        // Small pages, so that every walk spans many of them.
        settings.polymarket.page_size = 17;
        settings.kalshi.page_size = 23;
        settings.polymarket.requests_per_second = 1000;
        settings.kalshi.requests_per_second = 1000;
        settings.request_timeout = Duration::from_secs(2);
        settings.max_attempts = 4;
        settings.first_retry_delay = Duration::from_millis(10);
        settings.max_retry_delay = Duration::from_millis(50);
        Harness {
            replay,
            store,
            settings,
            _directory: directory,
        }
    }

    pub async fn sync(&self, exchange: Exchange, kind: SyncKind) -> SyncReport {
        self.sync_watching(exchange, kind, &mut |_| {}).await
    }

    pub async fn sync_watching(
        &self,
        exchange: Exchange,
        kind: SyncKind,
        on_progress: &mut (dyn FnMut(&SyncReport) + Send),
    ) -> SyncReport {
        let fetcher = Fetcher::new(exchange, &self.settings).unwrap();
        sync_exchange(self.store.as_ref(), &fetcher, &self.settings, kind, on_progress).await
    }

    /// Every stored market of `exchange`, by external id.
    pub async fn stored_markets(&self, exchange: Exchange) -> BTreeMap<String, Market> {
        let mut markets = BTreeMap::new();
        let mut offset = 0;
        loop {
            let query = MarketQuery {
                filter: MarketFilter {
                    exchange: Some(exchange),
                    ..MarketFilter::default()
                },
                sort: MarketSort::CreatedAt,
                order: SortOrder::Asc,
                limit: 200,
                offset,
            };
            let page = self.store.list_markets(&query).await.unwrap();
            offset += page.items.len() as u64;
            markets.extend(
                page.items
                    .into_iter()
                    .map(|stored| (stored.market.external_id.clone(), stored.market)),
            );
            if offset >= page.total {
                return markets;
            }
        }
    }

    pub async fn stored_events(&self, exchange: Exchange) -> BTreeMap<String, Event> {
        let mut events = BTreeMap::new();
        let mut offset = 0;
        loop {
            let query = EventQuery {
                exchange: Some(exchange),
                category: None,
                limit: 100,
                offset,
            };
            let page = self.store.list_events(&query).await.unwrap();
            offset += page.items.len() as u64;
            events.extend(
                page.items
                    .into_iter()
                    .map(|stored| (stored.event.external_id.clone(), stored.event)),
            );
            if offset >= page.total {
                return events;
            }
        }
    }
}

/// What the recorded payloads hold, normalized directly (no HTTP, no store).
pub fn expected(exchange: Exchange) -> (BTreeMap<String, Market>, BTreeMap<String, Event>) {
    let data = ReplayData::recorded();
    let bytes = match exchange {
        Exchange::Polymarket => serde_json::to_vec(&data.polymarket_events).unwrap(),
        Exchange::Kalshi => {
            serde_json::to_vec(&serde_json::json!({ "cursor": "", "events": data.kalshi_events })).unwrap()
        }
    };
    let (_, normalized) = normalize(exchange, &bytes).unwrap();
    (
        normalized
            .markets
            .into_iter()
            .map(|market| (market.external_id.clone(), market))
            .collect(),
        normalized
            .events
            .into_iter()
            .map(|event| (event.external_id.clone(), event))
            .collect(),
    )
}

/// Asserts two keyed sets of records are equal, naming only what differs.
pub fn assert_same<T: PartialEq + std::fmt::Debug>(
    actual: &BTreeMap<String, T>,
    expected: &BTreeMap<String, T>,
    label: &str,
) {
    let missing: Vec<&String> = expected.keys().filter(|key| !actual.contains_key(*key)).collect();
    let extra: Vec<&String> = actual.keys().filter(|key| !expected.contains_key(*key)).collect();
    let different: Vec<String> = expected
        .iter()
        .filter_map(|(key, value)| match actual.get(key) {
            Some(found) if found != value => Some(format!("{key}:\n  stored   {found:?}\n  expected {value:?}")),
            _ => None,
        })
        .take(3)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && different.is_empty(),
        "{label}: missing {missing:?}; extra {extra:?}; different:\n{}",
        different.join("\n")
    );
}
