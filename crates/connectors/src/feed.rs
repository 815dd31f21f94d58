//! The handle the API holds: a [`LiveFeed`] whose calls queue commands for the connection's
//! task, so that `follow` and `unfollow` never wait for the exchange. Dropping the handle
//! stops the task and closes the connection.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use marketlens_domain::stream::{LiveFeed, MarketUpdate, StreamMarket};
use marketlens_exchanges::stream::{KalshiSession, PolymarketSession};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::connection::{Connection, Handshake};
use crate::kalshi_auth::KalshiCredentials;
use crate::settings::ConnectionSettings;

/// Polymarket's CLOB market channel.
pub const POLYMARKET_URL: &str = "wss://ws-subscriptions-clob.polymarket.com/ws/market";
/// Kalshi's WebSocket API v2.
pub const KALSHI_URL: &str = "wss://api.elections.kalshi.com/trade-api/ws/v2";

pub(crate) enum Command {
    Follow(StreamMarket),
    Unfollow(Uuid),
}

/// Counts a connector keeps for tests and health checks (the `metrics` counters say the same
/// to `/metrics`).
#[derive(Debug, Default)]
pub struct ConnectorStats {
    /// Connections opened so far.
    pub connections: AtomicU64,
    /// Frames skipped because they could not be read.
    pub malformed_frames: AtomicU64,
}

/// Why a connector cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ConnectorError {
    #[error(
        "Kalshi's WebSocket API requires an API key: configure a Kalshi key id and the path of its private key (PEM)"
    )]
    KalshiCredentialsMissing,
}

/// One exchange connection, followed markets and all.
pub struct Connector {
    commands: mpsc::UnboundedSender<Command>,
    stats: Arc<ConnectorStats>,
    task: JoinHandle<()>,
}

impl Connector {
    /// Polymarket's market channel at `url` ([`POLYMARKET_URL`] in production), sending
    /// updates to `updates`. Must be called within a Tokio runtime.
    pub fn polymarket(url: &str, updates: mpsc::Sender<MarketUpdate>, settings: ConnectionSettings) -> Connector {
        Connector::start(PolymarketSession::new(), url, Box::new(Ok), updates, settings)
    }

    /// Kalshi's WebSocket API at `url` ([`KALSHI_URL`] in production), every connection signed
    /// with `credentials`. Refused without credentials: Kalshi's order book channel requires
    /// them. Must be called within a Tokio runtime.
    pub fn kalshi(
        url: &str,
        credentials: Option<KalshiCredentials>,
        updates: mpsc::Sender<MarketUpdate>,
        settings: ConnectionSettings,
    ) -> Result<Connector, ConnectorError> {
        let credentials = credentials.ok_or(ConnectorError::KalshiCredentialsMissing)?;
        let handshake: Handshake = Box::new(move |mut request| {
            let headers = credentials
                .headers(chrono::Utc::now().timestamp_millis())
                .map_err(|error| error.to_string())?;
            for (name, value) in headers {
                let value = value.parse().map_err(|_| format!("{name} is not a header value"))?;
                request.headers_mut().insert(name, value);
            }
            Ok(request)
        });
        Ok(Connector::start(
            KalshiSession::new(),
            url,
            handshake,
            updates,
            settings,
        ))
    }

    fn start<S: marketlens_exchanges::stream::StreamSession + Sync + 'static>(
        session: S,
        url: &str,
        handshake: Handshake,
        updates: mpsc::Sender<MarketUpdate>,
        settings: ConnectionSettings,
    ) -> Connector {
        let (commands, receiver) = mpsc::unbounded_channel();
        let stats = Arc::new(ConnectorStats::default());
        let connection = Connection {
            session,
            url: url.to_owned(),
            handshake,
            commands: receiver,
            updates,
            settings,
            stats: stats.clone(),
        };
        Connector {
            commands,
            stats,
            task: tokio::spawn(connection.run()),
        }
    }

    pub fn stats(&self) -> &ConnectorStats {
        &self.stats
    }

    /// Frames skipped so far because they could not be read.
    pub fn malformed_frames(&self) -> u64 {
        self.stats.malformed_frames.load(Ordering::Relaxed)
    }

    /// Connections opened so far.
    pub fn connections(&self) -> u64 {
        self.stats.connections.load(Ordering::Relaxed)
    }
}

impl LiveFeed for Connector {
    fn follow(&self, market: &StreamMarket) {
        // The task ends only when this handle is dropped, so the send cannot fail before.
        self.commands.send(Command::Follow(market.clone())).ok();
    }

    fn unfollow(&self, market: Uuid) {
        self.commands.send(Command::Unfollow(market)).ok();
    }
}

impl Drop for Connector {
    fn drop(&mut self) {
        self.task.abort();
    }
}
