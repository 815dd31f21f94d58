//! The live stream's prices in the price history: a node that holds its own exchange
//! connections (here on SQLite) writes the prices its clients' markets receive as history
//! observations, so that the market's candles follow the stream; on PostgreSQL with Redis the
//! lease holder alone writes them (`relay.rs` checks it beside the relay).

use marketlens_domain::Exchange;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::ids::market_id;
use marketlens_replay::ReplayServer;
use std::time::Duration;
use uuid::Uuid;

use super::relay::{Client, EXTERNAL_ID, count, data, environment, replay_data};
use super::{Node, Syncing, account_in, wait_for};
use crate::open;

/// The replayed market's first outcome, whose candles are read.
const OUTCOME: &str = "Up";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_node_on_sqlite_writes_the_prices_its_stream_receives_to_the_history() {
    let replay = ReplayServer::start(replay_data());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("history.db").display());
    let environment = environment(&replay);
    let environment: Vec<(&str, &str)> = environment
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    let node = Node::start_on(&url, None, Syncing::On, &environment).await;
    let store = open(&url).await;
    let market = market_id(Exchange::Polymarket, EXTERNAL_ID);
    wait_for("the sync", Duration::from_secs(60), async || {
        store.get_market(market).await.unwrap().is_some()
    })
    .await;
    let (_, key) = account_in(store.as_ref(), "pro", 100).await;
    let mut client = Client::connect(&node, &key).await;
    client.subscribe(market).await;
    client
        .until("the recorded trades", |received| count(received, "trade") == 9)
        .await;
    assert_last_price_in_history(&node, &key, market, &mut client).await;
    assert!(prices_written(&node).await > 0.0);
}

/// Reads `client`'s messages until the recording is over (two seconds without one), then
/// waits until the latest five-minute candle of [`OUTCOME`] on `node` closes at the price of
/// the last `price` message of it: the stream's latest price, not the sync's.
pub(super) async fn assert_last_price_in_history(node: &Node, key: &ApiKey, market: Uuid, client: &mut Client) {
    while tokio::time::timeout(Duration::from_secs(2), client.next())
        .await
        .is_ok()
    {}
    let expected = client
        .received
        .iter()
        .rev()
        .filter(|message| message["type"] == "price" && message["outcome"] == OUTCOME)
        .find_map(|message| message["price"].as_f64())
        .expect("a price of the outcome");
    let mut close = None;
    for _ in 0..50 {
        close = latest_close(node, key, market).await;
        if close.is_some_and(|close| (close - expected).abs() < 1e-9) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the history's latest close of {OUTCOME} is {close:?}, not the stream's {expected}");
}

/// The close of the latest five-minute candle of [`OUTCOME`], if any.
async fn latest_close(node: &Node, key: &ApiKey, market: Uuid) -> Option<f64> {
    let history = data(
        node,
        key,
        &format!("/api/v1/markets/{market}/history?interval=5m&limit=1000"),
    )
    .await;
    let outcomes = history["outcomes"].as_array()?;
    let outcome = outcomes.iter().find(|outcome| outcome["name"] == OUTCOME)?;
    outcome["candles"].as_array()?.last()?["close"].as_f64()
}

/// How many prices `node` wrote to the history (`/metrics`).
pub(super) async fn prices_written(node: &Node) -> f64 {
    let text = reqwest::get(format!("{}/metrics", node.base_url))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    text.lines()
        .find_map(|line| line.strip_prefix("marketlens_history_live_prices_written_total "))
        .map_or(0.0, |value| value.trim().parse().unwrap())
}
