//! `marketlens serve`: the API and the background sync (unless `--no-sync`). Stops
//! gracefully on SIGTERM or Ctrl-C, finishing requests in flight.

use anyhow::Context;
use marketlens_api::AppState;
use marketlens_api::rate_limit::{InProcessRateLimiter, RateLimiter, RedisRateLimiter};
use marketlens_storage::Store;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

use marketlens_sync::schedule::SyncSchedule;

use crate::config::ServerConfig;
use marketlens_sync::schedule::BackgroundSync;

/// How often each node reads the articles stored since its last look.
const NEWS_CHECK_EVERY: Duration = Duration::from_secs(10);

/// The prefix of every key Marketlens writes in Redis.
const REDIS_KEY_PREFIX: &str = "marketlens";

pub async fn run(store: Arc<dyn Store>, config: ServerConfig, sync: Option<SyncSchedule>) -> anyhow::Result<ExitCode> {
    let listener = TcpListener::bind(config.bind)
        .await
        .with_context(|| format!("could not listen on {}", config.bind))?;
    let background_sync = match sync {
        Some(schedule) => Some(BackgroundSync::start(store.clone(), schedule)),
        None => {
            tracing::info!("background sync is off");
            None
        }
    };
    let served = serve(store, config, listener).await;
    if let Some(background_sync) = background_sync {
        background_sync.stop().await;
    }
    served?;
    Ok(ExitCode::SUCCESS)
}

pub async fn serve(store: Arc<dyn Store>, config: ServerConfig, listener: TcpListener) -> anyhow::Result<()> {
    let address = listener.local_addr()?;
    tracing::info!(%address, "serving the Marketlens API");
    let rate_limiter: Arc<dyn RateLimiter> = match &config.redis_url {
        Some(url) => {
            tracing::info!("rate limits count in Redis, shared by every node");
            Arc::new(RedisRateLimiter::new(url, REDIS_KEY_PREFIX).context("--redis-url / MARKETLENS_REDIS_URL")?)
        }
        None => Arc::new(InProcessRateLimiter::default()),
    };
    let state = AppState::with_rate_limiter(store, config.api, rate_limiter);
    // Lists are answered by the store until the catalogue is in memory, then from memory.
    let catalog_task = state.catalog.keep_in_step(config.catalog);
    let news_task = state.news.keep_in_step(NEWS_CHECK_EVERY);
    let app = marketlens_api::app(state);
    let served = marketlens_api::serve(listener, app, shutdown_signal()).await;
    catalog_task.abort();
    news_task.abort();
    tracing::info!("stopped");
    served.context("the server failed")
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
