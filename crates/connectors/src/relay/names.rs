//! The names the relay uses in Redis, all under one prefix (`--redis-key-prefix`), so that
//! deployments (and tests) sharing one Redis never hear each other.

use uuid::Uuid;

#[derive(Debug, Clone)]
pub(super) struct Names {
    prefix: String,
}

impl Names {
    pub(super) fn new(prefix: &str) -> Names {
        Names {
            prefix: format!("{prefix}:stream"),
        }
    }

    /// The channel of one market's updates, published by the lease holder.
    pub(super) fn market_channel(&self, market: Uuid) -> String {
        format!("{}:market:{market}", self.prefix)
    }

    /// The channel of one node's own whole books: those the holder sends a node that starts
    /// following a market already followed, or asks for one again.
    pub(super) fn node_channel(&self, node: &str) -> String {
        format!("{}:node:{node}", self.prefix)
    }

    /// The holder's heartbeat, every refresh: a node that stops hearing it reports its
    /// markets interrupted, and asks for their books again when it hears it back.
    pub(super) fn heartbeat(&self) -> String {
        format!("{}:holder", self.prefix)
    }

    /// The channel on which nodes tell the holder what they follow, as it changes.
    pub(super) fn announcements(&self) -> String {
        format!("{}:follows", self.prefix)
    }

    /// A node's follows: a hash of market id → the market (JSON), expiring unless renewed.
    pub(super) fn follows(&self, node: &str) -> String {
        format!("{}:follows:{node}", self.prefix)
    }

    /// The live nodes: a sorted set of node ids, each scored with the time (milliseconds
    /// since the epoch) its follows expire.
    pub(super) fn nodes(&self) -> String {
        format!("{}:nodes", self.prefix)
    }
}
