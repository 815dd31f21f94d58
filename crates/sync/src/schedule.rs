//! The background sync of `serve`: one loop per exchange, on one node at a time.
//!
//! Several `serve` nodes may share one store; syncing the same exchanges from each would only
//! multiply the load on the exchanges' APIs. So the loops run on the node that holds the
//! store's sync lease: every node tries to take it every third of the lease's duration
//! (`--sync-lease-secs`, 30 s); the holder renews it; a node that stops gracefully releases
//! it, and one that dies stops renewing it, so that another node takes over within the
//! lease's duration at most. Each attempt is cut off after a third of the lease (a query stuck
//! on a half-open connection would otherwise outlast it), and a node whose lease was not
//! renewed in time stops syncing when its deadline comes: one renewal period before the lease
//! can pass to another node (taken from before the attempt that renewed it), so two nodes
//! never sync at once. That deadline is also told on a watch channel while this node holds
//! the lease: the live stream's relay connects to the exchanges only until it
//! (`marketlens_connectors::RelayFeed`).
//!
//! Each run is full when the exchange has had no successful full run within the full interval
//! (so a new store fills itself), else incremental; runs follow each other after the
//! incremental interval. Every run's summary is logged, and when a run changed markets or
//! events the matches are brought up to date: from scratch the first time and after every
//! full run, otherwise only for the markets that changed (`matches::IncrementalMatcher`, held
//! while this node syncs). A third loop polls the news feeds every news interval (each node's
//! explain reads what it stores, see `marketlens_catalog::LiveNews`), and a fourth deletes the
//! price history's expired bars every [`EXPIRE_EVERY`] (`marketlens_domain::history`).

use chrono::{TimeDelta, Utc};
use marketlens_domain::Exchange;
use marketlens_domain::history::Retention;
use marketlens_storage::{Store, SyncKind};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Mutex, watch};
use tokio::task::{JoinHandle, JoinSet};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::matching::IncrementalMatcher;
use crate::{FeedFetcher, Fetcher, SyncSettings, poll_feeds, sync_exchange};

/// When `serve` syncs in the background.
#[derive(Debug, Clone)]
pub struct SyncSchedule {
    pub settings: SyncSettings,
    pub incremental_every: Duration,
    pub full_every: Duration,
    /// The feeds polled, every `news_every`; none when the list is empty.
    pub news_feeds: Vec<String>,
    pub news_every: Duration,
    pub news_window: TimeDelta,
    /// How long the price history keeps its finer bars.
    pub retention: Retention,
    /// How long the sync lease lasts unless renewed; it is renewed every third of it.
    pub lease: Duration,
}

/// The lease's name in the store.
const LEASE: &str = "background-sync";
/// How often the price history's expired bars are deleted: bars fall due by the hour.
const EXPIRE_EVERY: Duration = Duration::from_secs(3_600);

/// The background sync of one node; cancelling its shutdown token ends it and gives the lease
/// up ([`BackgroundSync::stopped`] waits for that).
pub struct BackgroundSync {
    task: tokio::task::JoinHandle<()>,
}

impl BackgroundSync {
    /// Starts competing for the lease, and syncing while this node holds it, until `shutdown`
    /// is cancelled; `holding` is set to the lease's deadline while the loops run (moved on by
    /// each renewal: past it, this node must act as if it no longer held the lease), `None`
    /// when they stop. On `shutdown` the loops stop at once, but the lease is told held and
    /// kept until `last_writes` (a task that ends on `shutdown` too, after writing what only
    /// the holder may: the stream's prices) has ended, for one renewal period at most and
    /// never past the lease's deadline (then it is aborted), and only then released.
    pub fn start(
        store: Arc<dyn Store>,
        schedule: SyncSchedule,
        holding: watch::Sender<Option<Instant>>,
        shutdown: CancellationToken,
        last_writes: Option<JoinHandle<()>>,
    ) -> BackgroundSync {
        // Unique per process start, and readable in the store: pid and a random suffix.
        let holder = format!("pid {} ({})", std::process::id(), uuid::Uuid::new_v4().simple());
        let lease = Lease { holder, holding };
        let task = tokio::spawn(hold_lease(store, Arc::new(schedule), lease, shutdown, last_writes));
        BackgroundSync { task }
    }

    /// Waits, once `shutdown` is cancelled, for the loops to stop (a run cut off mid-page
    /// loses nothing) and the lease to be released, so that another node takes over at once.
    pub async fn stopped(self) {
        if let Err(error) = self.task.await {
            tracing::warn!(%error, "the background sync did not stop cleanly");
        }
    }
}

