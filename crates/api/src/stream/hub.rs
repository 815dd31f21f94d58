//! The hub: one per node, between one [`LiveFeed`] and every stream client of the node.
//!
//! It follows a market on the feed when its first subscriber comes and unfollows it when its
//! last goes, keeps each followed market's latest whole book (its `levels` applied) so that a
//! new subscriber gets a `book` at once and `GET /markets/{id}/orderbook` can answer from it,
//! and hands every update to the market's subscribers' [`Outbox`]es, numbering it per
//! subscriber. It never waits on a client: a full outbox closes that client.
//!
//! It knows nothing of where updates come from: the feed may hold exchange connections in this
//! process or relay another node's (a relay fed by Redis is such a feed), as long as it sends
//! the [`MarketUpdate`]s of the markets it follows to the channel the hub reads.

use marketlens_domain::depth::{BookSource, OrderBook};
use marketlens_domain::stream::{LatestBook, LiveFeed, MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

use super::markets::StreamMarkets;
use super::messages::{Unsequenced, book_message, market_message};
use super::outbox::{Outbox, Outgoing};
use super::slots::OpenStreams;

/// Updates applied under one lock, at most.
const UPDATES_PER_TURN: usize = 256;

/// Where a hub's feed gets its updates, which decides what the order book call makes of the
/// books the hub keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedOrigin {
    /// The exchanges, live: the order book call answers from the hub's book (`source:
    /// stream`) while a client follows the market.
    Exchanges,
    /// A recording played as if live (the demo's): its books are not the market's, so the
    /// order book call goes on answering the depth source's recorded book, with its recording
    /// time and origin.
    Recording,
}

/// The node's stream hub; cheap to clone.
#[derive(Clone)]
pub struct StreamHub {
    shared: Arc<Shared>,
}

struct Shared {
    feed: Arc<dyn LiveFeed>,
    origin: FeedOrigin,
    markets: Arc<dyn StreamMarkets>,
    /// A std mutex: held only to change the map and fill outboxes, never across an await.
    followed: Mutex<HashMap<Uuid, Followed>>,
    next_client: AtomicU64,
    open_streams: Arc<OpenStreams>,
    /// Cancelled when the node shuts down: every connection closes (1001).
    closing: CancellationToken,
}

/// A market followed on the feed, and who subscribed to it.
struct Followed {
    /// The latest whole book, and whether the feed is receiving the market.
    latest: LatestBook,
    subscribers: HashMap<u64, Subscriber>,
}

struct Subscriber {
    outbox: Outbox,
    /// The last sequence number sent.
    seq: u64,
}

impl Subscriber {
    fn send(&mut self, message: &Unsequenced) {
        self.seq += 1;
        self.outbox.push(Outgoing::Market {
            seq: self.seq,
            message: message.clone(),
        });
    }
}

impl StreamHub {
    /// A hub over `feed`, whose updates come from `origin`, reading the updates `feed` sends to
    /// `updates`, resolving markets with `markets`. Starts the task that reads the updates (so
    /// it must be called inside a Tokio runtime); the task ends when the feed closes the
    /// channel or the hub is dropped.
    pub fn start(
        feed: Arc<dyn LiveFeed>,
        origin: FeedOrigin,
        updates: mpsc::Receiver<MarketUpdate>,
        markets: Arc<dyn StreamMarkets>,
    ) -> StreamHub {
        let shared = Arc::new(Shared {
            feed,
            origin,
            markets,
            followed: Mutex::default(),
            next_client: AtomicU64::new(1),
            open_streams: Arc::default(),
            closing: CancellationToken::new(),
        });
        tokio::spawn(relay(Arc::downgrade(&shared), updates));
        StreamHub { shared }
    }

    pub(crate) fn markets(&self) -> &dyn StreamMarkets {
        self.shared.markets.as_ref()
    }

    /// Closes every stream connection of the node (close code 1001, "going away"), as a
    /// serving node does on shutdown so that its clients reconnect elsewhere at once.
    pub fn close_all(&self) {
        self.shared.closing.cancel();
    }

    /// Completes once [`StreamHub::close_all`] is called.
    pub(crate) async fn closing(&self) {
        self.shared.closing.cancelled().await;
    }

