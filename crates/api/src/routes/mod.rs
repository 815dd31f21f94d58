//! The routes of `/api/v1` and the operational ones beside it, a module per resource with its
//! handlers and their parameters' documentation. [`crate::app`] assembles them.

pub(crate) mod account;
pub(crate) mod admin;
pub mod benchmark;
pub(crate) mod depth;
pub(crate) mod document;
pub(crate) mod events;
pub(crate) mod explain;
pub(crate) mod health;
pub(crate) mod history;
pub(crate) mod markets;
pub(crate) mod spreads;
pub(crate) mod stream;

use marketlens_catalog::CatalogReader;
use marketlens_storage::StoredMarket;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiError;
use crate::state::AppState;

/// The market a path's `id` names, from the catalogue: 404 `NOT_FOUND` naming the id when it
/// is no UUID or no market has it.
pub(crate) async fn market_named(state: &AppState, id: &str) -> Result<Arc<StoredMarket>, ApiError> {
    let unknown = || ApiError::not_found(format!("No market has id {id:?}."));
    let market_id = uuid::Uuid::parse_str(id).map_err(|_| unknown())?;
    state.catalog.get_market(market_id).await?.ok_or_else(unknown)
}

/// The keyed routes of `/api/v1`, in the document's order: the charged ones, the free one,
/// then the stream (which checks its key itself, since it may come in its first message).
pub(crate) fn keyed() -> OpenApiRouter<AppState> {
    charged().merge(free()).merge(stream::router())
}

/// The keyed routes that cost credits; [`crate::app`] puts them behind authentication and
/// idempotency keys.
pub(crate) fn charged() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(markets::router())
        .merge(history::router())
        .merge(spreads::router())
        .merge(depth::router())
        .merge(events::router())
        .merge(explain::router())
}

/// The keyed route that costs nothing (the account), behind authentication only.
pub(crate) fn free() -> OpenApiRouter<AppState> {
    account::router()
}

/// The routes that need no key: the document, health and readiness, metrics.
pub(crate) fn operations() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(document::router())
        .merge(health::router())
        .routes(routes!(crate::telemetry::render))
}
