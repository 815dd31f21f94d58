//! The lease holder's side of the relay: the one node connected to the exchanges, for every
//! node.
//!
//! On taking the lease it makes the exchange feed, reads every live node's follows and follows
//! their union; the feed sends each market's first whole book, which reaches every node that
//! follows it. From then on it publishes each update on its market's channel, keeping each
//! market's latest book (`LatestBook`), so that a node that starts following a market already
//! followed gets that book on its own channel, published in order with the updates: nothing
//! is published between the book and the updates after it. Announcements make this
//! immediate; a reading of every node's follows each refresh catches what an announcement
//! missed and drops the follows of nodes that died; a heartbeat each refresh lets nodes tell
//! when no node is connected for them. On losing the lease it drops the feed, which closes
//! the exchange connections.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use futures::StreamExt;
use marketlens_domain::stream::{LatestBook, LiveFeed, MarketChange, MarketUpdate, StreamMarket};
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use tokio::sync::{mpsc, watch};
use tokio::time::Instant;
use uuid::Uuid;

use super::names::Names;
use super::wire::Announcement;
use super::{ConnectExchanges, RelaySettings, connect_redis, now_millis, to_json, within};
use crate::backoff::Backoff;
use crate::settings::ConnectionSettings;

/// Updates the exchange feed may hold before it drops some (and resyncs those markets).
const UPDATES_CAPACITY: usize = 16_384;
/// Updates published in one round trip, at most.
const UPDATES_PER_BATCH: usize = 256;

/// Leads whenever `leading` tells a lease deadline still to come, until the lease's sender
/// is gone.
pub(super) async fn lead(
    client: redis::Client,
    names: Names,
    settings: RelaySettings,
    connect: ConnectExchanges,
    mut leading: watch::Receiver<Option<Instant>>,
) {
    let mut backoff = Backoff::new(&ConnectionSettings::default());
    loop {
        if leading
            .wait_for(|deadline| deadline.is_some_and(|deadline| deadline > Instant::now()))
            .await
            .is_err()
        {
            tracing::info!("this node never holds the sync lease (no background sync): the stream relay only follows");
            return;
        }
        tracing::info!("this node holds the sync lease: it connects to the exchanges for every node's stream");
        match Leadership::start(&client, &names, &connect).await {
            Ok(mut leadership) => match leadership.run(&settings, &mut leading, &mut backoff).await {
                Ok(()) => {
                    tracing::info!("this node no longer holds the sync lease: its exchange connections are closed");
                    continue;
                }
                Err(error) => tracing::warn!(%error, "the stream relay's holder lost Redis; starting again"),
            },
            Err(error) => tracing::warn!(%error, "the stream relay's holder cannot reach Redis; trying again"),
        }
        tokio::time::sleep(backoff.next_wait()).await;
    }
}

/// One stretch of holding the lease with Redis reachable.
struct Leadership {
    names: Names,
    redis: ConnectionManager,
    announcements: redis::aio::PubSubStream,
    exchanges: Arc<dyn LiveFeed>,
    updates: mpsc::Receiver<MarketUpdate>,
    /// Each live node's follows, as last heard.
    wanted: HashMap<String, HashSet<Uuid>>,
    /// The union of the follows: what the exchange feed follows, each with its latest book.
    markets: HashMap<Uuid, LatestBook>,
}

impl Leadership {
    async fn start(
        client: &redis::Client,
        names: &Names,
        connect: &ConnectExchanges,
    ) -> redis::RedisResult<Leadership> {
        let (redis, mut pubsub) = connect_redis(client).await?;
        within(pubsub.subscribe(names.announcements())).await?;
        let (sender, updates) = mpsc::channel(UPDATES_CAPACITY);
        Ok(Leadership {
            names: names.clone(),
            redis,
            announcements: pubsub.into_on_message(),
            exchanges: connect(sender),
            updates,
            wanted: HashMap::new(),
            markets: HashMap::new(),
        })
    }

    /// Publishes until the lease is lost or its deadline passes without a renewal (`Ok`), or
    /// Redis is lost (`Err`); resets `backoff` once a reconcile and heartbeat went through.
    async fn run(
        &mut self,
        settings: &RelaySettings,
        leading: &mut watch::Receiver<Option<Instant>>,
        backoff: &mut Backoff,
    ) -> redis::RedisResult<()> {
        // The first tick, at once, follows what every live node wants.
        let mut refresh = tokio::time::interval(settings.refresh_every);
        let mut batch = Vec::with_capacity(UPDATES_PER_BATCH);
        let mut deadline = *leading.borrow_and_update();
        loop {
            let Some(until) = deadline else {
                return Ok(());
            };
            tokio::select! {
                changed = leading.changed() => {
                    if changed.is_err() {
                        return Ok(());
                    }
                    deadline = *leading.borrow_and_update();
                }
                () = tokio::time::sleep_until(until) => {
                    tracing::warn!("the sync lease was not renewed by its deadline: this node stops publishing");
                    return Ok(());
                }
                received = self.updates.recv_many(&mut batch, UPDATES_PER_BATCH) => {
                    if received == 0 {
                        return Ok(());
                    }
                    self.publish(&mut batch).await?;
                }
                message = self.announcements.next() => match message {
                    None => return Err(std::io::Error::from(std::io::ErrorKind::ConnectionReset).into()),
                    Some(message) => self.heard(&message).await?,
                },
                _ = refresh.tick() => {
                    self.reconcile().await?;
                    let () = self.redis.publish(self.names.heartbeat(), "").await?;
                    backoff.reset();
                }
            }
        }
    }

