//! Every node's side of the relay: what its hub follows, kept in Redis for the lease holder,
//! and the holder's updates of those markets, forwarded to the hub.
//!
//! A market is subscribed (its channel) before it is announced, so that nothing the holder
//! publishes after hearing of it is missed; until its whole book arrives (on the market's
//! channel, or on this node's own), only its states are forwarded, so the hub never sees
//! levels it cannot apply. The follows are written at once and rewritten whole every refresh
//! (with their expiry), so that a lost announcement or a Redis restart heals itself, and a
//! dead node's follows expire. A node that loses Redis reports its markets interrupted,
//! connects again after a backoff, and asks for each market's whole book again. So does a
//! node that stops hearing the holder's heartbeat for the lease's duration (the holder died
//! and no node took the lease yet): interrupted at once, whole books once a holder is heard;
//! after twice that, it connects again (its subscription may be dead without saying so). A
//! subscription command not answered in time counts as losing Redis too.
//!
//! Like an exchange connection, the node never waits for the hub: on a full channel it drops
//! the market's updates and asks the holder for the whole book again, reporting the market
//! interrupted just before the book it gets.

use std::collections::HashMap;

use futures::StreamExt;
use marketlens_domain::stream::{MarketChange, MarketUpdate, StreamMarket};
use redis::AsyncCommands;
use redis::aio::{ConnectionManager, PubSubSink};
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;
use tokio::time::Instant;
use uuid::Uuid;

use super::names::Names;
use super::wire::Announcement;
use super::{CONNECT_TIMEOUT, RelaySettings, connect_redis, now_millis, to_json, within};
use crate::backoff::Backoff;
use crate::feed::Command;
use crate::settings::ConnectionSettings;

/// A market the node's hub follows.
struct Followed {
    market: StreamMarket,
    /// How many times the hub follows it.
    count: usize,
    /// No whole book since the subscription (or since updates were dropped): only states are
    /// forwarded until one comes.
    awaiting_book: bool,
    /// Updates were dropped: the book that ends the wait is preceded by an interruption.
    dropped: bool,
}

/// Why a connected run ended.
enum Ended {
    /// The feed was dropped, or the hub stopped reading: stop for good.
    Shutdown,
    /// Redis went away: report the markets interrupted and connect again.
    Lost(String),
    /// The holder has been silent for twice the lease (the markets were reported interrupted
    /// already): connect again, in case the subscription died without a word.
    Silent,
}

pub(super) struct NodeTask {
    client: redis::Client,
    names: Names,
    settings: RelaySettings,
    /// This node's id in Redis: random per process start.
    node: String,
    updates: mpsc::Sender<MarketUpdate>,
    followed: HashMap<Uuid, Followed>,
    /// When the holder's heartbeat was last heard (or this connection to Redis was made).
    holder_heard: Instant,
    /// The holder has not been heard for the lease's duration: the markets were reported
    /// interrupted.
    holder_silent: bool,
}

impl NodeTask {
    pub(super) fn new(
        client: redis::Client,
        names: Names,
        settings: RelaySettings,
        updates: mpsc::Sender<MarketUpdate>,
    ) -> NodeTask {
        NodeTask {
            client,
            names,
            settings,
            node: Uuid::new_v4().simple().to_string(),
            updates,
            followed: HashMap::new(),
            holder_heard: Instant::now(),
            holder_silent: false,
        }
    }

    /// Runs until the feed is dropped (`commands` closes) or the hub stops reading.
    pub(super) async fn run(mut self, mut commands: mpsc::UnboundedReceiver<Command>) {
        let mut backoff = Backoff::new(&ConnectionSettings::default());
        loop {
            match self.connected(&mut commands, &mut backoff).await {
                Ended::Shutdown => break,
                Ended::Lost(reason) => {
                    tracing::warn!(%reason, "the stream relay lost Redis; its markets are interrupted until it is back");
                    for id in self.followed.keys().copied().collect::<Vec<_>>() {
                        self.interrupt(id);
                    }
                }
                Ended::Silent => {
                    tracing::debug!("no stream relay holder heard for twice the lease: connecting to Redis again");
                }
            }
            let pause = tokio::time::sleep(backoff.next_wait());
            tokio::pin!(pause);
            loop {
                tokio::select! {
                    () = &mut pause => break,
                    command = commands.recv() => match command {
                        None => return self.leave().await,
                        // Told to the holder once Redis is back.
                        Some(Command::Follow(market)) => {
                            if self.count_follow(&market) {
                                self.interrupt(market.id);
                            }
                        }
                        Some(Command::Unfollow(market)) => {
                            self.count_unfollow(market);
                        }
                    },
                }
            }
        }
        self.leave().await;
    }

