//! The state every handler shares: cheap-to-clone handles, built once at start-up, behind one
//! `Arc`.

use chrono::TimeDelta;
use marketlens_catalog::{LiveCatalog, LiveNews};
use marketlens_domain::depth::DepthSource;
use marketlens_domain::rate_limit::TierTable;
use marketlens_storage::Store;
use std::ops::Deref;
use std::sync::Arc;
use std::time::Duration;

use crate::admin_token::AdminToken;
use crate::billing::charger::Charger;
use crate::failed_auth::FailedAuth;
use crate::freshness::Freshness;
use crate::idempotency::Waiters;
use crate::key_cache::KeyCache;
use crate::rate_limit::{InProcessRateLimiter, RateLimiter};
use crate::routes::benchmark::bodies::CeilingBodies;
use crate::routes::health::readiness::ReadinessCache;
use crate::store_health::StoreHealth;
use crate::stream::{StreamHub, StreamSettings};

/// What the API takes from configuration.
#[derive(Debug, Clone)]
pub struct ApiSettings {
    /// Requests per minute of each tier.
    pub tiers: TierTable,
    /// The longest a request may take, authentication, work and charge included, before it is
    /// answered 503 (uncharged; see [`crate::deadline`]).
    pub request_timeout: Duration,
    /// How long the store may take to answer the health probe before it is reported slow
    /// (see [`crate::store_health`]).
    pub store_slow_after: Duration,
    /// Whether `GET /benchmark/ceiling` is served (`serve --benchmark`).
    pub benchmark: bool,
    /// How old a news article may be and still count as recent for explain.
    pub news_window: TimeDelta,
    /// The admin API's token (`MARKETLENS_ADMIN_TOKEN`); the admin API is off without one.
    pub admin_token: Option<AdminToken>,
    /// How long after its last sync a market's price counts as stale in spreads.
    pub stale_after: TimeDelta,
    /// Failed authentications (API key or admin token) an address may make in a minute before
    /// its unknown credentials are refused unread; 0 turns the limit off (see
    /// [`crate::failed_auth`]).
    pub failed_auth_per_minute: u32,
    /// How long the answer of a call sent with an `Idempotency-Key` is kept for its repeats
    /// (see [`crate::idempotency`]).
    pub idempotency_ttl: Duration,
    /// How old an order book may be before it is marked `stale` (see `routes/depth.rs`).
    pub depth_max_age: Duration,
    /// Live streams' billing period, heartbeat, queues and per-tier limits (see [`crate::stream`]).
    pub stream: StreamSettings,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            tiers: TierTable::default(),
            request_timeout: Duration::from_secs(30),
            store_slow_after: crate::store_health::DEFAULT_SLOW_AFTER,
            benchmark: false,
            news_window: TimeDelta::days(14),
            admin_token: None,
            stale_after: DEFAULT_STALE_AFTER,
            failed_auth_per_minute: DEFAULT_FAILED_AUTH_PER_MINUTE,
            idempotency_ttl: DEFAULT_IDEMPOTENCY_TTL,
            depth_max_age: DEFAULT_DEPTH_MAX_AGE,
            stream: StreamSettings::default(),
        }
    }
}

/// One failed authentication a second, on average, per address.
pub const DEFAULT_FAILED_AUTH_PER_MINUTE: u32 = 60;

/// A day, as clients of payment APIs expect.
pub const DEFAULT_IDEMPOTENCY_TTL: Duration = Duration::from_secs(86_400);

/// Five times the default depth cache's life: a book this old has been refetched several
/// times over, so one older is either a recording or an exchange's stale clock.
pub const DEFAULT_DEPTH_MAX_AGE: Duration = Duration::from_secs(10);

/// Three times the default interval of incremental syncs: one missed sync is not yet stale.
pub const DEFAULT_STALE_AFTER: TimeDelta = TimeDelta::minutes(15);

/// How much longer than its timeout a request whose charge began may wait for the charge's
/// outcome before the server gives up on it (a backstop for a store that stopped answering in
/// the middle of a commit; see [`crate::deadline`]).
pub const REQUEST_TIMEOUT_MARGIN: Duration = Duration::from_secs(10);

