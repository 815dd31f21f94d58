//! The real connectors against the replay server's WebSocket streams on a random port: book
//! orientation on every recorded frame, the recorded sequence in order, and recovery from each
//! fault the server injects; and the relay of a holder's connections through Redis.

mod kalshi;
mod polymarket;
mod relay;

use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

use marketlens_connectors::{ConnectionSettings, KalshiCredentials};
use marketlens_domain::Exchange;
use marketlens_domain::depth::Level;
use marketlens_domain::stream::{FeedState, MarketChange, MarketUpdate, StreamMarket};
use rsa::pkcs8::{EncodePrivateKey, LineEnding};
use rsa::{Generate, PrivateKey};
use serde_json::Value;
use tokio::sync::mpsc;
use uuid::Uuid;

/// Timings short enough for tests; the stall bound is long enough for a loaded machine.
fn settings() -> ConnectionSettings {
    ConnectionSettings {
        connect_timeout: Duration::from_secs(5),
        stall_after: Duration::from_secs(3),
        heartbeat_every: Duration::from_millis(200),
        reconnect_initial: Duration::from_millis(20),
        reconnect_max: Duration::from_millis(200),
        ..ConnectionSettings::default()
    }
}

/// One RSA key for the whole test binary (making one takes a while), and credentials with it.
fn key() -> &'static PrivateKey {
    static KEY: OnceLock<PrivateKey> = OnceLock::new();
    KEY.get_or_init(PrivateKey::generate)
}

fn credentials() -> KalshiCredentials {
    let pem = key().to_pkcs8_pem(LineEnding::LF).unwrap();
    KalshiCredentials::from_pem("test-key-id", &pem).unwrap()
}

fn market(exchange: Exchange, external_id: &str, outcomes: [&str; 2], tokens: Vec<String>) -> StreamMarket {
    StreamMarket {
        id: Uuid::new_v5(&Uuid::NAMESPACE_OID, external_id.as_bytes()),
        exchange,
        external_id: external_id.to_owned(),
        outcomes: outcomes.iter().map(|outcome| (*outcome).to_owned()).collect(),
        tokens,
    }
}

/// A recorded file of `demo-data/depth/`.
fn recorded(file: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../demo-data/depth")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn recorded_lines(file: &str) -> Vec<Value> {
    recorded(file)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// Updates up to and including the first that `wanted` accepts; fails after 10 s.
async fn until(
    updates: &mut mpsc::Receiver<MarketUpdate>,
    wanted: impl Fn(&MarketUpdate) -> bool,
) -> Vec<MarketUpdate> {
    let mut seen = Vec::new();
    let waiting = async {
        while let Some(update) = updates.recv().await {
            let done = wanted(&update);
            seen.push(update);
            if done {
                return;
            }
        }
        panic!("the connector stopped");
    };
    if tokio::time::timeout(Duration::from_secs(10), waiting).await.is_err() {
        panic!("nothing wanted came within 10 s; seen: {seen:#?}");
    }
    seen
}

fn is_book(update: &MarketUpdate) -> bool {
    matches!(update.change, MarketChange::Book { .. })
}

fn is_state(state: FeedState) -> impl Fn(&MarketUpdate) -> bool {
    move |update| update.change == MarketChange::State { state }
}

/// The kinds of `updates`, for asserting their order.
fn kinds(updates: &[MarketUpdate]) -> Vec<&'static str> {
    updates
        .iter()
        .map(|update| match &update.change {
            MarketChange::Book { .. } => "book",
            MarketChange::Levels { .. } => "levels",
            MarketChange::Price(_) => "price",
            MarketChange::Trade(_) => "trade",
            MarketChange::State { state: FeedState::Live } => "live",
            MarketChange::State {
                state: FeedState::Interrupted,
            } => "interrupted",
        })
        .collect()
}

fn level(price: f64, size: f64) -> Level {
    Level { price, size }
}

/// Waits until `condition` holds (server-side effects of a connector's messages).
async fn eventually(what: &str, condition: impl Fn() -> bool) {
    for _ in 0..200 {
        if condition() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("{what}: not within 5 s");
}
