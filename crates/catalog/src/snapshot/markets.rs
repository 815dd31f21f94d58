//! Markets in memory: every market's summary, each sort order, and the filters as bitmaps,
//! so that a list page and its total cost a few bitmap operations whatever the catalogue's
//! size.
//!
//! A market is a *doc*: its position in `markets`, which are in id order. For each sort key
//! there is the order of the docs by (key, id) and, for each filter value (an exchange, a
//! status, a category), the bitmap of the *ranks* in that order of the markets it keeps. A page
//! of a filtered list is then the intersection of the filters' bitmaps for the sort key (its
//! length is the page's total) and a `select` of the page's first rank; `desc` walks the same
//! bitmap from the other end, which gives exactly the SQL order `key DESC, id DESC`.
//!
//! Search (see `words`) and the external id filter give a set of docs instead; its page is found either by walking the
//! sort order and keeping the docs in the set, or by ranking the set's docs, whichever reads
//! fewer entries for that query. A search that is one token also keeps the docs whose external
//! id or URL slug it is (`docs/contract/decisions.md#d6-search-identifiers`), found in two
//! sorted lists of docs as the stores find them by equality.

use marketlens_domain::{Category, Exchange, MarketStatus};
use marketlens_storage::{MarketFilter, MarketQuery, MarketSort, MarketSummary, Page, SortOrder};
use roaring::{MultiOps, RoaringBitmap};
use std::sync::OnceLock;
use uuid::Uuid;

use super::compact::{CompactMarket, OutcomeNames};
use super::words::WordIndex;
use crate::SearchHit;

const SORTS: usize = MarketSort::ALL.len();

/// `text`'s bytes in ASCII lower case: the order of `by_external_id`.
fn folded(text: &str) -> impl Iterator<Item = u8> + Clone + '_ {
    text.bytes().map(|byte| byte.to_ascii_lowercase())
}

fn sort_position(sort: MarketSort) -> usize {
    match sort {
        MarketSort::Volume => 0,
        MarketSort::Volume24h => 1,
        MarketSort::Liquidity => 2,
        MarketSort::CreatedAt => 3,
    }
}

/// The value a sort key orders by, as a totally ordered number (times as milliseconds).
fn sort_key(market: &CompactMarket, sort: MarketSort) -> f64 {
    let value = match sort {
        MarketSort::Volume => market.volume,
        MarketSort::Volume24h => market.volume_24h,
        MarketSort::Liquidity => market.liquidity,
        MarketSort::CreatedAt => market.created_at_millis as f64,
    };
    // SQL compares -0.0 and 0.0 as equal; total_cmp would not.
    if value == 0.0 { 0.0 } else { value }
}

/// Bitmaps of one filter value: docs (for search) and ranks in each sort order.
#[derive(Default)]
struct FilterBitmaps {
    docs: RoaringBitmap,
    ranks: [RoaringBitmap; SORTS],
}

pub struct MarketIndex {
    markets: Vec<CompactMarket>,
    names: OutcomeNames,
    /// Per sort key: docs ascending by (key, id).
    orders: [Vec<u32>; SORTS],
    /// Per sort key: each doc's position in `orders`.
    ranks: [Vec<u32>; SORTS],
    by_exchange: Vec<FilterBitmaps>,
    by_status: Vec<FilterBitmaps>,
    by_category: Vec<FilterBitmaps>,
    /// Docs ordered by external id ignoring ASCII case, then as is: the `externalMarketId`
    /// filter (exact) and search by identifier (any case) both read a run of it.
    by_external_id: Vec<u32>,
    /// The docs with a URL slug other than their external id in lower case, ordered by it.
    by_url_market: Vec<u32>,
    words: WordIndex,
    /// Per combination of filter values and sort key, the intersection of the filters' rank
    /// bitmaps, made when a list first asks for it (see [`combination`]): intersecting an
    /// exchange's, a status's and a category's bitmaps on every call took about a third of
    /// such a list's server CPU at 1,000,000 markets (README "Performance"). The combinations
    /// of one shape (say, exchange and status) hold each rank once between them, so all of them
    /// together hold at most four times each sort's ranks.
    combined: Box<[OnceLock<RoaringBitmap>]>,
}

