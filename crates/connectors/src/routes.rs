//! Which connection carries each followed market. Polymarket's market channel takes a bounded
//! number of tokens per connection (500 by common account; Polymarket's documentation names no
//! figure), so a connector opens another connection when the ones it has are full, and a
//! market stays on its connection until its last unfollow frees the room.
//!
//! The follows of the [`LiveFeed`](marketlens_domain::stream::LiveFeed) contract are counted
//! here, and only here: a connection (and its session) is told only the first follow and the
//! last unfollow of a market.

use std::collections::HashMap;

use marketlens_domain::stream::StreamMarket;
use uuid::Uuid;

#[derive(Debug)]
pub(crate) struct Routes {
    /// The most weight (tokens) one connection carries.
    capacity: usize,
    /// Each connection's weight, by index.
    loads: Vec<usize>,
    markets: HashMap<Uuid, Route>,
}

#[derive(Debug)]
struct Route {
    market: StreamMarket,
    connection: usize,
    count: usize,
}

/// What a market weighs on a connection: its tokens (Kalshi's have none and weigh one).
fn weight(market: &StreamMarket) -> usize {
    market.tokens.len().max(1)
}

/// What a follow or unfollow means for the connection that carries the market.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Tell connection `0` (a connection that does not exist yet is to be opened first).
    Tell(usize),
    /// Nothing to tell: the market was followed before, or is still followed.
    Counted,
}

impl Routes {
    pub(crate) fn new(capacity: usize) -> Routes {
        Routes {
            capacity: capacity.max(1),
            loads: Vec::new(),
            markets: HashMap::new(),
        }
    }

    /// Follows `market` once more: on its first follow, the first connection with room for
    /// it (a new one when none has; a market heavier than a connection gets one to itself).
    pub(crate) fn follow(&mut self, market: &StreamMarket) -> Change {
        if let Some(route) = self.markets.get_mut(&market.id) {
            route.count += 1;
            return Change::Counted;
        }
        let weight = weight(market);
        let connection = self
            .loads
            .iter()
            .position(|load| load + weight <= self.capacity)
            .unwrap_or_else(|| {
                self.loads.push(0);
                self.loads.len() - 1
            });
        self.loads[connection] += weight;
        self.markets.insert(
            market.id,
            Route {
                market: market.clone(),
                connection,
                count: 1,
            },
        );
        Change::Tell(connection)
    }

    /// The markets connection `index` carries.
    pub(crate) fn markets_on(&self, index: usize) -> impl Iterator<Item = &StreamMarket> {
        self.markets
            .values()
            .filter(move |route| route.connection == index)
            .map(|route| &route.market)
    }

    /// Follows market `id` once less.
    pub(crate) fn unfollow(&mut self, id: Uuid) -> Change {
        let Some(route) = self.markets.get_mut(&id) else {
            return Change::Counted;
        };
        route.count -= 1;
        if route.count > 0 {
            return Change::Counted;
        }
        let route = self.markets.remove(&id).expect("the market is routed");
        self.loads[route.connection] -= weight(&route.market);
        Change::Tell(route.connection)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use marketlens_domain::Exchange;

    /// Market `n` with `tokens` tokens.
    pub(crate) fn market(n: u128, tokens: usize) -> StreamMarket {
        StreamMarket {
            id: Uuid::from_u128(n),
            exchange: Exchange::Polymarket,
            external_id: n.to_string(),
            outcomes: vec!["Yes".into(), "No".into()],
            tokens: (0..tokens).map(|token| format!("{n}-{token}")).collect(),
        }
    }

    #[test]
    fn markets_fill_connections_up_to_capacity_and_free_room_is_used_again() {
        let mut routes = Routes::new(4);
        let [a, b, c, d] = [1, 2, 3, 4].map(|n| market(n, 2));
        assert_eq!(routes.follow(&a), Change::Tell(0));
        assert_eq!(routes.follow(&a), Change::Counted);
        assert_eq!(routes.follow(&b), Change::Tell(0));
        assert_eq!(routes.follow(&c), Change::Tell(1));
        assert_eq!(routes.unfollow(b.id), Change::Tell(0));
        assert_eq!(routes.follow(&d), Change::Tell(0));
        assert_eq!(routes.markets_on(0).count(), 2);
        assert_eq!(routes.unfollow(a.id), Change::Counted);
        assert_eq!(routes.unfollow(a.id), Change::Tell(0));
        assert_eq!(routes.unfollow(a.id), Change::Counted);
        // Heavier than a connection: one to itself.
        assert_eq!(routes.follow(&market(5, 9)), Change::Tell(2));
    }
}
