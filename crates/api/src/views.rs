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

/// One item, under `data`.
#[derive(Serialize, ToSchema)]
pub struct DataEnvelope<T> {
    /// The item.
    #[schema(inline = false)]
    pub data: T,
}

/// A page of items, under `data`, and where the page lies in the whole list.
#[derive(Serialize, ToSchema)]
pub struct ListEnvelope<T> {
    /// This page's items, in the list's order.
    #[schema(inline = false)]
    pub data: Vec<T>,
    /// Where this page lies in the whole list.
    pub pagination: Pagination,
}

/// Where a page lies in the whole list (`docs/contract/interface.md#i2-5`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pagination {
    /// How many items match the request in all, over every page.
    pub total: u64,
    /// The most items a page holds, as requested (or the default).
    pub limit: u32,
    /// How many matching items come before this page.
    pub offset: u64,
    /// Whether items follow this page: `offset` plus this page's length is less than `total`.
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
        Ok(()) => json_bytes_response(body),
        Err(error) => {
            tracing::error!(%error, "a response did not serialize");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// `body`, JSON already, as a response.
pub fn json_bytes_response(body: Vec<u8>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// About how many bytes one market or event of a list page takes in JSON.
pub const BYTES_PER_LIST_ITEM: usize = 400;

/// A time as ISO 8601 in UTC with milliseconds (`2025-06-24T23:58:33.606Z`), written straight
/// into the response.
pub struct Iso8601(pub Timestamp);

impl utoipa::PartialSchema for Iso8601 {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
            .description(Some("A time in ISO 8601, in UTC with milliseconds."))
            .into()
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
    /// The outcome's name as the exchange gives it (`Yes`, `No`, a team, a range).
    pub name: &'a str,
    /// The outcome's current price: a fraction from 0 to 1, the market's implied probability of it.
    pub price: f64,
    /// The highest price a buyer bids, a fraction from 0 to 1; the key is absent when the exchange
    /// gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    /// The lowest price a seller asks, a fraction from 0 to 1; the key is absent when the exchange
    /// gives none.
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
    /// The outcome's id (a UUID), stable for the market and the outcome's position.
    pub id: Uuid,
    /// The outcome's name as the exchange gives it (`Yes`, `No`, a team, a range).
    pub name: &'a str,
    /// The outcome's current price: a fraction from 0 to 1, the market's implied probability of it.
    pub price: f64,
    /// The highest price a buyer bids, a fraction from 0 to 1; the key is absent when the exchange
    /// gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    /// The lowest price a seller asks, a fraction from 0 to 1; the key is absent when the exchange
    /// gives none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ask_price: Option<f64>,
}

/// A market in a list: its figures without description, dates or matches (get has them).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketListItem<'a> {
    /// The market's Marketlens id (a UUID), the same on every node and after every sync.
    pub id: Uuid,
    /// The exchange that lists the market.
    #[schema(value_type = schemas::Exchange)]
    pub exchange_id: &'static str,
    /// The exchange's own id of the market: Polymarket's numeric market id or Kalshi's ticker.
    pub external_market_id: &'a str,
    /// The market's question, as the exchange words it.
    pub question: &'a str,
    /// Where the market is in its life.
    #[schema(value_type = schemas::MarketStatus)]
    pub status: &'static str,
    /// The subject the market is filed under.
    #[schema(value_type = schemas::Category)]
    pub category: &'static str,
    /// The market's current liquidity, in US dollars.
    pub liquidity: f64,
    /// The market's total traded volume, in US dollars.
    pub volume: f64,
    /// The volume traded in the last 24 hours, in US dollars.
    pub volume_24h: f64,
    /// When the exchange created the market (ISO 8601, UTC).
    pub created_at: Iso8601,
    /// The market's outcomes and their prices; the key is present only with `include=outcomes`.
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

/// A market on the other exchange that asks the same question and resolves alike
/// (`docs/contract/decisions.md#d6-matching`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchedMarketView<'a> {
    /// The matched market's Marketlens id (a UUID): get it for its figures.
    pub id: Uuid,
    /// The exchange that lists the matched market (the other one).
    #[schema(value_type = schemas::Exchange)]
    pub exchange_id: &'static str,
    /// The matched market's question, as its exchange words it.
    pub question: &'a str,
    /// How sure the matcher is that both markets resolve alike: a fraction from 0 to 1, 3 decimals;
    /// only matches above the serving threshold are listed.
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

/// A market with its description, dates, outcomes and the markets of the other exchange that ask
/// the same question.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketDetail<'a> {
    /// The market's Marketlens id (a UUID), the same on every node and after every sync.
    pub id: Uuid,
    /// The exchange that lists the market.
    #[schema(value_type = schemas::Exchange)]
    pub exchange_id: &'static str,
    /// The exchange's own id of the market: Polymarket's numeric market id or Kalshi's ticker.
    pub external_market_id: &'a str,
    /// The market's question, as the exchange words it.
    pub question: &'a str,
    /// The market's full description as the exchange gives it; empty when it gives none.
    pub description: &'a str,
    /// Where the market is in its life.
    #[schema(value_type = schemas::MarketStatus)]
    pub status: &'static str,
    /// The subject the market is filed under.
    #[schema(value_type = schemas::Category)]
    pub category: &'static str,
    /// The market's current liquidity, in US dollars.
    pub liquidity: f64,
    /// The market's total traded volume, in US dollars.
    pub volume: f64,
    /// The volume traded in the last 24 hours, in US dollars.
    pub volume_24h: f64,
    /// `null` when the exchange gives none.
    pub start_date: Option<Iso8601>,
    /// `null` when the exchange gives none.
    pub end_date: Option<Iso8601>,
    /// When the exchange created the market (ISO 8601, UTC).
    pub created_at: Iso8601,
    /// When Marketlens last stored a change to the market (ISO 8601, UTC).
    pub updated_at: Iso8601,
    /// The market's outcomes and their current prices, in the exchange's order.
    pub outcomes: Vec<DetailOutcome<'a>>,
    /// Markets of the other exchange that ask the same question, best first, at most 5; empty when
    /// none is known.
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

/// An event in a list: a group of markets an exchange lists together.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventListItem<'a> {
    /// The event's Marketlens id (a UUID).
    pub id: Uuid,
    /// The event's title, as the exchange gives it.
    pub title: &'a str,
    /// The event's description; empty when the exchange gives none.
    pub description: &'a str,
    /// The exchange that lists the event.
    #[schema(value_type = schemas::Exchange)]
    pub exchange: &'static str,
    /// The subject the event is filed under.
    #[schema(value_type = schemas::Category)]
    pub category: &'static str,
    /// How many markets the event holds.
    pub market_count: u64,
    /// The total traded volume of the event's markets, in US dollars.
    pub total_volume: f64,
    /// The event's image on the exchange; an empty string when there is none.
    pub image_url: &'a str,
    /// When the exchange created the event (ISO 8601, UTC).
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

/// A market of an event, as the event's get lists it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventMarketView<'a> {
    /// The market's Marketlens id (a UUID): get it for its figures.
    pub id: Uuid,
    /// The market's question.
    pub question: &'a str,
    /// The price of the market's first outcome, a fraction from 0 to 1.
    pub price: f64,
    /// The volume traded in the last 24 hours, in US dollars.
    pub volume_24h: f64,
}

/// An event with its markets.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventDetail<'a> {
    /// The event's Marketlens id (a UUID).
    pub id: Uuid,
    /// The event's title, as the exchange gives it.
    pub title: &'a str,
    /// The event's description; empty when the exchange gives none.
    pub description: &'a str,
    /// The exchange that lists the event.
    #[schema(value_type = schemas::Exchange)]
    pub exchange: &'static str,
    /// The subject the event is filed under.
    #[schema(value_type = schemas::Category)]
    pub category: &'static str,
    /// The total traded volume of the event's markets, in US dollars.
    pub total_volume: f64,
    /// The event's image on the exchange; an empty string when there is none.
    pub image_url: &'a str,
    /// When the exchange created the event (ISO 8601, UTC).
    pub created_at: Iso8601,
    /// The event's markets.
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

/// The calling key's account: its credits, tier and rate limit (`docs/contract/interface.md#i2-4`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    /// The calling key, shortened so that it cannot be used (`pm_live_ab12...cd34`).
    pub api_key: String,
    /// The account's credits.
    pub credits: CreditsView,
    /// The account's owner.
    pub user: UserView,
    /// The account's tier, which sets its requests per minute (`free`, `starter`, `pro`,
    /// `enterprise`, or a tier the operator configured).
    pub tier: String,
    /// The account's requests-per-minute limit and this minute's use of it.
    pub rate_limit: RateLimitView,
}

