//! Each outcome's price as the exchange last stated it: the last trade, the best bid, the best
//! ask. A frame usually states one or two of them; the [`PriceTick`] sent carries all three as
//! last stated, and only when one of them moved.

use std::collections::HashMap;

use marketlens_domain::depth::round_price;
use marketlens_domain::stream::{MarketChange, PriceTick, StreamMarket};
use uuid::Uuid;

/// What one frame states of an outcome's price; `None` leaves a field as it was.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Stated {
    pub(crate) last: Option<f64>,
    /// The best bid and ask together (either may be "none").
    pub(crate) best: Option<(Option<f64>, Option<f64>)>,
}

#[derive(Debug, Default)]
pub(crate) struct PriceBoard {
    ticks: HashMap<(Uuid, usize), PriceTick>,
}

impl PriceBoard {
    /// Records what is stated of outcome `index` of `market`: the tick to send when it moved.
    pub(crate) fn state(&mut self, market: &StreamMarket, index: usize, stated: Stated) -> Option<MarketChange> {
        let outcome = market.outcomes.get(index)?;
        let tick = self.ticks.entry((market.id, index)).or_insert_with(|| PriceTick {
            outcome: outcome.clone(),
            last: None,
            best_bid: None,
            best_ask: None,
        });
        let before = tick.clone();
        if let Some(last) = stated.last {
            tick.last = Some(round_price(last));
        }
        if let Some((bid, ask)) = stated.best {
            tick.best_bid = bid.map(round_price);
            tick.best_ask = ask.map(round_price);
        }
        (*tick != before).then(|| MarketChange::Price(tick.clone()))
    }

    pub(crate) fn forget(&mut self, market: Uuid) {
        self.ticks.retain(|(id, _), _| *id != market);
    }
}
