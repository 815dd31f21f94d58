//! `marketlens serve`: the API and the background tasks of a serving node (the sync, unless
//! `--no-sync`). Stops gracefully on SIGTERM or Ctrl-C, finishing requests in flight.

use anyhow::Context;
use marketlens_api::AppState;
use marketlens_api::rate_limit::{InProcessRateLimiter, RateLimiter, RedisRateLimiter};
use marketlens_api::stream::StreamHub;
use marketlens_domain::depth::DepthSource;
use marketlens_storage::{HistoryStore, Store};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use marketlens_sync::schedule::SyncSchedule;

use crate::config::{LiveStream, ServerConfig};
use marketlens_sync::schedule::BackgroundSync;

/// How often each node reads the articles stored since its last look.
const NEWS_CHECK_EVERY: Duration = Duration::from_secs(10);

pub async fn run(
    store: Arc<dyn Store>,
    config: ServerConfig,
    sync: Option<SyncSchedule>,
    depth: Option<Arc<dyn DepthSource>>,
    stream: Option<LiveStream>,
    listener: TcpListener,
) -> anyhow::Result<ExitCode> {
    serve(store, config, sync, depth, stream, listener).await?;
    Ok(ExitCode::SUCCESS)
}

/// The listener on `bind`, taken before the store is opened: an address in use is refused
/// before anything is written.
pub async fn listen(bind: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(bind)
        .await
        .with_context(|| format!("could not listen on {bind} (--bind / MARKETLENS_BIND)"))
}

/// Serves the API on `listener` with every background task of a serving node, started here
/// and stopped by one signal (SIGTERM or Ctrl-C, which cancels `shutdown`): the catalogue and
/// the news kept in step with the store, and the background sync when `sync` is given. The
/// server finishes the requests in flight while each task ends at its next pause: the sync
/// loops at once, the stream's prices written one last time, and then the lease released.
/// Order books and trades come from `depth`, live ones from `stream`; without them they are
/// answered 503 `DEPTH_UNAVAILABLE`.
pub async fn serve(
    store: Arc<dyn Store>,
    config: ServerConfig,
    sync: Option<SyncSchedule>,
    depth: Option<Arc<dyn DepthSource>>,
    stream: Option<LiveStream>,
    listener: TcpListener,
) -> anyhow::Result<()> {
    let shutdown = CancellationToken::new();
    tokio::spawn(cancel_on_signal(shutdown.clone()));
    let address = listener.local_addr()?;
    tracing::info!(%address, "serving the Marketlens API");
    let rate_limiter: Arc<dyn RateLimiter> = match &config.redis_url {
        Some(url) => {
            tracing::info!("rate limits count in Redis, shared by every node");
            Arc::new(
                RedisRateLimiter::new(url, &config.redis_key_prefix).context("--redis-url / MARKETLENS_REDIS_URL")?,
            )
        }
        None => Arc::new(InProcessRateLimiter::default()),
    };
    // The relay connects to the exchanges, and the stream's prices are written to the
    // history, while this node holds the sync lease.
    let lease = stream
        .as_ref()
        .map_or_else(|| watch::channel(None).0, |stream| stream.lease.clone());
    let prices = stream.as_ref().and_then(|stream| stream.prices.as_ref());
    let history_task = prices.map(|prices| {
        let history: Arc<dyn HistoryStore> = store.clone();
        prices.write_in_background(history, lease.subscribe(), shutdown.clone())
    });
    // On shutdown the sync loops stop at once, but the lease is given up only after the
    // stream's last prices are written (bounded by a renewal period): the background sync
    // waits for the writing task, while this node still holds the lease.
    let (background_sync, history_task) = match sync {
        Some(schedule) => {
            let background_sync = BackgroundSync::start(store.clone(), schedule, lease, shutdown.clone(), history_task);
            (Some(background_sync), None)
        }
        None => {
            tracing::info!("background sync is off");
            (None, history_task)
        }
    };
    let mut state = AppState::with_rate_limiter(store, config.api, rate_limiter);
    match depth {
        Some(depth) => state = state.with_depth(depth),
        None => tracing::info!("order books and trades are off: no depth source"),
    }
    match stream {
        Some(stream) => {
            let hub = StreamHub::start(stream.feed, stream.origin, stream.updates, stream.markets);
            state = state.with_stream(hub.clone());
            // Streams outlive the server's wait for requests in flight (an upgraded
            // connection is no longer one): they are closed, going away, as shutdown begins.
            let closing = shutdown.clone();
            tokio::spawn(async move {
                closing.cancelled().await;
                hub.close_all();
            });
        }
        None => tracing::info!("the live stream is off"),
    }
    // Lists are answered by the store until the catalogue is in memory, then from memory.
    let catalog_task = state.catalog.keep_in_step(config.catalog, shutdown.clone());
    let news_task = state.news.keep_in_step(NEWS_CHECK_EVERY, shutdown.clone());
    let sweep_task = marketlens_api::sweep::sweep_expired(state.store.clone(), shutdown.clone());
    let app = marketlens_api::app(state);
    let served = marketlens_api::serve(listener, app, shutdown.clone().cancelled_owned()).await;
    // The server may also have stopped on an error: the tasks stop either way.
    shutdown.cancel();
    for task in [catalog_task, news_task, sweep_task].into_iter().chain(history_task) {
        if let Err(error) = task.await {
            tracing::warn!(%error, "a background task did not stop cleanly");
        }
    }
    if let Some(background_sync) = background_sync {
        background_sync.stopped().await;
    }
    tracing::info!("stopped");
    served.context("the server failed")
}

/// Cancels `shutdown` on SIGTERM or Ctrl-C.
async fn cancel_on_signal(shutdown: CancellationToken) {
    shutdown_signal().await;
    shutdown.cancel();
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
