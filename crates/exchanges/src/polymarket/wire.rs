//! Gamma's records as they arrive, reduced to the fields the mapping uses; serde ignores the
//! other hundred or so. Every field is optional, because Gamma omits keys freely (placeholder
//! markets have no `outcomePrices`, 108 of 500 markets have no `bestBid`); whether a missing
//! field matters is decided in `normalize`, where the reason can say so.

use serde::Deserialize;
use serde_with::json::JsonString;
use serde_with::{PickFirst, Same, serde_as};

use crate::lenient::{Finite, Flag, IdString, Number};

/// A market, from `/markets` (with `events` embedding its parent) or nested in an event.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Market {
    #[serde_as(as = "Option<IdString>")]
    pub id: Option<String>,
    pub question: Option<String>,
    pub description: Option<String>,
    /// Where the result is to be read: a URL, a name, or `""`.
    pub resolution_source: Option<String>,
    pub slug: Option<String>,
    pub image: Option<String>,
    pub category: Option<String>,
    /// `"[\"Yes\", \"No\"]"`: a JSON-encoded list (a real list is accepted too).
    #[serde_as(as = "Option<PickFirst<(JsonString, Same)>>")]
    pub outcomes: Option<Vec<String>>,
    /// `"[\"0.0015\", \"0.9985\"]"`: a JSON-encoded list of numeric strings, some with 40
    /// digits (a real list, and plain numbers inside it, are accepted too).
    #[serde_as(as = "Option<PickFirst<(JsonString<Vec<Number>>, Vec<Number>)>>")]
    pub outcome_prices: Option<Vec<Finite>>,
    #[serde_as(as = "Option<Number>")]
    pub best_bid: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub best_ask: Option<Finite>,
    #[serde_as(as = "Option<Flag>")]
    pub active: Option<bool>,
    #[serde_as(as = "Option<Flag>")]
    pub closed: Option<bool>,
    #[serde_as(as = "Option<Flag>")]
    pub archived: Option<bool>,
    pub uma_resolution_status: Option<String>,
    #[serde_as(as = "Option<Number>")]
    pub liquidity_num: Option<Finite>,
    /// A numeric string on markets.
    #[serde_as(as = "Option<Number>")]
    pub liquidity: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub volume_num: Option<Finite>,
    /// A numeric string on markets.
    #[serde_as(as = "Option<Number>")]
    pub volume: Option<Finite>,
    #[serde_as(as = "Option<Number>")]
    pub volume24hr: Option<Finite>,
    pub start_date: Option<String>,
    pub start_date_iso: Option<String>,
    pub end_date: Option<String>,
    pub end_date_iso: Option<String>,
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    /// When trading closed, in Postgres' text form (`2025-04-01 08:21:16+00`); on closed
    /// markets only.
    pub closed_time: Option<String>,
    /// The parent event, on `/markets` only; Gamma sends a list of one.
    pub events: Option<Vec<Event>>,
}

/// An event, from `/events` (its `markets` are read separately, as records of their own) or
/// embedded in a market.
#[serde_as]
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub(crate) struct Event {
    #[serde_as(as = "Option<IdString>")]
    pub id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub slug: Option<String>,
    pub image: Option<String>,
    /// Only on old events ("Sports", "US-current-affairs").
    pub category: Option<String>,
    pub tags: Option<Vec<Tag>>,
    /// A number on events (unlike markets, where it is a string).
    #[serde_as(as = "Option<Number>")]
    pub volume: Option<Finite>,
    pub created_at: Option<String>,
    pub creation_date: Option<String>,
    pub updated_at: Option<String>,
    pub series_slug: Option<String>,
    pub series: Option<Vec<Series>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Tag {
    pub label: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Series {
    pub slug: Option<String>,
}
