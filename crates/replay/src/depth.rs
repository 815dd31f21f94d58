//! Order books and trades, served from the recordings of `demo-data/depth/` for the markets
//! their manifest (`recordings.json`) names, as each exchange serves them:
//!
//! | base | endpoint | answer |
//! |---|---|---|
//! | `/polymarket-clob` ([`ReplayServer::polymarket_clob_url`](crate::ReplayServer::polymarket_clob_url)) | `GET /book?token_id=` | the recorded book when the token is the first of a market with one; else 404 `{"error": "No orderbook exists for the requested token id"}`, as Polymarket answers a closed market's token |
//! | `/polymarket-data` ([`ReplayServer::polymarket_data_url`](crate::ReplayServer::polymarket_data_url)) | `GET /trades?market=<condition id>&limit=&offset=` | a slice of the recorded list (`limit` 100 by default, at most 500); `[]` for other markets |
//! | `/kalshi/trade-api/v2` | `GET /markets/{ticker}/orderbook` | the recorded body; an empty `orderbook_fp` for another market of the catalogue; 404 for an unknown ticker |
//! | `/kalshi/trade-api/v2` | `GET /markets/trades?ticker=&limit=&cursor=` | the recorded trades, cursor-paged (`limit` 100 by default, at most 1000), `"cursor": ""` on the last page |
//!
//! A Polymarket market is found by its token or condition id among the catalogue's markets
//! (`clobTokenIds`, `conditionId`), so a test reaches a recording through the same Gamma
//! look-up a live node makes. Faults apply as to every endpoint.

use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use marketlens_domain::Exchange;
use marketlens_exchanges::depth::recordings::Recordings;
use serde_json::{Value, json};
use std::sync::Arc;

use crate::data::id_of;
use crate::error::ReplayError;
use crate::page::{Listing, Params, paginate};
use crate::server::Shared;

/// The recorded depth bodies, by the market each is served for.
#[derive(Debug, Clone, Default)]
pub struct DepthRecordings {
    /// (exchange, Polymarket id or Kalshi ticker, the exchange's book body).
    pub books: Vec<(Exchange, String, Value)>,
    /// (exchange, market, the recorded trades, newest first).
    pub trades: Vec<(Exchange, String, Vec<Value>)>,
}

impl DepthRecordings {
    /// The recordings `manifest` names, with `file` giving each file's bytes.
    ///
    /// # Panics
    ///
    /// If the manifest or a file does not read: the recordings are ours.
    pub fn read(manifest: &[u8], file: impl Fn(&str) -> Vec<u8>) -> DepthRecordings {
        let recordings = Recordings::parse(manifest).expect("the depth manifest reads");
        let body = |recording: &marketlens_exchanges::depth::recordings::Recording| {
            recording
                .body(&file(&recording.file))
                .unwrap_or_else(|error| panic!("{}: {error}", recording.file))
        };
        let books = recordings
            .books
            .iter()
            .map(|recording| (recording.exchange, recording.market.clone(), body(recording)))
            .collect();
        let trades = recordings
            .trades
            .iter()
            .map(|recording| {
                let body = body(recording);
                let list = match body {
                    Value::Array(list) => list,
                    mut envelope => match envelope["trades"].take() {
                        Value::Array(list) => list,
                        _ => Vec::new(),
                    },
                };
                (recording.exchange, recording.market.clone(), list)
            })
            .collect();
        DepthRecordings { books, trades }
    }

    fn book(&self, exchange: Exchange, market: &str) -> Option<&Value> {
        self.books
            .iter()
            .find(|(of, id, _)| *of == exchange && id == market)
            .map(|(_, _, body)| body)
    }

    fn trades(&self, exchange: Exchange, market: &str) -> &[Value] {
        self.trades
            .iter()
            .find(|(of, id, _)| *of == exchange && id == market)
            .map_or(&[], |(_, _, trades)| trades.as_slice())
    }
}

pub(crate) fn clob_router() -> Router<Arc<Shared>> {
    Router::new().route("/book", get(polymarket_book))
}

