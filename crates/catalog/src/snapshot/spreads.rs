//! Cross-exchange spreads: every matched pair of open markets, with the prices of the same
//! side on both exchanges, in both orders the spreads call sorts by, computed once per
//! snapshot. A request then walks one order and keeps the pairs its filters keep, so its cost
//! is the number of pairs, never a sort.

use marketlens_domain::matching::Orientation;
use marketlens_domain::{Category, Exchange, MarketStatus};
use marketlens_storage::MarketSummary;

use super::compact::CompactMarket;
use super::markets::MarketIndex;

/// What `sortBy` orders spreads by, largest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpreadSort {
    /// The price difference.
    Spread,
    /// The smaller of the two markets' 24-hour volumes: what can be traded on both sides.
    Volume24h,
}

impl SpreadSort {
    pub const ALL: [SpreadSort; 2] = [SpreadSort::Spread, SpreadSort::Volume24h];

    pub fn as_str(self) -> &'static str {
        match self {
            SpreadSort::Spread => "spread",
            SpreadSort::Volume24h => "volume24h",
        }
    }

    fn position(self) -> usize {
        match self {
            SpreadSort::Spread => 0,
            SpreadSort::Volume24h => 1,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SpreadQuery {
    pub min_similarity: f64,
    /// Each market of a pair must have traded at least this much in 24 hours.
    pub min_volume_24h: f64,
    /// Either market of a pair is of this category.
    pub category: Option<Category>,
    pub sort: SpreadSort,
    pub limit: u32,
    pub offset: u64,
}

/// One matched pair, its prices compared side for side.
#[derive(Debug, Clone, PartialEq)]
pub struct Spread {
    pub polymarket: MarketSummary,
    pub kalshi: MarketSummary,
    pub similarity: f64,
    /// Kalshi's second outcome ("No") pays when Polymarket's first does, so that is the
    /// price compared.
    pub flipped: bool,
    /// The position of the Kalshi outcome compared with Polymarket's first.
    pub kalshi_outcome: usize,
    pub polymarket_price: f64,
    pub kalshi_price: f64,
}

impl Spread {
    /// The absolute price difference.
    pub fn spread(&self) -> f64 {
        (self.polymarket_price - self.kalshi_price).abs()
    }

    pub fn volume_24h(&self) -> f64 {
        self.polymarket.volume_24h.min(self.kalshi.volume_24h)
    }
}

/// A pair by doc, with what ordering and filtering need.
struct Pair {
    polymarket: u32,
    kalshi: u32,
    similarity: f64,
    orientation: Orientation,
    spread: f64,
    volume_24h: f64,
}

/// The Kalshi outcome that pays when Polymarket's first does, and its price. A market with one
/// outcome listed prices the other as its complement.
fn kalshi_side(kalshi: &CompactMarket, orientation: Orientation) -> (usize, f64) {
    let yes = kalshi.outcome_price(0).unwrap_or(0.0);
    match orientation {
        Orientation::Same => (0, yes),
        Orientation::Flipped => (1, kalshi.outcome_price(1).unwrap_or(1.0 - yes)),
    }
}

pub struct SpreadIndex {
    pairs: Vec<Pair>,
    /// Per sort: positions in `pairs`, largest first, ties by similarity and then ids.
    orders: [Vec<u32>; 2],
}

impl SpreadIndex {
    /// From every match (both directions, as the store keeps them), each pair once.
    pub fn build(markets: &MarketIndex, matches: &[(u32, u32, f64, Orientation)]) -> SpreadIndex {
        // Open, and priced: a market that lists no outcome has no price to compare.
        let open = |doc: u32| {
            let market = markets.market(doc);
            market.status == MarketStatus::Open && market.outcome_price(0).is_some()
        };
        let pairs: Vec<Pair> = matches
            .iter()
            .filter(|(market, matched, _, _)| {
                markets.market(*market).exchange == Exchange::Polymarket
                    && markets.market(*matched).exchange == Exchange::Kalshi
                    && open(*market)
                    && open(*matched)
            })
            .map(|&(polymarket, kalshi, similarity, orientation)| {
                let (polymarket_market, kalshi_market) = (markets.market(polymarket), markets.market(kalshi));
                let (_, kalshi_price) = kalshi_side(kalshi_market, orientation);
                Pair {
                    polymarket,
                    kalshi,
                    similarity,
                    orientation,
                    spread: (polymarket_market.headline_price() - kalshi_price).abs(),
                    volume_24h: polymarket_market.volume_24h.min(kalshi_market.volume_24h),
                }
            })
            .collect();
        let orders = SpreadSort::ALL.map(|sort| {
            let key = |pair: &Pair| match sort {
                SpreadSort::Spread => pair.spread,
                SpreadSort::Volume24h => pair.volume_24h,
            };
            let mut order: Vec<u32> = (0..pairs.len() as u32).collect();
            order.sort_by(|left, right| {
                let (left, right) = (&pairs[*left as usize], &pairs[*right as usize]);
                key(right)
                    .total_cmp(&key(left))
                    .then(right.similarity.total_cmp(&left.similarity))
                    .then_with(|| {
                        markets
                            .market(left.polymarket)
                            .id
                            .cmp(&markets.market(right.polymarket).id)
                    })
                    .then_with(|| markets.market(left.kalshi).id.cmp(&markets.market(right.kalshi).id))
            });
            order
        });
        SpreadIndex { pairs, orders }
    }

    /// A page of the pairs `query` keeps, and how many it keeps.
    pub fn list(&self, markets: &MarketIndex, query: &SpreadQuery) -> (Vec<Spread>, u64) {
        let order = &self.orders[query.sort.position()];
        let kept = |pair: &&Pair| {
            let (polymarket, kalshi) = (markets.market(pair.polymarket), markets.market(pair.kalshi));
            pair.similarity >= query.min_similarity
                && polymarket.volume_24h >= query.min_volume_24h
                && kalshi.volume_24h >= query.min_volume_24h
                && query
                    .category
                    .is_none_or(|category| polymarket.category == category || kalshi.category == category)
        };
        let mut total = 0u64;
        let mut page = Vec::new();
        for pair in order
            .iter()
            .map(|position| &self.pairs[*position as usize])
            .filter(kept)
        {
            if total >= query.offset && page.len() < query.limit as usize {
                let (kalshi_outcome, kalshi_price) = kalshi_side(markets.market(pair.kalshi), pair.orientation);
                page.push(Spread {
                    polymarket: markets.summary(pair.polymarket),
                    kalshi: markets.summary(pair.kalshi),
                    similarity: pair.similarity,
                    flipped: pair.orientation == Orientation::Flipped,
                    kalshi_outcome,
                    polymarket_price: markets.market(pair.polymarket).headline_price(),
                    kalshi_price,
                });
            }
            total += 1;
        }
        (page, total)
    }
}
