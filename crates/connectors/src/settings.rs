//! How a connection is kept: timings with production defaults, shortened by tests.

use std::time::Duration;

/// Timings of one exchange connection.
#[derive(Debug, Clone, PartialEq)]
pub struct ConnectionSettings {
    /// A connection attempt (TCP, TLS, WebSocket handshake) that takes longer has failed.
    pub connect_timeout: Duration,
    /// No frame at all for this long (Kalshi pings every 10 s; Polymarket answers each `PING`)
    /// means the stream stalled: the connection is dropped and made again.
    pub stall_after: Duration,
    /// How often the application-level heartbeat is sent (Polymarket wants `PING` every 10 s).
    pub heartbeat_every: Duration,
    /// The first wait before reconnecting; each failed attempt doubles it, up to
    /// `reconnect_max`, and each wait is drawn at random between half and all of it, so that
    /// nodes do not reconnect in step.
    pub reconnect_initial: Duration,
    pub reconnect_max: Duration,
    /// The most tokens one Polymarket connection follows (two per market); more markets open
    /// more connections.
    pub polymarket_tokens_per_connection: usize,
}

impl Default for ConnectionSettings {
    fn default() -> ConnectionSettings {
        ConnectionSettings {
            connect_timeout: Duration::from_secs(10),
            stall_after: Duration::from_secs(30),
            heartbeat_every: Duration::from_secs(10),
            reconnect_initial: Duration::from_millis(500),
            reconnect_max: Duration::from_secs(30),
            polymarket_tokens_per_connection: 500,
        }
    }
}
