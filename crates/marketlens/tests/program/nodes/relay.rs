//! The live stream across nodes: two `serve` processes on one PostgreSQL and one Redis,
//! against the replay's exchanges. Only the holder of the sync lease connects to the
//! exchange; a client on each node receives the recorded sequence; when the holder is killed,
//! the other node takes the lease and the exchange connection, and its client goes on with a
//! new book, then the whole recorded sequence of updates. The stream's prices reach the
//! history, written by the holder alone.

use futures::{SinkExt, StreamExt};
use marketlens_domain::Exchange;
use marketlens_domain::api_key::ApiKey;
use marketlens_domain::ids::market_id;
use marketlens_replay::{ReplayData, ReplayServer};
use serde_json::{Value, json};
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};
use uuid::Uuid;

use super::{Cluster, Node, Syncing, history, holds_lease, wait_for};

/// The two tokens of the recorded market `0x14002070…` (`demo-data/depth/polymarket/
/// ws-book-2.jsonl` line 4), which trade nine times in `ws-last-trade-price-1.jsonl` and change
/// three times in the written price changes, over about five seconds.
const FIRST_TOKEN: &str = "1627500284739545390204314775735988068784669364445492030335161034375823784781";
const SECOND_TOKEN: &str = "7849332184617640056758089974170387917558941201674921732369975950049491747956";
/// Its Gamma id in the catalogue the replay serves (the recordings have no Gamma record of it).
pub(super) const EXTERNAL_ID: &str = "990001";

