//! Live market data over a WebSocket (`GET /api/v1/stream`): clients subscribe to markets by
//! their Marketlens ids and receive each market's `book`, then its `levels`, `price`, `trade`
//! and `state` messages, numbered per subscription, with a `heartbeat` every few seconds.
//!
//! - [`hub`]: one per node, between the node's [`LiveFeed`](marketlens_domain::stream::LiveFeed)
//!   and its clients: follows markets while they have subscribers, keeps their books, fans out.
//! - [`outbox`]: a client's bounded queue; a client that falls a whole queue behind is closed.
//! - [`connection`]: one WebSocket: its key, its subscriptions and their minutes, its writer.
//! - [`subscriptions`]: when each subscription's next minute starts (1 credit per market per
//!   started minute, charged through [`crate::billing`] as each minute starts).
//! - [`slots`]: the stream connections each account holds, bounded by its tier.
//! - [`markets`]: what turns a stored market into the market a feed follows.
//! - [`messages`]: the JSON both ways.
//!
//! It does not reach the exchanges itself: a [`LiveFeed`](marketlens_domain::stream::LiveFeed)
//! does, in `marketlens_exchanges`, or relays another node's.

pub mod connection;
pub mod hub;
pub mod markets;
pub mod messages;
pub mod outbox;
pub mod slots;
pub mod subscriptions;

use marketlens_domain::rate_limit::StreamTierTable;
use std::time::Duration;

pub use hub::{FeedOrigin, StreamHub};
pub use markets::StreamMarkets;

/// What the stream takes from configuration.
#[derive(Debug, Clone)]
pub struct StreamSettings {
    /// How long a subscription's "minute" lasts: the period each credit pays for.
    pub billing_period: Duration,
    /// How often a `heartbeat` is sent.
    pub heartbeat_interval: Duration,
    /// Messages queued for a client, at most, before it is closed as too slow.
    pub outbox_capacity: usize,
    /// How long a connection opened without an `Authorization` header may take to send its
    /// `auth` message.
    pub auth_timeout: Duration,
    /// Connections per account and subscriptions per connection, per tier.
    pub limits: StreamTierTable,
}

impl Default for StreamSettings {
    fn default() -> Self {
        StreamSettings {
            billing_period: Duration::from_secs(60),
            heartbeat_interval: Duration::from_secs(5),
            outbox_capacity: 1024,
            auth_timeout: Duration::from_secs(10),
            limits: StreamTierTable::default(),
        }
    }
}
