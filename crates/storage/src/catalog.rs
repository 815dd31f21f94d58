//! The catalogue half of the storage interface: markets, events and matches.

use async_trait::async_trait;
use marketlens_domain::market_url::MarketUrl;
use marketlens_domain::matching::{MatchInput, MatchPair};
use marketlens_domain::time::Timestamp;
use marketlens_domain::{Category, Event, Exchange, Market, MarketStatus, Outcome};
use uuid::Uuid;

use crate::StoreError;

/// The keys `sortBy` accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarketSort {
    Volume,
    Volume24h,
    Liquidity,
    CreatedAt,
}

impl MarketSort {
    pub const ALL: [MarketSort; 4] = [
        MarketSort::Volume,
        MarketSort::Volume24h,
        MarketSort::Liquidity,
        MarketSort::CreatedAt,
    ];

    /// The name in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            MarketSort::Volume => "volume",
            MarketSort::Volume24h => "volume24h",
            MarketSort::Liquidity => "liquidity",
            MarketSort::CreatedAt => "createdAt",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortOrder {
    Asc,
    Desc,
}

impl SortOrder {
    pub fn as_sql(self) -> &'static str {
        match self {
            SortOrder::Asc => "ASC",
            SortOrder::Desc => "DESC",
        }
    }
}

/// Search words, already folded by `marketlens_domain::text::words`: lower-case ASCII
/// letters and digits only, so they are safe to place in any index's query syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchWords(Vec<String>);

impl SearchWords {
    /// The words of `text`; `None` when it has none.
    pub fn parse(text: &str) -> Option<SearchWords> {
        let words: Vec<String> = marketlens_domain::text::words(text).collect();
        (!words.is_empty()).then_some(SearchWords(words))
    }

    pub fn words(&self) -> &[String] {
        &self.0
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketFilter {
    pub exchange: Option<Exchange>,
    pub status: Option<MarketStatus>,
    pub category: Option<Category>,
    /// Every word must start a word of the question (`decisions.md` section 6).
    pub search: Option<SearchWords>,
    /// The exchange's own market id, matched exactly (a Polymarket id or a Kalshi ticker).
    pub external_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketQuery {
    pub filter: MarketFilter,
    pub sort: MarketSort,
    /// Applies to the sort key and to the id tie-break alike.
    pub order: SortOrder,
    pub limit: u32,
    pub offset: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventQuery {
    pub exchange: Option<Exchange>,
    pub category: Option<Category>,
    pub limit: u32,
    pub offset: u64,
}

/// One page of a list and the count of everything that matched.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub total: u64,
}

/// A market as stored: the normalized record and what the store derived for it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMarket {
    pub id: Uuid,
    pub market: Market,
    /// The exchange's creation time, or when the store first saw the market.
    pub created_at: Timestamp,
    /// The exchange's last change, or when the store last changed the record.
    pub updated_at: Timestamp,
    /// When the figures stored were observed: the time of the sync or import that last
    /// changed them (a sync that finds a market unchanged does not write it; see
    /// `SyncStatus` for when each exchange was last confirmed whole).
    pub observed_at: Timestamp,
}

/// A market as lists show it, and as explain ranks candidates: a stored market without what
/// only a single market's page shows (description, start date, URLs, update time). What the
/// in-memory catalogue keeps of every market, so it is kept small.
#[derive(Debug, Clone, PartialEq)]
pub struct MarketSummary {
    pub id: Uuid,
    pub exchange: Exchange,
    pub external_id: Box<str>,
    pub question: Box<str>,
    pub status: MarketStatus,
    pub category: Category,
    pub liquidity: f64,
    pub volume: f64,
    pub volume_24h: f64,
    pub created_at: Timestamp,
    pub end_date: Option<Timestamp>,
    pub outcomes: Box<[Outcome]>,
    pub event_id: Option<Uuid>,
    /// See [`StoredMarket::observed_at`].
    pub observed_at: Timestamp,
}

impl From<&StoredMarket> for MarketSummary {
    fn from(stored: &StoredMarket) -> Self {
        let market = &stored.market;
        MarketSummary {
            id: stored.id,
            exchange: market.exchange,
            external_id: market.external_id.as_str().into(),
            question: market.question.as_str().into(),
            status: market.status,
            category: market.category,
            liquidity: market.liquidity,
            volume: market.volume,
            volume_24h: market.volume_24h,
            created_at: stored.created_at,
            end_date: market.end_date,
            outcomes: market.outcomes.clone().into_boxed_slice(),
            event_id: market.event_id(),
            observed_at: stored.observed_at,
        }
    }
}

impl MarketSummary {
    /// The price of the first outcome ("Yes" for binary markets), 0 when there is none.
    pub fn headline_price(&self) -> f64 {
        self.outcomes.first().map_or(0.0, |outcome| outcome.price)
    }
}

/// What the in-memory catalogue keeps of an event: enough to order, filter and count the
/// events list; a page's events are then read in full from the store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EventSummary {
    pub id: Uuid,
    pub exchange: Exchange,
    pub category: Category,
    pub total_volume: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StoredEvent {
    pub id: Uuid,
    pub event: Event,
    /// Markets of the event in the store.
    pub market_count: u64,
    /// The exchange's reported event volume, else the sum of the stored markets' volumes.
    pub total_volume: f64,
    pub created_at: Timestamp,
}

/// A market as listed inside its event.
#[derive(Debug, Clone, PartialEq)]
pub struct EventMarket {
    pub id: Uuid,
    pub question: String,
    /// The first outcome's price ("Yes" for binary markets).
    pub price: f64,
    pub volume_24h: f64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct MatchedMarket {
    pub id: Uuid,
    pub exchange: Exchange,
    pub question: String,
    pub similarity: f64,
}

/// What an upsert did, per record kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpsertCounts {
    pub markets_inserted: u64,
    pub markets_updated: u64,
    pub markets_unchanged: u64,
    /// Older than the stored record, so left out.
    pub markets_stale: u64,
    pub events_inserted: u64,
    pub events_updated: u64,
    pub events_unchanged: u64,
    pub events_stale: u64,
}

impl UpsertCounts {
    pub fn add(&mut self, other: UpsertCounts) {
        self.markets_inserted += other.markets_inserted;
        self.markets_updated += other.markets_updated;
        self.markets_unchanged += other.markets_unchanged;
        self.markets_stale += other.markets_stale;
        self.events_inserted += other.events_inserted;
        self.events_updated += other.events_updated;
        self.events_unchanged += other.events_unchanged;
        self.events_stale += other.events_stale;
    }
}

/// What the catalogue holds, for summaries and readiness.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CatalogCounts {
    pub polymarket_markets: u64,
    pub kalshi_markets: u64,
    pub events: u64,
    /// Matched pairs (each counted once, not per direction).
    pub match_pairs: u64,
}

#[async_trait]
pub trait CatalogStore: Send + Sync {
    /// Inserts new records and updates changed ones, in one transaction, by the rule of
    /// `marketlens_domain::upsert::decide`. `now` stamps first sightings and changes.
    async fn upsert(&self, markets: &[Market], events: &[Event], now: Timestamp) -> Result<UpsertCounts, StoreError>;

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<StoredMarket>, StoreError>;

