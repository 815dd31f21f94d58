//! The exchanges' live WebSocket connections: Polymarket's CLOB market channel and Kalshi's
//! WebSocket API v2, each a [`Connector`] that implements
//! `marketlens_domain::stream::LiveFeed` and sends `MarketUpdate`s to the channel it was
//! made with.
//!
//! This crate does the I/O the pure protocol sessions of `marketlens_exchanges::stream` leave
//! out, and nothing else: sockets (tokio-tungstenite, TLS by rustls), timers (heartbeats,
//! stall detection), reconnection with backoff, and Kalshi's signed handshake. What to send
//! and what a frame means is the session's.
//!
//! - `exchanges`: [`ExchangeFeeds`], one feed over both exchanges' connectors.
//! - `feed`: [`Connector`], the handle (`follow`/`unfollow` queue commands; dropping it
//!   stops the connections); `routes`: which connection carries each market (Polymarket
//!   bounds the tokens of one connection).
//! - `connection`: one connection's task: connect, subscribe, read, heartbeat, reconnect.
//! - `backoff`: exponential waits with jitter; `settings`: [`ConnectionSettings`].
//! - `kalshi_auth`: [`KalshiCredentials`], RSA-PSS signing of the handshake.
//! - `malformed`: unreadable frames counted and logged, rate-limited.
//! - `relay`: [`RelayFeed`], the connections shared by several nodes through Redis: only the
//!   holder of the store's sync lease connects, every node serves its own clients.
//!
//! Architecture invariant: a connector never fails its caller after it starts. A dropped,
//! closed or stalled connection is retried for as long as the handle lives; its markets are
//! reported `Interrupted` meanwhile, and each gets a whole book when it is live again. And a
//! connection never waits for the reader of its updates (`connection`).

mod backoff;
mod connection;
mod exchanges;
mod feed;
mod kalshi_auth;
mod malformed;
mod relay;
mod routes;
mod settings;

pub use exchanges::ExchangeFeeds;
pub use feed::{Connector, ConnectorError, KALSHI_URL, POLYMARKET_URL};
pub use kalshi_auth::{CredentialsError, KalshiCredentials, SIGNED_PATH};
pub use relay::{ConnectExchanges, RelayFeed, RelaySettings};
pub use settings::ConnectionSettings;
