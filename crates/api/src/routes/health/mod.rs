//! Liveness and readiness for load balancers and orchestrators; no key needed.

pub(crate) mod readiness;

use axum::Json;
use axum::extract::State;
use chrono::Utc;
use marketlens_domain::time::to_iso8601;
use marketlens_domain::{Exchange, redact};
use marketlens_storage::{FeedStatus, StoreError, SyncStatus};
use serde_json::{Map, Value, json};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::breaker::{Tripped, Trouble};
use crate::error::{ApiError, ErrorBody};
use crate::state::AppState;

/// The process is up and answering.
#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "checkLiveness",
    tag = "operations",
    responses((status = 200, description = "Alive: `{\"status\": \"ok\"}`.", body = Object))
)]
pub async fn alive() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The process can serve: its store answers, quickly enough, and takes writes.
///
/// Answers at once, 503, while the store's health probe finds it down, read-only or slow
/// (the reason in the message); else reports what the store holds and, per exchange, the freshness of its data: the last
/// successful sync, its age, and the last run's error (URLs in errors without their
/// credentials). Read at most once a second however often it is asked (see
/// [`ReadinessCache`]), since anyone may ask.
#[utoipa::path(
    get,
    path = "/readyz",
    operation_id = "checkReadiness",
    tag = "operations",
    responses(
        (status = 200, description = "Ready: counts, per-exchange sync freshness, the catalogue, the news index and the rate limiter.", body = Object),
        (status = 503, description = "Not ready (`SERVICE_UNAVAILABLE`, the reason in the message): the store does not answer, answers more slowly than the configured bound, or refuses writes.", body = ErrorBody),
    )
)]
pub async fn ready(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    if let Some(tripped) = state.store_health.tripped() {
        return Err(not_ready(&tripped));
    }
    // A reading under way when the store's breaker trips (its reads hang on a store gone
    // silent) gives way to the breaker's answer.
    tokio::select! {
        reading = state.readiness.get(|| readiness(&state)) => reading.map(Json),
        () = state.store_health.refusing() => match state.store_health.tripped() {
            Some(tripped) => Err(not_ready(&tripped)),
            None => state.readiness.get(|| readiness(&state)).await.map(Json),
        },
    }
}

/// Not ready for the store's trouble, with its reason and how long it has lasted.
fn not_ready(tripped: &Tripped) -> ApiError {
    let why = match tripped.trouble {
        Trouble::Down => "the data store does not answer",
        Trouble::ReadOnly => "the data store is read-only, so calls cannot be charged",
        Trouble::Slow => "the data store answers too slowly",
    };
    // The reason itself (an address, a path, the database's words) is logged when the breaker
    // trips, not told to whoever asks: readiness answers without a key.
    ApiError::ServiceUnavailable {
        message: format!("Not ready: {why} (for {} s).", tripped.since.elapsed().as_secs()),
    }
}

/// What `/readyz` reports, read from the store and the node's state. A store that answers but
/// refuses writes is not ready either: every charged call writes.
async fn readiness(state: &AppState) -> Result<Value, ApiError> {
    let not_ready = |error: StoreError| {
        tracing::warn!(%error, "readiness check failed");
        ApiError::ServiceUnavailable {
            message: "Not ready: the data store does not answer.".to_owned(),
        }
    };
    let counts = state.store.catalog_counts().await.map_err(not_ready)?;
    state.store.check_writable().await.map_err(|error| match error {
        StoreError::ReadOnly(reason) => {
            tracing::warn!(%reason, "readiness check failed: the store refuses writes");
            ApiError::ServiceUnavailable {
                message: "Not ready: the data store is read-only, so calls cannot be charged.".to_owned(),
            }
        }
        other => not_ready(other),
    })?;
    let limiter = state.rate_limiter.health();
    let catalog = state.catalog.status();
    let feeds = state.store.feed_statuses().await.map_err(not_ready)?;
    let mut sync = Map::new();
    for exchange in Exchange::ALL {
        let status = state.store.sync_status(exchange).await.map_err(not_ready)?;
        sync.insert(exchange.as_str().to_owned(), freshness(&status));
    }
    Ok(json!({
        "status": "ready",
        "storage": "ok",
        "markets": { "POLYMARKET": counts.polymarket_markets, "KALSHI": counts.kalshi_markets },
        "events": counts.events,
        "matchedPairs": counts.match_pairs,
        "sync": sync,
        "catalog": {
            "inMemory": catalog.in_memory,
            "markets": catalog.markets,
            "revision": catalog.revision,
            "ageSeconds": catalog.age.map(|age| age.as_secs()),
        },
        "news": {
            "articlesInMemory": state.news.article_count(),
            "feeds": feeds.iter().map(feed_freshness).collect::<Vec<_>>(),
        },
        "rateLimiter": {
            "kind": limiter.kind,
            "shared": limiter.shared,
            "degraded": limiter.degraded.as_deref().map(redact::urls_in),
        },
    }))
}

fn feed_freshness(feed: &FeedStatus) -> Value {
    json!({
        "url": redact::url(&feed.url),
        "lastPolledAt": to_iso8601(feed.last_polled_at),
        "lastSuccessAt": feed.last_success_at.map(to_iso8601),
        "lastError": feed.last_error.as_deref().map(redact::urls_in),
        "articlesAdded": feed.articles_added,
    })
}

fn freshness(status: &SyncStatus) -> Value {
    let success = status.latest_success.as_ref();
    let latest = status.latest.as_ref();
    json!({
        "lastSuccessAt": success.map(|run| to_iso8601(run.finished_at)),
        "ageSeconds": success.map(|run| (Utc::now() - run.finished_at).num_seconds().max(0)),
        "lastRunAt": latest.map(|run| to_iso8601(run.finished_at)),
        "lastRunKind": latest.map(|run| run.kind.as_str()),
        "lastRunSucceeded": latest.map(|run| run.succeeded),
        "lastError": latest.and_then(|run| run.error.as_deref()).map(redact::urls_in),
    })
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(alive)).routes(routes!(ready))
}
