//! The running server: a handle for the test, and the state it shares with the handlers.

use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use marketlens_domain::Exchange;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::oneshot;

use crate::catalog::Catalog;
use crate::data::ReplayData;
use crate::depth::DepthRecordings;
use crate::error::ReplayError;
use crate::fault::{Fault, FaultQueue};
use crate::stream::{self, StreamState};
use crate::{depth, kalshi, news, polymarket};

/// A replay server running in a background task of the current Tokio runtime; dropping it
/// stops the server.
///
/// ```no_run
/// # async fn example() {
/// use marketlens_replay::{Fault, ReplayData, ReplayServer};
///
/// let server = ReplayServer::start(ReplayData::recorded());
/// server.inject_on("/events/keyset", Fault::TooManyRequests { retry_after_secs: Some(1) });
/// let first_page = format!("{}/events/keyset?limit=100&closed=false", server.polymarket_url());
/// # }
/// ```
pub struct ReplayServer {
    address: SocketAddr,
    shared: Arc<Shared>,
    /// Sending (or dropping) this stops the server: it stops accepting, finishes the requests
    /// in flight and closes idle connections.
    shutdown: Option<oneshot::Sender<()>>,
}

/// What the handle and the handlers share. Std mutexes: no lock is held across an `.await`,
/// and the test-side methods are synchronous.
pub(crate) struct Shared {
    catalog: Mutex<Catalog>,
    faults: Mutex<FaultQueue>,
    /// Whether what clients send is kept for the test to read ([`Shared::record`]); turned
    /// off for a server that runs for days ([`ReplayServer::stop_recording_clients`]).
    recording: AtomicBool,
    /// Every request so far: its path and raw query.
    requests: Mutex<Vec<(String, String)>>,
    /// The recorded order books and trades (fixed for the server's life).
    pub(crate) depth: DepthRecordings,
    /// The WebSocket streams' faults, speed and what clients sent.
    pub(crate) stream: StreamState,
}

impl Shared {
    pub(crate) fn catalog(&self) -> MutexGuard<'_, Catalog> {
        lock(&self.catalog)
    }

    /// Appends `entry` to `log`, one of the records of what clients sent, unless the server
    /// keeps none.
    pub(crate) fn record<T>(&self, log: &Mutex<Vec<T>>, entry: T) {
        if self.recording.load(Ordering::Relaxed) {
            lock(log).push(entry);
        }
    }
}

impl ReplayServer {
    /// Serves `data` on `127.0.0.1` at a free port.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime, or if no port can be bound.
    pub fn start(data: ReplayData) -> ReplayServer {
        let address = SocketAddr::from(([127, 0, 0, 1], 0));
        ReplayServer::bind(address, data).expect("the replay server binds 127.0.0.1:0")
    }

