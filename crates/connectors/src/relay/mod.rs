//! The exchange connections shared by several serving nodes through Redis: only the node
//! holding the store's sync lease connects to the exchanges, and every node (the holder too)
//! serves its own stream clients from what the holder publishes.
//!
//! Why: each exchange connection is a subscription the exchange meters and a stream of frames
//! to read; N nodes each holding their own would multiply both by N, and each would see the
//! exchange at a slightly different moment. One connected node, and Redis pub/sub (already
//! shared by the nodes for rate limits) to carry its updates, keeps one view of each market.
//!
//! - [`RelayFeed`]: the `LiveFeed` a node's hub is given; it counts follows and hands them to
//!   the node's task.
//! - `node`: every node's task. It subscribes to the channel of each market its clients follow
//!   and to its own channel, forwards what arrives to the hub (from a whole book on, per
//!   market), keeps its follows in Redis (renewed; they expire with a dead node) and announces
//!   each change to the holder.
//! - `leader`: the task that runs while this node holds the lease: it makes the exchange feed,
//!   follows the union of every live node's follows, publishes each update on its market's
//!   channel, and keeps each market's latest book to send a node that starts following it.
//! - `names`: the channels and keys, under one prefix; `wire`: the announcements.
//!
//! When the lease moves (its holder stopped or died), the new holder reads every live node's
//! follows and follows them on new exchange connections, whose first whole books reach every
//! node; its clients go on with a `book`, so a client that missed updates meanwhile is told.
//! A node that loses Redis reports its markets interrupted, connects again and asks for whole
//! books. Delivery is at most once (pub/sub): what a node could have missed is covered by the
//! books it asks for after reconnecting, and by the follows it rewrites every refresh.

mod leader;
mod names;
mod node;
mod wire;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use marketlens_domain::stream::{LiveFeed, MarketUpdate, StreamMarket};
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSub};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use uuid::Uuid;

use crate::feed::Command;
use names::Names;

/// Makes the exchange feed the lease holder follows markets on, sending its updates to the
/// given channel; called each time this node takes the lease, and dropped when it loses it
/// (which closes its connections).
pub type ConnectExchanges = Box<dyn Fn(mpsc::Sender<MarketUpdate>) -> Arc<dyn LiveFeed> + Send + Sync>;

/// The relay's timings and names.
#[derive(Debug, Clone)]
pub struct RelaySettings {
    /// The prefix of every channel and key (deployments sharing a Redis use their own).
    pub prefix: String,
    /// How often a node renews its follows in Redis, and the holder reads every node's.
    pub refresh_every: Duration,
    /// How long a node's follows outlive its last renewal: a dead node's are dropped after
    /// this.
    pub follows_expire_after: Duration,
}

/// A node's live feed through Redis. Dropping it stops the node's task and the holder's.
pub struct RelayFeed {
    commands: mpsc::UnboundedSender<Command>,
    leader: JoinHandle<()>,
}

impl RelayFeed {
    /// The relay on the Redis at `redis_url`, sending the updates of the markets this node
    /// follows to `updates`; while `leading` tells the deadline of this node's sync lease (and
    /// until that deadline passes without a renewal), it also connects to the exchanges with
    /// `connect` and publishes for every node. Must be called
    /// within a Tokio runtime. Only the URL is checked here; Redis is connected (and
    /// reconnected) in the background.
    pub fn start(
        redis_url: &str,
        settings: RelaySettings,
        connect: ConnectExchanges,
        leading: watch::Receiver<Option<Instant>>,
        updates: mpsc::Sender<MarketUpdate>,
    ) -> Result<RelayFeed, redis::RedisError> {
        let client = redis::Client::open(redis_url)?;
        let names = Names::new(&settings.prefix);
        let (commands, received) = mpsc::unbounded_channel();
        let node = node::NodeTask::new(client.clone(), names.clone(), settings.clone(), updates);
        tokio::spawn(node.run(received));
        let leader = tokio::spawn(leader::lead(client, names, settings, connect, leading));
        Ok(RelayFeed { commands, leader })
    }
}

impl LiveFeed for RelayFeed {
    fn follow(&self, market: &StreamMarket) {
        // Fails only once the node's task has ended, with the runtime.
        let _ = self.commands.send(Command::Follow(market.clone()));
    }

    fn unfollow(&self, market: Uuid) {
        let _ = self.commands.send(Command::Unfollow(market));
    }
}

impl Drop for RelayFeed {
    fn drop(&mut self) {
        self.leader.abort();
    }
}

/// The longest a connection to Redis may take to be made, or a command on it to be answered:
/// past it the connection counts as lost.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A connection for commands and one for pub/sub, both made within [`CONNECT_TIMEOUT`].
async fn connect_redis(client: &redis::Client) -> redis::RedisResult<(ConnectionManager, PubSub)> {
    let config = ConnectionManagerConfig::new()
        .set_connection_timeout(Some(CONNECT_TIMEOUT))
        .set_response_timeout(Some(CONNECT_TIMEOUT));
    within(async {
        let redis = ConnectionManager::new_with_config(client.clone(), config).await?;
        let pubsub = client.get_async_pubsub().await?;
        Ok((redis, pubsub))
    })
    .await
}

/// `call`, failing as a timed-out connection if it takes longer than [`CONNECT_TIMEOUT`] (a
/// pub/sub connection has no response timeout of its own).
async fn within<T>(call: impl Future<Output = redis::RedisResult<T>>) -> redis::RedisResult<T> {
    tokio::time::timeout(CONNECT_TIMEOUT, call)
        .await
        .map_err(|_| redis::RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut)))?
}

/// `value` as JSON, or `None` (logged) if it cannot be written: nothing empty is published.
fn to_json(value: &impl serde::Serialize) -> Option<String> {
    serde_json::to_string(value)
        .inspect_err(|error| tracing::error!(%error, "a stream relay message could not be written; it is skipped"))
        .ok()
}

/// Milliseconds since the epoch, for the nodes' expiry scores (nodes' clocks need agree only
/// to well within `follows_expire_after`).
fn now_millis() -> i64 {
    chrono::Utc::now().timestamp_millis()
}
