//! The state every handler shares: cheap-to-clone handles, built once at start-up.

use marketlens_domain::rate_limit::TierTable;
use marketlens_storage::Store;
use std::sync::Arc;
use std::time::Duration;

use crate::rate_limit::RateLimiter;

/// What the API takes from configuration.
#[derive(Debug, Clone)]
pub struct ApiSettings {
    /// Requests per minute of each tier.
    pub tiers: TierTable,
    /// The longest a request may take before it is answered 503 (and its charge refunded).
    pub request_timeout: Duration,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            tiers: TierTable::default(),
            request_timeout: Duration::from_secs(30),
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub store: Arc<dyn Store>,
    pub rate_limiter: Arc<RateLimiter>,
    pub settings: Arc<ApiSettings>,
}

impl AppState {
    pub fn new(store: Arc<dyn Store>, settings: ApiSettings) -> AppState {
        AppState {
            store,
            rate_limiter: Arc::new(RateLimiter::default()),
            settings: Arc::new(settings),
        }
    }
}
