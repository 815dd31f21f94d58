//! List markets and get one with its matches, from the in-memory catalogue; look one up by
//! its exchange URL (parsed, never fetched). Each answer says how fresh its figures are
//! (`X-Data-Age`, and `lastSyncedAt` in a get; see `freshness`).

use axum::Json;
use axum::extract::{RawQuery, State};
use axum::response::{IntoResponse, Response};
use chrono::Utc;
use marketlens_catalog::{CatalogReader, ItemForm};
use marketlens_domain::billing::Operation;
use marketlens_domain::matching::{MatchInput, explain};
use marketlens_domain::{Exchange, market_url};
use marketlens_storage::{MatchedMarket, StoredEvent, StoredMarket};
use std::sync::Arc;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged};
use crate::error::{ApiError, ErrorBody};
use crate::freshness::{age_seconds, with_data_age};
use crate::list_page;
use crate::params::{self, PathId};
use crate::params::{
    MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT, MAX_EXPLAIN_QUERY_LEN, MAX_EXTERNAL_ID_LEN, MAX_SEARCH_LEN,
};
use crate::schemas::one_of;
use crate::schemas::parameters::{category, exchange, limit, offset, query, text};
use crate::state::AppState;
use crate::views::{DataEnvelope, ListEnvelope, MarketDetail, MarketListItem, Pagination};
use marketlens_catalog::explain::market_by_url;
use marketlens_storage::MarketSort;
use serde_json::json;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// Markets of both exchanges, filtered, searched, sorted and paged.
#[utoipa::path(
    get,
    path = "/api/v1/markets",
    operation_id = "listMarkets",
    tag = "markets",
    params(ListMarketsParameters),
    responses((status = 200, description = "A page of markets (1 credit).", body = ListEnvelope<MarketListItem>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call.")))),
    security(("bearer" = []))
)]
pub async fn list(
    State(state): State<AppState>,
    call: Call,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let (market_query, include_outcomes) = params::list_markets(query.as_deref())?;
    let form = if include_outcomes {
        ItemForm::WithOutcomes
    } else {
        ItemForm::Plain
    };
    charged(&state, &call, Operation::ListMarkets, async {
        let page = state
            .catalog
            .list_rendered_markets(&market_query, form, |summary| list_page::market_item(summary, form))
            .await?;
        let exchanges = match market_query.filter.exchange {
            Some(exchange) => vec![exchange],
            None => Exchange::ALL.to_vec(),
        };
        let data_age = state.freshness.data_age(&state.catalog, &exchanges, Utc::now()).await?;
        let pagination = Pagination::of(&page, market_query.limit, market_query.offset);
        Ok(with_data_age(list_page::response(&page.items, &pagination), data_age))
    })
    .await
}

