//! The handle the API holds: a [`LiveFeed`] whose calls queue commands for a connection's
//! task, so that `follow` and `unfollow` never wait for the exchange. Dropping the handle
//! stops the tasks and closes the connections.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use marketlens_domain::stream::{LiveFeed, MarketUpdate, StreamMarket};
use marketlens_exchanges::stream::{KalshiSession, PolymarketSession, StreamSession};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use uuid::Uuid;

use crate::connection::{Connection, Handshake};
use crate::kalshi_auth::KalshiCredentials;
use crate::routes::{Change, Routes};
use crate::settings::ConnectionSettings;

/// Polymarket's CLOB market channel.
pub const POLYMARKET_URL: &str = "wss://ws-subscriptions-clob.polymarket.com/ws/market";
/// Kalshi's WebSocket API v2.
pub const KALSHI_URL: &str = "wss://api.elections.kalshi.com/trade-api/ws/v2";

pub(crate) enum Command {
    Follow(StreamMarket),
    Unfollow(Uuid),
}

/// Counts a connector keeps for tests and health checks, shared by its connections (the
/// `marketlens_stream_connections_total` and `marketlens_stream_malformed_frames_total`
/// counters say the same to `/metrics`).
#[derive(Debug, Default)]
pub(crate) struct ConnectorStats {
    pub(crate) connections: AtomicU64,
    pub(crate) malformed_frames: AtomicU64,
}

/// Why a connector cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ConnectorError {
    #[error(
        "Kalshi's WebSocket API requires an API key: configure a Kalshi key id and the path of its private key (PEM)"
    )]
    KalshiCredentialsMissing,
}

/// One exchange's connections (one for Kalshi; as many as Polymarket's per-connection bound
/// needs) and the markets each follows.
pub struct Connector {
    /// Starts one more connection.
    open: Box<dyn Fn() -> Line + Send + Sync>,
    lines: Mutex<Lines>,
    stats: Arc<ConnectorStats>,
}

/// The connections and which one carries each market. A std mutex: held for no `.await`.
struct Lines {
    routes: Routes,
    connections: Vec<Line>,
}

/// One connection's task and how to reach it.
struct Line {
    commands: mpsc::UnboundedSender<Command>,
    task: JoinHandle<()>,
}

impl Connector {
    /// Polymarket's market channel at `url` ([`POLYMARKET_URL`] in production), sending
    /// updates to `updates`; a connection per `settings.polymarket_tokens_per_connection`
    /// tokens followed. Must be called within a Tokio runtime.
    pub fn polymarket(url: &str, updates: mpsc::Sender<MarketUpdate>, settings: ConnectionSettings) -> Connector {
        let capacity = settings.polymarket_tokens_per_connection;
        let stats = Arc::new(ConnectorStats::default());
        let url = url.to_owned();
        let line_stats = stats.clone();
        let open = move || {
            Line::start(
                PolymarketSession::new(),
                &url,
                Box::new(Ok),
                &updates,
                &settings,
                &line_stats,
            )
        };
        Connector::new(Box::new(open), capacity, stats)
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
        let stats = Arc::new(ConnectorStats::default());
        let url = url.to_owned();
        let line_stats = stats.clone();
        let open = move || {
            let credentials = credentials.clone();
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
            Line::start(KalshiSession::new(), &url, handshake, &updates, &settings, &line_stats)
        };
        // Kalshi documents no bound per connection: one carries every market.
        Ok(Connector::new(Box::new(open), usize::MAX, stats))
    }

    fn new(open: Box<dyn Fn() -> Line + Send + Sync>, capacity: usize, stats: Arc<ConnectorStats>) -> Connector {
        Connector {
            open,
            lines: Mutex::new(Lines {
                routes: Routes::new(capacity),
                connections: Vec::new(),
            }),
            stats,
        }
    }

    fn lines(&self) -> MutexGuard<'_, Lines> {
        self.lines.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Frames skipped so far because they could not be read.
    pub fn malformed_frames(&self) -> u64 {
        self.stats.malformed_frames.load(Ordering::Relaxed)
    }

    /// Connections opened so far (reconnections included).
    pub fn connections(&self) -> u64 {
        self.stats.connections.load(Ordering::Relaxed)
    }
}

impl Line {
    fn start<S: StreamSession + Sync + 'static>(
        session: S,
        url: &str,
        handshake: Handshake,
        updates: &mpsc::Sender<MarketUpdate>,
        settings: &ConnectionSettings,
        stats: &Arc<ConnectorStats>,
    ) -> Line {
        let (commands, receiver) = mpsc::unbounded_channel();
        let connection = Connection {
            session,
            url: url.to_owned(),
            handshake,
            commands: receiver,
            updates: updates.clone(),
            settings: settings.clone(),
            stats: stats.clone(),
        };
        Line {
            commands,
            task: tokio::spawn(connection.run()),
        }
    }
}

impl LiveFeed for Connector {
    fn follow(&self, market: &StreamMarket) {
        let weight = market.tokens.len().max(1);
        let mut lines = self.lines();
        let Change::Tell(index) = lines.routes.follow(market.id, weight) else {
            return;
        };
        while lines.connections.len() <= index {
            let line = (self.open)();
            lines.connections.push(line);
        }
        // A connection's task ends only when this handle is dropped, so the send cannot fail.
        lines.connections[index]
            .commands
            .send(Command::Follow(market.clone()))
            .ok();
    }

    fn unfollow(&self, market: Uuid) {
        let lines = &mut *self.lines();
        if let Change::Tell(index) = lines.routes.unfollow(market) {
            lines.connections[index].commands.send(Command::Unfollow(market)).ok();
        }
    }
}

impl Drop for Connector {
    fn drop(&mut self) {
        for line in &self.lines().connections {
            line.task.abort();
        }
    }
}
