//! Events in memory: every event's summary in id order, their list order (total volume
//! descending, id descending) with the filters as bitmaps of ranks, and each event's markets
//! in the order its page lists them. A list page is a page of ids; the events themselves are
//! read from the store (few, and by primary key), so memory holds no titles or descriptions.

use marketlens_domain::{Category, Exchange};
use marketlens_storage::{EventQuery, EventSummary, Page, SortOrder};
use roaring::{MultiOps, RoaringBitmap};
use uuid::Uuid;

use super::markets::{page_of_bitmap, page_ranks};

pub struct EventIndex {
    events: Vec<EventSummary>,
    /// Docs ascending by (total volume, id): the list reads it from the end.
    order: Vec<u32>,
    by_exchange: Vec<RoaringBitmap>,
    by_category: Vec<RoaringBitmap>,
    /// Each event's market docs (`market_docs[market_starts[event]..market_starts[event + 1]]`),
    /// highest price first, ties by id.
    market_starts: Vec<u32>,
    market_docs: Vec<u32>,
}

impl EventIndex {
    /// Indexes `events` (in id order); `markets_of` gives each event's market docs in page
    /// order.
    pub fn build(events: Vec<EventSummary>, mut markets_of: impl FnMut(Uuid) -> Vec<u32>) -> EventIndex {
        debug_assert!(events.windows(2).all(|pair| pair[0].id < pair[1].id));
        let mut order: Vec<u32> = (0..events.len() as u32).collect();
        // Stable over id order: ties stay in id order.
        order.sort_by(|left, right| {
            events[*left as usize]
                .total_volume
                .total_cmp(&events[*right as usize].total_volume)
        });
        let mut by_exchange: Vec<RoaringBitmap> = Exchange::ALL.iter().map(|_| RoaringBitmap::new()).collect();
        let mut by_category: Vec<RoaringBitmap> = Category::ALL.iter().map(|_| RoaringBitmap::new()).collect();
        for (rank, doc) in order.iter().enumerate() {
            let event = &events[*doc as usize];
            by_exchange[event.exchange as usize].insert(rank as u32);
            by_category[event.category as usize].insert(rank as u32);
        }
        let mut market_starts = Vec::with_capacity(events.len() + 1);
        let mut market_docs = Vec::new();
        for event in &events {
            market_starts.push(market_docs.len() as u32);
            market_docs.extend(markets_of(event.id));
        }
        market_starts.push(market_docs.len() as u32);
        EventIndex {
            events,
            order,
            by_exchange,
            by_category,
            market_starts,
            market_docs,
        }
    }

    fn doc_of(&self, id: Uuid) -> Option<usize> {
        self.events.binary_search_by_key(&id, |event| event.id).ok()
    }

    /// The market docs of the event, in page order.
    pub fn market_docs(&self, id: Uuid) -> &[u32] {
        match self.doc_of(id) {
            Some(doc) => &self.market_docs[self.market_starts[doc] as usize..self.market_starts[doc + 1] as usize],
            None => &[],
        }
    }

    /// The ids of a page of the events list, and its total.
    pub fn list(&self, query: &EventQuery) -> Page<Uuid> {
        let mut filters: Vec<&RoaringBitmap> = Vec::new();
        filters.extend(query.exchange.map(|exchange| &self.by_exchange[exchange as usize]));
        filters.extend(query.category.map(|category| &self.by_category[category as usize]));
        let intersection;
        let (ranks, total) = match filters.as_slice() {
            [] => {
                let total = self.events.len() as u64;
                (page_ranks(total, SortOrder::Desc, query.offset, query.limit), total)
            }
            several => {
                let ranked = match several {
                    [only] => *only,
                    _ => {
                        intersection = several.iter().copied().intersection();
                        &intersection
                    }
                };
                let ranks = page_of_bitmap(ranked, SortOrder::Desc, query.offset, query.limit);
                (ranks, ranked.len())
            }
        };
        Page {
            items: ranks
                .into_iter()
                .map(|rank| self.events[self.order[rank as usize] as usize].id)
                .collect(),
            total,
        }
    }
}
