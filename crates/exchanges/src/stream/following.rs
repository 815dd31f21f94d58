//! Which markets a session follows, how many times each, what changed since the session last
//! told the exchange, and each market's [`FeedState`]. Both exchanges' sessions keep one.
//!
//! Following is by count (the [`LiveFeed`](marketlens_domain::stream::LiveFeed) contract): only
//! the first follow and the last unfollow of a market are changes. A market followed and
//! unfollowed between two flushes is no change at all, so nothing is sent for it.

use std::collections::HashMap;

use marketlens_domain::stream::{FeedState, MarketChange, MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

/// Opaque outside this crate: sessions keep one and [`StreamSession`](super::StreamSession)'s
/// provided methods use it.
#[derive(Debug, Default)]
pub struct Following {
    markets: HashMap<Uuid, Followed>,
    /// Followed since the last flush (in the order followed).
    added: Vec<Uuid>,
    /// Unfollowed since the last flush, with what the exchange knew them by.
    removed: Vec<StreamMarket>,
}

#[derive(Debug)]
struct Followed {
    market: StreamMarket,
    count: usize,
    /// The state last reported; `None` before the first.
    state: Option<FeedState>,
}

/// A state change to report, for a market.
pub(crate) fn state_update(market: Uuid, state: FeedState, received: Timestamp) -> MarketUpdate {
    MarketUpdate {
        market,
        time: received,
        received,
        change: MarketChange::State { state },
    }
}

impl Following {
    pub(crate) fn follow(&mut self, market: &StreamMarket) {
        if let Some(followed) = self.markets.get_mut(&market.id) {
            followed.count += 1;
            return;
        }
        self.markets.insert(
            market.id,
            Followed {
                market: market.clone(),
                count: 1,
                state: None,
            },
        );
        match self.removed.iter().position(|removed| removed.id == market.id) {
            // Unfollowed and followed again before the exchange was told: nothing changed.
            Some(index) => {
                self.removed.remove(index);
            }
            None => self.added.push(market.id),
        }
    }

    pub(crate) fn unfollow(&mut self, id: Uuid) {
        let Some(followed) = self.markets.get_mut(&id) else {
            return;
        };
        followed.count -= 1;
        if followed.count > 0 {
            return;
        }
        let followed = self.markets.remove(&id).expect("the market is followed");
        match self.added.iter().position(|added| *added == id) {
            Some(index) => {
                self.added.remove(index);
            }
            None => self.removed.push(followed.market),
        }
    }

    /// The markets followed and unfollowed since the last call.
    pub(crate) fn take_changes(&mut self) -> (Vec<StreamMarket>, Vec<StreamMarket>) {
        let added = std::mem::take(&mut self.added)
            .into_iter()
            .filter_map(|id| self.markets.get(&id).map(|followed| followed.market.clone()))
            .collect();
        (added, std::mem::take(&mut self.removed))
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.markets.is_empty()
    }

    pub(crate) fn get(&self, id: Uuid) -> Option<&StreamMarket> {
        self.markets.get(&id).map(|followed| &followed.market)
    }

    pub(crate) fn markets(&self) -> impl Iterator<Item = &StreamMarket> {
        self.markets.values().map(|followed| &followed.market)
    }

    /// Records `state` for a followed market: an update when it is a change.
    pub(crate) fn set_state(&mut self, id: Uuid, state: FeedState, received: Timestamp) -> Option<MarketUpdate> {
        let followed = self.markets.get_mut(&id)?;
        (followed.state != Some(state)).then(|| {
            followed.state = Some(state);
            state_update(id, state, received)
        })
    }

    /// Every followed market not already interrupted, now interrupted.
    pub(crate) fn interrupt_all(&mut self, received: Timestamp) -> Vec<MarketUpdate> {
        let ids: Vec<Uuid> = self.markets.keys().copied().collect();
        ids.into_iter()
            .filter_map(|id| self.set_state(id, FeedState::Interrupted, received))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::Exchange;

    fn market(n: u128) -> StreamMarket {
        StreamMarket {
            id: Uuid::from_u128(n),
            exchange: Exchange::Kalshi,
            external_id: format!("M-{n}"),
            outcomes: vec!["Yes".into(), "No".into()],
            tokens: Vec::new(),
        }
    }

    #[test]
    fn only_the_first_follow_and_the_last_unfollow_are_changes() {
        let mut following = Following::default();
        following.follow(&market(1));
        following.follow(&market(1));
        following.follow(&market(2));
        let (added, removed) = following.take_changes();
        assert_eq!((added.len(), removed.len()), (2, 0));
        following.unfollow(Uuid::from_u128(1));
        assert_eq!(following.take_changes(), (vec![], vec![]));
        following.unfollow(Uuid::from_u128(1));
        assert_eq!(following.take_changes(), (vec![], vec![market(1)]));
        // Followed and unfollowed between two flushes: nothing to tell the exchange.
        following.follow(&market(3));
        following.unfollow(Uuid::from_u128(3));
        following.unfollow(Uuid::from_u128(2));
        following.follow(&market(2));
        assert_eq!(following.take_changes(), (vec![], vec![]));
        assert!(!following.is_empty());
    }
}