    /// Publishes the exchange feed's updates in order, one round trip, keeping the books.
    async fn publish(&mut self, batch: &mut Vec<MarketUpdate>) -> redis::RedisResult<()> {
        let mut pipe = redis::pipe();
        for update in batch.drain(..) {
            // An update of a market unfollowed meanwhile.
            let Some(latest) = self.markets.get_mut(&update.market) else {
                continue;
            };
            latest.apply(&update);
            if let Some(json) = to_json(&update) {
                pipe.publish(self.names.market_channel(update.market), json).ignore();
            }
        }
        pipe.query_async(&mut self.redis).await
    }

    async fn heard(&mut self, message: &redis::Msg) -> redis::RedisResult<()> {
        let announcement = match serde_json::from_slice(message.get_payload_bytes()) {
            Ok(announcement) => announcement,
            Err(error) => {
                tracing::warn!(%error, "an unreadable stream announcement was skipped");
                return Ok(());
            }
        };
        match announcement {
            Announcement::Follow { node, market } => self.want(node, market, false).await,
            Announcement::Resync { node, market } => self.want(node, market, true).await,
            Announcement::Unfollow { node, market } => {
                self.unwant(&node, market);
                Ok(())
            }
        }
    }

    /// `node` follows `market`: followed on the exchange if no node did, else `node` is sent
    /// the book kept (when it newly follows it, or asks again).
    async fn want(&mut self, node: String, market: StreamMarket, resync: bool) -> redis::RedisResult<()> {
        let new_follower = self.wanted.entry(node.clone()).or_default().insert(market.id);
        match self.markets.entry(market.id) {
            Entry::Vacant(vacant) => {
                vacant.insert(LatestBook::default());
                // Its first whole book goes to the market's channel, to every node.
                self.exchanges.follow(&market);
                Ok(())
            }
            Entry::Occupied(_) if new_follower || resync => self.send_book(&node, market.id).await,
            Entry::Occupied(_) => Ok(()),
        }
    }

    fn unwant(&mut self, node: &str, market: Uuid) {
        if let Some(follows) = self.wanted.get_mut(node) {
            follows.remove(&market);
            if follows.is_empty() {
                self.wanted.remove(node);
            }
        }
        let still_wanted = self.wanted.values().any(|follows| follows.contains(&market));
        if !still_wanted && self.markets.remove(&market).is_some() {
            self.exchanges.unfollow(market);
        }
    }

    /// Sends `node` the market's kept book, and its interruption if it is not live; nothing
    /// while the first book is on its way (it goes to every node).
    async fn send_book(&mut self, node: &str, market: Uuid) -> redis::RedisResult<()> {
        let Some(latest) = self.markets.get(&market) else {
            return Ok(());
        };
        let Some((time, outcomes)) = latest.book() else {
            return Ok(());
        };
        let now = chrono::Utc::now();
        let book = MarketUpdate {
            market,
            time,
            received: now,
            change: MarketChange::Book {
                outcomes: outcomes.to_vec(),
            },
        };
        let channel = self.names.node_channel(node);
        let mut pipe = redis::pipe();
        if let Some(json) = to_json(&book) {
            pipe.publish(&channel, json).ignore();
        }
        if !latest.is_live()
            && let Some(json) = to_json(&MarketUpdate::interrupted(market, now))
        {
            pipe.publish(&channel, json).ignore();
        }
        pipe.query_async(&mut self.redis).await
    }

    /// Reads every live node's follows: follows what is new, unfollows what no live node
    /// wants any more (a dead node's follows have expired with it).
    async fn reconcile(&mut self) -> redis::RedisResult<()> {
        let nodes_key = self.names.nodes();
        let () = self.redis.zrembyscore(&nodes_key, "-inf", now_millis()).await?;
        let nodes: Vec<String> = self.redis.zrange(&nodes_key, 0, -1).await?;
        let mut found: HashMap<String, Vec<StreamMarket>> = HashMap::new();
        for node in nodes {
            let follows: HashMap<String, String> = self.redis.hgetall(self.names.follows(&node)).await?;
            let markets = follows
                .values()
                .filter_map(|json| serde_json::from_str::<StreamMarket>(json).ok())
                .collect();
            found.insert(node, markets);
        }
        let gone: Vec<(String, Uuid)> = self
            .wanted
            .iter()
            .flat_map(|(node, follows)| follows.iter().map(move |market| (node.clone(), *market)))
            .filter(|(node, market)| {
                !found
                    .get(node)
                    .is_some_and(|markets| markets.iter().any(|found| found.id == *market))
            })
            .collect();
        for (node, market) in gone {
            self.unwant(&node, market);
        }
        for (node, markets) in found {
            for market in markets {
                self.want(node.clone(), market, false).await?;
            }
        }
        Ok(())
    }
}