/// This node's name in the lease, and where it tells until when it holds it.
struct Lease {
    holder: String,
    holding: watch::Sender<Option<Instant>>,
}

/// The loops while this node holds the lease; `holding` tells the lease's deadline while they
/// run.
struct Held {
    loops: Option<JoinSet<()>>,
    holding: watch::Sender<Option<Instant>>,
}

impl Held {
    /// Runs the loops (if they do not run yet) until `deadline`.
    fn renewed(&mut self, deadline: Instant, loops: impl FnOnce() -> JoinSet<()>) -> bool {
        self.holding.send_replace(Some(deadline));
        if self.loops.is_some() {
            return false;
        }
        self.loops = Some(loops());
        true
    }

    /// Stops the loops; true if they ran.
    fn stop(&mut self) -> bool {
        self.holding.send_if_modified(|holding| holding.take().is_some());
        self.loops.take().is_some()
    }
}

async fn hold_lease(
    store: Arc<dyn Store>,
    schedule: Arc<SyncSchedule>,
    lease: Lease,
    shutdown: CancellationToken,
    last_writes: Option<JoinHandle<()>>,
) {
    let Lease { holder, holding } = lease;
    let lease_duration = TimeDelta::from_std(schedule.lease).unwrap_or(TimeDelta::MAX);
    let renew_every = schedule.lease / 3;
    let mut held = Held { loops: None, holding };
    // Until when the lease is surely this node's, less one renewal period of margin (for
    // the scheduler and the clocks).
    let mut deadline: Option<Instant> = None;
    let mut ticker = tokio::time::interval(renew_every);
    let mut told_follower = false;
    loop {
        tokio::select! {
            biased;
            () = shutdown.cancelled() => break,
            () = lapse(deadline) => {
                deadline = None;
                lapsed(&mut held);
                continue;
            }
            _ = ticker.tick() => {}
        }
        let started = Instant::now();
        let acquiring = tokio::time::timeout(
            renew_every,
            store.acquire_lease(LEASE, &holder, Utc::now(), lease_duration),
        );
        tokio::pin!(acquiring);
        // The deadline, or shutdown, may come while the attempt is under way (a renewal dropped
        // half-way is harmless: the lease is released or expires).
        let acquired = loop {
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break None,
                acquired = &mut acquiring => break Some(acquired),
                () = lapse(deadline) => {
                    deadline = None;
                    lapsed(&mut held);
                }
            }
        };
        let Some(acquired) = acquired else { break };
        let acquired = match acquired {
            Ok(acquired) => acquired.map_err(|error| error.to_string()),
            Err(_) => Err(format!("no answer within {} ms", renew_every.as_millis())),
        };
        match acquired {
            Ok(true) => {
                let until = started + schedule.lease.saturating_sub(renew_every);
                deadline = Some(until);
                if held.renewed(until, || spawn_loops(store.clone(), schedule.clone())) {
                    tracing::info!(%holder, "this node holds the sync lease: syncing in the background");
                }
            }
            Ok(false) => {
                deadline = None;
                if held.stop() {
                    tracing::warn!("another node holds the sync lease now: this node stopped syncing");
                } else if !told_follower {
                    tracing::info!("another node holds the sync lease: this node serves without syncing");
                }
                told_follower = true;
            }
            // The loops go on until the deadline, unless a renewal comes first.
            Err(error) => tracing::warn!(%error, "cannot take or renew the sync lease"),
        }
    }
    let until = Instant::now() + renew_every;
    // The last writes may not outlast the time the lease is surely this node's.
    let until = deadline.map_or(until, |deadline| until.min(deadline));
    if stop(&mut held, last_writes, until).await {
        match tokio::time::timeout(renew_every, store.release_lease(LEASE, &holder)).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => tracing::warn!(%error, "could not release the sync lease; it expires by itself"),
            Err(_) => tracing::warn!("releasing the sync lease took too long; it expires by itself"),
        }
    }
}

/// Stops at shutdown: the loops at once; then waits for `last_writes` to end, the lease still
/// told held, until `until` at most (then aborts it, its write rolled back); then tells the
/// lease no longer held. Returns whether the loops ran (so the lease is to be released).
async fn stop(held: &mut Held, last_writes: Option<JoinHandle<()>>, until: Instant) -> bool {
    let syncing = held.loops.take().is_some();
    if let Some(mut last_writes) = last_writes {
        match tokio::time::timeout_at(until, &mut last_writes).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => tracing::warn!(%error, "the stream's price writer failed at shutdown"),
            Err(_) => {
                last_writes.abort();
                tracing::warn!(
                    "the stream's last prices were not written in time; the sync lease is released without them"
                );
            }
        }
    }
    held.stop();
    syncing
}