/// An account's credits: every charged call takes its cost from `remaining`.
#[derive(Serialize, ToSchema)]
pub struct CreditsView {
    /// Credits left to spend.
    pub remaining: i64,
    /// Credits added to the account in all.
    pub purchased: i64,
    /// Credits charged in all.
    pub used: i64,
}

/// The owner of an account.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    /// The account's id (a UUID).
    pub id: String,
    /// The owner's wallet address; an empty string when there is none.
    pub wallet_address: String,
}

/// An account's requests-per-minute limit and this minute's use of it.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RateLimitView {
    /// The most requests the account may make in a minute.
    pub requests_per_minute: u32,
    /// Requests made in the current minute, this one included.
    pub current_usage: u32,
    /// When the current minute's window ends (ISO 8601, UTC).
    pub resets_at: String,
}

/// The explain envelope (`docs/contract/interface.md#i2-3`).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainEnvelope {
    /// Always `true` in a 200 answer.
    pub success: bool,
    /// The market, its summary and the key factors from news.
    pub data: ExplainData,
    /// Credits this call charged: always 5.
    pub credits_used: i64,
    /// How long the server took, in milliseconds.
    pub processing_time_ms: f64,
}

/// What explain found: the market, a summary and key factors from recent news.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainData {
    /// The query and the market it was matched to.
    pub meta: ExplainMeta,
    /// The market explained.
    pub market: ExplainMarket,
    /// A short text with the market's current price and volume, and how many recent articles bear
    /// on it.
    pub summary: String,
    /// Factors taken from recent news articles about the market's subject, most relevant first;
    /// empty when no recent article bears on it.
    pub key_factors: Vec<String>,
    /// Where the summary and key factors come from: the market data, then each article a key factor
    /// is taken from.
    pub sources: Vec<ExplainSource>,
}