/// Filter combinations: each filter absent or one of its values, for each sort key.
const COMBINATIONS: usize =
    (Exchange::ALL.len() + 1) * (MarketStatus::ALL.len() + 1) * (Category::ALL.len() + 1) * SORTS;

/// The position in `combined` of `filter`'s exchange, status and category with `sort`.
fn combination(filter: &MarketFilter, sort: usize) -> usize {
    let value = |present: Option<usize>| present.map_or(0, |value| value + 1);
    let exchange = value(filter.exchange.map(|exchange| exchange as usize));
    let status = value(filter.status.map(|status| status as usize));
    let category = value(filter.category.map(|category| category as usize));
    ((exchange * (MarketStatus::ALL.len() + 1) + status) * (Category::ALL.len() + 1) + category) * SORTS + sort
}

impl MarketIndex {
    /// Indexes `markets`, which must be in id order, their outcome names in `names`.
    pub fn build(markets: Vec<CompactMarket>, names: OutcomeNames) -> MarketIndex {
        debug_assert!(markets.windows(2).all(|pair| pair[0].id < pair[1].id));
        let count = markets.len();
        let orders: [Vec<u32>; SORTS] = MarketSort::ALL.map(|sort| {
            let keys: Vec<f64> = markets.iter().map(|market| sort_key(market, sort)).collect();
            let mut order: Vec<u32> = (0..count as u32).collect();
            // Stable, and docs start in id order: ties stay in id order.
            order.sort_by(|left, right| keys[*left as usize].total_cmp(&keys[*right as usize]));
            order
        });
        let ranks: [Vec<u32>; SORTS] = std::array::from_fn(|sort| {
            let mut rank = vec![0u32; count];
            for (position, doc) in orders[sort].iter().enumerate() {
                rank[*doc as usize] = position as u32;
            }
            rank
        });
        let filter = |value_of: &dyn Fn(&CompactMarket) -> usize, values: usize| {
            let mut bitmaps: Vec<FilterBitmaps> = (0..values).map(|_| FilterBitmaps::default()).collect();
            for (doc, market) in markets.iter().enumerate() {
                bitmaps[value_of(market)].docs.insert(doc as u32);
            }
            for (sort, order) in orders.iter().enumerate() {
                for (rank, doc) in order.iter().enumerate() {
                    bitmaps[value_of(&markets[*doc as usize])].ranks[sort].insert(rank as u32);
                }
            }
            bitmaps
        };
        let by_exchange = filter(&|market| market.exchange as usize, Exchange::ALL.len());
        let by_status = filter(&|market| market.status as usize, MarketStatus::ALL.len());
        let by_category = filter(&|market| market.category as usize, Category::ALL.len());
        let words = WordIndex::build(markets.iter().map(CompactMarket::question));
        let mut by_external_id: Vec<u32> = (0..count as u32).collect();
        by_external_id.sort_by(|left, right| {
            let (left, right) = (
                markets[*left as usize].external_id(),
                markets[*right as usize].external_id(),
            );
            folded(left).cmp(folded(right)).then_with(|| left.cmp(right))
        });
        let mut by_url_market: Vec<u32> = (0..count as u32)
            .filter(|doc| markets[*doc as usize].url_market_unlike_external_id().is_some())
            .collect();
        by_url_market.sort_by_key(|doc| markets[*doc as usize].url_market_unlike_external_id());
        MarketIndex {
            markets,
            names,
            orders,
            ranks,
            by_exchange,
            by_status,
            by_category,
            by_external_id,
            by_url_market,
            words,
            combined: (0..COMBINATIONS).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The run of `by_external_id` whose external ids equal `external_id` ignoring ASCII case.
    fn external_ids_folded_equal<'a>(&'a self, external_id: &'a str) -> impl Iterator<Item = u32> + 'a {
        let external_id_of = |doc: &u32| self.markets[*doc as usize].external_id();
        let start = self
            .by_external_id
            .partition_point(|doc| folded(external_id_of(doc)).lt(folded(external_id)));
        self.by_external_id[start..]
            .iter()
            .take_while(move |doc| external_id_of(doc).eq_ignore_ascii_case(external_id))
            .copied()
    }

    /// The docs whose exchange id is `external_id` (one per exchange at most).
    fn docs_with_external_id(&self, external_id: &str) -> RoaringBitmap {
        self.external_ids_folded_equal(external_id)
            .filter(|doc| self.markets[*doc as usize].external_id() == external_id)
            .collect()
    }

    /// The docs a search's identifier names: by external id in any case, or by URL slug.
    fn docs_named_by(&self, identifier: &str) -> RoaringBitmap {
        let slug_of = |doc: &u32| self.markets[*doc as usize].url_market_unlike_external_id();
        let start = self
            .by_url_market
            .partition_point(|doc| slug_of(doc) < Some(identifier));
        let by_slug = self.by_url_market[start..]
            .iter()
            .take_while(|doc| slug_of(doc) == Some(identifier))
            .copied();
        self.external_ids_folded_equal(identifier).chain(by_slug).collect()
    }

    /// The docs the filter's search and external id keep (both when both are given); `None`
    /// when it has neither, so that the sort orders' bitmaps answer alone.
    fn found_docs(&self, filter: &MarketFilter) -> Option<RoaringBitmap> {
        let by_search = filter.search.as_ref().map(|search| {
            let by_words = self.words.all_of(search.words()).unwrap_or_default();
            match search.identifier() {
                Some(identifier) => by_words | self.docs_named_by(identifier),
                None => by_words,
            }
        });
        let by_external_id = filter
            .external_id
            .as_deref()
            .map(|external_id| self.docs_with_external_id(external_id));
        match (by_search, by_external_id) {
            (Some(by_search), Some(by_external_id)) => Some(by_search & by_external_id),
            (found, None) | (None, found) => found,
        }
    }

    pub fn len(&self) -> usize {
        self.markets.len()
    }

    pub fn doc_of(&self, id: Uuid) -> Option<u32> {
        self.markets
            .binary_search_by_key(&id, |market| market.id)
            .ok()
            .map(|doc| doc as u32)
    }

    pub fn market(&self, doc: u32) -> &CompactMarket {
        &self.markets[doc as usize]
    }

    /// The market's summary, as lists show it.
    pub fn summary(&self, doc: u32) -> MarketSummary {
        self.markets[doc as usize].summary(&self.names)
    }

    /// What explain ranks the market by, as a search found it.
    pub fn search_hit(&self, doc: u32) -> SearchHit {
        let market = &self.markets[doc as usize];
        SearchHit {
            id: market.id,
            external_id: market.external_id().into(),
            question: market.question().into(),
            status: market.status,
            volume: market.volume,
        }
    }

    pub fn words(&self) -> &WordIndex {
        &self.words
    }

    fn filters<'a>(&'a self, filter: &MarketFilter) -> Vec<&'a FilterBitmaps> {
        let mut chosen = Vec::new();
        chosen.extend(filter.exchange.map(|exchange| &self.by_exchange[exchange as usize]));
        chosen.extend(filter.status.map(|status| &self.by_status[status as usize]));
        chosen.extend(filter.category.map(|category| &self.by_category[category as usize]));
        chosen
    }

