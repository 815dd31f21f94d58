//! Gamma's keyset endpoints, served under `/polymarket` (the Gamma base URL).
//!
//! - `GET /events/keyset`: events with their nested markets, 20 a page by default, at most
//!   500, filtered by `closed`, `active` and `archived`.
//! - `GET /markets/keyset`: markets, 20 a page by default, at most 100, filtered by the same
//!   flags and by repeated `id=` parameters.
//!
//! Both answer `{"<records>": [...], "next_cursor": "..."}`, without `next_cursor` on the
//! last page; the next page is asked for with `after_cursor`. Like the real keyset
//! endpoints, both refuse `offset`.

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::sync::Arc;

use crate::data::id_of;
use crate::error::ReplayError;
use crate::page::{Listing, Page, Params, paginate};
use crate::server::Shared;

pub(crate) fn router() -> Router<Arc<Shared>> {
    Router::new()
        .route("/events/keyset", get(events))
        .route("/markets/keyset", get(markets))
}

async fn events(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    params.forbid("offset", OFFSET_REFUSED)?;
    let limit = params.limit(20, 500)?;
    let flags = Flags::parse(&params)?;

    let catalog = shared.catalog();
    let events = &catalog.data.polymarket_events;
    let start = params.start("after_cursor", Listing::GammaEvents, events.len())?;
    let page = paginate(Listing::GammaEvents, events.len(), start, limit, |&position| {
        flags.keep(&events[position])
    });
    let records = page
        .positions
        .iter()
        .map(|&position| events[position].clone())
        .collect();
    Ok(Json(body("events", records, page)))
}

async fn markets(
    State(shared): State<Arc<Shared>>,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Json<Value>, ReplayError> {
    let params = Params::new(pairs);
    params.forbid("offset", OFFSET_REFUSED)?;
    let limit = params.limit(20, 100)?;
    let flags = Flags::parse(&params)?;
    let ids: HashSet<&str> = params.all("id").collect();

    let catalog = shared.catalog();
    let len = catalog.polymarket_market_count();
    let start = params.start("after_cursor", Listing::GammaMarkets, len)?;
    let page = paginate(Listing::GammaMarkets, len, start, limit, |&position| {
        let market = catalog.polymarket_market(position);
        let wanted = ids.is_empty() || id_of(market, "id").is_some_and(|id| ids.contains(id.as_ref()));
        wanted && flags.keep(market)
    });
    let records = page
        .positions
        .iter()
        .map(|&position| catalog.served_polymarket_market(position))
        .collect();
    Ok(Json(body("markets", records, page)))
}

const OFFSET_REFUSED: &str = "keyset endpoints paginate with after_cursor, not offset";

/// `{"<key>": [records], "next_cursor": "..."}`, without `next_cursor` on the last page.
fn body(key: &str, records: Vec<Value>, page: Page) -> Value {
    let mut body = json!({ key: records });
    if let Some(cursor) = page.next_cursor {
        body["next_cursor"] = Value::String(cursor);
    }
    body
}

/// Gamma's status flags. `closed=false` keeps records whose `closed` is not `true` (absent
/// counts as false); `closed=true` those where it is `true`; `active` and `archived` alike.
struct Flags {
    closed: Option<bool>,
    active: Option<bool>,
    archived: Option<bool>,
}

impl Flags {
    fn parse(params: &Params) -> Result<Flags, ReplayError> {
        Ok(Flags {
            closed: params.flag("closed")?,
            active: params.flag("active")?,
            archived: params.flag("archived")?,
        })
    }

    fn keep(&self, record: &Value) -> bool {
        let matches = |key: &str, wanted: Option<bool>| {
            wanted.is_none_or(|wanted| (record.get(key) == Some(&Value::Bool(true))) == wanted)
        };
        matches("closed", self.closed) && matches("active", self.active) && matches("archived", self.archived)
    }
}
