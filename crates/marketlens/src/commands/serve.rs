//! `marketlens serve`: the API, the background sync (unless `--no-sync`), and the sweep that
//! refunds charges whose calls never finished (the process that took them died). Stops gracefully on SIGTERM or Ctrl-C,
//! finishing requests in flight.

use anyhow::Context;
use chrono::{TimeDelta, Utc};
use marketlens_api::AppState;
use marketlens_api::rate_limit::{InProcessRateLimiter, RateLimiter, RedisRateLimiter};
use marketlens_storage::Store;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

use crate::config::{ServerConfig, SyncSchedule};
use crate::sync_schedule;

/// How much older than the longest possible request a pending charge must be before the
/// sweep refunds it: by then its call cannot still be running.
const STALE_RESERVATION_MARGIN: TimeDelta = TimeDelta::minutes(1);
const SWEEP_INTERVAL: Duration = Duration::from_secs(60);
/// The prefix of every key Marketlens writes in Redis.
const REDIS_KEY_PREFIX: &str = "marketlens";

pub async fn run(store: Arc<dyn Store>, config: ServerConfig, sync: Option<SyncSchedule>) -> anyhow::Result<ExitCode> {
    let listener = TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("could not listen on {}", config.bind))?;
    // Dropping the loops at the end of `run` stops them; a run cut off mid-page loses nothing.
    let _sync_loops = match sync {
        Some(schedule) => Some(sync_schedule::spawn(store.clone(), schedule)),
        None => {
            tracing::info!("background sync is off");
            None
        }
    };
    serve(store, config, listener).await?;
    Ok(ExitCode::SUCCESS)
}

pub async fn serve(store: Arc<dyn Store>, config: ServerConfig, listener: TcpListener) -> anyhow::Result<()> {
    let longest_request = config.api.request_timeout + marketlens_api::state::REQUEST_TIMEOUT_MARGIN;
    let stale_age = TimeDelta::from_std(longest_request).unwrap_or(TimeDelta::MAX) + STALE_RESERVATION_MARGIN;
    let sweeper = tokio::spawn(sweep_stale_reservations(store.clone(), stale_age));
    let address = listener.local_addr()?;
    tracing::info!(%address, "serving the Marketlens API");
    let rate_limiter: Arc<dyn RateLimiter> = match &config.redis_url {
        Some(url) => {
            tracing::info!("rate limits count in Redis, shared by every node");
            Arc::new(RedisRateLimiter::new(url, REDIS_KEY_PREFIX).context("--redis-url / MARKETLENS_REDIS_URL")?)
        }
        None => Arc::new(InProcessRateLimiter::default()),
    };
    let app = marketlens_api::app(AppState::with_rate_limiter(store, config.api, rate_limiter));
    let served = marketlens_api::serve(listener, app, shutdown_signal()).await;
    sweeper.abort();
    tracing::info!("stopped");
    served.context("the server failed")
}

async fn sweep_stale_reservations(store: Arc<dyn Store>, stale_age: TimeDelta) {
    let mut interval = tokio::time::interval(SWEEP_INTERVAL);
    loop {
        interval.tick().await;
        let now = Utc::now();
        match store.release_stale_reservations(now - stale_age, now).await {
            Ok(0) => {}
            Ok(released) => tracing::warn!(released, "refunded charges of calls that never finished"),
            Err(error) => tracing::warn!(%error, "could not sweep stale reservations"),
        }
    }
}

async fn shutdown_signal() {
    let interrupt = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing requests in flight");
}