    /// A page of the list `query` asks for, as docs, and its total.
    pub fn list(&self, query: &MarketQuery) -> Page<u32> {
        let sort = sort_position(query.sort);
        let filters = self.filters(&query.filter);
        let (docs, total) = match self.found_docs(&query.filter) {
            Some(mut found) => {
                for filter in &filters {
                    found &= &filter.docs;
                }
                let total = found.len();
                (self.page_of_docs(&found, sort, query), total)
            }
            None if filters.is_empty() => {
                let ranks = page_ranks(self.len() as u64, query.order, query.offset, query.limit);
                let docs = ranks.iter().map(|rank| self.orders[sort][*rank as usize]).collect();
                (docs, self.len() as u64)
            }
            None => {
                let ranked = match filters.as_slice() {
                    [only] => &only.ranks[sort],
                    several => self.combined[combination(&query.filter, sort)]
                        .get_or_init(|| several.iter().map(|filter| &filter.ranks[sort]).intersection()),
                };
                let ranks = page_of_bitmap(ranked, query.order, query.offset, query.limit);
                let docs = ranks.iter().map(|rank| self.orders[sort][*rank as usize]).collect();
                (docs, ranked.len())
            }
        };
        Page { items: docs, total }
    }

    /// The page of `found` (docs) in the sort order, by whichever way reads fewer entries:
    /// walking the sort order and keeping found docs costs about (offset + limit) divided by
    /// the share of docs found; ranking every found doc costs their number.
    fn page_of_docs(&self, found: &RoaringBitmap, sort: usize, query: &MarketQuery) -> Vec<u32> {
        let wanted = query.offset.saturating_add(u64::from(query.limit));
        let found_count = found.len();
        if found_count == 0 || query.offset >= found_count {
            return Vec::new();
        }
        let walk_cost = wanted.saturating_mul(self.len() as u64) / found_count;
        let order = &self.orders[sort];
        let skip = usize::try_from(query.offset).unwrap_or(usize::MAX);
        let limit = query.limit as usize;
        if walk_cost <= found_count {
            let kept = |doc: &&u32| found.contains(**doc);
            match query.order {
                SortOrder::Asc => order.iter().filter(kept).skip(skip).take(limit).copied().collect(),
                SortOrder::Desc => order
                    .iter()
                    .rev()
                    .filter(kept)
                    .skip(skip)
                    .take(limit)
                    .copied()
                    .collect(),
            }
        } else {
            let rank = &self.ranks[sort];
            let mut ranks: Vec<u32> = found.iter().map(|doc| rank[doc as usize]).collect();
            // The first `end` ranks in the list's order, partitioned out in linear time and only
            // they sorted: putting every found rank in a bitmap to select from took about 0.25 ms
            // of a rare-word search at 1,000,000 markets (issue 23).
            let end = usize::try_from(wanted.min(found_count)).unwrap_or(usize::MAX);
            let in_order = |left: &u32, right: &u32| match query.order {
                SortOrder::Asc => left.cmp(right),
                SortOrder::Desc => right.cmp(left),
            };
            ranks.select_nth_unstable_by(end - 1, in_order);
            ranks.truncate(end);
            ranks.sort_unstable_by(in_order);
            ranks[skip..].iter().map(|rank| order[*rank as usize]).collect()
        }
    }
}

