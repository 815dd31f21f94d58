//! Cross-exchange spreads: matched pairs of open markets, the same side's price on each
//! exchange, from the in-memory catalogue; each price flagged when it is stale.

use axum::extract::{RawQuery, State};
use axum::response::Response;
use chrono::Utc;
use marketlens_catalog::Spread;
use marketlens_domain::billing::Operation;
use marketlens_domain::time::Timestamp;
use marketlens_storage::{MarketSummary, Page};

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged};
use crate::error::ApiError;
use crate::freshness::SyncCoverage;
use crate::params;
use crate::params::{MAX_MIN_VOLUME, SPREADS_DEFAULT_LIMIT, SPREADS_MAX_LIMIT};
use crate::schemas::one_of;
use crate::schemas::parameters::{limit, number, offset, query};
use crate::state::AppState;
use crate::views::{BYTES_PER_LIST_ITEM, Iso8601, ListEnvelope, Pagination, SpreadItem, SpreadSide, json_response};
use marketlens_catalog::SpreadSort;
use serde_json::json;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// Matched pairs of open markets with both exchanges' prices of the same outcome.
///
/// The Kalshi price compared is the side that pays when Polymarket's first outcome does: its
/// "No" when the match is flipped (`flipped: true`). A price confirmed longer ago than the
/// server's stale age is flagged (`stale`), on its side and on the pair.
#[utoipa::path(
    get,
    path = "/api/v1/spreads",
    operation_id = "listSpreads",
    tag = "spreads",
    params(SpreadsParameters),
    responses((status = 200, description = "A page of spreads (1 credit).", body = ListEnvelope<SpreadItem>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call.")))),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    call: Call,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let spread_query = params::spreads(query.as_deref())?;
    charged(&state, &call, Operation::ListSpreads, async {
        let (spreads, total) = state.catalog.spreads(&spread_query).await?;
        let coverage = state.freshness.coverage().await?;
        let stale_before = Utc::now() - state.settings.stale_after;
        let page = Page { items: spreads, total };
        let envelope = ListEnvelope {
            pagination: Pagination::of(&page, spread_query.limit, spread_query.offset),
            data: page
                .items
                .iter()
                .map(|spread| spread_item(spread, &coverage, stale_before))
                .collect(),
        };
        Ok(json_response(
            &envelope,
            (envelope.data.len() + 1) * 2 * BYTES_PER_LIST_ITEM,
        ))
    })
    .await
}

fn spread_item<'a>(spread: &'a Spread, coverage: &SyncCoverage, stale_before: Timestamp) -> SpreadItem<'a> {
    let side = |market: &'a MarketSummary, outcome: usize, price: f64| {
        let last_synced_at = coverage.last_synced(market.exchange, market.status, market.observed_at);
        SpreadSide {
            id: market.id,
            external_market_id: &market.external_id,
            question: &market.question,
            category: market.category.as_str(),
            outcome: market
                .outcomes
                .get(outcome)
                .map_or(if outcome == 0 { "Yes" } else { "No" }, |outcome| &outcome.name),
            price,
            volume_24h: market.volume_24h,
            last_synced_at: Iso8601(last_synced_at),
            stale: last_synced_at < stale_before,
        }
    };
    let polymarket = side(&spread.polymarket, 0, spread.polymarket_price);
    let kalshi = side(&spread.kalshi, spread.kalshi_outcome, spread.kalshi_price);
    SpreadItem {
        similarity: spread.similarity,
        flipped: spread.flipped,
        spread: (spread.spread() * 1e6).round() / 1e6,
        volume_24h: spread.volume_24h(),
        stale: polymarket.stale || kalshi.stale,
        polymarket,
        kalshi,
    }
}

/// `GET /api/v1/spreads`.
pub struct SpreadsParameters;

impl IntoParams for SpreadsParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "minSimilarity",
                "Only pairs matched at least this similar (0 to 1).",
                false,
                number(0.0, 0.0, 1.0),
            ),
            query(
                "minVolume24h",
                "Only pairs whose two markets have each traded at least this much (USD) in 24 hours.",
                false,
                number(0.0, 0.0, MAX_MIN_VOLUME),
            ),
            query(
                "category",
                "Only pairs of which either market is of this category (case-insensitive).",
                false,
                crate::schemas::reference::<crate::schemas::Category>(),
            ),
            query(
                "sortBy",
                "Largest first: `spread` (the price difference) or `volume24h` (the smaller of the two \
markets' 24-hour volumes). Case-insensitive.",
                false,
                one_of(SpreadSort::ALL.map(SpreadSort::as_str)).default(Some(json!(SpreadSort::Spread.as_str()))),
            ),
            limit(SPREADS_DEFAULT_LIMIT, SPREADS_MAX_LIMIT),
            offset(),
        ]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}
