//! Which markets a session follows, what changed since the session last told the exchange, each market's [`FeedState`], and by when its first whole book is due.
//! Both exchanges' sessions keep one.
//!
//! A market whose book does not come (a token or ticker the exchange does not know, a
//! resolved market, a lost reply) would otherwise stay in no state at all: once its book is
//! overdue it is reported `Interrupted` and its session asks again, each time waiting twice
//! as long (up to 16 times the first wait).
//!
//! A set, not counts: the [`LiveFeed`](marketlens_domain::stream::LiveFeed) contract's counting
//! is the connector's (`marketlens_connectors`' routes), which tells a session only a market's
//! first follow and last unfollow; following a market already followed changes nothing. A
//! market followed and unfollowed between two flushes is no change at all, so nothing is sent
//! for it.

use std::collections::HashMap;
use std::time::Duration;

use marketlens_domain::stream::{FeedState, MarketChange, MarketUpdate, StreamMarket};
use marketlens_domain::time::Timestamp;
use uuid::Uuid;

/// How many times the wait for a book doubles at most (to 16 times the first).
const BOOK_WAIT_DOUBLINGS: u32 = 4;

/// How long a session waits for a market's first book unless told otherwise.
pub const DEFAULT_FIRST_BOOK_WITHIN: Duration = Duration::from_secs(30);

/// Opaque outside this crate: sessions keep one and [`StreamSession`](super::StreamSession)'s
/// provided methods use it.
#[derive(Debug)]
pub struct Following {
    markets: HashMap<Uuid, Followed>,
    /// How long a first book may take after the market is subscribed.
    first_book_within: Duration,
    /// Followed since the last flush (in the order followed).
    added: Vec<Uuid>,
    /// Unfollowed since the last flush, with what the exchange knew them by.
    removed: Vec<StreamMarket>,
}

#[derive(Debug)]
struct Followed {
    market: StreamMarket,
    /// The state last reported; `None` before the first.
    state: Option<FeedState>,
    /// When the book asked for is overdue; `None` while none is awaited.
    book_due: Option<Timestamp>,
    /// Books asked for that did not come in time since the last one that did.
    books_missed: u32,
}

impl Default for Following {
    fn default() -> Following {
        Following::new(DEFAULT_FIRST_BOOK_WITHIN)
    }
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
    pub(crate) fn new(first_book_within: Duration) -> Following {
        Following {
            markets: HashMap::new(),
            first_book_within,
            added: Vec::new(),
            removed: Vec::new(),
        }
    }

    pub(crate) fn follow(&mut self, market: &StreamMarket) {
        if self.markets.contains_key(&market.id) {
            return;
        }
        self.markets.insert(
            market.id,
            Followed {
                market: market.clone(),
                state: None,
                book_due: None,
                books_missed: 0,
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
        let Some(followed) = self.markets.remove(&id) else {
            return;
        };
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

    /// Records `state` for a followed market: an update when it is a change. Live means its
    /// book came: none is awaited any more.
    pub(crate) fn set_state(&mut self, id: Uuid, state: FeedState, received: Timestamp) -> Option<MarketUpdate> {
        let followed = self.markets.get_mut(&id)?;
        if state == FeedState::Live {
            followed.book_due = None;
            followed.books_missed = 0;
        }
        (followed.state != Some(state)).then(|| {
            followed.state = Some(state);
            state_update(id, state, received)
        })
    }

    /// Interrupts a followed market whatever was reported before: for a reader that may have
    /// missed the report (its updates were dropped while it lagged).
    pub(crate) fn interrupt(&mut self, id: Uuid, received: Timestamp) -> Option<MarketUpdate> {
        let followed = self.markets.get_mut(&id)?;
        followed.state = Some(FeedState::Interrupted);
        Some(state_update(id, FeedState::Interrupted, received))
    }

    /// A book of market `id` was asked for at `now`: it is due within the first wait, doubled
    /// for each book missed since the last that came.
    pub(crate) fn await_book(&mut self, id: Uuid, now: Timestamp) {
        let within = self.first_book_within;
        if let Some(followed) = self.markets.get_mut(&id) {
            let wait = within.saturating_mul(1 << followed.books_missed.min(BOOK_WAIT_DOUBLINGS));
            followed.book_due = Some(now + chrono::TimeDelta::from_std(wait).unwrap_or(chrono::TimeDelta::MAX));
        }
    }

    /// No book of market `id` is awaited (it is asked for again later by other means).
    pub(crate) fn stop_awaiting(&mut self, id: Uuid) {
        if let Some(followed) = self.markets.get_mut(&id) {
            followed.book_due = None;
        }
    }

    /// The markets whose awaited book is overdue at `now`, no longer awaited: each counted as
    /// missed, to be reported interrupted and asked for again.
    pub(crate) fn overdue(&mut self, now: Timestamp) -> Vec<StreamMarket> {
        let mut overdue: Vec<StreamMarket> = self
            .markets
            .values_mut()
            .filter(|followed| followed.book_due.is_some_and(|due| due <= now))
            .map(|followed| {
                followed.book_due = None;
                followed.books_missed = followed.books_missed.saturating_add(1);
                followed.market.clone()
            })
            .collect();
        overdue.sort_by(|a, b| a.external_id.cmp(&b.external_id));
        overdue
    }

    /// Every followed market not already interrupted, now interrupted.
    pub(crate) fn interrupt_all(&mut self, received: Timestamp) -> Vec<MarketUpdate> {
        for followed in self.markets.values_mut() {
            followed.book_due = None;
        }
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
    fn a_market_is_followed_once_and_changes_are_only_what_the_exchange_was_not_told() {
        let mut following = Following::default();
        following.follow(&market(1));
        following.follow(&market(1));
        following.follow(&market(2));
        let (added, removed) = following.take_changes();
        assert_eq!((added.len(), removed.len()), (2, 0));
        // A set: one unfollow leaves (the connector counts, and tells only the last one).
        following.unfollow(Uuid::from_u128(1));
        assert_eq!(following.take_changes(), (vec![], vec![market(1)]));
        following.unfollow(Uuid::from_u128(1));
        assert_eq!(following.take_changes(), (vec![], vec![]));
        // Followed and unfollowed between two flushes: nothing to tell the exchange.
        following.follow(&market(3));
        following.unfollow(Uuid::from_u128(3));
        following.unfollow(Uuid::from_u128(2));
        following.follow(&market(2));
        assert_eq!(following.take_changes(), (vec![], vec![]));
        assert!(!following.is_empty());
    }
}
