//! One immutable picture of the whole catalogue in memory, loaded from the store and then
//! only read: lists' orders and totals, search, matches and events' markets are answered from
//! it without a query. A newer picture replaces it whole (see `live`); none is ever changed in
//! place, so readers need no lock.

mod compact;
mod events;
mod markets;
mod spreads;
mod words;

use marketlens_domain::Exchange;
use marketlens_domain::matching::{MAX_MATCHES_PER_MARKET, Orientation};
use marketlens_domain::time::{Timestamp, from_epoch_millis};
use marketlens_storage::{
    EventMarket, EventQuery, MarketQuery, MarketSummary, MatchedMarket, Page, SearchWords, Store, StoreError,
};
use std::collections::HashMap;
use uuid::Uuid;

use crate::SearchHit;
use compact::{CompactMarket, OutcomeNames};
use events::EventIndex;
use markets::MarketIndex;
use spreads::SpreadIndex;
pub use spreads::{Spread, SpreadQuery, SpreadSort};

/// Records read from the store per query while loading.
const SCAN_PAGE: u32 = 10_000;

pub struct Snapshot {
    /// The store's catalogue revision this picture was loaded at (or after).
    revision: i64,
    markets: MarketIndex,
    events: EventIndex,
    /// Each matched market's matches (doc, similarity), best first, ties by id, at most five.
    matches: HashMap<u32, Box<[(u32, f64)]>>,
    spreads: SpreadIndex,
    /// Per exchange (`exchange as usize`, as `MarketIndex` keys its filters), the latest
    /// `observed_at` of its markets.
    newest_observed: [Option<Timestamp>; Exchange::ALL.len()],
}

