//! The exchanges' WebSocket streams, replayed: Polymarket's CLOB market channel at
//! [`ReplayServer::polymarket_ws_url`] and Kalshi's WebSocket API v2 at
//! [`ReplayServer::kalshi_ws_url`], answering subscriptions as the exchanges do and playing the
//! recorded frames of `demo-data/depth/` (`ws-*`, plus the written frames of
//! `demo-data/depth/written/`) at a chosen speed, so that the real connectors
//! (`marketlens_connectors`) can be tested without the internet.
//!
//! - `polymarket`, `kalshi`: each exchange's endpoint and the players of its recordings.
//! - `socket`: one connection's writer (Kalshi's `seq` numbers, heartbeats, faults).
//! - `fault`: [`StreamFault`]s a test queues (dropped connection, sequence gap, malformed
//!   frame, stalled stream), each spent on one data frame of one exchange.
//! - `recordings`: the frames, built in; `pace`: waiting between them at the chosen speed;
//!   `passes`: playing them again and again, restamped, for the demo.
//!
//! The server records every message a client sends and every Kalshi handshake's headers, so
//! a test can check what a connector asked for and verify its signature, unless told to keep
//! no record (`ReplayServer::stop_recording_clients`, for the demo, which runs for days).

mod fault;
mod kalshi;
mod pace;
mod passes;
mod polymarket;
mod recordings;
mod socket;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use marketlens_domain::Exchange;

pub use fault::{MALFORMED_FRAME, StreamFault};

use crate::ReplayServer;
use crate::server::{Shared, lock};

/// The headers of Kalshi's signed handshake.
const KALSHI_HEADERS: [&str; 3] = [
    "KALSHI-ACCESS-KEY",
    "KALSHI-ACCESS-SIGNATURE",
    "KALSHI-ACCESS-TIMESTAMP",
];

/// The streams' share of the server's state.
#[derive(Debug)]
pub(crate) struct StreamState {
    faults: Mutex<fault::StreamFaults>,
    /// Every text message clients sent, with the exchange it was sent to.
    messages: Mutex<Vec<(Exchange, String)>>,
    /// Kalshi handshakes' `KALSHI-ACCESS-*` headers, in order.
    handshakes: Mutex<Vec<Vec<(String, String)>>>,
    /// The exchange of every connection accepted, in order.
    connections: Mutex<Vec<Exchange>>,
    /// How many times faster than recorded frames are played (infinite: at once).
    speed: Mutex<f64>,
    /// How often Kalshi's endpoint pings its clients.
    kalshi_heartbeat: Mutex<Duration>,
    /// Whether each subscription's recording is played again and again (`passes`).
    looping: Mutex<bool>,
}

impl Default for StreamState {
    fn default() -> StreamState {
        StreamState {
            faults: Mutex::default(),
            messages: Mutex::default(),
            handshakes: Mutex::default(),
            connections: Mutex::default(),
            speed: Mutex::new(1.0),
            kalshi_heartbeat: Mutex::new(Duration::from_secs(10)),
            looping: Mutex::new(false),
        }
    }
}

impl StreamState {
    pub(crate) fn next_fault(&self, exchange: Exchange) -> Option<StreamFault> {
        lock(&self.faults).next_frame(exchange)
    }

    pub(crate) fn speed(&self) -> f64 {
        *lock(&self.speed)
    }

    /// The first pass of a recording a subscription starts now.
    pub(crate) fn first_pass(&self) -> passes::Pass {
        passes::Pass::first(*lock(&self.looping))
    }
}

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/polymarket-ws/ws/market", get(polymarket_upgrade))
        .route("/kalshi/trade-api/ws/v2", get(kalshi_upgrade))
}

async fn polymarket_upgrade(State(shared): State<Arc<Shared>>, upgrade: WebSocketUpgrade) -> Response {
    shared.record(&shared.stream.connections, Exchange::Polymarket);
    upgrade.on_upgrade(move |socket| polymarket::serve(socket, shared))
}

async fn kalshi_upgrade(State(shared): State<Arc<Shared>>, headers: HeaderMap, upgrade: WebSocketUpgrade) -> Response {
    let signed: Vec<(String, String)> = KALSHI_HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(*name)?.to_str().ok()?;
            Some(((*name).to_owned(), value.to_owned()))
        })
        .collect();
    if signed.len() < KALSHI_HEADERS.len() {
        let body =
            axum::Json(serde_json::json!({"error": {"code": "unauthorized", "message": "authentication required"}}));
        return (StatusCode::UNAUTHORIZED, body).into_response();
    }
    shared.record(&shared.stream.handshakes, signed);
    shared.record(&shared.stream.connections, Exchange::Kalshi);
    let heartbeat = *lock(&shared.stream.kalshi_heartbeat);
    upgrade.on_upgrade(move |socket| kalshi::serve(socket, shared, heartbeat))
}

/// The streams' side of the test's handle.
impl ReplayServer {
    /// Polymarket's market channel: `ws://127.0.0.1:PORT/polymarket-ws/ws/market`.
    pub fn polymarket_ws_url(&self) -> String {
        format!("ws://{}/polymarket-ws/ws/market", self.address())
    }

    /// Kalshi's WebSocket API: `ws://127.0.0.1:PORT/kalshi/trade-api/ws/v2`.
    pub fn kalshi_ws_url(&self) -> String {
        format!("ws://{}/kalshi/trade-api/ws/v2", self.address())
    }

    /// Plays recorded frames `speed` times faster than recorded (1 by default;
    /// `f64::INFINITY` plays them at once). Applies to frames not yet sent.
    pub fn set_stream_speed(&self, speed: f64) {
        *lock(&self.shared().stream.speed) = speed;
    }

    /// Plays each subscription's recording again from its start whenever it ends, each
    /// frame stamped with the time it is sent and each trade's id marked with its pass: a
    /// stream that never goes quiet (the demo's). Applies to subscriptions made after.
    pub fn loop_streams(&self) {
        *lock(&self.shared().stream.looping) = true;
    }

    /// How often Kalshi's endpoint pings each client (10 s by default, as Kalshi does).
    pub fn set_kalshi_heartbeat(&self, every: Duration) {
        *lock(&self.shared().stream.kalshi_heartbeat) = every;
    }

    /// Queues `fault` for the data frame of `exchange`'s stream sent after `after_frames`
    /// more (books, snapshots, deltas, trades, tickers and price changes count; replies to
    /// commands do not).
    pub fn inject_stream(&self, exchange: Exchange, after_frames: usize, fault: StreamFault) {
        lock(&self.shared().stream.faults).push(exchange, after_frames, fault);
    }

    /// Every text message clients sent to `exchange`'s stream, in order.
    pub fn stream_messages(&self, exchange: Exchange) -> Vec<String> {
        lock(&self.shared().stream.messages)
            .iter()
            .filter(|(of, _)| *of == exchange)
            .map(|(_, text)| text.clone())
            .collect()
    }

    /// The `KALSHI-ACCESS-*` headers of every Kalshi handshake accepted, in order.
    pub fn kalshi_handshakes(&self) -> Vec<Vec<(String, String)>> {
        lock(&self.shared().stream.handshakes).clone()
    }

    /// How many stream connections `exchange`'s endpoint accepted.
    pub fn stream_connections(&self, exchange: Exchange) -> usize {
        lock(&self.shared().stream.connections)
            .iter()
            .filter(|of| **of == exchange)
            .count()
    }
}
