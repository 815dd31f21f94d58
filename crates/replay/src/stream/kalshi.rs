//! Kalshi's WebSocket API v2 (`/trade-api/ws/v2`), as the exchange answers its commands:
//!
//! - `subscribe` (`channels`, `market_tickers` or `market_ticker`): a `subscribed` with a new
//!   `sid` per channel; on `orderbook_delta` an `orderbook_snapshot` per market, then the
//!   recorded deltas of those markets; on `trade` and `ticker` the recorded messages of those
//!   markets, all in recorded order at the server's speed;
//! - `update_subscription` (`sids` or `sid`, `market_tickers`, `action` `add_markets` or
//!   `delete_markets`): an `ok` listing the subscription's markets (a snapshot for each added
//!   book market);
//! - `unsubscribe` (`sids`): an `unsubscribed` per sid, and its frames stop;
//! - anything else: an `error` with Kalshi's code.
//!
//! Every message of a subscription carries its next `seq`, replies included (stamped by the
//! writer, `socket.rs`). A market of the catalogue with no recorded snapshot gets an empty
//! one; a ticker the catalogue does not list gets nothing (no snapshot, no error), which is
//! what a client must be ready for. The handshake
//! must carry Kalshi's three `KALSHI-ACCESS-*` headers (checked in `mod.rs`); the signature is
//! kept for the test to verify, not checked here.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::WebSocket;
use marketlens_domain::Exchange;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use super::pace::Pace;
use super::passes::BETWEEN_PASSES;
use super::recordings::{StreamRecordings, Timed};
use super::socket::{Client, Link, Outgoing};
use crate::server::{Shared, lock};

/// Each subscription's channel and markets, by sid.
type Subscriptions = Arc<Mutex<HashMap<u64, (String, Vec<String>)>>>;

pub(crate) async fn serve(socket: WebSocket, shared: Arc<Shared>, heartbeat: Duration) {
    let (mut client, link) = Client::start(socket, Exchange::Kalshi, shared.clone(), Some(heartbeat));
    let mut connection = Connection {
        link,
        shared,
        subscriptions: Subscriptions::default(),
        last_sid: 0,
        players: JoinSet::new(),
    };
    while let Some(text) = client.next_text().await {
        if !connection.link.stalled.load(Ordering::Relaxed) {
            connection.command(&text);
        }
    }
}

struct Connection {
    link: Link,
    shared: Arc<Shared>,
    subscriptions: Subscriptions,
    last_sid: u64,
    players: JoinSet<()>,
}

fn error(id: &Value, code: u32, message: &str) -> Outgoing {
    Outgoing::Reply {
        frame: json!({"id": id, "type": "error", "msg": {"code": code, "msg": message}}),
        sid: None,
    }
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|item| item.as_str().map(str::to_owned))
        .collect()
}

impl Connection {
    fn command(&mut self, text: &str) {
        let Ok(command) = serde_json::from_str::<Value>(text) else {
            self.link.send(error(&Value::Null, 1, "Unable to process message"));
            return;
        };
        let id = &command["id"];
        let params = &command["params"];
        match command["cmd"].as_str() {
            Some("subscribe") => {
                let mut tickers = strings(&params["market_tickers"]);
                tickers.extend(params["market_ticker"].as_str().map(str::to_owned));
                let channels = strings(&params["channels"]);
                if channels.is_empty() {
                    self.link.send(error(id, 3, "Channels required"));
                }
                for channel in channels {
                    self.subscribe(id, channel, tickers.clone());
                }
            }
            Some("update_subscription") => {
                let sid = params["sids"][0].as_u64().or(params["sid"].as_u64());
                let tickers = strings(&params["market_tickers"]);
                let Some((sid, (channel, now))) =
                    sid.and_then(|sid| lock(&self.subscriptions).get(&sid).cloned().map(|found| (sid, found)))
                else {
                    self.link.send(error(id, 7, "Unknown subscription ID"));
                    return;
                };
                let mut now = now;
                match params["action"].as_str() {
                    Some("add_markets") => now.extend(tickers.iter().cloned()),
                    Some("delete_markets") => now.retain(|ticker| !tickers.contains(ticker)),
                    _ => {
                        self.link.send(error(id, 13, "Unsupported action"));
                        return;
                    }
                }
                lock(&self.subscriptions).insert(sid, (channel.clone(), now.clone()));
                self.link.send(Outgoing::Reply {
                    frame: json!({"id": id, "sid": sid, "type": "ok", "msg": {"market_tickers": now}}),
                    sid: Some(sid),
                });
                if channel == "orderbook_delta" && params["action"] == "add_markets" {
                    self.play(sid, channel, tickers);
                }
            }
            Some("unsubscribe") => {
                let sids: Vec<u64> = params["sids"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_u64)
                    .collect();
                if sids.is_empty() {
                    self.link.send(error(id, 4, "Subscription IDs required"));
                }
                for sid in sids {
                    if lock(&self.subscriptions).remove(&sid).is_none() {
                        self.link.send(error(id, 7, "Unknown subscription ID"));
                        continue;
                    }
                    self.link.send(Outgoing::Reply {
                        frame: json!({"id": id, "sid": sid, "type": "unsubscribed"}),
                        sid: Some(sid),
                    });
                }
            }
            _ => {
                self.link.send(error(id, 5, "Unknown command"));
            }
        }
    }

