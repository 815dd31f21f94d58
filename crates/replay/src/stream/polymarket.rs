//! Polymarket's market channel (`/ws/market`), as the exchange answers: the first message
//! (`{"assets_ids": [...], "type": "market"}`) and each `{"assets_ids": [...], "operation":
//! "subscribe"}` get a `book` per new token, then the recorded events of those tokens
//! (`last_trade_price`, and the written `price_change` and `tick_size_change`) in recorded
//! order at the server's speed; `"operation": "unsubscribe"` stops a token's events; `PING`
//! is answered `PONG`. A token of the catalogue without a recorded book gets an empty one, as
//! a quiet market would; a token the catalogue does not list gets nothing, as an unknown or
//! resolved market's does. Messages that are not JSON are ignored.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use axum::extract::ws::WebSocket;
use marketlens_domain::Exchange;
use serde_json::{Value, json};
use tokio::task::JoinSet;

use super::pace::Pace;
use super::passes::BETWEEN_PASSES;
use super::recordings::StreamRecordings;
use super::socket::{Client, Link, Outgoing};
use crate::server::{Shared, lock};

pub(crate) async fn serve(socket: WebSocket, shared: Arc<Shared>) {
    let (mut client, link) = Client::start(socket, Exchange::Polymarket, shared.clone(), None);
    let subscribed: Arc<Mutex<HashSet<String>>> = Arc::default();
    let mut players = JoinSet::new();
    while let Some(text) = client.next_text().await {
        if link.stalled.load(std::sync::atomic::Ordering::Relaxed) {
            continue;
        }
        if text.trim() == "PING" {
            link.send(Outgoing::Text("PONG".into()));
            continue;
        }
        let Ok(request) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        let tokens: Vec<String> = request["assets_ids"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|token| token.as_str().map(str::to_owned))
            .collect();
        if request["operation"] == "unsubscribe" {
            let mut subscribed = lock(&subscribed);
            for token in &tokens {
                subscribed.remove(token);
            }
            continue;
        }
        let new: Vec<String> = {
            let mut subscribed = lock(&subscribed);
            tokens
                .into_iter()
                .filter(|token| subscribed.insert(token.clone()))
                .collect()
        };
        if !new.is_empty() {
            players.spawn(play(new, subscribed.clone(), link.clone(), shared.clone()));
        }
    }
}

/// The tokens an event is about.
fn tokens_of(event: &Value) -> Vec<&str> {
    let listed = event["price_changes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|change| change["asset_id"].as_str());
    event["asset_id"].as_str().into_iter().chain(listed).collect()
}

async fn play(tokens: Vec<String>, subscribed: Arc<Mutex<HashSet<String>>>, link: Link, shared: Arc<Shared>) {
    let recordings = StreamRecordings::get();
    let mut pass = Some(shared.stream.first_pass());
    while let Some(this) = pass {
        let still: Vec<&String> = tokens
            .iter()
            .filter(|token| lock(&subscribed).contains(*token))
            .collect();
        for token in still {
            let book = match recordings.polymarket_books.get(token) {
                Some(recorded) => recorded.clone(),
                None if listed(&shared, token) => {
                    json!({"event_type": "book", "asset_id": token, "market": "", "bids": [], "asks": [],
                        "timestamp": chrono_millis(), "hash": ""})
                }
                // A token Polymarket does not know: nothing at all.
                None => continue,
            };
            let frame = this.polymarket(&book);
            if !link.send(Outgoing::Data { frame, sid: None }) {
                return;
            }
        }
        let mut pace = Pace::default();
        let mut played = false;
        for (time, event) in &recordings.polymarket_events {
            if !tokens_of(event)
                .iter()
                .any(|token| tokens.iter().any(|mine| mine == token))
            {
                continue;
            }
            pace.until(*time, shared.stream.speed()).await;
            let still = tokens_of(event).iter().any(|token| lock(&subscribed).contains(*token));
            if !still {
                continue;
            }
            played = true;
            let frame = this.polymarket(event);
            if !link.send(Outgoing::Data { frame, sid: None }) {
                return;
            }
        }
        // A recording with nothing after its books is not looped.
        pass = this.next().filter(|_| played);
        if pass.is_some() {
            tokio::time::sleep(BETWEEN_PASSES).await;
        }
    }
}

/// Whether `token` is a CLOB token of a market of the served catalogue, listed alone or in an
/// event (Gamma lists them as a JSON-encoded array in `clobTokenIds`).
fn listed(shared: &Shared, token: &str) -> bool {
    let quoted = format!("\"{token}\"");
    let catalog = shared.catalog();
    let nested = catalog
        .data
        .polymarket_events
        .iter()
        .flat_map(|event| event["markets"].as_array().into_iter().flatten());
    catalog
        .data
        .polymarket_markets
        .iter()
        .chain(nested)
        .any(|market| market["clobTokenIds"].as_str().is_some_and(|ids| ids.contains(&quoted)))
}

fn chrono_millis() -> String {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis().to_string())
        .unwrap_or_default()
}