/// The query and the market it was matched to.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMeta {
    /// The query, as given.
    pub query: String,
    /// The Marketlens id (a UUID) of the market explained.
    pub market_id: String,
    /// The market's exchange, in lower case.
    #[schema(value_type = schemas::Platform)]
    pub platform: &'static str,
    /// When the explanation was made (ISO 8601, UTC).
    pub timestamp: String,
    /// Credits for the market data alone: 1, part of the envelope's total.
    pub credits_used: i64,
}

/// The market explained, in explain's shape.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMarket {
    /// The title of the market's event, or the question when it has none.
    pub title: String,
    /// The market's question.
    pub question: String,
    /// The market's exchange, in lower case.
    #[schema(value_type = schemas::Platform)]
    pub platform: &'static str,
    /// The exchange's display name: `Polymarket` or `Kalshi`.
    pub provider: &'static str,
    /// The market's total traded volume, in US dollars.
    pub volume: f64,
    /// The volume traded in the last 24 hours, in US dollars.
    pub volume_24h: f64,
    /// The market's current liquidity, in US dollars.
    pub liquidity: f64,
    /// When the exchange created the market (ISO 8601, UTC).
    pub created_at: String,
    /// An empty string when the exchange gives none.
    pub end_date: String,
    /// Whether the market still trades.
    #[schema(value_type = schemas::ExplainStatus)]
    pub status: &'static str,
    /// The market's outcomes and their current prices.
    pub outcomes: Vec<ExplainOutcome>,
    /// The market's page on its exchange.
    pub url: String,
    /// The market's image on its exchange; an empty string when there is none.
    pub image: String,
}

