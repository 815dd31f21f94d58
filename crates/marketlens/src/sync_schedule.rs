//! The background sync of `serve`: one loop per exchange. Each run is full when the exchange
//! has had no successful full run within the full interval (so a new store fills itself),
//! else incremental; runs follow each other after the incremental interval. Every run's
//! summary is logged, and matches are recomputed when a run changed markets.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_storage::{Store, SyncKind};
use marketlens_sync::{Fetcher, sync_exchange};
use std::sync::Arc;
use tokio::sync::Mutex;
use tokio::task::JoinSet;

use crate::config::SyncSchedule;
use crate::ingest;

/// Starts one loop per exchange; dropping (or aborting) the set stops them.
pub fn spawn(store: Arc<dyn Store>, schedule: SyncSchedule) -> JoinSet<()> {
    let schedule = Arc::new(schedule);
    // Both loops may finish a run at once; one rematch at a time is enough.
    let rematching = Arc::new(Mutex::new(()));
    let mut loops = JoinSet::new();
    for exchange in Exchange::ALL {
        loops.spawn(exchange_loop(
            store.clone(),
            schedule.clone(),
            exchange,
            rematching.clone(),
        ));
    }
    loops
}

async fn exchange_loop(
    store: Arc<dyn Store>,
    schedule: Arc<SyncSchedule>,
    exchange: Exchange,
    rematching: Arc<Mutex<()>>,
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
        if report.succeeded() {
            tracing::info!(%exchange, summary = %report, "sync run finished");
        } else {
            tracing::warn!(%exchange, summary = %report, "sync run failed; the next run completes it");
        }
        if report.changed_markets() {
            let _one_at_a_time = rematching.lock().await;
            match ingest::rematch(store.as_ref()).await {
                Ok(pairs) => tracing::info!(pairs, "matches recomputed"),
                Err(error) => tracing::warn!(%error, "could not recompute matches"),
            }
        }
        tokio::time::sleep(schedule.incremental_every).await;
    }
}

async fn next_kind(store: &dyn Store, exchange: Exchange, schedule: &SyncSchedule) -> SyncKind {
    let full_every = chrono::TimeDelta::from_std(schedule.full_every).unwrap_or(chrono::TimeDelta::MAX);
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