    /// One connection to Redis, from subscribing everything followed to its loss.
    async fn connected(&mut self, commands: &mut mpsc::UnboundedReceiver<Command>, backoff: &mut Backoff) -> Ended {
        let (mut redis, pubsub) = match connect_redis(&self.client).await {
            Ok(connected) => connected,
            Err(error) => return Ended::Lost(error.to_string()),
        };
        let (mut sink, mut messages) = pubsub.split();
        let resubscribed = async {
            let mut channels = vec![self.names.node_channel(&self.node), self.names.heartbeat()];
            channels.extend(self.followed.keys().map(|id| self.names.market_channel(*id)));
            within(sink.subscribe(channels)).await?;
            self.register(&mut redis).await?;
            // Whatever was forwarded before, each market starts again from a whole book.
            for followed in self.followed.values_mut() {
                followed.awaiting_book = true;
            }
            let markets: Vec<StreamMarket> = self.followed.values().map(|followed| followed.market.clone()).collect();
            for market in markets {
                let node = self.node.clone();
                self.announce(&mut redis, &Announcement::Resync { node, market })
                    .await?;
            }
            Ok::<_, redis::RedisError>(())
        };
        if let Err(error) = resubscribed.await {
            return Ended::Lost(error.to_string());
        }
        backoff.reset();
        // A silence already reported stays so until the holder is heard.
        self.holder_heard = Instant::now();
        let mut refresh = tokio::time::interval(self.settings.refresh_every);
        loop {
            let step = tokio::select! {
                command = commands.recv() => match command {
                    None => return Ended::Shutdown,
                    Some(command) => self.command(command, &mut sink, &mut redis).await,
                },
                message = messages.next() => match message {
                    None => return Ended::Lost("the subscription closed".into()),
                    Some(message) if message.get_channel_name() == self.names.heartbeat() => {
                        self.heard_holder(&mut redis).await
                    }
                    Some(message) => match self.deliver(&message) {
                        Delivered::Forwarded => Ok(()),
                        Delivered::HubGone => return Ended::Shutdown,
                        Delivered::Dropped(market) => {
                            let node = self.node.clone();
                            self.announce(&mut redis, &Announcement::Resync { node, market }).await
                        }
                    },
                },
                _ = refresh.tick() => {
                    if self.check_holder() {
                        return Ended::Silent;
                    }
                    self.register(&mut redis).await
                }
            };
            if let Err(error) = step {
                return Ended::Lost(error.to_string());
            }
        }
    }

    /// The holder is heard: after a silence, the whole book of each market still waiting for
    /// one is asked for again (a new holder's first books may have come already).
    async fn heard_holder(&mut self, redis: &mut ConnectionManager) -> redis::RedisResult<()> {
        self.holder_heard = Instant::now();
        if !std::mem::take(&mut self.holder_silent) {
            return Ok(());
        }
        let markets: Vec<StreamMarket> = self
            .followed
            .values()
            .filter(|followed| followed.awaiting_book)
            .map(|followed| followed.market.clone())
            .collect();
        for market in markets {
            let node = self.node.clone();
            self.announce(redis, &Announcement::Resync { node, market }).await?;
        }
        Ok(())
    }

    /// Reports every market interrupted, to wait for a whole book, once the holder has been
    /// silent for the lease's duration; true once it has been for twice that (on this
    /// connection), to connect again.
    fn check_holder(&mut self) -> bool {
        let silence = self.holder_heard.elapsed();
        if silence >= self.settings.follows_expire_after * 2 {
            return true;
        }
        if self.holder_silent || silence < self.settings.follows_expire_after {
            return false;
        }
        self.holder_silent = true;
        if !self.followed.is_empty() {
            tracing::warn!("no node is connected to the exchanges for the live stream: its markets are interrupted");
        }
        for followed in self.followed.values_mut() {
            followed.awaiting_book = true;
        }
        for id in self.followed.keys().copied().collect::<Vec<_>>() {
            self.interrupt(id);
        }
        false
    }

    /// Subscribes or unsubscribes a market on its first follow or last unfollow, and tells
    /// Redis and the holder.
    async fn command(
        &mut self,
        command: Command,
        sink: &mut PubSubSink,
        redis: &mut ConnectionManager,
    ) -> redis::RedisResult<()> {
        let node = self.node.clone();
        match command {
            Command::Follow(market) => {
                if !self.count_follow(&market) {
                    return Ok(());
                }
                within(sink.subscribe(self.names.market_channel(market.id))).await?;
                if let Some(json) = to_json(&market) {
                    // With its expiry, at once: a node killed before its next renewal leaves
                    // no key behind.
                    let key = self.names.follows(&node);
                    let () = redis::pipe()
                        .atomic()
                        .hset(&key, market.id.to_string(), json)
                        .ignore()
                        .pexpire(&key, self.expire_after_millis())
                        .ignore()
                        .query_async(redis)
                        .await?;
                }
                self.announce(redis, &Announcement::Follow { node, market }).await
            }
            Command::Unfollow(market) => {
                if !self.count_unfollow(market) {
                    return Ok(());
                }
                within(sink.unsubscribe(self.names.market_channel(market))).await?;
                let () = redis.hdel(self.names.follows(&node), market.to_string()).await?;
                self.announce(redis, &Announcement::Unfollow { node, market }).await
            }
        }
    }

