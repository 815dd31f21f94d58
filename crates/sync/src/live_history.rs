//! A live stream's prices into the price history, so that a followed market's candles are
//! continuous between syncs rather than one point every few minutes.
//!
//! The prices are taken where they leave the exchange connections ([`LivePrices::tap`]), in
//! the one process connected to the exchanges (the relay's lease holder, or a node that holds
//! its own connections), never where updates are fanned out to clients, which every node does.
//! They are written by the node holding the sync lease, whose writes the history already is,
//! so that each price is written once however many nodes follow the market: a node without
//! the lease (or started with `--no-sync`) writes none.
//!
//! Only the latest price of each outcome of each market is kept until the next write, once a
//! second ([`LivePrices::write_in_background`]): a market priced ten times a second costs one
//! observation a second, and at most [`MAX_PENDING_MARKETS`] markets wait at once. A market
//! with no update since the last write is not written: a price that stays still makes a new
//! five-minute bar only when an update of it arrives in that bar. Each write is one
//! transaction of [`HistoryStore::record_prices`], the upsert's bar merging, so that what a
//! stream observes and what a sync observes are merged alike, the latest observation closing
//! the bar whoever wrote it (the same price again is written too, so that a sync's lagging
//! price observed before it cannot take the close). The tap never waits for the store: a failed or slow write
//! holds up only the next write, and a failed one is logged, counted and its prices dropped.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use marketlens_domain::history::ObservedPrices;
use marketlens_domain::stream::{MarketChange, MarketUpdate};
use marketlens_domain::time::Timestamp;
use marketlens_storage::HistoryStore;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio::time::{Instant, MissedTickBehavior};
use tokio_util::sync::CancellationToken;
use uuid::Uuid;

/// Markets whose prices may wait for the next write: a price of any other market is dropped
/// (and counted) until that write.
pub const MAX_PENDING_MARKETS: usize = 10_000;
/// How often the prices received are written.
pub const WRITE_EVERY: Duration = Duration::from_secs(1);
/// Updates forwarded per turn of a tap.
const UPDATES_PER_TURN: usize = 256;
/// Updates the tap holds before the channel it feeds.
const TAP_CAPACITY: usize = 4 * UPDATES_PER_TURN;

/// The prices received since the last write; cheap to clone.
#[derive(Clone, Default)]
pub struct LivePrices {
    /// A std mutex: held only to set or take prices, never across an await.
    pending: Arc<Mutex<HashMap<Uuid, Pending>>>,
}

/// A market's latest prices, and when the last of them was received.
struct Pending {
    at: Timestamp,
    prices: Vec<(String, f64)>,
}