/// The state every handler shares, behind one `Arc`: axum clones it for every extractor and
/// middleware of every request, and one reference count is cheaper than one per handle
/// (cloning and dropping the handles one by one was about a tenth of a list call's samples
/// in `bench/profile.sh`, 0.2% since; README, Performance).
#[derive(Clone)]
pub struct AppState(Arc<SharedState>);

impl Deref for AppState {
    type Target = SharedState;

    fn deref(&self) -> &SharedState {
        &self.0
    }
}

/// What [`AppState`] holds: cheap-to-clone handles, built once at start-up.
#[derive(Clone)]
pub struct SharedState {
    pub store: Arc<dyn Store>,
    /// Lists, search, matches and events, from memory once loaded (see `marketlens_catalog`).
    pub catalog: Arc<LiveCatalog>,
    /// Recent news, for explain's key factors.
    pub news: Arc<LiveNews>,
    /// When each exchange's syncs last confirmed its markets.
    pub freshness: Arc<Freshness>,
    pub rate_limiter: Arc<dyn RateLimiter>,
    pub keys: Arc<KeyCache>,
    /// Whether the store is away, known without asking it.
    pub store_health: Arc<StoreHealth>,
    pub failed_auth: Arc<FailedAuth>,
    pub charger: Charger,
    /// Wakes requests waiting on this node for another that holds their idempotency key.
    pub(crate) idempotency_waiters: Arc<Waiters>,
    pub settings: Arc<ApiSettings>,
    /// The last `/readyz` reading.
    pub(crate) readiness: Arc<ReadinessCache>,
    /// The constant bodies of `/benchmark/ceiling`.
    pub(crate) benchmark_bodies: Arc<CeilingBodies>,
    /// Where order books and trades come from; `None` answers them 503 `DEPTH_UNAVAILABLE`.
    pub depth: Option<Arc<dyn DepthSource>>,
    /// Live streams (`GET /api/v1/stream`) and the books they keep; `None` answers the
    /// stream 503 `DEPTH_UNAVAILABLE`.
    pub stream: Option<StreamHub>,
}

impl AppState {
    /// State with the in-process rate limiter (one node). Starts the charging task and the
    /// store's health probe, so it must be called inside a Tokio runtime.
    pub fn new(store: Arc<dyn Store>, settings: ApiSettings) -> AppState {
        AppState::with_rate_limiter(store, settings, Arc::new(InProcessRateLimiter::default()))
    }

    pub fn with_rate_limiter(
        store: Arc<dyn Store>,
        settings: ApiSettings,
        rate_limiter: Arc<dyn RateLimiter>,
    ) -> AppState {
        let store_health = StoreHealth::start(store.clone(), settings.store_slow_after);
        AppState(Arc::new(SharedState {
            charger: Charger::start(store.clone(), store_health.clone()),
            store_health,
            idempotency_waiters: Arc::default(),
            catalog: LiveCatalog::new(store.clone()),
            news: LiveNews::new(store.clone(), settings.news_window),
            freshness: Arc::new(Freshness::new(store.clone())),
            store,
            rate_limiter,
            keys: Arc::new(KeyCache::default()),
            failed_auth: Arc::new(FailedAuth::new(settings.failed_auth_per_minute)),
            settings: Arc::new(settings),
            readiness: Arc::default(),
            benchmark_bodies: Arc::default(),
            depth: None,
            stream: None,
        }))
    }

    /// This state, with live streams from `hub`, whose books also answer
    /// `GET /markets/{id}/orderbook` while they are live.
    pub fn with_stream(self, hub: StreamHub) -> AppState {
        AppState(Arc::new(SharedState {
            stream: Some(hub),
            ..Arc::unwrap_or_clone(self.0)
        }))
    }

    /// This state, with order books and trades from `depth`.
    pub fn with_depth(self, depth: Arc<dyn DepthSource>) -> AppState {
        AppState(Arc::new(SharedState {
            depth: Some(depth),
            ..Arc::unwrap_or_clone(self.0)
        }))
    }
}