impl Snapshot {
    /// Reads the whole catalogue from `store` and indexes it.
    pub async fn load(store: &dyn Store) -> Result<Snapshot, StoreError> {
        let revision = store.catalog_revision().await?;
        let mut markets = Vec::new();
        let mut names = OutcomeNames::default();
        let mut after = None;
        loop {
            let page = store.market_summaries(after, SCAN_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = Some(last.id);
            markets.extend(page.iter().map(|summary| CompactMarket::new(summary, &mut names)));
        }
        let mut events = Vec::new();
        let mut after = None;
        loop {
            let page = store.event_summaries(after, SCAN_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = Some(last.id);
            events.extend(page);
        }
        let pairs: Vec<(Uuid, Uuid, f64, Orientation)> = store
            .match_pairs()
            .await?
            .into_iter()
            .map(|pair| (pair.market_id, pair.matched_id, pair.similarity, pair.orientation))
            .collect();
        tokio::task::spawn_blocking(move || {
            Snapshot::build(revision, MarketIndex::build(markets, names), events, pairs)
        })
        .await
        .map_err(|error| StoreError::Internal(format!("indexing the catalogue stopped: {error}")))
    }

    fn build(
        revision: i64,
        markets: MarketIndex,
        events: Vec<marketlens_storage::EventSummary>,
        pairs: Vec<(Uuid, Uuid, f64, Orientation)>,
    ) -> Snapshot {
        let mut by_event: HashMap<Uuid, Vec<u32>> = HashMap::new();
        for doc in 0..markets.len() as u32 {
            if let Some(event_id) = markets.market(doc).event_id() {
                by_event.entry(event_id).or_default().push(doc);
            }
        }
        let events = EventIndex::build(events, |event_id| {
            let mut docs = by_event.remove(&event_id).unwrap_or_default();
            // Docs are in id order and the sort is stable: ties stay in id order.
            docs.sort_by(|left, right| {
                let price = |doc: &u32| markets.market(*doc).headline_price();
                price(right).total_cmp(&price(left))
            });
            docs
        });
        let pairs: Vec<(u32, u32, f64, Orientation)> = pairs
            .into_iter()
            .filter_map(|(market, matched, similarity, orientation)| {
                Some((
                    markets.doc_of(market)?,
                    markets.doc_of(matched)?,
                    similarity,
                    orientation,
                ))
            })
            .collect();
        let spreads = SpreadIndex::build(&markets, &pairs);
        let mut matches: HashMap<u32, Vec<(u32, f64)>> = HashMap::new();
        for (market, matched, similarity, _) in pairs {
            matches.entry(market).or_default().push((matched, similarity));
        }
        let mut newest_observed = [None; Exchange::ALL.len()];
        for doc in 0..markets.len() as u32 {
            let market = markets.market(doc);
            let newest = &mut newest_observed[market.exchange as usize];
            *newest = Some(newest.unwrap_or(i64::MIN).max(market.observed_at_millis));
        }
        let newest_observed = newest_observed.map(|millis| millis.map(from_epoch_millis));
        let matches = matches
            .into_iter()
            .map(|(market, mut matched)| {
                matched.sort_by(|left, right| right.1.total_cmp(&left.1).then(left.0.cmp(&right.0)));
                matched.truncate(MAX_MATCHES_PER_MARKET);
                (market, matched.into_boxed_slice())
            })
            .collect();
        Snapshot {
            revision,
            markets,
            events,
            matches,
            spreads,
            newest_observed,
        }
    }

    pub fn revision(&self) -> i64 {
        self.revision
    }

    pub fn market_count(&self) -> usize {
        self.markets.len()
    }

    pub fn list_markets(&self, query: &MarketQuery) -> Page<MarketSummary> {
        let page = self.markets.list(query);
        Page {
            items: page.items.into_iter().map(|doc| self.markets.summary(doc)).collect(),
            total: page.total,
        }
    }

    /// A page of markets as docs (positions in the snapshot, below [`Snapshot::market_count`]),
    /// for a caller that keeps something per market and snapshot; see [`Snapshot::market_summary`].
    pub fn list_market_docs(&self, query: &MarketQuery) -> Page<u32> {
        self.markets.list(query)
    }

    /// The summary of a doc [`Snapshot::list_market_docs`] gave.
    pub fn market_summary(&self, doc: u32) -> MarketSummary {
        self.markets.summary(doc)
    }

    /// The ids of a page of the events list, and its total.
    pub fn list_events(&self, query: &EventQuery) -> Page<Uuid> {
        self.events.list(query)
    }

    pub fn matched_markets(&self, id: Uuid) -> Vec<MatchedMarket> {
        let Some(matched) = self.markets.doc_of(id).and_then(|doc| self.matches.get(&doc)) else {
            return Vec::new();
        };
        matched
            .iter()
            .map(|(doc, similarity)| {
                let market = self.markets.market(*doc);
                MatchedMarket {
                    id: market.id,
                    exchange: market.exchange,
                    question: market.question().to_owned(),
                    similarity: *similarity,
                }
            })
            .collect()
    }

    pub fn event_markets(&self, event_id: Uuid) -> Vec<EventMarket> {
        self.events
            .market_docs(event_id)
            .iter()
            .map(|doc| {
                let market = self.markets.market(*doc);
                EventMarket {
                    id: market.id,
                    question: market.question().to_owned(),
                    price: market.headline_price(),
                    volume_24h: market.volume_24h,
                }
            })
            .collect()
    }

    /// A page of the cross-exchange spreads `query` keeps, and how many it keeps.
    pub fn spreads(&self, query: &SpreadQuery) -> (Vec<Spread>, u64) {
        self.spreads.list(&self.markets, query)
    }

    /// The latest time any of `exchange`'s markets was observed, if it has any.
    pub fn newest_observed(&self, exchange: Exchange) -> Option<Timestamp> {
        self.newest_observed[exchange as usize]
    }

    /// See [`CatalogReader::search_any_words`](crate::CatalogReader::search_any_words).
    pub fn search_any_words(&self, words: &SearchWords, limit: u32) -> Vec<SearchHit> {
        self.markets
            .words()
            .best_matches(words.words(), self.markets.len(), limit as usize)
            .into_iter()
            .map(|doc| self.markets.search_hit(doc))
            .collect()
    }

    /// The summaries of the markets with these ids that the snapshot holds, in that order.
    pub fn summaries_of(&self, ids: &[Uuid]) -> Vec<MarketSummary> {
        ids.iter()
            .filter_map(|id| self.markets.doc_of(*id))
            .map(|doc| self.markets.summary(doc))
            .collect()
    }
}
