//! How fresh the figures answered are: a market's `lastSyncedAt`, the `X-Data-Age` header of
//! market lists and gets, and the stale flags of spreads.
//!
//! A market's figures were last confirmed either when a sync or import wrote them (its
//! `observed_at`), or when a later sync of its exchange walked it and found it unchanged, which
//! writes nothing. A successful incremental sync walks every open market; a full one walks all.
//! So `lastSyncedAt` is the latest of the market's own observation and the start of the last
//! successful sync that walked it (its start: what it fetched is at least that fresh).
//!
//! The syncs' record is read from the store at most every [`REREAD_EVERY`], by one request
//! while the others use the last reading, so freshness costs a request nothing but an atomic
//! load.

use arc_swap::ArcSwap;
use axum::http::HeaderValue;
use axum::response::Response;
use marketlens_catalog::LiveCatalog;
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Exchange, MarketStatus};
use marketlens_storage::{Store, StoreError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a reading of the syncs' record is used.
pub const REREAD_EVERY: Duration = Duration::from_secs(2);

/// The name of the header giving the age, in whole seconds, of the figures of a response.
pub const DATA_AGE_HEADER: &str = "x-data-age";

/// When each exchange's syncs last confirmed its markets.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncCoverage {
    /// Per exchange (`exchange as usize`): the start of its latest successful sync of any kind
    /// (it walked every open market), and of its latest successful full sync (it walked every
    /// market).
    latest: [Option<Timestamp>; Exchange::ALL.len()],
    latest_full: [Option<Timestamp>; Exchange::ALL.len()],
}

impl SyncCoverage {
    async fn read(store: &dyn Store) -> Result<SyncCoverage, StoreError> {
        let mut coverage = SyncCoverage::default();
        for exchange in Exchange::ALL {
            let status = store.sync_status(exchange).await?;
            coverage.latest[exchange as usize] = status.latest_success.map(|run| run.started_at);
            coverage.latest_full[exchange as usize] = status.latest_full_success.map(|run| run.started_at);
        }
        Ok(coverage)
    }

    /// When a market of `exchange` in `status`, whose figures were written at `observed_at`,
    /// was last confirmed.
    pub fn last_synced(&self, exchange: Exchange, status: MarketStatus, observed_at: Timestamp) -> Timestamp {
        let walked = match status {
            MarketStatus::Open => self.latest[exchange as usize],
            MarketStatus::Closed | MarketStatus::Resolved => self.latest_full[exchange as usize],
        };
        walked.map_or(observed_at, |walked| walked.max(observed_at))
    }

    /// The start of `exchange`'s latest successful sync.
    pub fn latest_sync(&self, exchange: Exchange) -> Option<Timestamp> {
        self.latest[exchange as usize]
    }
}

/// The latest reading of the syncs' record, kept fresh.
pub struct Freshness {
    store: Arc<dyn Store>,
    reading: ArcSwap<(Option<Instant>, SyncCoverage)>,
    rereading: AtomicBool,
}

impl Freshness {
    pub fn new(store: Arc<dyn Store>) -> Freshness {
        Freshness {
            store,
            reading: ArcSwap::from_pointee((None, SyncCoverage::default())),
            rereading: AtomicBool::new(false),
        }
    }

    /// The syncs' coverage: read now if never read, else the last reading (which this call
    /// renews when it is older than [`REREAD_EVERY`] and no other call is renewing it).
    pub async fn coverage(&self) -> Result<SyncCoverage, StoreError> {
        let reading = self.reading.load_full();
        let due = reading.0.is_none_or(|read_at| read_at.elapsed() >= REREAD_EVERY);
        let first = reading.0.is_none();
        if !due || (!first && self.rereading.swap(true, Ordering::AcqRel)) {
            return Ok(reading.1.clone());
        }
        // Cleared however this call ends, even if its request is dropped mid-read.
        let _rereading = ClearOnDrop(&self.rereading);
        let coverage = SyncCoverage::read(self.store.as_ref()).await?;
        self.reading.store(Arc::new((Some(Instant::now()), coverage.clone())));
        Ok(coverage)
    }

    /// How many whole seconds old, at `now`, the freshest figures of the least fresh of
    /// `exchanges` are: since its latest successful sync, or its latest import if that came
    /// later. `None` when none of them was ever synced or has any market. (Until the
    /// in-memory catalogue has loaded, imports are not counted: finding the latest would
    /// cost a scan of the store.)
    pub async fn data_age(
        &self,
        catalog: &LiveCatalog,
        exchanges: &[Exchange],
        now: Timestamp,
    ) -> Result<Option<i64>, StoreError> {
        let coverage = self.coverage().await?;
        let oldest = exchanges
            .iter()
            .filter_map(|exchange| {
                let synced = coverage.latest_sync(*exchange);
                let observed = catalog.newest_observed(*exchange);
                synced.max(observed)
            })
            .map(|as_of| age_seconds(as_of, now))
            .max();
        Ok(oldest)
    }
}

/// Clears its flag when dropped.
struct ClearOnDrop<'a>(&'a AtomicBool);

impl Drop for ClearOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

/// `response` with its figures' age in whole seconds, if known.
pub fn with_data_age(mut response: Response, seconds: Option<i64>) -> Response {
    if let Some(seconds) = seconds {
        response
            .headers_mut()
            .insert(DATA_AGE_HEADER, HeaderValue::from(seconds));
    }
    response
}

/// Age in whole seconds of figures confirmed at `confirmed_at`, at `now`.
pub fn age_seconds(confirmed_at: Timestamp, now: Timestamp) -> i64 {
    (now - confirmed_at).num_seconds().max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::time::from_epoch_millis;

    #[test]
    fn open_markets_are_confirmed_by_any_sync_and_the_others_by_full_ones() {
        let at = |seconds: i64| from_epoch_millis(seconds * 1000);
        let coverage = SyncCoverage {
            latest: [Some(at(500)), None],
            latest_full: [Some(at(100)), None],
        };
        let polymarket = Exchange::Polymarket;
        assert_eq!(coverage.last_synced(polymarket, MarketStatus::Open, at(50)), at(500));
        assert_eq!(
            coverage.last_synced(polymarket, MarketStatus::Resolved, at(50)),
            at(100)
        );
        assert_eq!(coverage.last_synced(polymarket, MarketStatus::Closed, at(300)), at(300));
        assert_eq!(
            coverage.last_synced(Exchange::Kalshi, MarketStatus::Open, at(70)),
            at(70)
        );
        assert_eq!(age_seconds(at(70), at(69)), 0);
    }
}
