//! Each outcome's price as the exchange last stated it: the last trade, the best bid, the best
//! ask, and from them the price the exchange displays
//! (`marketlens_domain::market::displayed_price`, the catalogue's rule for that exchange). A
//! frame usually states one or two of them; the [`PriceTick`] sent carries all of them as last
//! stated, and only when one of them moved.
//!
//! One rule for both exchanges, the catalogue's and the REST books' (`crate::kalshi::normalize`,
//! `crate::polymarket::normalize`, `marketlens_domain::depth::binary_books`): in a binary
//! market the second outcome's price is the complement of the first's. A trade at `p` of
//! either outcome is a last price of `p` for it and `1 - p` for the other; a best bid of one
//! is a best ask at `1 - p` of the other; so the second's displayed price, from those, is the
//! first's complement.

use std::collections::HashMap;

use marketlens_domain::Exchange;
use marketlens_domain::depth::round_price;
use marketlens_domain::market::{displayed_price, polymarket_best_prices};
use marketlens_domain::stream::{MarketChange, MarketUpdate, PriceTick, StreamMarket};
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

/// What one frame states of an outcome's price; `None` leaves a field as it was.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Stated {
    pub(crate) last: Option<f64>,
    /// The best bid when stated (`Some(None)`: stated as none).
    pub(crate) best_bid: Option<Option<f64>>,
    /// The best ask when stated (`Some(None)`: stated as none).
    pub(crate) best_ask: Option<Option<f64>>,
}

impl Stated {
    /// What this states of the other outcome of a binary market.
    fn complement(self) -> Stated {
        let complement = |price: Option<f64>| price.map(|price| 1.0 - price);
        Stated {
            last: complement(self.last),
            best_bid: self.best_ask.map(complement),
            best_ask: self.best_bid.map(complement),
        }
    }
}

#[derive(Debug, Default)]
pub(crate) struct PriceBoard {
    ticks: HashMap<(Uuid, usize), Board>,
}

/// An outcome's tick as last sent, and its best prices as last stated (`None`: never stated;
/// `Some(None)`: stated empty), which the tick's alone cannot tell apart.
#[derive(Debug)]
struct Board {
    tick: PriceTick,
    best_bid: Option<Option<f64>>,
    best_ask: Option<Option<f64>>,
}

impl PriceBoard {
    /// Records what is stated of outcome `index` of `market`, and in a binary market its
    /// complement of the other outcome: the ticks to send, of the outcomes whose price moved.
    fn state(&mut self, market: &StreamMarket, index: usize, stated: Stated) -> Vec<MarketChange> {
        let mut ticks: Vec<MarketChange> = self.state_one(market, index, stated).into_iter().collect();
        if market.outcomes.len() == 2 && index < 2 {
            ticks.extend(self.state_one(market, 1 - index, stated.complement()));
        }
        ticks
    }

    /// [`PriceBoard::state`]'s ticks as updates of `market` at `time`, received at `received`.
    pub(crate) fn updates(
        &mut self,
        market: &StreamMarket,
        index: usize,
        stated: Stated,
        time: Timestamp,
        received: Timestamp,
    ) -> Vec<MarketUpdate> {
        self.state(market, index, stated)
            .into_iter()
            .map(|change| MarketUpdate {
                market: market.id,
                time,
                received,
                change,
            })
            .collect()
    }

    fn state_one(&mut self, market: &StreamMarket, index: usize, stated: Stated) -> Option<MarketChange> {
        let outcome = market.outcomes.get(index)?;
        let board = self.ticks.entry((market.id, index)).or_insert_with(|| Board {
            tick: PriceTick {
                outcome: outcome.clone(),
                price: None,
                last: None,
                best_bid: None,
                best_ask: None,
            },
            best_bid: None,
            best_ask: None,
        });
        let before = board.tick.clone();
        if let Some(last) = stated.last {
            board.tick.last = Some(round_price(last));
        }
        if let Some(bid) = stated.best_bid {
            board.best_bid = Some(bid.map(round_price));
        }
        if let Some(ask) = stated.best_ask {
            board.best_ask = Some(ask.map(round_price));
        }
        let tick = &mut board.tick;
        (tick.best_bid, tick.best_ask) = (board.best_bid.flatten(), board.best_ask.flatten());
        let (bid, ask) = match market.exchange {
            Exchange::Polymarket => polymarket_best_prices(board.best_bid, board.best_ask),
            Exchange::Kalshi => (tick.best_bid, tick.best_ask),
        };
        tick.price = displayed_price(market.exchange, tick.last, bid, ask);
        (*tick != before).then(|| MarketChange::Price(tick.clone()))
    }

    pub(crate) fn forget(&mut self, market: Uuid) {
        self.ticks.retain(|(id, _), _| *id != market);
    }
}