/// The ranks of a page of the list of the ranks in `ranked`, ascending (`Desc` reads it from its
/// end). The iterator skips whole containers to the page, then reads it in order: a `select`
/// per rank counted bits from the bitmap's start every time, a fifth of a filtered list's
/// server CPU at 100,000 markets (`bench/profile.sh`, issue 23).
pub(super) fn page_of_bitmap(ranked: &RoaringBitmap, order: SortOrder, offset: u64, limit: u32) -> Vec<u32> {
    let skip = usize::try_from(offset).unwrap_or(usize::MAX);
    let limit = limit as usize;
    match order {
        SortOrder::Asc => ranked.iter().skip(skip).take(limit).collect(),
        SortOrder::Desc => ranked.iter().rev().skip(skip).take(limit).collect(),
    }
}

/// The ranks of a page of a list of every rank below `total`, ascending (`Desc` reads it from
/// its end).
pub(super) fn page_ranks(total: u64, order: SortOrder, offset: u64, limit: u32) -> Vec<u32> {
    let end = offset.saturating_add(u64::from(limit)).min(total);
    (offset..end)
        .filter_map(|position| {
            let from_start = match order {
                SortOrder::Asc => position,
                SortOrder::Desc => total - 1 - position,
            };
            u32::try_from(from_start).ok()
        })
        .collect()
}
