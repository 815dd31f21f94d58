//! `serve`'s live stream end to end: the exchanges' WebSocket connectors (here against the
//! replay's recorded streams), the hub, and a client of `GET /api/v1/stream`; and the demo's,
//! which plays the recorded streams through the same connectors.

use chrono::Utc;
use futures::{SinkExt, StreamExt};
use marketlens_domain::Exchange;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::ids::market_id;
use marketlens_replay::{ReplayData, ReplayServer};
use marketlens_storage::{MarketFilter, MarketQuery, MarketSort, NewAccount, SortOrder};
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use uuid::Uuid;

use crate::{free_port, open, readyz_once};

#[tokio::test]
async fn serve_streams_a_polymarket_market_from_the_exchange_connection() {
    let replay = ReplayServer::start(ReplayData::recorded());
    let directory = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", directory.path().join("stream.db").display());
    let port = free_port();
    let mut child = crate::sync::marketlens(&url, &replay, &["serve", "--bind", &format!("127.0.0.1:{port}")])
        .env("MARKETLENS_POLYMARKET_CLOB_URL", replay.polymarket_clob_url())
        .env("MARKETLENS_POLYMARKET_DATA_URL", replay.polymarket_data_url())
        .env("MARKETLENS_POLYMARKET_WS_URL", replay.polymarket_ws_url())
        .env("MARKETLENS_KALSHI_WS_URL", replay.kalshi_ws_url())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let synced = readyz_once(port, |body| body["sync"]["POLYMARKET"]["lastSuccessAt"].is_string()).await;
    if synced.is_none() {
        child.kill().unwrap();
        panic!("the background sync never finished");
    }
    let store = open(&url).await;
    let account = NewAccount {
        label: "stream".into(),
        tier: "pro".into(),
        wallet_address: String::new(),
        initial_credits: 100,
    };
    let account = store.create_account(account, Utc::now()).await.unwrap();
    let key = ApiKey::generate(&mut rand::rng());
    store
        .create_key(account.id, key.hash(), &key.truncated(), Utc::now())
        .await
        .unwrap();
    let query = MarketQuery {
        filter: MarketFilter {
            exchange: Some(Exchange::Polymarket),
            ..MarketFilter::default()
        },
        sort: MarketSort::Volume,
        order: SortOrder::Desc,
        limit: 1,
        offset: 0,
    };
    let market = store.list_markets(&query).await.unwrap().items.remove(0);

    let mut request = format!("ws://127.0.0.1:{port}/api/v1/stream")
        .into_client_request()
        .unwrap();
    let bearer = format!("Bearer {}", key.as_str()).parse().unwrap();
    request.headers_mut().insert("authorization", bearer);
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let subscribe = json!({"type": "subscribe", "markets": [market.market.id()]}).to_string();
    socket.send(Message::text(subscribe)).await.unwrap();
    let mut seen = Vec::new();
    let book = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(message) = socket.next().await {
            let Ok(Message::Text(text)) = message else { continue };
            let value: Value = serde_json::from_str(&text).unwrap();
            let kind = value["type"].as_str().unwrap_or_default().to_owned();
            seen.push(kind.clone());
            if kind == "book" {
                return value;
            }
        }
        Value::Null
    })
    .await;
    child.kill().unwrap();
    child.wait().unwrap();
    let book = book.unwrap_or_else(|_| panic!("no book within 20 s; messages: {seen:?}"));
    assert_eq!(seen.first().map(String::as_str), Some("subscribed"), "{seen:?}");
    assert_eq!(book["market"], json!(market.market.id()), "{book}");
    // Numbered from 1 with the market's other messages (its state may come first).
    let before = seen
        .iter()
        .filter(|kind| !["subscribed", "heartbeat"].contains(&kind.as_str()))
        .count();
    assert_eq!(book["seq"], json!(before), "{book} after {seen:?}");
    let outcomes = book["outcomes"].as_array().expect("a book per outcome");
    assert_eq!(outcomes.len(), market.market.outcomes.len(), "{book}");
    let account = store.get_account(account.id).await.unwrap().unwrap();
    assert_eq!(account.credits_used, 1, "the first minute of one market");
}

/// The demo's stream at `base`, with `key`: its recorded markets play their recorded streams
/// through the exchange connectors, again and again, with the time they are sent; the order
/// book call meanwhile still answers the recorded book, as a recording.
pub(crate) async fn the_demo_plays_recorded_streams(base: &str, key: &str) {
    let polymarket = market_id(Exchange::Polymarket, "559687");
    let kalshi = market_id(Exchange::Kalshi, "KXELONMARS-99");
    let mut request = format!("{}/api/v1/stream", base.replace("http://", "ws://"))
        .into_client_request()
        .unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Bearer {key}").parse().unwrap());
    let (mut socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    let subscribe = json!({"type": "subscribe", "markets": [polymarket, kalshi]}).to_string();
    socket.send(Message::text(subscribe)).await.unwrap();
    let mut received: Vec<Value> = Vec::new();
    let of = |received: &[Value], market: Uuid, kind: &str| {
        received
            .iter()
            .filter(|message| message["market"] == json!(market) && message["type"] == kind)
            .count()
    };
    // A pass of the Polymarket recording lasts about five seconds: a second book, then a
    // trade of the second pass, show that it plays again.
    let enough = |received: &[Value]| {
        let second_pass = received
            .iter()
            .filter(|message| message["market"] == json!(polymarket))
            .skip_while(|message| message["type"] != "book")
            .skip(1)
            .skip_while(|message| message["type"] != "book")
            .any(|message| message["type"] == "trade");
        second_pass && of(received, kalshi, "levels") > 0
    };
    let reading = tokio::time::timeout(Duration::from_secs(60), async {
        while !enough(&received) {
            let Some(Ok(Message::Text(text))) = socket.next().await else {
                panic!("the stream closed");
            };
            let value: Value = serde_json::from_str(&text).unwrap();
            if !value["seq"].is_null() {
                received.push(value);
            }
        }
    })
    .await;
    assert!(reading.is_ok(), "no second pass within a minute: {received:#?}");
    for market in [polymarket, kalshi] {
        let first = received
            .iter()
            .find(|message| message["market"] == json!(market) && message["type"] != "state");
        assert_eq!(first.unwrap()["type"], "book", "a whole book first: {received:#?}");
    }
    assert!(of(&received, polymarket, "price") > 0, "{received:#?}");
    // Stamped when played: each message's time is now, not the recording's.
    for message in &received {
        let time = chrono::DateTime::parse_from_rfc3339(message["time"].as_str().unwrap()).unwrap();
        let age = Utc::now().signed_duration_since(time);
        assert!(age.num_seconds().abs() < 120, "{message}");
    }
    let trade_ids: Vec<&str> = received
        .iter()
        .filter(|message| message["type"] == "trade")
        .map(|message| message["trade"]["id"].as_str().unwrap())
        .collect();
    let mut distinct = trade_ids.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), trade_ids.len(), "no trade twice: {trade_ids:?}");
    // The order book call answers the recorded book, not the played one.
    let book: Value = reqwest::Client::new()
        .get(format!("{base}/api/v1/markets/{polymarket}/orderbook"))
        .bearer_auth(key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(book["data"]["source"], "recording", "{book}");
}
