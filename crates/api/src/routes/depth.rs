//! Order books and trades of a market (`marketlens_domain::depth`), from the server's depth
//! source: the exchanges' REST endpoints behind a short shared cache (`serve`), the recordings
//! shipped with the demo (`demo`), or none (answered 503 `DEPTH_UNAVAILABLE`, uncharged). A
//! book the live stream keeps ([`crate::stream`]) is served first, while a stream client
//! follows the market and the feed receives it.
//!
//! A book states its age when answered (`ageMs`) and is `stale` past the server's bound
//! (`ApiSettings::depth_max_age`), so an old book is never passed off as a current one. An
//! exchange that fails is a 502 `EXCHANGE_UNAVAILABLE`, uncharged. Markets are named by our
//! ids only; the exchange's ids come from the store.

use axum::extract::{RawQuery, State};
use axum::response::Response;
use chrono::Utc;
use marketlens_domain::billing::Operation;
use marketlens_domain::depth::{DepthError, DepthMarket, DepthSource, OrderBook, OutcomeBook, Trade, TradePage};
use marketlens_domain::time::Timestamp;
use std::sync::Arc;
use utoipa::IntoParams;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::billing::{Call, Charged, charged, charged_per_item};
use crate::error::{ApiError, ErrorBody};
use crate::params::{
    self, MAX_CURSOR_LEN, MAX_IDS_LEN, ORDER_BOOKS_MAX_IDS, PathId, TRADES_DEFAULT_LIMIT, TRADES_MAX_LIMIT,
};
use crate::schemas::parameters::{limit, query, text};
use crate::state::AppState;
use crate::views::{
    CursorPagination, DataEnvelope, Iso8601, MarketTrades, OrderBookView, OrderBooksEnvelope, OutcomeBookView,
    PriceLevel, TradeView, TradesEnvelope, json_response,
};

/// About how many bytes one price level or trade takes in JSON.
const BYTES_PER_LEVEL: usize = 40;
const BYTES_PER_TRADE: usize = 200;