/// An outcome of the market explained.
#[derive(Serialize, ToSchema)]
pub struct ExplainOutcome {
    /// The outcome's id (a UUID), as in a market's get.
    pub id: String,
    /// The outcome's name.
    pub name: String,
    /// The outcome's current price, a fraction from 0 to 1.
    pub price: f64,
}

/// A source of an explanation: the market data (`market-db`) or a news article (`news-feed`).
#[derive(Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ExplainSource {
    /// The market data Marketlens holds.
    MarketDb {
        /// `Polymarket market data` or `Kalshi market data`.
        name: String,
        /// The market's page on its exchange.
        url: String,
    },
    /// An article a key factor is taken from.
    #[serde(rename_all = "camelCase")]
    NewsFeed {
        /// The article's headline.
        title: String,
        /// The article's address, as its feed gives it.
        url: String,
        /// Who published the article: its feed's title, or the feed's host when it has none.
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
    /// The market's Marketlens id (a UUID).
    pub market_id: Uuid,
    /// `5m`, `1h`, `4h` or `1d`.
    pub interval: &'static str,
    /// One series of candles per outcome, in the market's outcome order.
    pub outcomes: Vec<OutcomeHistory<'a>>,
}

/// One outcome's candles.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutcomeHistory<'a> {
    /// The outcome's id (a UUID), as in a market's get.
    pub id: Uuid,
    /// The outcome's name.
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
    /// The first price observed in the bucket, a fraction from 0 to 1.
    pub open: f64,
    /// The highest price observed in the bucket.
    pub high: f64,
    /// The lowest price observed in the bucket.
    pub low: f64,
    /// The last price observed in the bucket.
    pub close: f64,
    /// The market's 24-hour volume, in US dollars, at the bucket's last observation.
    pub volume_24h: f64,
}

/// A page of a market's price history.
#[derive(Serialize, ToSchema)]
pub struct HistoryEnvelope<'a> {
    /// The market's candles, one series per outcome.
    pub data: MarketHistory<'a>,
    /// Counts candle times: `total` is how many buckets of the range have a candle.
    pub pagination: Pagination,
}

/// One side of a spread: a market and the outcome of it that is compared.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpreadSide<'a> {
    /// The market's Marketlens id (a UUID).
    pub id: Uuid,
    /// The exchange's own id of the market: Polymarket's numeric market id or Kalshi's ticker.
    pub external_market_id: &'a str,
    /// The market's question, as its exchange words it.
    pub question: &'a str,
    /// The subject the market is filed under.
    #[schema(value_type = schemas::Category)]
    pub category: &'static str,
    /// The name of the outcome compared.
    pub outcome: &'a str,
    /// The compared outcome's current price, a fraction from 0 to 1.
    pub price: f64,
    /// The market's volume of the last 24 hours, in US dollars.
    pub volume_24h: f64,
    /// When Marketlens last confirmed the price with the exchange (ISO 8601, UTC).
    pub last_synced_at: Iso8601,
    /// The price was last confirmed longer ago than the server's stale age.
    pub stale: bool,
}

/// A matched pair of open markets, the same side's price on each exchange.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SpreadItem<'a> {
    /// How sure the matcher is that both markets resolve alike: a fraction from 0 to 1, 3 decimals.
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
    /// The Polymarket side.
    pub polymarket: SpreadSide<'a>,
    /// The Kalshi side.
    pub kalshi: SpreadSide<'a>,
}

