//! Live streams over WebSocket (`GET /api/v1/stream`): keys, subscriptions, the order and
//! numbering of messages, following and unfollowing on the feed, heartbeats, credits per
//! started minute, the tier's bounds, books served from the stream, and slow clients.
//!
//! [`TestFeed`] stands in for the exchange connectors: it records what the hub follows and lets
//! a test push the updates a connector would send.

use futures::{SinkExt, StreamExt};
use marketlens_api::ApiSettings;
use marketlens_api::stream::markets::WithoutTokens;
use marketlens_api::stream::{FeedOrigin, StreamHub, StreamSettings};
use marketlens_domain::Exchange;
use marketlens_domain::account::LedgerKind;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::depth::{Ladder, Level, OutcomeBook, TakerSide, Trade};
use marketlens_domain::ids::market_id;
use marketlens_domain::rate_limit::StreamTierTable;
use marketlens_domain::stream::{
    BookSide, FeedState, LevelChange, LiveFeed, MarketChange, MarketUpdate, PriceTick, StreamMarket,
};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use uuid::Uuid;

use crate::{TestServer, assert_error};

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long a test waits for a message it expects.
const PATIENCE: Duration = Duration::from_secs(10);

/// A feed that follows nothing: it counts follows per market and sends what the test pushes.
struct TestFeed {
    followed: Mutex<HashMap<Uuid, i64>>,
    updates: mpsc::Sender<MarketUpdate>,
}

impl LiveFeed for TestFeed {
    fn follow(&self, market: &StreamMarket) {
        *self.followed.lock().unwrap().entry(market.id).or_default() += 1;
    }

    fn unfollow(&self, market: Uuid) {
        *self.followed.lock().unwrap().entry(market).or_default() -= 1;
    }
}

impl TestFeed {
    fn following(&self, market: Uuid) -> i64 {
        self.followed.lock().unwrap().get(&market).copied().unwrap_or_default()
    }