/// A market's order book: per outcome, bids and asks as `{price, size}`, best first.
///
/// Kalshi's books hold only bids of each side; a NO bid at `p` is shown as a YES ask at
/// `1 - p` (and a YES bid at `p` as a NO ask at `1 - p`). A Polymarket book is its first
/// outcome's token book; the second outcome's is the same book seen from the other side.
#[utoipa::path(
    get,
    path = "/api/v1/markets/{id}/orderbook",
    operation_id = "getOrderBook",
    tag = "depth",
    params(("id" = uuid::Uuid, Path, description = "The market's id (a UUID).")),
    responses(
        (status = 200, description = "The market's order book (1 credit).", body = DataEnvelope<OrderBookView>, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market has this id, or the server has no depth for it (the demo serves recordings of a few markets) (`NOT_FOUND`); not charged.", body = ErrorBody),
        (status = 502, description = "The exchange did not answer usably (`EXCHANGE_UNAVAILABLE`); not charged.", body = ErrorBody),
        (status = 503, description = "The server has no depth source (`DEPTH_UNAVAILABLE`), the store is unavailable or the call took too long (`SERVICE_UNAVAILABLE`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn order_book(
    State(state): State<AppState>,
    call: Call,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    params::none(query.as_deref())?;
    ensure_book_source(&state)?;
    charged(&state, &call, Operation::GetOrderBook, async {
        let market = depth_market(&state, &id).await?;
        let book = match live_book(&state, &market) {
            Some(book) => book,
            None => depth_source(&state)?.book(&market).await?,
        };
        let view = book_view(&state, &market, &book, Utc::now());
        Ok(json_response(&DataEnvelope { data: view }, book_bytes(&book)))
    })
    .await
}

/// The order books of up to 50 markets in one call, in the order their ids are given.
///
/// Each id is served once however often it is given. Every id must name a market (else 404,
/// naming them); the call is charged 1 credit per book, and only if every book is served.
#[utoipa::path(
    get,
    path = "/api/v1/orderbooks",
    operation_id = "listOrderBooks",
    tag = "depth",
    params(OrderBooksParameters),
    responses(
        (status = 200, description = "The markets' order books (1 credit per book).", body = OrderBooksEnvelope, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "An id names no market (`NOT_FOUND`; the message lists them), or the server has no book for one (`NOT_FOUND`, naming it); not charged.", body = ErrorBody),
        (status = 502, description = "An exchange did not answer usably (`EXCHANGE_UNAVAILABLE`); not charged.", body = ErrorBody),
        (status = 503, description = "The server has no depth source (`DEPTH_UNAVAILABLE`), the store is unavailable or the call took too long (`SERVICE_UNAVAILABLE`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn order_books(
    State(state): State<AppState>,
    call: Call,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let ids = params::order_books(query.as_deref())?;
    ensure_book_source(&state)?;
    let books = ids.len() as i64;
    charged_per_item(&state, &call, Operation::ListOrderBooks, books, async {
        let mut markets = Vec::with_capacity(ids.len());
        let mut unknown = Vec::new();
        for id in &ids {
            match depth_market(&state, id).await {
                Ok(market) => markets.push(market),
                Err(ApiError::NotFound { .. }) => unknown.push(id.clone()),
                Err(other) => return Err(other),
            }
        }
        if !unknown.is_empty() {
            return Err(ApiError::not_found(format!("No market has id {}.", unknown.join(", "))));
        }
        let fetched = futures::future::try_join_all(markets.iter().map(|market| async {
            if let Some(book) = live_book(&state, market) {
                return Ok(book);
            }
            depth_source(&state)?.book(market).await.map_err(|error| match error {
                DepthError::NotAvailable => {
                    ApiError::not_found(format!("This server has no order book for market {}.", market.id))
                }
                other => ApiError::from(other),
            })
        }))
        .await?;
        let now = Utc::now();
        let views: Vec<OrderBookView> = markets
            .iter()
            .zip(&fetched)
            .map(|(market, book)| book_view(&state, market, book, now))
            .collect();
        let bytes = fetched.iter().map(book_bytes).sum();
        Ok(json_response(&OrderBooksEnvelope { data: views }, bytes))
    })
    .await
}

/// A page of a market's trades, newest first, with cursor pagination: pass a page's
/// `nextCursor` as `cursor` for the page after it.
#[utoipa::path(
    get,
    path = "/api/v1/markets/{id}/trades",
    operation_id = "listTrades",
    tag = "depth",
    params(("id" = uuid::Uuid, Path, description = "The market's id (a UUID)."), TradesParameters),
    responses(
        (status = 200, description = "A page of the market's trades (1 credit).", body = TradesEnvelope, headers(("X-Credits-Used" = i64, description = "Credits this call charged."), ("X-Credits-Remaining" = i64, description = "The account's balance after this call."))),
        (status = 404, description = "No market has this id, or the server has no depth for it (the demo serves recordings of a few markets) (`NOT_FOUND`); not charged.", body = ErrorBody),
        (status = 502, description = "The exchange did not answer usably (`EXCHANGE_UNAVAILABLE`); not charged.", body = ErrorBody),
        (status = 503, description = "The server has no depth source (`DEPTH_UNAVAILABLE`), the store is unavailable or the call took too long (`SERVICE_UNAVAILABLE`); not charged.", body = ErrorBody),
    ),
    security(("bearer" = []))
)]
pub async fn trades(
    State(state): State<AppState>,
    call: Call,
    PathId(id): PathId,
    RawQuery(query): RawQuery,
) -> Result<Charged<Response>, ApiError> {
    let trades_query = params::trades(query.as_deref())?;
    let depth = depth_source(&state)?;
    charged(&state, &call, Operation::ListTrades, async {
        let market = depth_market(&state, &id).await?;
        let page = depth
            .trades(&market, trades_query.after.as_deref(), trades_query.limit)
            .await?;
        let envelope = trades_envelope(&market, &page, trades_query.limit);
        Ok(json_response(&envelope, (page.trades.len() + 1) * BYTES_PER_TRADE))
    })
    .await
}

/// Books come from the live stream or the depth source: 503 `DEPTH_UNAVAILABLE`, uncharged,
/// when the server has neither.
fn ensure_book_source(state: &AppState) -> Result<(), ApiError> {
    match state.stream {
        Some(_) => Ok(()),
        None => depth_source(state).map(drop),
    }
}

/// The market's book as the live stream keeps it, while the stream follows the market and
/// receives it.
fn live_book(state: &AppState, market: &DepthMarket) -> Option<OrderBook> {
    state.stream.as_ref()?.live_book(market.id, Utc::now())
}

fn depth_source(state: &AppState) -> Result<Arc<dyn DepthSource>, ApiError> {
    state.depth.clone().ok_or_else(|| ApiError::DepthUnavailable {
        message: "This server has no source of order books and trades: it was started without one.".to_owned(),
    })
}

/// The stored market `id` names, as a depth source needs it.
pub(crate) async fn depth_market(state: &AppState, id: &str) -> Result<DepthMarket, ApiError> {
    let stored = super::market_named(state, id).await?;
    Ok(DepthMarket {
        id: stored.id,
        exchange: stored.market.exchange,
        external_id: stored.market.external_id.clone(),
        outcomes: stored
            .market
            .outcomes
            .iter()
            .map(|outcome| outcome.name.clone())
            .collect(),
    })
}

fn book_view<'a>(state: &AppState, market: &DepthMarket, book: &'a OrderBook, now: Timestamp) -> OrderBookView<'a> {
    let age_ms = (now - book.timestamp).num_milliseconds().max(0);
    let max_age_ms = i64::try_from(state.settings.depth_max_age.as_millis()).unwrap_or(i64::MAX);
    OrderBookView {
        market_id: market.id,
        exchange: market.exchange.as_str(),
        timestamp: Iso8601(book.timestamp),
        age_ms,
        source: book.source.as_str(),
        stale: age_ms > max_age_ms,
        recorded_from: book.recorded_from.as_deref(),
        outcomes: outcome_views(&book.outcomes),
    }
}