/// One market with its outcomes and the markets of the other exchange that ask the same question.
#[utoipa::path(
    get,
    path = "/api/v1/markets/{id}",
    operation_id = "getMarket",
    tag = "markets",
    params(("id" = uuid::Uuid, Path, description = "The market's id (a UUID).")),
    responses(
        (status = 200, description = "The market (1 credit).", body = DataEnvelope<MarketDetail>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market has this id (`NOT_FOUND`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    call: Call,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    params::none(query.as_deref())?;
    charged(&state, &call, Operation::GetMarket, async {
        let stored = super::market_named(&state, &id).await?;
        market_detail(&state, &stored).await
    })
    .await
}

/// The market a Polymarket or Kalshi URL names, as get returns it.
///
/// 404 when the URL names no stored market or is not an exchange market URL.
#[utoipa::path(
    get,
    path = "/api/v1/markets/lookup",
    operation_id = "lookupMarket",
    tag = "markets",
    params(LookupParameters),
    responses(
        (status = 200, description = "The market the URL names, as get returns it (1 credit).", body = DataEnvelope<MarketDetail>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "The URL names no stored market (`NOT_FOUND`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn lookup(
    State(state): State<AppState>,
    call: Call,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let url = params::lookup(query.as_deref())?;
    charged(&state, &call, Operation::LookupMarket, async {
        let unknown = || ApiError::not_found(format!("No stored market has the URL {url:?}."));
        let parsed = market_url::parse(&url).ok_or_else(unknown)?;
        let stored = market_by_url(state.store.as_ref(), &parsed)
            .await?
            .ok_or_else(unknown)?;
        market_detail(&state, &stored).await
    })
    .await
}

/// Why each match was made, as the matcher compares the two markets now (`--why` in one
/// line). A match whose market has gone since the match was stored says so.
async fn match_reasons(
    state: &AppState,
    stored: &StoredMarket,
    event: Option<&StoredEvent>,
    matched: &[MatchedMarket],
) -> Result<Vec<String>, ApiError> {
    let market = match_input(stored, event);
    let mut reasons = Vec::with_capacity(matched.len());
    for matched in matched {
        let reason = match state.catalog.get_market(matched.id).await? {
            Some(other) => {
                let other_event = event_of(state, &other).await?;
                explain(&market, &match_input(&other, other_event.as_deref())).reason()
            }
            None => "the matched market is no longer stored".to_owned(),
        };
        reasons.push(reason);
    }
    Ok(reasons)
}

/// The market's event, when the store holds it.
async fn event_of(state: &AppState, stored: &StoredMarket) -> Result<Option<Arc<StoredEvent>>, ApiError> {
    match stored.market.event_id() {
        Some(event_id) => Ok(state.catalog.get_event(event_id).await?),
        None => Ok(None),
    }
}

/// What the matcher reads of a stored market: its question, dates, outcomes and event title.
fn match_input(stored: &StoredMarket, event: Option<&StoredEvent>) -> MatchInput {
    MatchInput::from_market(stored.id, &stored.market, event.map(|event| event.event.title.as_str()))
}

/// A market as get answers it: with its event, its matches, when it was last synced, and
/// the `X-Data-Age` of that.
async fn market_detail(state: &AppState, stored: &StoredMarket) -> Result<Response, ApiError> {
    let event = event_of(state, stored).await?;
    let matched = state.catalog.matched_markets(stored.id).await?;
    let reasons = match_reasons(state, stored, event.as_deref(), &matched).await?;
    let coverage = state.freshness.coverage().await?;
    let market = &stored.market;
    let last_synced_at = coverage.last_synced(market.exchange, market.status, stored.observed_at);
    let event_id = event.map(|event| event.id);
    let response = Json(&DataEnvelope {
        data: MarketDetail::new(stored, &matched, &reasons, last_synced_at, event_id),
    })
    .into_response();
    Ok(with_data_age(response, Some(age_seconds(last_synced_at, Utc::now()))))
}

/// `GET /api/v1/markets`.
pub struct ListMarketsParameters;

impl IntoParams for ListMarketsParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            limit(MARKETS_DEFAULT_LIMIT, MARKETS_MAX_LIMIT),
            offset(),
            exchange(),
            query(
                "status",
                "Only markets of this status (case-insensitive).",
                false,
                crate::schemas::reference::<crate::schemas::MarketStatus>(),
            ),
            category(),
            query(
                "search",
                "Words that every market found has in its question, each matching the start of a word, \
case and accents ignored: at least one letter or digit, at most 12 words. A search of one token (no space) also finds \
the market whose exchange id (any case: `517311`, `KXELONMARS-99`) or Polymarket URL slug it is.",
                false,
                text(MAX_SEARCH_LEN, false),
            ),
            query(
                "sortBy",
                "The sort key (case-insensitive).",
                false,
                one_of(MarketSort::ALL.map(MarketSort::as_str)).default(Some(json!(MarketSort::Volume24h.as_str()))),
            ),
            query(
                "sortOrder",
                "The sort order (case-insensitive).",
                false,
                one_of(["asc", "desc"]).default(Some(json!("desc"))),
            ),
            query(
                "include",
                "`outcomes` adds each market's outcomes to the list.",
                false,
                one_of(["outcomes"]),
            ),
            query(
                "externalMarketId",
                "Only the market with this exchange id (a Polymarket market id or a Kalshi ticker), \
matched exactly.",
                false,
                text(MAX_EXTERNAL_ID_LEN, false),
            ),
        ]
    }
}

/// `GET /api/v1/markets/lookup`.
pub struct LookupParameters;

impl IntoParams for LookupParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![query(
            "url",
            "A Polymarket or Kalshi market or event URL (parsed, never fetched).",
            true,
            text(MAX_EXPLAIN_QUERY_LEN, true),
        )]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(lookup))
        .routes(routes!(get))
}