    /// Waits until the feed follows `market` `count` times.
    async fn wait_following(&self, market: Uuid, count: i64) {
        let waited = tokio::time::timeout(PATIENCE, async {
            while self.following(market) != count {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        assert!(
            waited.is_ok(),
            "the feed follows {market} {} times, not {count}",
            self.following(market)
        );
    }

    async fn push(&self, market: Uuid, change: MarketChange) {
        let now = chrono::Utc::now();
        let update = MarketUpdate {
            market,
            time: now,
            received: now,
            change,
        };
        self.updates.send(update).await.expect("the hub reads updates");
    }
}

/// A server streaming from a [`TestFeed`], with `stream` settings.
async fn start(stream: StreamSettings) -> (TestServer, Arc<TestFeed>) {
    let (server, feed, _) = start_with_hub(stream).await;
    (server, feed)
}

/// [`start`], and the server's hub.
async fn start_with_hub(stream: StreamSettings) -> (TestServer, Arc<TestFeed>, StreamHub) {
    let (updates, received) = mpsc::channel(1024);
    let feed = Arc::new(TestFeed {
        followed: Mutex::default(),
        updates,
    });
    let hub = StreamHub::start(feed.clone(), FeedOrigin::Exchanges, received, Arc::new(WithoutTokens));
    let settings = ApiSettings {
        stream,
        ..ApiSettings::default()
    };
    (TestServer::start_with_stream(settings, hub.clone()).await, feed, hub)
}

fn bitcoin() -> Uuid {
    market_id(Exchange::Kalshi, "KXBTC-26DEC31-T100000")
}

fn bitcoin_150k() -> Uuid {
    market_id(Exchange::Kalshi, "KXBTC-26DEC31-T150000")
}

fn polymarket_bitcoin() -> Uuid {
    market_id(Exchange::Polymarket, "501")
}

async fn connect(server: &TestServer, key: Option<&ApiKey>) -> Result<Socket, tungstenite::Error> {
    let url = format!("{}/api/v1/stream", server.base_url.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    if let Some(key) = key {
        let bearer = format!("Bearer {}", key.as_str()).parse().unwrap();
        request.headers_mut().insert("authorization", bearer);
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(socket, _)| socket)
}

async fn send(socket: &mut Socket, message: Value) {
    socket.send(Message::text(message.to_string())).await.unwrap();
}

async fn subscribe(socket: &mut Socket, markets: &[Uuid]) {
    send(socket, json!({"type": "subscribe", "markets": markets})).await;
}

/// The OpenAPI document's schemas of the server's messages, each message one of them.
static MESSAGE_SCHEMA: LazyLock<jsonschema::Validator> = LazyLock::new(|| {
    let document: Value = serde_json::from_str(marketlens_api::openapi::document_json()).unwrap();
    let schema = json!({"oneOf": [
        {"$ref": "#/components/schemas/StreamMarketMessage"},
        {"$ref": "#/components/schemas/StreamControlMessage"},
    ]});
    crate::openapi::validator(&document, &schema)
});

/// The next message that is not a heartbeat, as documented; `None` once the server closed
/// the stream.
async fn next(socket: &mut Socket) -> Option<Result<Value, CloseFrame>> {
    loop {
        let message = tokio::time::timeout(PATIENCE, socket.next())
            .await
            .expect("a message in time");
        match message {
            Some(Ok(Message::Text(text))) => {
                let value: Value = serde_json::from_str(&text).unwrap();
                let errors: Vec<String> = MESSAGE_SCHEMA
                    .iter_errors(&value)
                    .map(|error| error.to_string())
                    .collect();
                assert!(errors.is_empty(), "{text} is not as documented: {errors:?}");
                if value["type"] != "heartbeat" {
                    return Some(Ok(value));
                }
            }
            Some(Ok(Message::Close(Some(frame)))) => return Some(Err(frame)),
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
            Some(Ok(other)) => panic!("unexpected frame {other:?}"),
            Some(Err(_)) | None => return None,
        }
    }
}

async fn next_json(socket: &mut Socket) -> Value {
    match next(socket).await {
        Some(Ok(value)) => value,
        other => panic!("expected a message, got {other:?}"),
    }
}

/// The close frame that ends the stream, after an `error` message of `code`.
async fn closed_after_error(socket: &mut Socket, code: &str, close_code: u16) {
    let error = next_json(socket).await;
    assert_eq!(
        (error["type"].as_str(), error["error"]["code"].as_str()),
        (Some("error"), Some(code)),
        "{error}"
    );
    match next(socket).await {
        Some(Err(frame)) => assert_eq!(u16::from(frame.code), close_code, "{frame:?}"),
        other => panic!("expected a close frame, got {other:?}"),
    }
}

fn book(bid: f64, ask: f64) -> MarketChange {
    let ladder = Ladder::new([Level { price: bid, size: 10.0 }], [Level { price: ask, size: 5.0 }]);
    MarketChange::Book {
        outcomes: marketlens_domain::depth::binary_books(&["Yes".to_owned(), "No".to_owned()], ladder),
    }
}

fn price(last: f64) -> MarketChange {
    MarketChange::Price(PriceTick {
        outcome: "Yes".into(),
        price: Some(last),
        last: Some(last),
        best_bid: None,
        best_ask: None,
    })
}

#[tokio::test]
async fn a_missing_or_wrong_key_is_refused() {
    let (server, _) = start(StreamSettings::default()).await;
    let wrong = ApiKey::generate(&mut rand::rng());
    match connect(&server, Some(&wrong)).await {
        Err(tungstenite::Error::Http(response)) => {
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
            assert_error(response.status().as_u16(), &body, 401, "INVALID_API_KEY");
        }
        other => panic!("expected a 401, got {:?}", other.map(|_| ())),
    }
    // Without a header, the first message must be the key.
    let mut socket = connect(&server, None).await.unwrap();
    subscribe(&mut socket, &[bitcoin()]).await;
    closed_after_error(&mut socket, "MISSING_API_KEY", 4001).await;
    let mut socket = connect(&server, None).await.unwrap();
    send(&mut socket, json!({"type": "auth", "key": wrong.as_str()})).await;
    closed_after_error(&mut socket, "INVALID_API_KEY", 4001).await;
    // The right key in the first message opens the stream.
    let key = server.key().await;
    let mut socket = connect(&server, None).await.unwrap();
    send(&mut socket, json!({"type": "auth", "key": key.as_str()})).await;
    subscribe(&mut socket, &[bitcoin()]).await;
    assert_eq!(next_json(&mut socket).await["type"], "subscribed");
}

/// Every answer the document gives the upgrade, as documented (the big check of
/// `openapi.rs` leaves the stream to this one, which needs a live source).
#[tokio::test]
async fn every_documented_answer_of_the_upgrade_is_produced() {
    let settings = StreamSettings {
        limits: StreamTierTable::with_overrides("free=1/5").unwrap(),
        ..StreamSettings::default()
    };
    let (server, _) = start(settings).await;
    let document: Value = serde_json::from_str(marketlens_api::openapi::document_json()).unwrap();
    let responses = &document["paths"]["/api/v1/stream"]["get"]["responses"];
    let documented: std::collections::BTreeSet<&str> =
        responses.as_object().unwrap().keys().map(String::as_str).collect();
    let mut produced = std::collections::BTreeSet::new();
    let (_, key) = server.account("free", 100).await;
    let socket = connect(&server, Some(&key)).await.unwrap();
    produced.insert("101".to_owned());
    let mut check = |status: u16, body: &Value, code: &str| {
        assert_error(status, body, status, code);
        let schema = &responses[status.to_string()]["content"]["application/json"]["schema"];
        let errors: Vec<String> = crate::openapi::validator(&document, schema)
            .iter_errors(body)
            .map(|error| error.to_string())
            .collect();
        assert!(errors.is_empty(), "{status}: {body} is not as documented: {errors:?}");
        produced.insert(status.to_string());
    };
    let upgrade_refused = |connected: Result<Socket, tungstenite::Error>| match connected {
        Err(tungstenite::Error::Http(response)) => {
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
            (response.status().as_u16(), body)
        }
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    };
    let (status, body) = upgrade_refused(connect(&server, Some(&key)).await);
    check(status, &body, "RATE_LIMITED");
    drop(socket);
    let wrong = ApiKey::generate(&mut rand::rng());
    let (status, body) = upgrade_refused(connect(&server, Some(&wrong)).await);
    check(status, &body, "INVALID_API_KEY");
    let (suspended_account, suspended) = server.account("enterprise", 10).await;
    server
        .store
        .set_account_status(
            suspended_account.id,
            marketlens_domain::account::AccountStatus::Suspended,
        )
        .await
        .unwrap();
    let (status, body) = upgrade_refused(connect(&server, Some(&suspended)).await);
    check(status, &body, "ACCOUNT_SUSPENDED");
    let key = server.key().await;
    let (status, body) = server.get("/api/v1/stream?key=1", &key).await;
    check(status, &body, "INVALID_PARAMETER");
    let (status, body) = server.get("/api/v1/stream", &key).await;
    check(status, &body, "INVALID_REQUEST");
    // 503: `without_a_live_source_the_stream_is_unavailable_and_free`.
    produced.insert("503".to_owned());
    let produced: std::collections::BTreeSet<&str> = produced.iter().map(String::as_str).collect();
    assert_eq!(produced, documented);
}

#[tokio::test]
async fn without_a_live_source_the_stream_is_unavailable_and_free() {
    let server = TestServer::start().await;
    let (account, key) = server.account("enterprise", 10).await;
    let refused = match connect(&server, Some(&key)).await {
        Err(tungstenite::Error::Http(response)) => response,
        other => panic!("expected a refusal, got {:?}", other.map(|_| ())),
    };
    let body: Value = serde_json::from_slice(refused.body().as_deref().unwrap()).unwrap();
    assert_error(refused.status().as_u16(), &body, 503, "DEPTH_UNAVAILABLE");
    assert_eq!(server.remaining_credits(account.id).await, 10);
    // A request that is not an upgrade cannot send its key later: without one it is refused
    // as every keyed call is.
    let response = reqwest::get(format!("{}/api/v1/stream", server.base_url))
        .await
        .unwrap();
    let status = response.status().as_u16();
    let body: Value = response.json().await.unwrap();
    assert_error(status, &body, 401, "MISSING_API_KEY");
}

#[tokio::test]
async fn a_plain_request_is_told_to_upgrade() {
    let (server, _) = start(StreamSettings::default()).await;
    let key = server.key().await;
    let (status, body) = server.get("/api/v1/stream", &key).await;
    assert_error(status, &body, 426, "INVALID_REQUEST");
}

#[tokio::test]
async fn a_subscriber_gets_the_book_then_each_update_in_order_and_the_book_is_served() {
    let (server, feed) = start(StreamSettings::default()).await;
    let key = server.key().await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin()]).await;
    let subscribed = next_json(&mut socket).await;
    assert_eq!(subscribed["type"], "subscribed", "{subscribed}");
    assert_eq!(subscribed["market"], bitcoin().to_string());
    assert_eq!(subscribed["outcomes"], json!(["Yes", "No"]));
    feed.wait_following(bitcoin(), 1).await;
    let trade = Trade {
        id: "t1".into(),
        time: chrono::Utc::now(),
        outcome: "Yes".into(),
        price: 0.41,
        size: 3.0,
        taker_side: TakerSide::Sell,
    };
    let changes = [
        book(0.40, 0.42),
        MarketChange::Levels {
            changes: vec![
                LevelChange {
                    outcome: "Yes".into(),
                    side: BookSide::Bid,
                    price: 0.41,
                    size: 7.0,
                },
                LevelChange {
                    outcome: "Yes".into(),
                    side: BookSide::Ask,
                    price: 0.42,
                    size: 0.0,
                },
            ],
        },
        price(0.41),
        MarketChange::Trade(trade),
        MarketChange::State { state: FeedState::Live },
    ];
    for change in changes {
        feed.push(bitcoin(), change).await;
    }
    let mut received = Vec::new();
    for _ in 0..5 {
        received.push(next_json(&mut socket).await);
    }
    let kinds: Vec<(&str, u64)> = received
        .iter()
        .map(|message| (message["type"].as_str().unwrap(), message["seq"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [("book", 1), ("levels", 2), ("price", 3), ("trade", 4), ("state", 5)]
    );
    assert!(
        received
            .iter()
            .all(|message| message["market"] == bitcoin().to_string())
    );
    assert_eq!(
        received[0]["outcomes"][1],
        json!({"outcome": "No", "bids": [{"price": 0.58, "size": 5.0}], "asks": [{"price": 0.6, "size": 10.0}]})
    );
    assert_eq!(
        received[1]["changes"][0],
        json!({"outcome": "Yes", "side": "bid", "price": 0.41, "size": 7.0})
    );
    assert_eq!(received[3]["trade"]["takerSide"], "SELL");
    assert_eq!(received[4]["state"], "live");
    // The book the stream keeps, its levels applied, answers the order book call.
    let (status, body) = server
        .get(&format!("/api/v1/markets/{}/orderbook", bitcoin()), &key)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["source"], "stream");
    assert_eq!(body["data"]["stale"], false);
    assert_eq!(
        body["data"]["outcomes"][0],
        json!({"outcome": "Yes", "bids": [{"price": 0.41, "size": 7.0}, {"price": 0.4, "size": 10.0}], "asks": []})
    );
    // An interruption: the book is no longer served as live (and this server has no other
    // source of books).
    feed.push(
        bitcoin(),
        MarketChange::State {
            state: FeedState::Interrupted,
        },
    )
    .await;
    assert_eq!(next_json(&mut socket).await["seq"], 6);
    let (status, body) = server
        .get(&format!("/api/v1/markets/{}/orderbook", bitcoin()), &key)
        .await;
    assert_error(status, &body, 503, "DEPTH_UNAVAILABLE");
}

#[tokio::test]
async fn each_client_numbers_its_own_subscription() {
    let (server, feed) = start(StreamSettings::default()).await;
    let key = server.key().await;
    let mut first = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut first, &[bitcoin()]).await;
    assert_eq!(next_json(&mut first).await["type"], "subscribed");
    feed.push(bitcoin(), book(0.3, 0.35)).await;
    feed.push(bitcoin(), price(0.31)).await;
    assert_eq!(next_json(&mut first).await["seq"], 1);
    assert_eq!(next_json(&mut first).await["seq"], 2);
    // A later subscriber gets the book the hub keeps at once, numbered from 1.
    let mut second = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut second, &[bitcoin()]).await;
    assert_eq!(next_json(&mut second).await["type"], "subscribed");
    let held = next_json(&mut second).await;
    assert_eq!((held["type"].as_str(), held["seq"].as_u64()), (Some("book"), Some(1)));
    feed.push(bitcoin(), price(0.32)).await;
    assert_eq!(next_json(&mut first).await["seq"], 3);
    assert_eq!(next_json(&mut second).await["seq"], 2);
    assert_eq!(feed.following(bitcoin()), 1, "one market, followed once");
}

#[tokio::test]
async fn the_last_subscriber_leaving_unfollows_the_market() {
    let (server, feed) = start(StreamSettings::default()).await;
    let key = server.key().await;
    let mut first = connect(&server, Some(&key)).await.unwrap();
    let mut second = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut first, &[bitcoin(), bitcoin_150k()]).await;
    subscribe(&mut second, &[bitcoin()]).await;
    for _ in 0..2 {
        assert_eq!(next_json(&mut first).await["type"], "subscribed");
    }
    assert_eq!(next_json(&mut second).await["type"], "subscribed");
    feed.wait_following(bitcoin(), 1).await;
    feed.wait_following(bitcoin_150k(), 1).await;
    send(&mut first, json!({"type": "unsubscribe", "markets": [bitcoin()]})).await;
    let unsubscribed = next_json(&mut first).await;
    assert_eq!(unsubscribed, json!({"type": "unsubscribed", "market": bitcoin()}));
    assert_eq!(feed.following(bitcoin()), 1, "the second client still follows it");
    drop(second);
    feed.wait_following(bitcoin(), 0).await;
    first.close(None).await.unwrap();
    feed.wait_following(bitcoin_150k(), 0).await;
}