    /// Serves `data` at `address` (port 0 for a free one), for the benchmark binary.
    ///
    /// # Panics
    ///
    /// Outside a Tokio runtime.
    pub fn bind(address: SocketAddr, data: ReplayData) -> std::io::Result<ReplayServer> {
        // A std bind keeps `start` synchronous: the port is listening when it returns.
        let listener = std::net::TcpListener::bind(address)?;
        listener.set_nonblocking(true)?;
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let address = listener.local_addr()?;

        let depth = data.depth.clone();
        let shared = Arc::new(Shared {
            depth,
            catalog: Mutex::new(Catalog::new(data)),
            faults: Mutex::new(FaultQueue::default()),
            recording: AtomicBool::new(true),
            requests: Mutex::new(Vec::new()),
            stream: StreamState::default(),
        });
        let (shutdown, stopped) = oneshot::channel::<()>();
        let router = router(shared.clone());
        tokio::spawn(async move {
            let serving = axum::serve(listener, router).with_graceful_shutdown(async {
                stopped.await.ok();
            });
            if let Err(error) = serving.await {
                tracing::error!(%error, "the replay server stopped");
            }
        });
        Ok(ReplayServer {
            address,
            shared,
            shutdown: Some(shutdown),
        })
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    /// The address the server listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The Gamma base URL: `http://127.0.0.1:PORT/polymarket`.
    pub fn polymarket_url(&self) -> String {
        format!("http://{}/polymarket", self.address)
    }

    /// The Kalshi base URL: `http://127.0.0.1:PORT/kalshi/trade-api/v2`.
    pub fn kalshi_url(&self) -> String {
        format!("http://{}/kalshi/trade-api/v2", self.address)
    }

    /// Polymarket's CLOB base URL (order books): `http://127.0.0.1:PORT/polymarket-clob`.
    pub fn polymarket_clob_url(&self) -> String {
        format!("http://{}/polymarket-clob", self.address)
    }

    /// Polymarket's Data API base URL (trades): `http://127.0.0.1:PORT/polymarket-data`.
    pub fn polymarket_data_url(&self) -> String {
        format!("http://{}/polymarket-data", self.address)
    }

    /// The URL of a recorded news feed of `demo-data/news/`, e.g. `bbc-news-home-2020-08.xml`.
    pub fn news_url(&self, file: &str) -> String {
        format!("http://{}/news/{file}", self.address)
    }

    /// Queues `fault` for the next request, whatever its endpoint. Faults apply in the order
    /// queued: a request takes the oldest queued fault that applies to it.
    pub fn inject(&self, fault: Fault) {
        lock(&self.shared.faults).push(None, fault);
    }

    /// Queues `fault` for the next request whose path ends with `path_suffix`, such as
    /// `"/events/keyset"` or `"/trade-api/v2/markets"`.
    pub fn inject_on(&self, path_suffix: &str, fault: Fault) {
        lock(&self.shared.faults).push(Some(path_suffix.to_owned()), fault);
    }

    /// Changes a market (Polymarket `id`, Kalshi `ticker`) wherever it appears: in the market
    /// list and nested in events. `change` runs on the first copy (the one `/markets` serves);
    /// the fields it set or removed are written into the other copies.
    ///
    /// # Panics
    ///
    /// If there is no market with `external_id`.
    pub fn update_market(&self, exchange: Exchange, external_id: &str, change: impl FnOnce(&mut Value)) {
        self.shared.catalog().update_market(exchange, external_id, change);
    }

    /// Changes an event (Polymarket `id`, Kalshi `event_ticker`) wherever it appears: in the
    /// event list and, on Polymarket, in the `events` its top-level markets embed (all fields
    /// but `markets`).
    ///
    /// # Panics
    ///
    /// If there is no event with `external_id`.
    pub fn update_event(&self, exchange: Exchange, external_id: &str, change: impl FnOnce(&mut Value)) {
        self.shared.catalog().update_event(exchange, external_id, change);
    }

    /// Every request served so far, in order: its path and raw query (`""` when none).
    pub fn requests(&self) -> Vec<(String, String)> {
        lock(&self.shared.requests).clone()
    }

    /// From now on, keeps no record of what clients send: [`ReplayServer::requests`],
    /// [`ReplayServer::stream_messages`], [`ReplayServer::kalshi_handshakes`] and
    /// [`ReplayServer::stream_connections`] tell only what came before. For a server that
    /// runs for days (the demo's), whose records tests never read and would only grow: a
    /// Polymarket client alone sends a `PING` every ten seconds.
    pub fn stop_recording_clients(&self) {
        self.shared.recording.store(false, Ordering::Relaxed);
    }
}

impl Drop for ReplayServer {
    fn drop(&mut self) {
        if let Some(shutdown) = self.shutdown.take() {
            shutdown.send(()).ok();
        }
    }
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .nest("/polymarket", polymarket::router())
        .nest("/polymarket-clob", depth::clob_router())
        .nest("/polymarket-data", depth::data_router())
        .nest("/kalshi/trade-api/v2", kalshi::router().merge(depth::kalshi_router()))
        .nest("/news", news::router())
        .merge(stream::router())
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(shared.clone(), record_and_misbehave))
        .with_state(shared)
}

/// Logs every request (while the server records its clients), then answers it with the fault queued for it, if any.
async fn record_and_misbehave(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or_default().to_owned();
    shared.record(&shared.requests, (path.clone(), query));
    let fault = lock(&shared.faults).take_for(&path);
    match fault {
        Some(fault) => {
            tracing::debug!(?fault, path, "injecting a fault");
            fault.answer(request, next).await
        }
        None => next.run(request).await,
    }
}

async fn not_found(request: Request) -> Response {
    ReplayError::NotFound {
        path: request.uri().path().to_owned(),
    }
    .into_response()
}

/// Locks `mutex`, ignoring poisoning: a panicking test thread must not break the server for
/// the assertions that follow.
pub(crate) fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