/// Waits for `deadline`; forever without one.
async fn lapse(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// The lease was not renewed by its deadline: the loops stop.
fn lapsed(held: &mut Held) {
    if held.stop() {
        tracing::warn!("the sync lease was not renewed in time and may lapse: this node stopped syncing");
    }
}

/// Starts one loop per exchange; dropping the set stops them.
fn spawn_loops(store: Arc<dyn Store>, schedule: Arc<SyncSchedule>) -> JoinSet<()> {
    // Both loops may finish a run at once; they update one match graph, one at a time.
    let rematching = Arc::new(Mutex::new(None));
    let mut loops = JoinSet::new();
    for exchange in Exchange::ALL {
        loops.spawn(exchange_loop(
            store.clone(),
            schedule.clone(),
            exchange,
            rematching.clone(),
        ));
    }
    loops.spawn(expiry_loop(store.clone(), schedule.retention));
    if !schedule.news_feeds.is_empty() {
        loops.spawn(news_loop(store, schedule));
    }
    loops
}

async fn expiry_loop(store: Arc<dyn Store>, retention: Retention) {
    loop {
        let started = Instant::now();
        match store.expire_history(Utc::now(), retention).await {
            Ok(report) => tracing::info!(
                five_minute_bars = report.five_minute_bars,
                hourly_bars = report.hourly_bars,
                seconds = started.elapsed().as_secs_f64(),
                "expired price history bars deleted"
            ),
            Err(error) => tracing::warn!(%error, "could not expire old price history bars; trying again later"),
        }
        tokio::time::sleep(EXPIRE_EVERY).await;
    }
}

async fn news_loop(store: Arc<dyn Store>, schedule: Arc<SyncSchedule>) {
    let fetcher = match FeedFetcher::new(&schedule.settings) {
        Ok(fetcher) => fetcher,
        Err(error) => {
            tracing::error!(%error, "cannot poll the news feeds");
            return;
        }
    };
    loop {
        match poll_feeds(
            store.as_ref(),
            &fetcher,
            &schedule.news_feeds,
            schedule.news_window,
            Utc::now(),
        )
        .await
        {
            Ok(report) if report.failed.is_empty() => {
                metrics::counter!("marketlens_news_polls_total", "outcome" => "success").increment(1);
                tracing::info!(summary = %report, "news feeds polled")
            }
            Ok(report) => {
                metrics::counter!("marketlens_news_polls_total", "outcome" => "partial").increment(1);
                tracing::warn!(summary = %report, "news feeds polled; some failed")
            }
            Err(error) => {
                metrics::counter!("marketlens_news_polls_total", "outcome" => "failure").increment(1);
                tracing::warn!(%error, "the news poll stopped: the store failed")
            }
        }
        tokio::time::sleep(schedule.news_every).await;
    }
}

async fn exchange_loop(
    store: Arc<dyn Store>,
    schedule: Arc<SyncSchedule>,
    exchange: Exchange,
    rematching: Arc<Mutex<Option<IncrementalMatcher>>>,
) {
    let fetcher = match Fetcher::new(exchange, &schedule.settings) {
        Ok(fetcher) => fetcher,
        Err(error) => {
            tracing::error!(%exchange, %error, "cannot sync this exchange");
            return;
        }
    };
    loop {
        let kind = next_kind(store.as_ref(), exchange, &schedule).await;
        let report = sync_exchange(store.as_ref(), &fetcher, &schedule.settings, kind, &mut |_| {}).await;
        metrics::counter!(
            "marketlens_sync_runs_total",
            "exchange" => exchange.as_str(),
            "kind" => kind.as_str(),
            "outcome" => if report.succeeded() { "success" } else { "failure" }
        )
        .increment(1);
        if report.succeeded() {
            tracing::info!(%exchange, summary = %report, "sync run finished");
        } else {
            tracing::warn!(%exchange, summary = %report, "sync run failed; the next run completes it");
        }
        // A retitled event changes what its markets are matched on.
        if report.changed_markets() || report.counts.events_updated > 0 {
            let mut held = rematching.lock().await;
            // A full run also starts the graph over: another process (`import`, `sync`) may
            // have replaced the stored matches meanwhile, and this bounds how long that lasts.
            if kind == SyncKind::Full {
                *held = None;
            }
            update_matches(store.as_ref(), &mut held).await;
        }
        tokio::time::sleep(schedule.incremental_every).await;
    }
}

/// Brings the stored matches up to date: from scratch when no graph is held, else for what
/// changed. A failure drops the graph, so that the next update starts over.
async fn update_matches(store: &dyn Store, held: &mut Option<IncrementalMatcher>) {
    match held.take() {
        None => match IncrementalMatcher::start(store).await {
            Ok((matcher, pairs)) => {
                tracing::info!(pairs, "matches computed");
                *held = Some(matcher);
            }
            Err(error) => tracing::warn!(%error, "could not compute matches"),
        },
        Some(mut matcher) => match matcher.update(store).await {
            Ok(update) => {
                tracing::info!(
                    read = update.read,
                    rescored = update.rescored,
                    rewritten = update.markets_rewritten,
                    seconds = update.took.as_secs_f64(),
                    "matches updated"
                );
                *held = Some(matcher);
            }
            Err(error) => tracing::warn!(%error, "could not update matches; the next update starts over"),
        },
    }
}

async fn next_kind(store: &dyn Store, exchange: Exchange, schedule: &SyncSchedule) -> SyncKind {
    let full_every = TimeDelta::from_std(schedule.full_every).unwrap_or(TimeDelta::MAX);
    match store.sync_status(exchange).await {
        Ok(status) => match status.latest_full_success {
            Some(run) if Utc::now() - run.finished_at < full_every => SyncKind::Incremental,
            _ => SyncKind::Full,
        },
        Err(error) => {
            tracing::warn!(%exchange, %error, "cannot read the sync status; running an incremental sync");
            SyncKind::Incremental
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Held loops: one task that runs until it is aborted, which closes `aborted`.
    fn held_loops(
        deadline: Instant,
    ) -> (
        Held,
        watch::Receiver<Option<Instant>>,
        tokio::sync::oneshot::Receiver<()>,
    ) {
        let (holding, told) = watch::channel(Some(deadline));
        let (running, aborted) = tokio::sync::oneshot::channel::<()>();
        let mut loops = JoinSet::new();
        loops.spawn(async move {
            let _running = running;
            std::future::pending::<()>().await;
        });
        let held = Held {
            loops: Some(loops),
            holding,
        };
        (held, told, aborted)
    }

    #[tokio::test]
    async fn at_shutdown_the_loops_stop_first_and_the_lease_is_given_up_after_the_last_writes() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let (mut held, told, aborted) = held_loops(deadline);
        // What the last writes see, sent back to be checked here (a panic in the task would
        // not fail the test): the loops stopped, and the lease still held.
        let (seen, sight) = tokio::sync::oneshot::channel();
        let last_writes = tokio::spawn(async move {
            let loops_stopped = aborted.await.is_err();
            tokio::time::sleep(Duration::from_millis(50)).await;
            let _ = seen.send((loops_stopped, *told.borrow()));
        });
        let ran = stop(&mut held, Some(last_writes), Instant::now() + Duration::from_secs(10)).await;
        assert!(ran);
        assert!(held.holding.borrow().is_none(), "the lease is told given up after");
        let (loops_stopped, lease) = sight.await.expect("the last writes ran");
        assert!(loops_stopped, "the loops were not stopped first");
        assert_eq!(
            lease,
            Some(deadline),
            "the lease was not told held during the last writes"
        );
    }

    #[tokio::test]
    async fn a_last_write_that_hangs_keeps_the_lease_for_the_bound_only() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let (mut held, told, _aborted) = held_loops(deadline);
        let hung = tokio::spawn(std::future::pending::<()>());
        let abort = hung.abort_handle();
        let started = Instant::now();
        let watching = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(50)).await;
            *told.borrow()
        });
        assert!(stop(&mut held, Some(hung), started + Duration::from_millis(200)).await);
        let elapsed = started.elapsed();
        assert!(elapsed >= Duration::from_millis(200), "it did not wait: {elapsed:?}");
        assert!(
            elapsed < Duration::from_secs(5),
            "it waited past the bound: {elapsed:?}"
        );
        assert_eq!(
            watching.await.unwrap(),
            Some(deadline),
            "the lease was not held while waiting"
        );
        assert!(held.holding.borrow().is_none());
        tokio::task::yield_now().await;
        assert!(abort.is_finished(), "the hung write was not aborted");
    }
}