#[tokio::test]
async fn a_heartbeat_comes_every_interval() {
    let settings = StreamSettings {
        heartbeat_interval: Duration::from_millis(100),
        ..StreamSettings::default()
    };
    let (server, _) = start(settings).await;
    let key = server.key().await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    for _ in 0..2 {
        let message = tokio::time::timeout(Duration::from_secs(2), socket.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        let heartbeat: Value = serde_json::from_str(message.to_text().unwrap()).unwrap();
        assert_eq!(heartbeat["type"], "heartbeat");
        assert!(heartbeat["time"].as_str().is_some_and(|time| time.ends_with('Z')));
    }
}

/// Minutes of one second, so that a test sees several.
fn short_minutes() -> StreamSettings {
    StreamSettings {
        billing_period: Duration::from_secs(1),
        ..StreamSettings::default()
    }
}

async fn stream_minutes_charged(server: &TestServer, account: Uuid) -> usize {
    let ledger = server.store.ledger(account, None, 1000).await.unwrap();
    ledger
        .iter()
        .filter(|entry| entry.kind == LedgerKind::Charge && entry.operation.as_deref() == Some("streamMinute"))
        .count()
}

#[tokio::test]
async fn each_started_minute_of_each_market_is_charged_once() {
    let (server, _) = start(short_minutes()).await;
    let (account, key) = server.account("enterprise", 100).await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin(), bitcoin_150k()]).await;
    let first = next_json(&mut socket).await;
    assert_eq!(
        (first["type"].as_str(), first["creditsRemaining"].as_i64()),
        (Some("subscribed"), Some(99))
    );
    assert_eq!(next_json(&mut socket).await["creditsRemaining"], 98);
    // Minutes start at 0 s, 1 s and 2 s: three each by 2.5 s.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    socket.close(None).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(stream_minutes_charged(&server, account.id).await, 6);
    assert_eq!(server.remaining_credits(account.id).await, 94);
    let (status, body) = server.get("/api/v1/account", &key).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["credits"]["remaining"], 94, "{body}");
}