    pub(crate) fn open_streams(&self) -> &Arc<OpenStreams> {
        &self.shared.open_streams
    }

    /// A new client's outbox of `capacity` messages, and the end its writer reads.
    pub(crate) fn outbox(&self, capacity: usize) -> (Outbox, mpsc::Receiver<Outgoing>) {
        Outbox::new(self.shared.next_client.fetch_add(1, Ordering::Relaxed), capacity)
    }

    /// Subscribes `outbox`'s client to `market`: queues `subscribed` (the message to send),
    /// then the market's book and its interruption when the hub knows them, then every update;
    /// follows the market on the feed if it is the first subscriber.
    pub(crate) fn subscribe(&self, outbox: &Outbox, market: &StreamMarket, subscribed: String) {
        let mut followed = self.shared.lock();
        let entry = followed.entry(market.id).or_insert_with(|| {
            self.shared.feed.follow(market);
            metrics::gauge!("marketlens_stream_markets_followed").increment(1);
            Followed {
                latest: LatestBook::default(),
                subscribers: HashMap::new(),
            }
        });
        outbox.push(Outgoing::Control(subscribed));
        let mut subscriber = Subscriber {
            outbox: outbox.clone(),
            seq: 0,
        };
        if let Some((time, outcomes)) = entry.latest.book() {
            subscriber.send(&book_message(market.id, time, outcomes));
            if !entry.latest.is_live() {
                subscriber.send(&market_message(&MarketUpdate::interrupted(market.id, time)));
            }
        }
        entry.subscribers.insert(outbox.client, subscriber);
    }

    /// Ends `client`'s subscription to `market`; unfollows the market on the feed if it was
    /// the last.
    pub(crate) fn unsubscribe(&self, client: u64, market: Uuid) {
        let mut followed = self.shared.lock();
        let Some(entry) = followed.get_mut(&market) else {
            return;
        };
        entry.subscribers.remove(&client);
        if entry.subscribers.is_empty() {
            followed.remove(&market);
            self.shared.feed.unfollow(market);
            metrics::gauge!("marketlens_stream_markets_followed").decrement(1);
        }
    }

    /// The market's book, when it is followed and the feed is receiving it from the exchange:
    /// current as of now, since the feed reports any interruption.
    pub(crate) fn live_book(&self, market: Uuid, now: Timestamp) -> Option<OrderBook> {
        if self.shared.origin == FeedOrigin::Recording {
            return None;
        }
        let followed = self.shared.lock();
        let entry = followed.get(&market).filter(|entry| entry.latest.is_live())?;
        let (_, outcomes) = entry.latest.book()?;
        Some(OrderBook {
            timestamp: now,
            source: BookSource::Stream,
            recorded_from: None,
            outcomes: outcomes.to_vec(),
        })
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, HashMap<Uuid, Followed>> {
        // A panic while the map was held leaves it consistent: each change is one insert or
        // removal.
        self.followed.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Applies updates to the books they change and hands them to their subscribers.
    fn apply(&self, updates: Vec<MarketUpdate>) {
        // Serialized before the lock is taken, once per update whatever its subscribers.
        let messages: Vec<Unsequenced> = updates.iter().map(market_message).collect();
        let mut followed = self.lock();
        for (update, message) in updates.into_iter().zip(messages) {
            // An update of a market unfollowed meanwhile.
            let Some(entry) = followed.get_mut(&update.market) else {
                continue;
            };
            entry.latest.apply(&update);
            for subscriber in entry.subscribers.values_mut() {
                subscriber.send(&message);
            }
        }
    }
}

/// Reads the feed's updates until the feed closes the channel or the hub is dropped.
async fn relay(shared: Weak<Shared>, mut updates: mpsc::Receiver<MarketUpdate>) {
    let mut batch = Vec::with_capacity(UPDATES_PER_TURN);
    while updates.recv_many(&mut batch, UPDATES_PER_TURN).await > 0 {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        metrics::counter!("marketlens_stream_updates_total").increment(batch.len() as u64);
        shared.apply(std::mem::take(&mut batch));
    }
}
