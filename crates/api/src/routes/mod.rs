//! The routes of `/api/v1` and the operational ones beside it. Each resource module owns its
//! handlers; this module only assembles them.

pub(crate) mod account;
pub mod benchmark;
pub(crate) mod events;
pub(crate) mod explain;
pub(crate) mod health;
pub(crate) mod history;
pub(crate) mod markets;
pub(crate) mod spreads;

use axum::Router;
use axum::middleware;
use axum::routing::get;

use crate::auth;
use crate::error::ApiError;
use crate::state::AppState;
use crate::{openapi, reference, telemetry};

pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/markets", get(markets::list))
        .route("/markets/lookup", get(markets::lookup))
        .route("/markets/{id}", get(markets::get))
        .route("/markets/{id}/history", get(history::history))
        .route("/spreads", get(spreads::list))
        .route("/events", get(events::list))
        .route("/events/{id}", get(events::get))
        .route("/explain", get(explain::get).post(explain::post))
        .route("/account", get(account::get))
        .route_layer(middleware::from_fn_with_state(state.clone(), auth::authenticate))
        .route_layer(crate::no_store())
        .route("/openapi.json", get(openapi::openapi_json));
    let router = Router::new()
        .nest("/api/v1", api)
        .route("/healthz", get(health::alive))
        .route("/readyz", get(health::ready))
        .route("/docs", get(reference::page))
        .route("/metrics", get(telemetry::render));
    let router = match crate::admin::router(&state) {
        Some(admin) => router.nest("/admin/v1", admin),
        None => router,
    };
    let router = if state.settings.benchmark {
        router.route("/benchmark/ceiling", get(benchmark::ceiling))
    } else {
        router
    };
    router
        .fallback(|| async { ApiError::not_found("No such path.") })
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(middleware::from_fn(telemetry::track))
        .with_state(state)
}