#[tokio::test]
async fn a_minute_the_balance_cannot_pay_is_refused_or_ends_the_subscription() {
    let (server, feed) = start(short_minutes()).await;
    let (account, key) = server.account("enterprise", 1).await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin(), bitcoin_150k()]).await;
    assert_eq!(next_json(&mut socket).await["type"], "subscribed");
    let refused = next_json(&mut socket).await;
    assert_eq!(refused["type"], "error", "{refused}");
    assert_eq!(refused["market"], bitcoin_150k().to_string());
    assert_eq!(refused["error"]["code"], "INSUFFICIENT_CREDITS");
    assert_eq!(refused["error"]["details"], json!({"required": 1, "remaining": 0}));
    assert_eq!(feed.following(bitcoin_150k()), 0, "a refused market is not followed");
    feed.wait_following(bitcoin(), 1).await;
    // The second minute cannot be paid: the subscription ends.
    let ended = next_json(&mut socket).await;
    assert_eq!(ended["market"], bitcoin().to_string(), "{ended}");
    assert_eq!(ended["error"]["code"], "INSUFFICIENT_CREDITS");
    feed.wait_following(bitcoin(), 0).await;
    assert_eq!(stream_minutes_charged(&server, account.id).await, 1);
    assert_eq!(server.remaining_credits(account.id).await, 0);
}