/// One price level of a book.
#[derive(Serialize, ToSchema)]
pub struct PriceLevel {
    /// What one contract costs, a fraction from 0 to 1 (dollars).
    pub price: f64,
    /// Contracts wanted (bids) or offered (asks) at this price; may be fractional.
    pub size: f64,
}

/// One outcome's side of a book.
#[derive(Serialize, ToSchema)]
pub struct OutcomeBookView<'a> {
    /// The outcome's name, as the market names it.
    pub outcome: &'a str,
    /// Offers to buy this outcome, best (highest price) first.
    pub bids: Vec<PriceLevel>,
    /// Offers to sell this outcome, best (lowest price) first.
    pub asks: Vec<PriceLevel>,
}

/// A market's order book.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderBookView<'a> {
    /// The market's Marketlens id (a UUID).
    pub market_id: Uuid,
    #[schema(value_type = schemas::Exchange)]
    pub exchange: &'static str,
    /// When the book was as shown: the exchange's time for it (Polymarket), when its answer
    /// arrived (Kalshi), when it was recorded, or, for a book the live stream keeps (`stream`),
    /// this answer's time.
    pub timestamp: Iso8601,
    /// How old the book was when this answer was made, in milliseconds.
    pub age_ms: i64,
    #[schema(value_type = schemas::DepthSource)]
    pub source: &'static str,
    /// The book is older than the server's bound (`--depth-max-age-ms`, 10 s by default);
    /// a recording always is.
    pub stale: bool,
    /// Recordings only (the demo): the market the recording was made on, as its exchange
    /// names it, when that is another market than this one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_from: Option<&'a str>,
    /// One book per outcome, in the market's outcome order. A binary market's second book is
    /// its first seen from the other side: each bid at `p` of one is an ask at `1 - p` of the
    /// other.
    pub outcomes: Vec<OutcomeBookView<'a>>,
}

/// One trade.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TradeView<'a> {
    /// The exchange's id of the trade: Kalshi's `trade_id`; on Polymarket, the transaction hash
    /// and the end of the outcome token's id.
    pub id: &'a str,
    /// When the trade happened.
    pub time: Iso8601,
    /// The outcome traded, as the market names it.
    pub outcome: &'a str,
    /// The price of one contract of `outcome`, a fraction from 0 to 1.
    pub price: f64,
    /// Contracts traded.
    pub size: f64,
    /// Whether the taker (the order that crossed the book) bought or sold `outcome`. Kalshi's
    /// takers always buy: a taker selling YES is stated as buying NO.
    #[schema(value_type = schemas::TakerSide)]
    pub taker_side: &'static str,
}

/// A page of a market's trades.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MarketTrades<'a> {
    /// The market's Marketlens id (a UUID).
    pub market_id: Uuid,
    #[schema(value_type = schemas::Exchange)]
    pub exchange: &'static str,
    #[schema(value_type = schemas::DepthSource)]
    pub source: &'static str,
    /// As in an order book: the market a recording was made on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recorded_from: Option<&'a str>,
    /// Newest first.
    pub trades: Vec<TradeView<'a>>,
}

/// Where a cursor-paged list goes next.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CursorPagination {
    /// The most items a page holds, as requested (or the default).
    pub limit: u32,
    /// Whether another page may follow: ask for it with `cursor=nextCursor`. (An exchange that
    /// pages by offset can answer the last full page with `hasMore` and an empty next page.)
    pub has_more: bool,
    /// The `cursor` of the next page; `null` on the last.
    pub next_cursor: Option<String>,
}

/// A page of a market's trades.
#[derive(Serialize, ToSchema)]
pub struct TradesEnvelope<'a> {
    /// The market and this page's trades.
    pub data: MarketTrades<'a>,
    pub pagination: CursorPagination,
}

/// Several markets' order books.
#[derive(Serialize, ToSchema)]
pub struct OrderBooksEnvelope<'a> {
    /// One book per market, in the order the ids were given (each id once).
    pub data: Vec<OrderBookView<'a>>,
}
