//! The JSON shapes of `docs/contract/interface.md#i2`, field for field. List and get views are
//! separate types so that the presence rules (which fields appear where) are checked by the
//! compiler rather than by convention.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use marketlens_domain::ids::outcome_id;
use marketlens_domain::time::{Timestamp, to_iso8601};
use marketlens_domain::{Outcome, ids};
use marketlens_storage::{EventMarket, MarketSummary, MatchedMarket, Page, StoredEvent, StoredMarket};
use serde::{Serialize, Serializer};
use utoipa::ToSchema;

use crate::schemas;
use uuid::Uuid;

#[derive(Serialize, ToSchema)]
pub struct DataEnvelope<T> {
    pub data: T,
}

#[derive(Serialize, ToSchema)]
pub struct ListEnvelope<T> {
    pub data: Vec<T>,
    pub pagination: Pagination,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    pub total: u64,
    pub limit: u32,
    pub offset: u64,
    pub has_more: bool,
}

impl Pagination {
    pub fn of<T>(page: &Page<T>, limit: u32, offset: u64) -> Pagination {
        Pagination {
            total: page.total,
            limit,
            offset,
            has_more: offset.saturating_add(page.items.len() as u64) < page.total,
        }
    }
}

/// `value` as a JSON response, serialized into a buffer of about `expected_bytes` (axum's
/// `Json` starts at 128 bytes and doubles its way up to a list page's 20 KB).
pub fn json_response(value: &impl Serialize, expected_bytes: usize) -> Response {
    let mut body = Vec::with_capacity(expected_bytes);
    match serde_json::to_writer(&mut body, value) {
        Ok(()) => ([(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(error) => {
            tracing::error!(%error, "a response did not serialize");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// About how many bytes one market or event of a list page takes in JSON.
pub const BYTES_PER_LIST_ITEM: usize = 400;

/// A time as ISO 8601 in UTC with milliseconds (`2025-06-24T23:58:33.606Z`), written straight
/// into the response.
pub struct Iso8601(pub Timestamp);

impl utoipa::PartialSchema for Iso8601 {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        schemas::date_time().into()
    }
}

impl ToSchema for Iso8601 {}

impl Serialize for Iso8601 {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // chrono's RFC 3339 writer, not `format()`: parsing a format string for every time
        // took a tenth of a list page's CPU (measured with `perf`).
        serializer.serialize_str(&to_iso8601(self.0))
    }
}

/// An outcome in a list (`include=outcomes`): no id.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ListOutcome<'a> {
    pub name: &'a str,
    pub price: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ask_price: Option<f64>,
}

impl<'a> From<&'a Outcome> for ListOutcome<'a> {
    fn from(outcome: &'a Outcome) -> Self {
        ListOutcome {
            name: &outcome.name,
            price: outcome.price,
            best_bid_price: outcome.best_bid_price,
            best_ask_price: outcome.best_ask_price,
        }
    }
}

/// An outcome in a get: with its id.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DetailOutcome<'a> {
    pub id: Uuid,
    pub name: &'a str,
    pub price: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ask_price: Option<f64>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketListItem<'a> {
    pub id: Uuid,
    #[schema(schema_with = schemas::exchange)]
    pub exchange_id: &'static str,
    pub external_market_id: &'a str,
    pub question: &'a str,
    #[schema(schema_with = schemas::market_status)]
    pub status: &'static str,
    #[schema(schema_with = schemas::category)]
    pub category: &'static str,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    pub created_at: Iso8601,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<ListOutcome<'a>>>,
}

impl<'a> MarketListItem<'a> {
    pub fn new(summary: &'a MarketSummary, include_outcomes: bool) -> MarketListItem<'a> {
        MarketListItem {
            id: summary.id,
            exchange_id: summary.exchange.as_str(),
            external_market_id: &summary.external_id,
            question: &summary.question,
            status: summary.status.as_str(),
            category: summary.category.as_str(),
            liquidity: summary.liquidity,
            volume: summary.volume,
            volume_24h: summary.volume_24h,
            created_at: Iso8601(summary.created_at),
            outcomes: include_outcomes.then(|| summary.outcomes.iter().map(ListOutcome::from).collect()),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchedMarketView<'a> {
    pub id: Uuid,
    #[schema(schema_with = schemas::exchange)]
    pub exchange_id: &'static str,
    pub question: &'a str,
    pub similarity: f64,
    /// What the two markets agree on (subject, contest, form, threshold or range, date or
    /// period) and what could not be checked or differs only at a boundary, in one line, so
    /// that a trader can check a match before acting on it. Beyond the interface.
    pub reason: &'a str,
}

impl<'a> MatchedMarketView<'a> {
    fn new(matched: &'a MatchedMarket, reason: &'a str) -> Self {
        MatchedMarketView {
            id: matched.id,
            exchange_id: matched.exchange.as_str(),
            question: &matched.question,
            similarity: matched.similarity,
            reason,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketDetail<'a> {
    pub id: Uuid,
    #[schema(schema_with = schemas::exchange)]
    pub exchange_id: &'static str,
    pub external_market_id: &'a str,
    pub question: &'a str,
    pub description: &'a str,
    #[schema(schema_with = schemas::market_status)]
    pub status: &'static str,
    #[schema(schema_with = schemas::category)]
    pub category: &'static str,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    /// `null` when the exchange gives none.
    pub start_date: Option<Iso8601>,
    /// `null` when the exchange gives none.
    pub end_date: Option<Iso8601>,
    pub created_at: Iso8601,
    pub updated_at: Iso8601,
    pub outcomes: Vec<DetailOutcome<'a>>,
    pub matched_markets: Vec<MatchedMarketView<'a>>,
    /// When Marketlens last confirmed these figures with the exchange: the later of the sync
    /// or import that last changed them and the last successful sync that walked the market.
    pub last_synced_at: Iso8601,
    /// The id of the market's event (see `GET /api/v1/events/{id}`); `null` when the market
    /// belongs to no event or its event is not stored. Beyond the interface.
    pub event_id: Option<Uuid>,
    /// The market's public page on its exchange (a Kalshi page is its event's), in a form
    /// `GET /api/v1/markets/lookup` reads back; `null` when the exchange gave nothing to build
    /// one from. Beyond the interface.
    pub url: Option<&'a str>,
    /// How the market resolves, as the exchange states it. Beyond the interface.
    pub rules: MarketRules<'a>,
    /// The result of a `RESOLVED` market; `null` for any other status. Beyond the interface.
    pub resolution: Option<MarketResolution<'a>>,
}

/// How a market resolves, in its exchange's words; each part `null` when the exchange states
/// none.
#[derive(Serialize, ToSchema)]
pub struct MarketRules<'a> {
    /// The resolution rule: Kalshi's primary rules; Polymarket's description (the market's
    /// `description` too).
    pub primary: Option<&'a str>,
    /// Further terms: Kalshi's secondary rules. Always `null` on Polymarket.
    pub secondary: Option<&'a str>,
    /// Where the result is to be read, as Polymarket names it (a URL or a name). Always
    /// `null` on Kalshi, whose rules name their sources.
    pub source: Option<&'a str>,
}

/// A resolved market's result.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketResolution<'a> {
    /// The winning outcome's `name`, as in `outcomes`; `null` when the exchange's result
    /// names no single winner (a Kalshi scalar settlement, or a Polymarket market resolved
    /// with no outcome priced at 0.99 or more).
    pub outcome: Option<&'a str>,
    /// When the exchange settled the market (Kalshi's settlement time, Polymarket's closing
    /// time); `null` when it does not say.
    pub resolved_at: Option<Iso8601>,
}

impl<'a> MarketDetail<'a> {
    /// `reasons` holds each match's reason, in the order of `matched`; `event_id` is the
    /// market's event's, when the store holds that event.
    pub fn new(
        stored: &'a StoredMarket,
        matched: &'a [MatchedMarket],
        reasons: &'a [String],
        last_synced_at: Timestamp,
        event_id: Option<Uuid>,
    ) -> MarketDetail<'a> {
        let market = &stored.market;
        let rules = &market.rules;
        MarketDetail {
            id: stored.id,
            exchange_id: market.exchange.as_str(),
            external_market_id: &market.external_id,
            question: &market.question,
            description: &market.description,
            status: market.status.as_str(),
            category: market.category.as_str(),
            liquidity: market.liquidity,
            volume: market.volume,
            volume_24h: market.volume_24h,
            start_date: market.start_date.map(Iso8601),
            end_date: market.end_date.map(Iso8601),
            created_at: Iso8601(stored.created_at),
            updated_at: Iso8601(stored.updated_at),
            outcomes: market
                .outcomes
                .iter()
                .enumerate()
                .map(|(position, outcome)| DetailOutcome {
                    id: outcome_id(stored.id, position),
                    name: &outcome.name,
                    price: outcome.price,
                    best_bid_price: outcome.best_bid_price,
                    best_ask_price: outcome.best_ask_price,
                })
                .collect(),
            matched_markets: matched
                .iter()
                .zip(reasons)
                .map(|(matched, reason)| MatchedMarketView::new(matched, reason))
                .collect(),
            last_synced_at: Iso8601(last_synced_at),
            event_id,
            url: market.page_url(),
            rules: MarketRules {
                primary: rules.primary.as_deref(),
                secondary: rules.secondary.as_deref(),
                source: rules.source.as_deref(),
            },
            resolution: market.resolution.as_ref().map(|resolution| MarketResolution {
                outcome: resolution.outcome.as_deref(),
                resolved_at: resolution.resolved_at.map(Iso8601),
            }),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventListItem<'a> {
    pub id: Uuid,
    pub title: &'a str,
    pub description: &'a str,
    #[schema(schema_with = schemas::exchange)]
    pub exchange: &'static str,
    #[schema(schema_with = schemas::category)]
    pub category: &'static str,
    pub market_count: u64,
    pub total_volume: f64,
    pub image_url: &'a str,
    pub created_at: Iso8601,
}

impl<'a> From<&'a StoredEvent> for EventListItem<'a> {
    fn from(stored: &'a StoredEvent) -> Self {
        EventListItem {
            id: stored.id,
            title: &stored.event.title,
            description: &stored.event.description,
            exchange: stored.event.exchange.as_str(),
            category: stored.event.category.as_str(),
            market_count: stored.market_count,
            total_volume: stored.total_volume,
            image_url: &stored.event.image_url,
            created_at: Iso8601(stored.created_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventMarketView<'a> {
    pub id: Uuid,
    pub question: &'a str,
    pub price: f64,
    pub volume_24h: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventDetail<'a> {
    pub id: Uuid,
    pub title: &'a str,
    pub description: &'a str,
    #[schema(schema_with = schemas::exchange)]
    pub exchange: &'static str,
    #[schema(schema_with = schemas::category)]
    pub category: &'static str,
    pub total_volume: f64,
    pub image_url: &'a str,
    pub created_at: Iso8601,
    pub markets: Vec<EventMarketView<'a>>,
}

impl<'a> EventDetail<'a> {
    pub fn new(stored: &'a StoredEvent, markets: &'a [EventMarket]) -> EventDetail<'a> {
        EventDetail {
            id: stored.id,
            title: &stored.event.title,
            description: &stored.event.description,
            exchange: stored.event.exchange.as_str(),
            category: stored.event.category.as_str(),
            total_volume: stored.total_volume,
            image_url: &stored.event.image_url,
            created_at: Iso8601(stored.created_at),
            markets: markets
                .iter()
                .map(|market| EventMarketView {
                    id: market.id,
                    question: &market.question,
                    price: market.price,
                    volume_24h: market.volume_24h,
                })
                .collect(),
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    pub api_key: String,
    pub credits: CreditsView,
    pub user: UserView,
    pub tier: String,
    pub rate_limit: RateLimitView,
}

#[derive(Serialize, ToSchema)]
pub struct CreditsView {
    pub remaining: i64,
    pub purchased: i64,
    pub used: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub wallet_address: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateLimitView {
    pub requests_per_minute: u32,
    pub current_usage: u32,
    pub resets_at: String,
}

/// The explain envelope (`docs/contract/interface.md#i2-3`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainEnvelope {
    pub success: bool,
    pub data: ExplainData,
    pub credits_used: i64,
    pub processing_time_ms: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainData {
    pub meta: ExplainMeta,
    pub market: ExplainMarket,
    pub summary: String,
    pub key_factors: Vec<String>,
    pub sources: Vec<ExplainSource>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMeta {
    pub query: String,
    pub market_id: String,
    #[schema(schema_with = schemas::platform)]
    pub platform: &'static str,
    pub timestamp: String,
    pub credits_used: i64,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMarket {
    pub title: String,
    pub question: String,
    #[schema(schema_with = schemas::platform)]
    pub platform: &'static str,
    pub provider: &'static str,
    pub volume: f64,
    pub volume_24h: f64,
    pub liquidity: f64,
    pub created_at: String,
    /// An empty string when the exchange gives none.
    pub end_date: String,
    #[schema(schema_with = schemas::explain_status)]
    pub status: &'static str,
    pub outcomes: Vec<ExplainOutcome>,
    pub url: String,
    pub image: String,
}

#[derive(Serialize, ToSchema)]
pub struct ExplainOutcome {
    pub id: String,
    pub name: String,
    pub price: f64,
}

#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ExplainSource {
    MarketDb {
        name: String,
        url: String,
    },
    /// An article a key factor is taken from.
    #[serde(rename_all = "camelCase")]
    NewsFeed {
        title: String,
        url: String,
        publisher: String,
        /// `null` when the feed gave no date.
        published_at: Option<String>,
    },
}

/// The explain view of a market's outcomes: ids as in get.
pub fn explain_outcomes(stored: &StoredMarket) -> Vec<ExplainOutcome> {
    stored
        .market
        .outcomes
        .iter()
        .enumerate()
        .map(|(position, outcome)| ExplainOutcome {
            id: ids::outcome_id(stored.id, position).to_string(),
            name: outcome.name.clone(),
            price: outcome.price,
        })
        .collect()
}

pub fn optional_time(timestamp: Option<Timestamp>) -> String {
    timestamp.map(to_iso8601).unwrap_or_default()
}

/// A market's price history: one series of candles per outcome.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketHistory<'a> {
    pub market_id: Uuid,
    /// `5m`, `1h`, `4h` or `1d`.
    pub interval: &'static str,
    pub outcomes: Vec<OutcomeHistory<'a>>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeHistory<'a> {
    pub id: Uuid,
    pub name: &'a str,
    /// Oldest first; a bucket without an observation has no candle.
    pub candles: Vec<CandleView>,
}

/// An outcome's price over `[time, time + interval)`, and the market's 24-hour volume at its close.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CandleView {
    /// The start of the bucket, on a UTC boundary of the interval.
    pub time: Iso8601,
    pub open: f64,
    pub high: f64,
    pub low: f64,
    pub close: f64,
    pub volume_24h: f64,
}

#[derive(Serialize, ToSchema)]
pub struct HistoryEnvelope<'a> {
    pub data: MarketHistory<'a>,
    /// Counts candle times: `total` is how many buckets of the range have a candle.
    pub pagination: Pagination,
}

/// One side of a spread: a market and the outcome of it that is compared.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpreadSide<'a> {
    pub id: Uuid,
    pub external_market_id: &'a str,
    pub question: &'a str,
    #[schema(schema_with = schemas::category)]
    pub category: &'static str,
    /// The name of the outcome compared.
    pub outcome: &'a str,
    pub price: f64,
    pub volume_24h: f64,
    pub last_synced_at: Iso8601,
    /// The price was last confirmed longer ago than the server's stale age.
    pub stale: bool,
}

/// A matched pair of open markets, the same side's price on each exchange.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpreadItem<'a> {
    pub similarity: f64,
    /// Kalshi's second outcome ("No") is the side that pays with Polymarket's first, so that is
    /// the Kalshi price compared.
    pub flipped: bool,
    /// The absolute difference of the two prices, rounded to 6 decimal places.
    pub spread: f64,
    /// The smaller of the two markets' 24-hour volumes.
    pub volume_24h: f64,
    /// Either price is stale: the spread compares prices of different times.
    pub stale: bool,
    pub polymarket: SpreadSide<'a>,
    pub kalshi: SpreadSide<'a>,
}