/// The recorded catalogue, with the recorded market of the two tokens added in an event of its
/// own, so that a sync stores it and its tokens can be looked up.
pub(super) fn replay_data() -> ReplayData {
    let mut data = ReplayData::recorded();
    let mut event = data.polymarket_events[0].clone();
    let mut market = event["markets"][0].clone();
    market["id"] = json!(EXTERNAL_ID);
    market["question"] = json!("Will the replayed market go up?");
    market["slug"] = json!("replayed-up-or-down");
    market["conditionId"] = json!("0x14002070e74acaf96f70c8dfb881586b156c814fac0c1ac417b84c6c76687d00");
    market["outcomes"] = json!(r#"["Up", "Down"]"#);
    market["outcomePrices"] = json!(r#"["0.465", "0.535"]"#);
    market["clobTokenIds"] = json!(format!(r#"["{FIRST_TOKEN}", "{SECOND_TOKEN}"]"#));
    market["active"] = json!(true);
    market["closed"] = json!(false);
    event["id"] = json!(EXTERNAL_ID);
    event["slug"] = json!("replayed-up-or-down");
    event["title"] = json!("Replayed up or down");
    event["active"] = json!(true);
    event["closed"] = json!(false);
    event["markets"] = json!([market]);
    data.polymarket_events.push(event);
    data
}

/// A node's environment for `replay`'s exchanges and streams, with a short lease and
/// catalogue refresh.
pub(super) fn environment(replay: &ReplayServer) -> Vec<(&'static str, String)> {
    vec![
        ("MARKETLENS_POLYMARKET_URL", replay.polymarket_url()),
        ("MARKETLENS_KALSHI_URL", replay.kalshi_url()),
        ("MARKETLENS_POLYMARKET_RPS", "1000".into()),
        ("MARKETLENS_KALSHI_RPS", "1000".into()),
        ("MARKETLENS_POLYMARKET_CLOB_URL", replay.polymarket_clob_url()),
        ("MARKETLENS_POLYMARKET_DATA_URL", replay.polymarket_data_url()),
        ("MARKETLENS_POLYMARKET_WS_URL", replay.polymarket_ws_url()),
        ("MARKETLENS_KALSHI_WS_URL", replay.kalshi_ws_url()),
        ("MARKETLENS_CATALOG_REFRESH_SECS", "1".into()),
        ("MARKETLENS_SYNC_LEASE_SECS", "3".into()),
    ]
}

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// A stream client of one node, keeping every market message it received.
pub(super) struct Client {
    socket: Socket,
    pub(super) received: Vec<Value>,
}

impl Client {
    pub(super) async fn connect(node: &Node, key: &ApiKey) -> Client {
        let url = node.base_url.replace("http://", "ws://") + "/api/v1/stream";
        let mut request = url.into_client_request().unwrap();
        let bearer = format!("Bearer {}", key.as_str()).parse().unwrap();
        request.headers_mut().insert("authorization", bearer);
        let (socket, _) = tokio_tungstenite::connect_async(request).await.unwrap();
        Client {
            socket,
            received: Vec::new(),
        }
    }

    /// Subscribes to `market`, asking again while the node does not know it yet (its
    /// catalogue reloads after the sync; a refusal is not charged).
    pub(super) async fn subscribe(&mut self, market: Uuid) {
        let subscribe = json!({"type": "subscribe", "markets": [market]}).to_string();
        for _ in 0..60 {
            self.socket.send(Message::text(subscribe.clone())).await.unwrap();
            loop {
                let message = self.next_control().await;
                match message["type"].as_str() {
                    Some("subscribed") => return,
                    Some("error") => break,
                    _ => {}
                }
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
        panic!("the node never knew the market");
    }

    /// The next message that is not a market's.
    async fn next_control(&mut self) -> Value {
        loop {
            let message = self.next().await;
            if message["seq"].is_null() {
                return message;
            }
        }
    }

    /// The next message, market messages kept in `received`.
    pub(super) async fn next(&mut self) -> Value {
        loop {
            let message = tokio::time::timeout(Duration::from_secs(30), self.socket.next())
                .await
                .expect("a message within 30 s")
                .expect("the connection open")
                .unwrap();
            let Message::Text(text) = message else { continue };
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["type"] == "heartbeat" {
                continue;
            }
            if !value["seq"].is_null() {
                self.received.push(value.clone());
            }
            return value;
        }
    }

    /// Reads until `enough` holds of the market messages received.
    pub(super) async fn until(&mut self, what: &str, enough: impl Fn(&[Value]) -> bool) {
        let reading = async {
            while !enough(&self.received) {
                self.next().await;
            }
        };
        if tokio::time::timeout(Duration::from_secs(40), reading).await.is_err() {
            panic!("timed out waiting for {what}; received {:#?}", self.received);
        }
    }
}

pub(super) fn count(messages: &[Value], kind: &str) -> usize {
    messages.iter().filter(|message| message["type"] == kind).count()
}

/// The messages after the last `book`, from that book on.
fn since_last_book(messages: &[Value]) -> &[Value] {
    let last = messages.iter().rposition(|message| message["type"] == "book").unwrap();
    &messages[last..]
}

fn is_suffix(part: &[Value], whole: &[Value]) -> bool {
    part.len() <= whole.len() && whole[whole.len() - part.len()..] == *part
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn one_node_holds_the_exchange_connection_and_the_other_streams_on_when_it_is_killed() {
    let Some(cluster) = Cluster::new().await else {
        return;
    };
    let replay = ReplayServer::start(replay_data());
    let mut environment = environment(&replay);
    let prefix = format!("relay-test-{}", Uuid::new_v4().simple());
    environment.push(("MARKETLENS_REDIS_KEY_PREFIX", prefix));
    let environment: Vec<(&str, &str)> = environment
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    let start_node = async || Node::start(&cluster.database.url, &cluster.redis_url, Syncing::On, &environment).await;
    let mut holder = start_node().await;
    wait_for(
        "the first node to take the lease",
        Duration::from_secs(20),
        async || holds_lease(&cluster.database.url, &holder).await,
    )
    .await;
    let other = start_node().await;
    let market = market_id(Exchange::Polymarket, EXTERNAL_ID);
    wait_for("the first node's sync", Duration::from_secs(60), async || {
        cluster.store.get_market(market).await.unwrap().is_some()
    })
    .await;
    let (_, key) = cluster.account("pro", 100).await;

    // A client on each node; the second subscribes once the first has its book, while the
    // recorded sequence plays (about five seconds at the recording's pace).
    let mut on_holder = Client::connect(&holder, &key).await;
    on_holder.subscribe(market).await;
    on_holder
        .until("the first book", |received| count(received, "book") == 1)
        .await;
    let mut on_other = Client::connect(&other, &key).await;
    on_other.subscribe(market).await;
    on_other
        .until("the other node's book", |received| count(received, "book") == 1)
        .await;
    on_holder
        .until("the recorded sequence", |received| {
            count(received, "trade") == 9 && count(received, "levels") == 3
        })
        .await;
    let recorded = changes(&on_holder.received);
    let last = recorded.last().unwrap().clone();
    on_other
        .until("the rest of the sequence", |received| {
            changes(received).last() == Some(&last)
        })
        .await;
    // The other node's client came in later: its book, then the rest of the same sequence.
    let seen_later = changes(since_last_book(&on_other.received));
    assert!(
        !seen_later.is_empty() && is_suffix(&seen_later, &recorded),
        "{seen_later:#?}\n{recorded:#?}"
    );
    assert_eq!(count(&on_other.received, "book"), 1);
    for client in [&on_holder, &on_other] {
        let first = client.received.iter().find(|message| message["type"] != "state");
        assert_eq!(
            first.unwrap()["type"],
            "book",
            "a whole book first: {:#?}",
            client.received
        );
    }
    // Both nodes keep the same book.
    let (holder_book, other_book) = (
        order_book(&holder, &key, market).await,
        order_book(&other, &key, market).await,
    );
    assert_eq!(holder_book["source"], "stream", "{holder_book}");
    assert_eq!(holder_book["outcomes"], other_book["outcomes"]);
    assert_eq!(
        replay.stream_connections(Exchange::Polymarket),
        1,
        "only the lease holder connects"
    );
    // The prices reach the history, written once: by the holder, not by the other node.
    history::assert_last_price_in_history(&holder, &key, market, &mut on_holder).await;
    assert!(history::prices_written(&holder).await > 0.0);
    assert_eq!(
        history::prices_written(&other).await,
        0.0,
        "only the holder writes prices"
    );

    // SIGKILL: the lease moves to the other node, which connects, follows what its client
    // wants and sends a whole book; the client goes on from it.
    holder.kill();
    on_other
        .until("a new book, then the recorded sequence again", |received| {
            count(received, "book") == 2 && changes(since_last_book(received)).len() == recorded.len()
        })
        .await;
    assert_eq!(changes(since_last_book(&on_other.received)), recorded);
    assert_eq!(
        replay.stream_connections(Exchange::Polymarket),
        2,
        "one connection, on the new holder"
    );
    // No check of the messages' `seq`: each node's hub numbers what it sends itself, so it
    // has no gap whatever the relay lost; what shows a loss is the sequence after the book.
    drop(other);
}

/// The trades and level changes of `messages`, in order, without their numbering or times.
fn changes(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter_map(|message| match message["type"].as_str() {
            Some("trade") => Some(message["trade"].clone()),
            Some("levels") => Some(message["changes"].clone()),
            _ => None,
        })
        .collect()
}

/// `GET /markets/{id}/orderbook` on `node`.
async fn order_book(node: &Node, key: &ApiKey, market: Uuid) -> Value {
    data(node, key, &format!("/api/v1/markets/{market}/orderbook")).await
}

/// The `data` of a successful keyed `GET path` on `node`.
pub(super) async fn data(node: &Node, key: &ApiKey, path: &str) -> Value {
    let response = reqwest::Client::new()
        .get(format!("{}{path}", node.base_url))
        .bearer_auth(key.as_str())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    body["data"].clone()
}