    fn subscribe(&mut self, id: &Value, channel: String, tickers: Vec<String>) {
        if !["orderbook_delta", "ticker", "trade"].contains(&channel.as_str()) {
            self.link.send(error(id, 8, "Unknown channel name"));
            return;
        }
        self.last_sid += 1;
        let sid = self.last_sid;
        lock(&self.subscriptions).insert(sid, (channel.clone(), tickers.clone()));
        self.link.send(Outgoing::Reply {
            frame: json!({"id": id, "type": "subscribed", "msg": {"channel": channel, "sid": sid}}),
            sid: None,
        });
        self.play(sid, channel, tickers);
    }

    fn play(&mut self, sid: u64, channel: String, tickers: Vec<String>) {
        let player = Player {
            sid,
            link: self.link.clone(),
            shared: self.shared.clone(),
            subscriptions: self.subscriptions.clone(),
        };
        self.players.spawn(player.play(channel, tickers));
    }
}

/// Plays one subscription's recorded messages.
struct Player {
    sid: u64,
    link: Link,
    shared: Arc<Shared>,
    subscriptions: Subscriptions,
}

impl Player {
    /// Whether `ticker` is still in the subscription.
    fn wanted(&self, ticker: &str) -> bool {
        lock(&self.subscriptions)
            .get(&self.sid)
            .is_some_and(|(_, tickers)| tickers.iter().any(|wanted| wanted == ticker))
    }

    /// Whether `ticker` is a market of the served catalogue.
    fn listed(&self, ticker: &str) -> bool {
        self.shared
            .catalog()
            .data
            .kalshi_markets
            .iter()
            .any(|market| market["ticker"] == ticker)
    }

    fn send(&self, kind: &str, message: &Value, sequenced: bool) -> bool {
        let frame = json!({"type": kind, "sid": self.sid, "msg": message});
        let sid = sequenced.then_some(self.sid);
        self.link.send(Outgoing::Data { frame, sid })
    }

    async fn play(self, channel: String, tickers: Vec<String>) {
        let recordings = StreamRecordings::get();
        let mut pass = Some(self.shared.stream.first_pass());
        while let Some(this) = pass {
            let (kind, timeline, sequenced): (&str, &[Timed], bool) = match channel.as_str() {
                "orderbook_delta" => {
                    for ticker in tickers.iter().filter(|ticker| self.wanted(ticker)) {
                        let snapshot = match recordings.kalshi_snapshots.get(ticker) {
                            Some(recorded) => this.kalshi(recorded),
                            None if self.listed(ticker) => {
                                json!({"market_ticker": ticker, "market_id": "", "yes_dollars_fp": [], "no_dollars_fp": []})
                            }
                            // A ticker Kalshi does not know: no snapshot at all.
                            None => continue,
                        };
                        if !self.send("orderbook_snapshot", &snapshot, true) {
                            return;
                        }
                    }
                    ("orderbook_delta", &recordings.kalshi_deltas, true)
                }
                "trade" => ("trade", &recordings.kalshi_trades, true),
                _ => ("ticker", &recordings.kalshi_tickers, false),
            };
            let mut pace = Pace::default();
            let mut played = false;
            for (time, message) in timeline {
                let ticker = message["market_ticker"].as_str().unwrap_or_default();
                if !tickers.iter().any(|mine| mine == ticker) {
                    continue;
                }
                pace.until(*time, self.shared.stream.speed()).await;
                if !self.wanted(ticker) {
                    continue;
                }
                played = true;
                if !self.send(kind, &this.kalshi(message), sequenced) {
                    return;
                }
            }
            // A recording with nothing after its snapshots is not looped.
            pass = this.next().filter(|_| played);
            if pass.is_some() {
                tokio::time::sleep(BETWEEN_PASSES).await;
            }
        }
    }
}
