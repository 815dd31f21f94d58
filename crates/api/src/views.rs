//! The JSON shapes of `interface.md` section 2, field for field. List and get views are
//! separate types so that the presence rules (which fields appear where) are checked by the
//! compiler rather than by convention.

use marketlens_domain::ids::outcome_id;
use marketlens_domain::time::{Timestamp, to_iso8601};
use marketlens_domain::{Outcome, ids};
use marketlens_storage::{EventMarket, MatchedMarket, Page, StoredEvent, StoredMarket};
use serde::Serialize;

#[derive(Serialize)]
pub struct DataEnvelope<T> {
    pub data: T,
}

#[derive(Serialize)]
pub struct ListEnvelope<T> {
    pub data: Vec<T>,
    pub pagination: Pagination,
}

#[derive(Serialize)]
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

/// An outcome in a list (`include=outcomes`): no id.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListOutcome {
    pub name: String,
    pub price: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_bid_price: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_ask_price: Option<f64>,
}

impl From<&Outcome> for ListOutcome {
    fn from(outcome: &Outcome) -> Self {
        ListOutcome {
            name: outcome.name.clone(),
            price: outcome.price,
            best_bid_price: outcome.best_bid_price,
            best_ask_price: outcome.best_ask_price,
        }
    }
}

/// An outcome in a get: with its id.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailOutcome {
    pub id: String,
    #[serde(flatten)]
    pub outcome: ListOutcome,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketListItem {
    pub id: String,
    pub exchange_id: &'static str,
    pub external_market_id: String,
    pub question: String,
    pub status: &'static str,
    pub category: &'static str,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    pub created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<Vec<ListOutcome>>,
}

impl MarketListItem {
    pub fn new(stored: &StoredMarket, include_outcomes: bool) -> MarketListItem {
        let market = &stored.market;
        MarketListItem {
            id: stored.id.to_string(),
            exchange_id: market.exchange.as_str(),
            external_market_id: market.external_id.clone(),
            question: market.question.clone(),
            status: market.status.as_str(),
            category: market.category.as_str(),
            liquidity: market.liquidity,
            volume: market.volume,
            volume_24h: market.volume_24h,
            created_at: to_iso8601(stored.created_at),
            outcomes: include_outcomes.then(|| market.outcomes.iter().map(ListOutcome::from).collect()),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MatchedMarketView {
    pub id: String,
    pub exchange_id: &'static str,
    pub question: String,
    pub similarity: f64,
}

impl From<&MatchedMarket> for MatchedMarketView {
    fn from(matched: &MatchedMarket) -> Self {
        MatchedMarketView {
            id: matched.id.to_string(),
            exchange_id: matched.exchange.as_str(),
            question: matched.question.clone(),
            similarity: matched.similarity,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarketDetail {
    pub id: String,
    pub exchange_id: &'static str,
    pub external_market_id: String,
    pub question: String,
    pub description: String,
    pub status: &'static str,
    pub category: &'static str,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    /// `null` when the exchange gives none.
    pub start_date: Option<String>,
    /// `null` when the exchange gives none.
    pub end_date: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    pub outcomes: Vec<DetailOutcome>,
    pub matched_markets: Vec<MatchedMarketView>,
}

impl MarketDetail {
    pub fn new(stored: &StoredMarket, matched: &[MatchedMarket]) -> MarketDetail {
        let market = &stored.market;
        MarketDetail {
            id: stored.id.to_string(),
            exchange_id: market.exchange.as_str(),
            external_market_id: market.external_id.clone(),
            question: market.question.clone(),
            description: market.description.clone(),
            status: market.status.as_str(),
            category: market.category.as_str(),
            liquidity: market.liquidity,
            volume: market.volume,
            volume_24h: market.volume_24h,
            start_date: market.start_date.map(to_iso8601),
            end_date: market.end_date.map(to_iso8601),
            created_at: to_iso8601(stored.created_at),
            updated_at: to_iso8601(stored.updated_at),
            outcomes: market
                .outcomes
                .iter()
                .enumerate()
                .map(|(position, outcome)| DetailOutcome {
                    id: outcome_id(stored.id, position).to_string(),
                    outcome: ListOutcome::from(outcome),
                })
                .collect(),
            matched_markets: matched.iter().map(MatchedMarketView::from).collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventListItem {
    pub id: String,
    pub title: String,
    pub description: String,
    pub exchange: &'static str,
    pub category: &'static str,
    pub market_count: u64,
    pub total_volume: f64,
    pub image_url: String,
    pub created_at: String,
}

impl From<&StoredEvent> for EventListItem {
    fn from(stored: &StoredEvent) -> Self {
        EventListItem {
            id: stored.id.to_string(),
            title: stored.event.title.clone(),
            description: stored.event.description.clone(),
            exchange: stored.event.exchange.as_str(),
            category: stored.event.category.as_str(),
            market_count: stored.market_count,
            total_volume: stored.total_volume,
            image_url: stored.event.image_url.clone(),
            created_at: to_iso8601(stored.created_at),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventMarketView {
    pub id: String,
    pub question: String,
    pub price: f64,
    pub volume_24h: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventDetail {
    pub id: String,
    pub title: String,
    pub description: String,
    pub exchange: &'static str,
    pub category: &'static str,
    pub total_volume: f64,
    pub image_url: String,
    pub created_at: String,
    pub markets: Vec<EventMarketView>,
}

impl EventDetail {
    pub fn new(stored: &StoredEvent, markets: &[EventMarket]) -> EventDetail {
        EventDetail {
            id: stored.id.to_string(),
            title: stored.event.title.clone(),
            description: stored.event.description.clone(),
            exchange: stored.event.exchange.as_str(),
            category: stored.event.category.as_str(),
            total_volume: stored.total_volume,
            image_url: stored.event.image_url.clone(),
            created_at: to_iso8601(stored.created_at),
            markets: markets
                .iter()
                .map(|market| EventMarketView {
                    id: market.id.to_string(),
                    question: market.question.clone(),
                    price: market.price,
                    volume_24h: market.volume_24h,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    pub api_key: String,
    pub credits: CreditsView,
    pub user: UserView,
    pub tier: String,
    pub rate_limit: RateLimitView,
}

#[derive(Serialize)]
pub struct CreditsView {
    pub remaining: i64,
    pub purchased: i64,
    pub used: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UserView {
    pub id: String,
    pub wallet_address: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateLimitView {
    pub requests_per_minute: u32,
    pub current_usage: u32,
    pub resets_at: String,
}

/// The explain envelope (`interface.md` section 2.3).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainEnvelope {
    pub success: bool,
    pub data: ExplainData,
    pub credits_used: i64,
    pub processing_time_ms: f64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainData {
    pub meta: ExplainMeta,
    pub market: ExplainMarket,
    pub summary: String,
    pub key_factors: Vec<String>,
    pub sources: Vec<ExplainSource>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMeta {
    pub query: String,
    pub market_id: String,
    pub platform: &'static str,
    pub timestamp: String,
    pub credits_used: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplainMarket {
    pub title: String,
    pub question: String,
    pub platform: &'static str,
    pub provider: &'static str,
    pub volume: f64,
    pub volume_24h: f64,
    pub liquidity: f64,
    pub created_at: String,
    /// An empty string when the exchange gives none.
    pub end_date: String,
    pub status: &'static str,
    pub outcomes: Vec<ExplainOutcome>,
    pub url: String,
    pub image: String,
}

#[derive(Serialize)]
pub struct ExplainOutcome {
    pub id: String,
    pub name: String,
    pub price: f64,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ExplainSource {
    MarketDb { name: String, url: String },
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
