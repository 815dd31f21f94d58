//! One feed over both exchanges: a [`LiveFeed`] that hands each market to its exchange's
//! [`Connector`], so that what serves streams holds one feed whatever the market.
//!
//! Kalshi's WebSocket API needs an operator's API key; without one there is no Kalshi
//! connector, and a Kalshi market followed is reported `Interrupted` at once rather than left
//! waiting for a book that cannot come.

use chrono::Utc;
use marketlens_domain::Exchange;
use marketlens_domain::stream::{FeedState, LiveFeed, MarketChange, MarketUpdate, StreamMarket};
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::mpsc;
use uuid::Uuid;

use crate::Connector;

/// Both exchanges' connectors behind one [`LiveFeed`].
pub struct ExchangeFeeds {
    polymarket: Option<Connector>,
    kalshi: Option<Connector>,
    /// Where every connector sends its updates: also where a market with no connector is
    /// reported interrupted.
    updates: mpsc::Sender<MarketUpdate>,
    /// The exchange of each market followed, and how many times it is followed: `unfollow`
    /// names only the market.
    followed: Mutex<HashMap<Uuid, (Exchange, usize)>>,
}

impl ExchangeFeeds {
    /// A feed over these connectors, each made with a clone of `updates`.
    pub fn new(
        polymarket: Option<Connector>,
        kalshi: Option<Connector>,
        updates: mpsc::Sender<MarketUpdate>,
    ) -> ExchangeFeeds {
        ExchangeFeeds {
            polymarket,
            kalshi,
            updates,
            followed: Mutex::new(HashMap::new()),
        }
    }

    fn connector(&self, exchange: Exchange) -> Option<&Connector> {
        match exchange {
            Exchange::Polymarket => self.polymarket.as_ref(),
            Exchange::Kalshi => self.kalshi.as_ref(),
        }
    }
}

impl LiveFeed for ExchangeFeeds {
    fn follow(&self, market: &StreamMarket) {
        {
            let mut followed = self.followed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            followed.entry(market.id).or_insert((market.exchange, 0)).1 += 1;
        }
        match self.connector(market.exchange) {
            Some(connector) => connector.follow(market),
            None => {
                let now = Utc::now();
                let interrupted = MarketUpdate {
                    market: market.id,
                    time: now,
                    received: now,
                    change: MarketChange::State {
                        state: FeedState::Interrupted,
                    },
                };
                // Never waits: a full channel means the reader is behind, and it learns
                // nothing from this that it would not from the missing book.
                let _ = self.updates.try_send(interrupted);
            }
        }
    }

    fn unfollow(&self, market: Uuid) {
        let exchange = {
            let mut followed = self.followed.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            let Some((exchange, count)) = followed.get_mut(&market) else {
                return;
            };
            let exchange = *exchange;
            *count -= 1;
            if *count == 0 {
                followed.remove(&market);
            }
            exchange
        };
        if let Some(connector) = self.connector(exchange) {
            connector.unfollow(market);
        }
    }
}