/// Each outcome's book as the API shows it.
pub(crate) fn outcome_views(outcomes: &[OutcomeBook]) -> Vec<OutcomeBookView<'_>> {
    let levels = |levels: &[marketlens_domain::depth::Level]| {
        levels
            .iter()
            .map(|level| PriceLevel {
                price: level.price,
                size: level.size,
            })
            .collect()
    };
    outcomes
        .iter()
        .map(|outcome| OutcomeBookView {
            outcome: &outcome.outcome,
            bids: levels(&outcome.ladder.bids),
            asks: levels(&outcome.ladder.asks),
        })
        .collect()
}

/// A trade as the API shows it.
pub(crate) fn trade_view(trade: &Trade) -> TradeView<'_> {
    TradeView {
        id: &trade.id,
        time: Iso8601(trade.time),
        outcome: &trade.outcome,
        price: trade.price,
        size: trade.size,
        taker_side: trade.taker_side.as_str(),
    }
}

fn book_bytes(book: &OrderBook) -> usize {
    let levels: usize = book
        .outcomes
        .iter()
        .map(|outcome| outcome.ladder.bids.len() + outcome.ladder.asks.len())
        .sum();
    (levels + 8) * BYTES_PER_LEVEL
}

fn trades_envelope<'a>(market: &DepthMarket, page: &'a TradePage, limit: u32) -> TradesEnvelope<'a> {
    TradesEnvelope {
        data: MarketTrades {
            market_id: market.id,
            exchange: market.exchange.as_str(),
            source: page.source.as_str(),
            recorded_from: page.recorded_from.as_deref(),
            trades: page.trades.iter().map(trade_view).collect(),
        },
        pagination: CursorPagination {
            limit,
            has_more: page.next.is_some(),
            next_cursor: page.next.as_deref().map(params::encode_cursor),
        },
    }
}

/// `GET /api/v1/orderbooks`.
pub struct OrderBooksParameters;

impl IntoParams for OrderBooksParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![query(
            "ids",
            &format!(
                "Market ids (UUIDs), separated by commas: at most {ORDER_BOOKS_MAX_IDS} different ones. A repeated id is served once."
            ),
            true,
            text(MAX_IDS_LEN, true),
        )]
    }
}

/// `GET /api/v1/markets/{id}/trades`.
pub struct TradesParameters;

impl IntoParams for TradesParameters {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            query(
                "cursor",
                "The `nextCursor` of the previous page; absent for the first page.",
                false,
                text(MAX_CURSOR_LEN, false),
            ),
            limit(TRADES_DEFAULT_LIMIT, TRADES_MAX_LIMIT),
        ]
    }
}

/// This module's routes, each registered with its documentation.
pub(crate) fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(order_book))
        .routes(routes!(order_books))
        .routes(routes!(trades))
}
