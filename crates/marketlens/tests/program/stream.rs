//! `serve`'s live stream end to end: the exchanges' WebSocket connectors (here against the
//! replay's recorded streams), the hub, and a client of `GET /api/v1/stream`.

use chrono::Utc;
use futures::{SinkExt, StreamExt};
use marketlens_domain::Exchange;
use marketlens_domain::api_key::ApiKey;
use marketlens_replay::{ReplayData, ReplayServer};
use marketlens_storage::{MarketFilter, MarketQuery, MarketSort, NewAccount, SortOrder};
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

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