impl LivePrices {
    /// A sender for an exchange feed's updates: each update is observed, then forwarded to
    /// `updates` in order. The forwarding task ends when every clone of the sender is dropped
    /// (the feed with it) or `updates`' reader is gone. Must be called within a Tokio runtime.
    pub fn tap(&self, updates: mpsc::Sender<MarketUpdate>) -> mpsc::Sender<MarketUpdate> {
        // Small, so that its fullness follows the channel behind it: the connections drop (and
        // later resync) what a full channel refuses, and tell whether a market has caught up
        // by this channel, so a large one would hide how far behind the hub is.
        let (tapped, mut received) = mpsc::channel(TAP_CAPACITY);
        let prices = self.clone();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(UPDATES_PER_TURN);
            while received.recv_many(&mut batch, UPDATES_PER_TURN).await > 0 {
                prices.observe(&batch);
                for update in batch.drain(..) {
                    if updates.send(update).await.is_err() {
                        return;
                    }
                }
            }
        });
        tapped
    }

    /// Keeps the latest price of each outcome these updates state, dated when received.
    fn observe(&self, updates: &[MarketUpdate]) {
        let mut pending = self.lock();
        for update in updates {
            let MarketChange::Price(tick) = &update.change else {
                continue;
            };
            let Some(price) = tick.price else {
                continue;
            };
            if pending.len() >= MAX_PENDING_MARKETS && !pending.contains_key(&update.market) {
                metrics::counter!("marketlens_history_live_prices_dropped_total").increment(1);
                continue;
            }
            let market = pending.entry(update.market).or_insert_with(|| Pending {
                at: update.received,
                prices: Vec::new(),
            });
            market.at = market.at.max(update.received);
            match market.prices.iter_mut().find(|(outcome, _)| *outcome == tick.outcome) {
                Some((_, latest)) => *latest = price,
                None => market.prices.push((tick.outcome.clone(), price)),
            }
        }
    }

    /// Writes the prices received every [`WRITE_EVERY`] while `leading` tells a sync lease
    /// deadline still to come (the prices of a turn without it are dropped), once more when
    /// `shutdown` is cancelled, then ends. That last write needs the lease still held: the
    /// background sync is given this task and releases the lease only after it ended (or
    /// after a renewal period, aborting it: `crate::schedule::BackgroundSync::start`).
    pub fn write_in_background(
        &self,
        store: Arc<dyn HistoryStore>,
        leading: watch::Receiver<Option<Instant>>,
        shutdown: CancellationToken,
    ) -> JoinHandle<()> {
        let prices = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(WRITE_EVERY);
            every.set_missed_tick_behavior(MissedTickBehavior::Delay);
            loop {
                let stopping = tokio::select! {
                    _ = every.tick() => false,
                    () = shutdown.cancelled() => true,
                };
                let holding = leading.borrow().is_some_and(|deadline| deadline > Instant::now());
                let observed = prices.take();
                if holding && !observed.is_empty() {
                    write(store.as_ref(), &observed).await;
                }
                if stopping {
                    return;
                }
            }
        })
    }

    /// The prices received since the last call.
    fn take(&self) -> Vec<ObservedPrices> {
        std::mem::take(&mut *self.lock())
            .into_iter()
            .map(|(market, pending)| ObservedPrices {
                market,
                at: pending.at,
                prices: pending.prices,
            })
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Uuid, Pending>> {
        // Each change under the lock is one insert or one take: a panic leaves it consistent.
        self.pending.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One write; a failure is logged and counted, never raised.
async fn write(store: &dyn HistoryStore, observed: &[ObservedPrices]) {
    match store.record_prices(observed).await {
        Ok(recorded) => {
            metrics::counter!("marketlens_history_live_prices_written_total").increment(recorded as u64);
        }
        Err(error) => {
            metrics::counter!("marketlens_history_live_price_write_failures_total").increment(1);
            tracing::warn!(%error, markets = observed.len(), "live prices could not be written to the price history; they are dropped");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::history::{HistoryBar, Resolution, Retention};
    use marketlens_domain::stream::PriceTick;
    use marketlens_domain::time::from_epoch_millis;
    use marketlens_storage::history::HistoryKey;
    use marketlens_storage::{ExpiryReport, Page, StoreError};

    fn price(market: u128, outcome: &str, last: f64, received: i64) -> MarketUpdate {
        MarketUpdate {
            market: Uuid::from_u128(market),
            time: from_epoch_millis(0),
            received: from_epoch_millis(received),
            change: MarketChange::Price(PriceTick {
                outcome: outcome.into(),
                price: Some(last),
                last: Some(last),
                best_bid: None,
                best_ask: None,
            }),
        }
    }

    #[test]
    fn only_the_latest_price_of_each_outcome_waits_for_the_write() {
        let prices = LivePrices::default();
        prices.observe(&[
            price(1, "Yes", 0.4, 1_000),
            price(1, "No", 0.6, 1_000),
            price(1, "Yes", 0.45, 2_000),
        ]);
        let observed = prices.take();
        assert_eq!(
            observed,
            [ObservedPrices {
                market: Uuid::from_u128(1),
                at: from_epoch_millis(2_000),
                prices: vec![("Yes".into(), 0.45), ("No".into(), 0.6)],
            }]
        );
        assert!(prices.take().is_empty(), "taken once");
    }

    /// A history that keeps what it is asked to record.
    #[derive(Default)]
    struct RecordedWrites {
        writes: Mutex<Vec<Vec<ObservedPrices>>>,
    }

    impl RecordedWrites {
        fn writes(&self) -> Vec<Vec<ObservedPrices>> {
            self.writes.lock().unwrap().clone()
        }
    }

    #[async_trait::async_trait]
    impl HistoryStore for RecordedWrites {
        async fn history_page(
            &self,
            _: Uuid,
            _: Resolution,
            _: (i64, i64),
            _: u32,
            _: u64,
        ) -> Result<Page<HistoryBar>, StoreError> {
            unimplemented!("not read")
        }

        async fn record_prices(&self, observed: &[ObservedPrices]) -> Result<usize, StoreError> {
            self.writes.lock().unwrap().push(observed.to_vec());
            Ok(observed.len())
        }

        async fn expire_history(&self, _: Timestamp, _: Retention) -> Result<ExpiryReport, StoreError> {
            unimplemented!("not expired")
        }

        async fn scan_history(&self, _: Option<HistoryKey>, _: u32) -> Result<Vec<(Uuid, HistoryBar)>, StoreError> {
            unimplemented!("not scanned")
        }

        async fn restore_history(&self, _: &[(Uuid, HistoryBar)]) -> Result<(), StoreError> {
            unimplemented!("not restored")
        }

        async fn replace_history(&self, _: &[(Uuid, HistoryBar)]) -> Result<(), StoreError> {
            unimplemented!("not replaced")
        }
    }

    fn observed(market: u128, yes: f64, received: i64) -> ObservedPrices {
        ObservedPrices {
            market: Uuid::from_u128(market),
            at: from_epoch_millis(received),
            prices: vec![("Yes".into(), yes)],
        }
    }

    /// Waits until the writing task has taken the prices waiting (and written them, if it
    /// does: a write to [`RecordedWrites`] finishes without yielding).
    async fn taken(prices: &LivePrices) {
        for _ in 0..500 {
            if prices.lock().is_empty() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the prices were not taken within 5 s");
    }

    #[tokio::test]
    async fn prices_are_written_while_the_lease_is_held_and_dropped_while_it_is_not() {
        let store = Arc::new(RecordedWrites::default());
        let (lease, leading) = watch::channel(None);
        let prices = LivePrices::default();
        let shutdown = CancellationToken::new();
        let writing = prices.write_in_background(store.clone(), leading, shutdown.clone());
        prices.observe(&[price(1, "Yes", 0.4, 1_000)]);
        taken(&prices).await;
        assert!(store.writes().is_empty(), "written without the lease");

        lease.send_replace(Some(Instant::now() + Duration::from_secs(60)));
        prices.observe(&[price(1, "Yes", 0.45, 2_000)]);
        taken(&prices).await;
        assert_eq!(store.writes(), [vec![observed(1, 0.45, 2_000)]]);

        // A deadline passed without a renewal: this node may no longer hold the lease.
        lease.send_replace(Some(Instant::now()));
        prices.observe(&[price(1, "Yes", 0.5, 3_000)]);
        taken(&prices).await;
        assert_eq!(store.writes().len(), 1, "written past the lease's deadline");

        // At shutdown, the prices waiting are written once more while the lease is held.
        lease.send_replace(Some(Instant::now() + Duration::from_secs(60)));
        prices.observe(&[price(1, "Yes", 0.55, 4_000)]);
        shutdown.cancel();
        writing.await.unwrap();
        assert_eq!(store.writes().last(), Some(&vec![observed(1, 0.55, 4_000)]));
    }

    /// A price already written is written again: another writer (a sync) may have changed
    /// the bar since, and the latest observation must close it.
    #[tokio::test]
    async fn a_price_already_written_is_written_again() {
        let store = Arc::new(RecordedWrites::default());
        let (_lease, leading) = watch::channel(Some(Instant::now() + Duration::from_secs(60)));
        let prices = LivePrices::default();
        let shutdown = CancellationToken::new();
        let writing = prices.write_in_background(store.clone(), leading, shutdown.clone());
        prices.observe(&[price(1, "Yes", 0.4, 1_000)]);
        taken(&prices).await;
        prices.observe(&[price(1, "Yes", 0.4, 2_000)]);
        taken(&prices).await;
        shutdown.cancel();
        writing.await.unwrap();
        assert_eq!(
            store.writes(),
            [vec![observed(1, 0.4, 1_000)], vec![observed(1, 0.4, 2_000)]]
        );
    }

    #[test]
    fn markets_past_the_bound_wait_for_the_next_write() {
        let prices = LivePrices::default();
        let updates: Vec<MarketUpdate> = (0..=MAX_PENDING_MARKETS as u128)
            .map(|market| price(market, "Yes", 0.5, 1_000))
            .collect();
        prices.observe(&updates);
        // A market already waiting still takes its newer price.
        prices.observe(&[price(0, "Yes", 0.7, 2_000)]);
        let observed = prices.take();
        assert_eq!(observed.len(), MAX_PENDING_MARKETS);
        let first = observed.iter().find(|prices| prices.market == Uuid::from_u128(0));
        assert_eq!(first.unwrap().prices, [("Yes".to_owned(), 0.7)]);
    }
}
