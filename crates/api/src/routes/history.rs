//! A market's price history as candles, from the store's bars (`marketlens_domain::history`).

use axum::extract::{RawQuery, State};
use axum::response::Response;
use marketlens_domain::billing::Operation;
use marketlens_domain::history::{Candle, candles};
use marketlens_domain::ids::outcome_id;
use marketlens_domain::time::from_epoch_millis;
use marketlens_storage::Page;
use uuid::Uuid;

use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged};
use crate::error::{ApiError, ErrorBody};
use crate::params::{self, HistoryQuery, PathId};
use crate::params::{HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT};
use crate::schemas::one_of;
use crate::schemas::parameters::{limit, offset, query, time};
use crate::state::AppState;
use crate::views::{CandleView, HistoryEnvelope, Iso8601, MarketHistory, OutcomeHistory, Pagination, json_response};
use marketlens_domain::history::Interval;
use serde_json::json;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};

/// About how many bytes one candle takes in JSON.
const BYTES_PER_CANDLE: usize = 130;

/// Candles of each outcome's price, oldest first, in UTC buckets of `interval`.
///
/// With the default retention, five-minute candles cover the last 7 days, hourly and four-hour
/// ones the last 90 days, and daily ones all the history kept (finer bars expire).
#[utoipa::path(
    get,
    path = "/api/v1/markets/{id}/history",
    operation_id = "getMarketHistory",
    tag = "history",
    params(("id" = uuid::Uuid, Path, description = "The market's id (a UUID)."), HistoryParameters),
    responses(
        (status = 200, description = "A page of the market's candles (1 credit).", body = HistoryEnvelope, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market has this id (`NOT_FOUND`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn history(
    State(state): State<AppState>,
    call: Call,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let history_query = params::history(query.as_deref())?;
    charged(&state, &call, Operation::MarketHistory, async {
        let stored = super::market_named(&state, &id).await?;
        let market_id = stored.id;
        let page = candle_page(&state, market_id, &history_query).await?;
        let outcomes = stored
            .market
            .outcomes
            .iter()
            .enumerate()
            .map(|(position, outcome)| OutcomeHistory {
                id: outcome_id(market_id, position),
                name: &outcome.name,
                candles: page
                    .items
                    .iter()
                    .filter_map(|candle| candle_view(candle, position))
                    .collect(),
            })
            .collect::<Vec<_>>();
        let envelope = HistoryEnvelope {
            pagination: Pagination::of(&page, history_query.limit, history_query.offset),
            data: MarketHistory {
                market_id,
                interval: history_query.interval.as_str(),
                outcomes,
            },
        };
        let candle_count = page.items.len() * envelope.data.outcomes.len();
        Ok(json_response(&envelope, (candle_count + 1) * BYTES_PER_CANDLE))
    })
    .await
}

/// The page of the market's candles the query asks for, and how many there are in its range.
/// Where a candle is one bar, the store pages the bars; four-hour candles are merged from the
/// range's hourly bars here.
async fn candle_page(state: &AppState, market_id: Uuid, query: &HistoryQuery) -> Result<Page<Candle>, ApiError> {
    let interval = query.interval;
    let from = query
        .from
        .map_or(i64::MIN, |from| interval.bucket_at_or_after(from.timestamp()));
    let to = query
        .to
        .map_or(i64::MAX, |to| interval.bucket_at_or_after(to.timestamp()));
    let resolution = interval.resolution();
    if interval.is_one_bar_per_candle() {
        let page = state
            .store
            .history_page(market_id, resolution, (from, to), query.limit, query.offset)
            .await?;
        return Ok(Page {
            items: candles(&page.items, interval),
            total: page.total,
        });
    }
    let bars = state.store.history(market_id, resolution, from, to).await?;
    let all = candles(&bars, interval);
    let total = all.len() as u64;
    let items = all
        .into_iter()
        .skip(usize::try_from(query.offset).unwrap_or(usize::MAX))
        .take(query.limit as usize)
        .collect();
    Ok(Page { items, total })
}

fn candle_view(candle: &Candle, position: usize) -> Option<CandleView> {
    let range = candle.outcomes.get(position)?;
    Some(CandleView {
        time: Iso8601(from_epoch_millis(candle.start.saturating_mul(1000))),
        open: range.open,
        high: range.high,
        low: range.low,
        close: range.close,
        volume_24h: candle.volume_24h,
    })
}

/// `GET /api/v1/markets/{id}/history`.
pub struct HistoryParameters;

impl IntoParams for HistoryParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "interval",
                "The candles' width (case-insensitive). With the default retention, 5-minute candles cover the \
last 7 days, hourly and 4-hour ones the last 90 days, daily ones all the history kept.",
                false,
                one_of(Interval::ALL.map(Interval::as_str)).default(Some(json!(Interval::Hour.as_str()))),
            ),
            query(
                "from",
                "Only candles starting at or after this time (ISO 8601, or a UTC date).",
                false,
                time(),
            ),
            query(
                "to",
                "Only candles starting before this time (ISO 8601, or a UTC date); not before `from`.",
                false,
                time(),
            ),
            limit(HISTORY_DEFAULT_LIMIT, HISTORY_MAX_LIMIT),
            offset(),
        ]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(history))
}
