//! What the API reads of the catalogue, and its plainest source: the store's own queries.

use async_trait::async_trait;
use marketlens_domain::MarketStatus;
use marketlens_storage::{
    EventMarket, EventQuery, MarketQuery, MarketSummary, MatchedMarket, Page, SearchWords, Store, StoreError,
    StoredEvent, StoredMarket,
};
use std::sync::Arc;
use uuid::Uuid;

/// The catalogue's read side: lists with their counts, search, single markets and events in
/// full, and what a market's or an event's page adds (matches, an event's markets).
#[async_trait]
pub trait CatalogReader: Send + Sync {
    async fn get_market(&self, id: Uuid) -> Result<Option<Arc<StoredMarket>>, StoreError>;

    async fn get_event(&self, id: Uuid) -> Result<Option<Arc<StoredEvent>>, StoreError>;

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<MarketSummary>, StoreError>;

    /// The market's matches, best first, at most `marketlens_domain::matching::MAX_MATCHES_PER_MARKET`.
    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError>;

    async fn list_events(&self, query: &EventQuery) -> Result<Page<Arc<StoredEvent>>, StoreError>;

    /// The event's markets, highest price first, ties by id.
    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError>;

    /// Up to `limit` markets whose question holds any of `words` (as word prefixes), those
    /// holding more and rarer words first. Explain ranks these further, and reads the few it
    /// keeps in full with [`CatalogReader::summaries_of`].
    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<SearchHit>, StoreError>;

    /// The summaries of the markets with these ids that exist, in that order.
    async fn summaries_of(&self, ids: &[Uuid]) -> Result<Vec<MarketSummary>, StoreError>;
}

/// A market [`CatalogReader::search_any_words`] found: what explain ranks its candidates by
/// (how much of the query the question covers, then status, volume and external id), and no
/// more. A search proposes a hundred candidates and explain keeps twenty; a full summary
/// (outcomes, dates, URL key) for each of the hundred was most of the cost of a search.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub id: Uuid,
    pub external_id: Box<str>,
    pub question: Box<str>,
    pub status: MarketStatus,
    pub volume: f64,
}

impl From<&StoredMarket> for SearchHit {
    fn from(stored: &StoredMarket) -> Self {
        SearchHit {
            id: stored.id,
            external_id: stored.market.external_id.as_str().into(),
            question: stored.market.question.as_str().into(),
            status: stored.market.status,
            volume: stored.market.volume,
        }
    }
}

/// The catalogue read straight from the store: what serves while the in-memory catalogue
/// loads, and the reference the in-memory one is tested against.
pub struct StoreReader(pub Arc<dyn Store>);

#[async_trait]
impl CatalogReader for StoreReader {
    async fn get_market(&self, id: Uuid) -> Result<Option<Arc<StoredMarket>>, StoreError> {
        Ok(self.0.get_market(id).await?.map(Arc::new))
    }

    async fn get_event(&self, id: Uuid) -> Result<Option<Arc<StoredEvent>>, StoreError> {
        Ok(self.0.get_event(id).await?.map(Arc::new))
    }

    async fn list_markets(&self, query: &MarketQuery) -> Result<Page<MarketSummary>, StoreError> {
        let page = self.0.list_markets(query).await?;
        Ok(Page {
            items: page.items.iter().map(MarketSummary::from).collect(),
            total: page.total,
        })
    }

    async fn matched_markets(&self, id: Uuid) -> Result<Vec<MatchedMarket>, StoreError> {
        self.0.matched_markets(id).await
    }

    async fn list_events(&self, query: &EventQuery) -> Result<Page<Arc<StoredEvent>>, StoreError> {
        let page = self.0.list_events(query).await?;
        Ok(Page {
            items: page.items.into_iter().map(Arc::new).collect(),
            total: page.total,
        })
    }

    async fn event_markets(&self, event_id: Uuid) -> Result<Vec<EventMarket>, StoreError> {
        self.0.event_markets(event_id).await
    }

    async fn search_any_words(&self, words: &SearchWords, limit: u32) -> Result<Vec<SearchHit>, StoreError> {
        let markets = self.0.search_any_words(words, limit).await?;
        Ok(markets.iter().map(SearchHit::from).collect())
    }

    /// One read by primary key each: this reader serves only while the catalogue loads.
    async fn summaries_of(&self, ids: &[Uuid]) -> Result<Vec<MarketSummary>, StoreError> {
        let mut summaries = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(stored) = self.0.get_market(*id).await? {
                summaries.push(MarketSummary::from(&stored));
            }
        }
        Ok(summaries)
    }
}