pub(crate) fn data_router() -> Router<Arc<Shared>> {
    Router::new().route("/trades", get(polymarket_trades))
}

/// Kalshi's depth routes, merged into its router.
pub(crate) fn kalshi_router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/markets/trades", get(kalshi_trades))
        .route("/markets/{ticker}/orderbook", get(kalshi_orderbook))
}

/// The id of the Polymarket market whose `field` (`clobTokenIds`' first token, or
/// `conditionId`) is `wanted`.
fn polymarket_market(shared: &Shared, wanted: &str, by_token: bool) -> Option<String> {
    let catalog = shared.catalog();
    let data = &catalog.data;
    let nested = data.polymarket_events.iter().flat_map(crate::data::nested_markets);
    data.polymarket_markets.iter().chain(nested).find_map(|market| {
        let matches = if by_token {
            first_token(market).as_deref() == Some(wanted)
        } else {
            market["conditionId"].as_str() == Some(wanted)
        };
        matches.then(|| id_of(market, "id").map(|id| id.into_owned())).flatten()
    })
}

/// The first of a Gamma market's `clobTokenIds` (a JSON-encoded list).
fn first_token(market: &Value) -> Option<String> {
    let ids: Vec<String> = serde_json::from_str(market["clobTokenIds"].as_str()?).ok()?;
    ids.into_iter().next()
}

async fn polymarket_book(State(shared): State<Arc<Shared>>, Query(pairs): Query<Vec<(String, String)>>) -> Response {
    let params = Params::new(pairs);
    let body = params
        .first("token_id")
        .and_then(|token| polymarket_market(&shared, token, true))
        .and_then(|market| shared.depth.book(Exchange::Polymarket, &market).cloned());
    match body {
        Some(body) => Json(body).into_response(),
        None => (
            StatusCode::NOT_FOUND,
            Json(json!({"error": "No orderbook exists for the requested token id"})),
        )
            .into_response(),
    }
}

async fn polymarket_trades(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    let limit = params.limit(100, 500)?;
    let offset = match params.first("offset") {
        None => 0,
        Some(text) => text.parse::<usize>().map_err(|_| ReplayError::BadParameter {
            parameter: "offset",
            message: format!("must be a whole number, got {text:?}"),
        })?,
    };
    let trades = params
        .first("market")
        .and_then(|condition| polymarket_market(&shared, condition, false))
        .map(|market| shared.depth.trades(Exchange::Polymarket, &market).to_vec())
        .unwrap_or_default();
    let page: Vec<Value> = trades.into_iter().skip(offset).take(limit).collect();
    Ok(Json(Value::Array(page)))
}

async fn kalshi_orderbook(
    State(shared): State<Arc<Shared>>,
    Path(ticker): Path<String>,
) -> Result<Json<Value>, ReplayError> {
    if let Some(body) = shared.depth.book(Exchange::Kalshi, &ticker) {
        return Ok(Json(body.clone()));
    }
    let known = shared
        .catalog()
        .data
        .kalshi_markets
        .iter()
        .any(|market| market["ticker"].as_str() == Some(ticker.as_str()));
    if known {
        return Ok(Json(json!({"orderbook_fp": {"yes_dollars": [], "no_dollars": []}})));
    }
    Err(ReplayError::NotFound {
        path: format!("/markets/{ticker}/orderbook"),
    })
}

async fn kalshi_trades(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    let limit = params.limit(100, 1000)?;
    let trades = params
        .first("ticker")
        .map(|ticker| shared.depth.trades(Exchange::Kalshi, ticker))
        .unwrap_or_default();
    let start = params.start("cursor", Listing::KalshiTrades, trades.len())?;
    let page = paginate(Listing::KalshiTrades, trades.len(), start, limit, |_| true);
    let records: Vec<&Value> = page.positions.iter().map(|&position| &trades[position]).collect();
    Ok(Json(json!({
        "cursor": page.next_cursor.unwrap_or_default(),
        "trades": records,
    })))
}
