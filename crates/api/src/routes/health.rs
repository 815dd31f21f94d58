//! Liveness and readiness for load balancers and orchestrators; no key needed.

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use crate::error::ApiError;
use crate::state::AppState;

/// The process is up and answering.
pub async fn alive() -> Json<Value> {
    Json(json!({ "status": "ok" }))
}

/// The process can serve: its store answers. Reports what the store holds.
pub async fn ready(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    match state.store.catalog_counts().await {
        Ok(counts) => Ok(Json(json!({
            "status": "ready",
            "storage": "ok",
            "markets": { "POLYMARKET": counts.polymarket_markets, "KALSHI": counts.kalshi_markets },
            "events": counts.events,
            "matchedPairs": counts.match_pairs,
        }))),
        Err(error) => {
            tracing::warn!(%error, "readiness check failed");
            Err(ApiError::ServiceUnavailable {
                message: "Not ready: the data store does not answer.".to_owned(),
            })
        }
    }
}