    /// Counts a follow; true on the market's first.
    fn count_follow(&mut self, market: &StreamMarket) -> bool {
        let followed = self.followed.entry(market.id).or_insert_with(|| Followed {
            market: market.clone(),
            count: 0,
            awaiting_book: true,
            dropped: false,
        });
        followed.count += 1;
        followed.count == 1
    }

    /// Counts an unfollow; true on the market's last.
    fn count_unfollow(&mut self, market: Uuid) -> bool {
        let Some(followed) = self.followed.get_mut(&market) else {
            return false;
        };
        followed.count -= 1;
        if followed.count > 0 {
            return false;
        }
        self.followed.remove(&market);
        true
    }

    /// Hands a published update to the hub, if the node follows its market and it may pass.
    fn deliver(&mut self, message: &redis::Msg) -> Delivered {
        let update: MarketUpdate = match serde_json::from_slice(message.get_payload_bytes()) {
            Ok(update) => update,
            Err(error) => {
                tracing::warn!(%error, channel = message.get_channel_name(), "an unreadable relayed update was skipped");
                return Delivered::Forwarded;
            }
        };
        let Some(followed) = self.followed.get_mut(&update.market) else {
            return Delivered::Forwarded;
        };
        let is_book = matches!(update.change, MarketChange::Book { .. });
        if followed.awaiting_book && !is_book && !matches!(update.change, MarketChange::State { .. }) {
            return Delivered::Forwarded;
        }
        if is_book && std::mem::take(&mut followed.dropped) {
            let interrupted = MarketUpdate::interrupted(update.market, update.received);
            if self.updates.try_send(interrupted).is_err() {
                followed.dropped = true;
                return Delivered::Dropped(followed.market.clone());
            }
        }
        match self.updates.try_send(update) {
            Ok(()) => {
                if is_book {
                    followed.awaiting_book = false;
                }
                Delivered::Forwarded
            }
            Err(TrySendError::Full(_)) => {
                metrics::counter!("marketlens_stream_relay_updates_dropped_total").increment(1);
                let asked = followed.awaiting_book && followed.dropped;
                followed.awaiting_book = true;
                followed.dropped = true;
                if asked {
                    // Already asked for a book, which will come.
                    Delivered::Forwarded
                } else {
                    Delivered::Dropped(followed.market.clone())
                }
            }
            Err(TrySendError::Closed(_)) => Delivered::HubGone,
        }
    }

    /// Reports a market interrupted to the hub; never waits (a full channel already means the
    /// market will be resynced).
    fn interrupt(&mut self, market: Uuid) {
        let _ = self
            .updates
            .try_send(MarketUpdate::interrupted(market, chrono::Utc::now()));
    }

    /// Writes this node's follows whole, with their expiry, and its place among live nodes.
    async fn register(&self, redis: &mut ConnectionManager) -> redis::RedisResult<()> {
        let key = self.names.follows(&self.node);
        let expire_after = self.expire_after_millis();
        let mut pipe = redis::pipe();
        pipe.atomic().del(&key).ignore();
        let entries: Vec<(String, String)> = self
            .followed
            .values()
            .filter_map(|followed| Some((followed.market.id.to_string(), to_json(&followed.market)?)))
            .collect();
        if !entries.is_empty() {
            pipe.hset_multiple(&key, &entries)
                .ignore()
                .pexpire(&key, expire_after)
                .ignore();
        }
        let expires_at = now_millis() + expire_after;
        // The set itself goes with the last live node.
        pipe.zadd(self.names.nodes(), &self.node, expires_at)
            .ignore()
            .pexpire(self.names.nodes(), expire_after)
            .ignore();
        pipe.query_async(redis).await
    }

    /// How long the follows outlive their last renewal, in milliseconds.
    fn expire_after_millis(&self) -> i64 {
        i64::try_from(self.settings.follows_expire_after.as_millis()).unwrap_or(i64::MAX)
    }

    async fn announce(&self, redis: &mut ConnectionManager, announcement: &Announcement) -> redis::RedisResult<()> {
        let Some(json) = to_json(announcement) else {
            return Ok(());
        };
        redis.publish(self.names.announcements(), json).await
    }

    /// Leaves the live nodes on the way out (best effort: its follows expire anyway).
    async fn leave(self) {
        let leaving = async {
            let mut redis = self.client.get_multiplexed_async_connection().await?;
            redis::pipe()
                .del(self.names.follows(&self.node))
                .ignore()
                .zrem(self.names.nodes(), &self.node)
                .ignore()
                .query_async::<()>(&mut redis)
                .await
        };
        if let Ok(Err(error)) = tokio::time::timeout(CONNECT_TIMEOUT, leaving).await {
            tracing::debug!(%error, "could not remove this node's stream follows; they expire");
        }
    }
}

/// What became of a relayed update.
enum Delivered {
    /// Forwarded, or not for the hub.
    Forwarded,
    /// The hub is behind: the market's whole book is needed again.
    Dropped(StreamMarket),
    /// The hub stopped reading.
    HubGone,
}