    async fn get_market(&self, id: Uuid) -> Result<Option<StoredMarket>, StoreError>;

    /// The market's matches, best first, at most `marketlens_domain::matching::MAX_MATCHES_PER_MARKET`.
    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError>;

    async fn list_events(&self, query: &EventQuery) -> Result<Page<StoredEvent>, StoreError>;

    async fn get_event(&self, id: Uuid) -> Result<Option<StoredEvent>, StoreError>;

    /// The events with these ids that exist, in the order of `ids`.
    async fn events_by_ids(&self, ids: &[Uuid]) -> Result<Vec<StoredEvent>, StoreError>;

    /// Up to `limit` market summaries whose ids come after `after` (from the first when
    /// `None`), by id: how the in-memory catalogue loads.
    async fn market_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<MarketSummary>, StoreError>;

    /// Up to `limit` event summaries whose ids come after `after`, by id.
    async fn event_summaries(&self, after: Option<Uuid>, limit: u32) -> Result<Vec<EventSummary>, StoreError>;

    /// The event's markets, highest price first, ties by id.
    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError>;

    /// The markets named by the first of the URL's keys that names any.
    async fn markets_by_url(&self, url: &MarketUrl) -> Result<Vec<StoredMarket>, StoreError>;

    /// Up to `limit` markets whose question holds any of `words` (as word prefixes), most
    /// relevant first by the index's own ranking. Explain ranks these further.
    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<StoredMarket>, StoreError>;

    /// What the matcher needs of every market.
    async fn match_inputs(&self) -> Result<Vec<MatchInput>, StoreError>;

    /// What the matcher needs of the markets written since catalogue revision `revision`
    /// (themselves, or their event), by id: read [`CatalogStore::catalog_revision`] first, and
    /// pass it next time.
    async fn match_inputs_changed_since(&self, revision: i64) -> Result<Vec<MatchInput>, StoreError>;

    /// Replaces every stored match with `pairs` (both directions of each pair).
    async fn replace_matches(&self, pairs: &[MatchPair]) -> Result<(), StoreError>;

    /// Replaces the stored matches of `markets` (the rows from each of them) with `pairs`:
    /// what an incremental match (`MatchIndex::upsert`) changed.
    async fn update_matches(&self, markets: &[Uuid], pairs: &[MatchPair]) -> Result<(), StoreError>;

    async fn catalog_counts(&self) -> Result<CatalogCounts, StoreError>;

    /// A number every write to the catalogue raises (in the write's own transaction): equal
    /// revisions mean an unchanged catalogue.
    async fn catalog_revision(&self) -> Result<i64, StoreError>;

    /// The exchange ids of `exchange`'s markets stored as open: after a sync of what is open,
    /// those it did not see may have closed.
    async fn open_market_ids(&self, exchange: Exchange) -> Result<Vec<String>, StoreError>;
}
