//! `marketlens sync` and `serve`'s background sync, run as processes against the replay
//! server.

use marketlens_domain::{Event, Exchange, Market};
use marketlens_replay::{Fault, ReplayData, ReplayServer};
use marketlens_storage::{EventQuery, MarketFilter, MarketQuery, MarketSort, SortOrder, Store};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{free_port, open, readyz_once, run};

pub(crate) fn marketlens(database_url: &str, replay: &ReplayServer, arguments: &[&str]) -> Command {
    let mut command = crate::marketlens(database_url, arguments);
    command
        .env("MARKETLENS_POLYMARKET_URL", replay.polymarket_url())
        .env("MARKETLENS_KALSHI_URL", replay.kalshi_url())
        .env("MARKETLENS_KALSHI_PAGE_SIZE", "10")
        .env("MARKETLENS_POLYMARKET_PAGE_SIZE", "10")
        .env("MARKETLENS_KALSHI_RPS", "1000")
        .env("MARKETLENS_POLYMARKET_RPS", "1000")
        .env("MARKETLENS_NEWS_FEEDS", "");
    command
}

/// Every market and event in the store, by exchange and id.
async fn contents(store: &dyn Store) -> (BTreeMap<String, Market>, BTreeMap<String, Event>) {
    let mut markets = BTreeMap::new();
    let mut offset = 0;
    loop {
        let query = MarketQuery {
            filter: MarketFilter::default(),
            sort: MarketSort::CreatedAt,
            order: SortOrder::Asc,
            limit: 200,
            offset,
        };
        let page = store.list_markets(&query).await.unwrap();
        offset += page.items.len() as u64;
        markets.extend(
            page.items
                .into_iter()
                .map(|stored| (stored.id.to_string(), stored.market)),
        );
        if offset >= page.total {
            break;
        }
    }
    let mut events = BTreeMap::new();
    let mut offset = 0;
    loop {
        let page = store
            .list_events(&EventQuery {
                exchange: None,
                category: None,
                limit: 100,
                offset,
            })
            .await
            .unwrap();
        offset += page.items.len() as u64;
        events.extend(
            page.items
                .into_iter()
                .map(|stored| (stored.id.to_string(), stored.event)),
        );
        if offset >= page.total {
            break;
        }
    }
    (markets, events)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sync_reports_what_it_did() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("sync.db").display());
    let output = run(marketlens(&url, &replay, &["sync", "--full"])).await;
    assert!(output.status.success(), "{output:?}");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("Polymarket full sync: 11 pages; markets 242 new"),
        "{text}"
    );
    assert!(text.contains("Kalshi full sync: 21 pages; markets 16 new"), "{text}");
    let again = run(marketlens(&url, &replay, &["sync", "--exchange", "kalshi"])).await;
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("Kalshi incremental sync"),
        "{again:?}"
    );

    replay.inject_on("/events", Fault::ServerError);
    let refused = run(marketlens(
        &url,
        &replay,
        &["sync", "--exchange", "kalshi", "--sync-attempts", "1"],
    ))
    .await;
    assert!(!refused.status.success(), "a failed run fails the command");
    assert!(
        String::from_utf8_lossy(&refused.stdout).contains("first error"),
        "{refused:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_killed_mid_way_and_rerun_ends_in_the_same_store_as_an_uninterrupted_one() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let uninterrupted_url = format!("sqlite://{}", directory.path().join("whole.db").display());
    let killed_url = format!("sqlite://{}", directory.path().join("killed.db").display());
    let whole = run(marketlens(&uninterrupted_url, &replay, &["sync", "--full"])).await;
    assert!(whole.status.success(), "{whole:?}");

    // Slow pages, so that the kill lands in the middle of the walk.
    for _ in 0..12 {
        replay.inject_on("/events/keyset", Fault::Slow(Duration::from_millis(250)));
    }
    let mut child = marketlens(&killed_url, &replay, &["sync", "--full"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let watcher_started = Instant::now();
    let partial = loop {
        if let Ok(store) = marketlens_storage::open(&killed_url).await {
            let counts = store.catalog_counts().await.unwrap();
            if counts.polymarket_markets > 0 {
                break counts.polymarket_markets;
            }
        }
        assert!(
            watcher_started.elapsed() < Duration::from_secs(30),
            "the sync never stored a page"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let (whole_markets, _) = contents(open(&uninterrupted_url).await.as_ref()).await;
    let (killed_markets, _) = contents(open(&killed_url).await.as_ref()).await;
    assert!(
        killed_markets.len() < whole_markets.len(),
        "killed mid-way: {partial} of {} markets",
        whole_markets.len()
    );

    let rerun = run(marketlens(&killed_url, &replay, &["sync", "--full"])).await;
    assert!(rerun.status.success(), "{rerun:?}");
    assert_eq!(
        contents(open(&killed_url).await.as_ref()).await,
        contents(open(&uninterrupted_url).await.as_ref()).await
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_syncs_in_the_background_and_readyz_reports_freshness() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("serve.db").display());
    let port = free_port();
    let mut child = marketlens(&url, &replay, &["serve", "--bind", &format!("127.0.0.1:{port}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let ready = readyz_once(port, |body| {
        ["POLYMARKET", "KALSHI"]
            .iter()
            .all(|exchange| body["sync"][exchange]["lastSuccessAt"].is_string())
    })
    .await;
    let Some(ready) = ready else {
        child.kill().unwrap();
        panic!("the background sync never finished");
    };
    child.kill().unwrap();
    child.wait().unwrap();
    let kalshi = &ready["sync"]["KALSHI"];
    assert_eq!(kalshi["lastRunKind"], "full", "a new store gets a full sync first");
    assert_eq!(kalshi["lastRunSucceeded"], true);
    assert_eq!(kalshi["lastError"], serde_json::Value::Null);
    assert!(kalshi["ageSeconds"].as_i64().is_some_and(|age| age < 60));
    assert_eq!(ready["markets"]["KALSHI"], 16);
    let counts = open(&url).await.catalog_counts().await.unwrap();
    assert_eq!((counts.polymarket_markets, counts.kalshi_markets), (242, 16));
    assert!(Exchange::ALL.len() == 2);
}