#[tokio::test]
async fn the_tier_bounds_connections_and_subscriptions() {
    let settings = StreamSettings {
        limits: StreamTierTable::with_overrides("free=1/2").unwrap(),
        ..StreamSettings::default()
    };
    let (server, feed) = start(settings).await;
    let (_, key) = server.account("free", 100).await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin(), bitcoin_150k(), polymarket_bitcoin()]).await;
    for _ in 0..2 {
        assert_eq!(next_json(&mut socket).await["type"], "subscribed");
    }
    let refused = next_json(&mut socket).await;
    assert_eq!(refused["market"], polymarket_bitcoin().to_string(), "{refused}");
    assert_eq!(refused["error"]["code"], "RATE_LIMITED");
    assert_eq!(refused["error"]["details"], json!({"subscriptionsPerConnection": 2}));
    assert_eq!(feed.following(polymarket_bitcoin()), 0);
    match connect(&server, Some(&key)).await {
        Err(tungstenite::Error::Http(response)) => {
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
            let error = assert_error(response.status().as_u16(), &body, 429, "RATE_LIMITED");
            assert_eq!(error["details"], json!({"streamConnections": 1}));
        }
        other => panic!("expected a 429, got {:?}", other.map(|_| ())),
    }
    // The key sent in the first message meets the same bound.
    let mut second = connect(&server, None).await.unwrap();
    send(&mut second, json!({"type": "auth", "key": key.as_str()})).await;
    closed_after_error(&mut second, "RATE_LIMITED", 4029).await;
    // Once the first is closed, another may open.
    socket.close(None).await.unwrap();
    let reopened = tokio::time::timeout(PATIENCE, async {
        loop {
            if let Ok(socket) = connect(&server, Some(&key)).await {
                return socket;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert!(reopened.is_ok());
}

#[tokio::test]
async fn a_client_too_slow_to_read_is_closed_and_others_keep_receiving() {
    let settings = StreamSettings {
        outbox_capacity: 16,
        ..StreamSettings::default()
    };
    let (server, feed) = start(settings).await;
    let key = server.key().await;
    let mut slow = connect(&server, Some(&key)).await.unwrap();
    let mut fast = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut slow, &[bitcoin()]).await;
    subscribe(&mut fast, &[bitcoin()]).await;
    assert_eq!(next_json(&mut slow).await["type"], "subscribed");
    assert_eq!(next_json(&mut fast).await["type"], "subscribed");
    // Large books (about 100 kB each), so that the slow client's socket buffers fill soon.
    let deep_book = || {
        let bids = (1..500).map(|cents| Level {
            price: f64::from(cents) / 1000.0,
            size: 1.0,
        });
        let asks = (500..999).map(|cents| Level {
            price: f64::from(cents) / 1000.0,
            size: 1.0,
        });
        MarketChange::Book {
            outcomes: vec![OutcomeBook {
                outcome: "Yes".into(),
                ladder: Ladder::new(bids, asks),
            }],
        }
    };
    // The fast client reads each book before the next is pushed; the slow one reads none.
    const UPDATES: u64 = 300;
    for seq in 1..=UPDATES {
        feed.push(bitcoin(), deep_book()).await;
        let received = next_json(&mut fast).await;
        assert_eq!(received["seq"], seq);
    }
    // The slow client finds the stream ended, closed as too slow, well before the last book.
    let mut received = 0;
    let close = loop {
        match next(&mut slow).await {
            Some(Ok(_)) => received += 1,
            Some(Err(frame)) => break Some(frame),
            None => break None,
        }
    };
    assert!(received < UPDATES, "the slow client got all {received} books");
    if let Some(frame) = close {
        assert_eq!(u16::from(frame.code), 4008, "{frame:?}");
    }
    // The fast client still receives.
    feed.push(bitcoin(), price(0.5)).await;
    assert_eq!(next_json(&mut fast).await["seq"], UPDATES + 1);
    assert_eq!(feed.following(bitcoin()), 1);
}

#[tokio::test]
async fn an_unknown_market_is_refused_uncharged() {
    let (server, _) = start(StreamSettings::default()).await;
    let (account, key) = server.account("enterprise", 10).await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    send(
        &mut socket,
        json!({"type": "subscribe", "markets": [Uuid::from_u128(5), "not-an-id"]}),
    )
    .await;
    for _ in 0..2 {
        let refused = next_json(&mut socket).await;
        assert_eq!(refused["error"]["code"], "NOT_FOUND", "{refused}");
    }
    send(&mut socket, json!({"type": "subscribe"})).await;
    assert_eq!(next_json(&mut socket).await["error"]["code"], "INVALID_JSON");
    assert_eq!(server.remaining_credits(account.id).await, 10);
}

#[tokio::test]
async fn a_key_revoked_while_streaming_ends_the_stream_at_its_next_minute() {
    let (server, feed) = start(short_minutes()).await;
    let (account, key) = server.account("enterprise", 100).await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin()]).await;
    assert_eq!(next_json(&mut socket).await["type"], "subscribed");
    let record = server.store.list_keys(account.id).await.unwrap().remove(0);
    server.store.revoke_key(record.id, chrono::Utc::now()).await.unwrap();
    closed_after_error(&mut socket, "INVALID_API_KEY", 4001).await;
    feed.wait_following(bitcoin(), 0).await;
    assert_eq!(stream_minutes_charged(&server, account.id).await, 1);
}

#[tokio::test]
async fn closing_the_hub_closes_every_stream_as_going_away() {
    let (server, feed, hub) = start_with_hub(StreamSettings::default()).await;
    let key = server.key().await;
    let mut socket = connect(&server, Some(&key)).await.unwrap();
    subscribe(&mut socket, &[bitcoin()]).await;
    assert_eq!(next_json(&mut socket).await["type"], "subscribed");
    hub.close_all();
    match next(&mut socket).await {
        Some(Err(frame)) => assert_eq!(u16::from(frame.code), 1001, "{frame:?}"),
        other => panic!("expected a close frame, got {other:?}"),
    }
    feed.wait_following(bitcoin(), 0).await;
}
