//! Kalshi's list endpoints, served under `/kalshi/trade-api/v2` (the Kalshi base URL).
//!
//! - `GET /events`: 100 a page by default, at most 200. Nested markets only with
//!   `with_nested_markets=true`; filtered by `status`.
//! - `GET /markets`: 100 a page by default, at most 1000; filtered by `tickers`,
//!   `event_ticker` (both comma-separated) and `status`.
//!
//! Both answer `{"cursor": "...", ...}` with `"cursor": ""` on the last page; the next page
//! is asked for with `cursor`.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use std::sync::Arc;

use crate::catalog::without_markets;
use crate::data::{id_of, nested_markets};
use crate::error::ReplayError;
use crate::page::{Listing, Params, paginate};
use crate::server::Shared;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/events", get(events))
        .route("/markets", get(markets))
}

async fn events(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    let limit = params.limit(100, 200)?;
    let with_nested_markets = params.flag("with_nested_markets")?.unwrap_or(false);
    let status = Status::parse(&params)?;

    let catalog = shared.catalog();
    let events = &catalog.data.kalshi_events;
    let start = params.start("cursor", Listing::KalshiEvents, events.len())?;
    let page = paginate(Listing::KalshiEvents, events.len(), start, limit, |&position| {
        status.is_none_or(|status| nested_markets(&events[position]).any(|market| status.keeps(market)))
    });
    let records: Vec<Value> = page
        .positions
        .iter()
        .map(|&position| {
            let event = &events[position];
            if !with_nested_markets {
                return without_markets(event);
            }
            let mut event = event.clone();
            // The real API always nests a list; events recorded without one get an empty list.
            if let Value::Object(fields) = &mut event {
                fields.entry("markets").or_insert_with(|| json!([]));
            }
            event
        })
        .collect();
    Ok(Json(json!({
        "cursor": page.next_cursor.unwrap_or_default(),
        "events": records,
        "milestones": [],
    })))
}

async fn markets(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    let limit = params.limit(100, 1000)?;
    let status = Status::parse(&params)?;
    let tickers = params.list("tickers");
    let event_tickers = params.list("event_ticker");

    let catalog = shared.catalog();
    let markets = &catalog.data.kalshi_markets;
    let start = params.start("cursor", Listing::KalshiMarkets, markets.len())?;
    let in_list = |list: &Option<Vec<&str>>, market: &Value, key: &str| match list {
        None => true,
        Some(list) => id_of(market, key).is_some_and(|id| list.contains(&id.as_ref())),
    };
    let page = paginate(Listing::KalshiMarkets, markets.len(), start, limit, |&position| {
        let market = &markets[position];
        in_list(&tickers, market, "ticker")
            && in_list(&event_tickers, market, "event_ticker")
            && status.is_none_or(|status| status.keeps(market))
    });
    let records: Vec<Value> = page
        .positions
        .iter()
        .map(|&position| markets[position].clone())
        .collect();
    Ok(Json(json!({
        "cursor": page.next_cursor.unwrap_or_default(),
        "markets": records,
    })))
}

/// The `status` filter, judged on market statuses (an event by its nested markets).
#[derive(Debug, Clone, Copy)]
enum Status {
    /// `open`: markets `active` or `open`.
    Open,
    /// `closed` or `settled`: markets `closed`, `finalized` or `settled`.
    Ended,
}

impl Status {
    fn parse(params: &Params) -> Result<Option<Status>, ReplayError> {
        match params.first("status") {
            None => Ok(None),
            Some("open") => Ok(Some(Status::Open)),
            Some("closed" | "settled") => Ok(Some(Status::Ended)),
            Some(other) => Err(ReplayError::BadParameter {
                parameter: "status",
                message: format!("must be open, closed or settled, got {other:?}"),
            }),
        }
    }

    fn keeps(self, market: &Value) -> bool {
        let status = market.get("status").and_then(Value::as_str).unwrap_or_default();
        match self {
            Status::Open => matches!(status, "active" | "open"),
            Status::Ended => matches!(status, "closed" | "finalized" | "settled"),
        }
    }
}
