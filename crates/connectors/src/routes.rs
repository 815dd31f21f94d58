//! Which connection carries each followed market. Polymarket's market channel takes a bounded
//! number of tokens per connection (500 by common account; Polymarket's documentation names no
//! figure), so a connector opens another connection when the ones it has are full, and a
//! market stays on its connection until its last unfollow frees the room.
//!
//! Counts are kept here so that a connection is told only the first follow and the last
//! unfollow of a market.

use std::collections::HashMap;

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
    connection: usize,
    count: usize,
    weight: usize,
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

    /// Follows market `id` of `weight` once more: on its first follow, the first connection
    /// with room for it (a new one when none has; a market heavier than a connection gets one
    /// to itself).
    pub(crate) fn follow(&mut self, id: Uuid, weight: usize) -> Change {
        if let Some(route) = self.markets.get_mut(&id) {
            route.count += 1;
            return Change::Counted;
        }
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
            id,
            Route {
                connection,
                count: 1,
                weight,
            },
        );
        Change::Tell(connection)
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
        self.loads[route.connection] -= route.weight;
        Change::Tell(route.connection)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markets_fill_connections_up_to_capacity_and_free_room_is_used_again() {
        let mut routes = Routes::new(4);
        let [a, b, c, d] = [1, 2, 3, 4].map(Uuid::from_u128);
        assert_eq!(routes.follow(a, 2), Change::Tell(0));
        assert_eq!(routes.follow(a, 2), Change::Counted);
        assert_eq!(routes.follow(b, 2), Change::Tell(0));
        assert_eq!(routes.follow(c, 2), Change::Tell(1));
        assert_eq!(routes.unfollow(b), Change::Tell(0));
        assert_eq!(routes.follow(d, 2), Change::Tell(0));
        assert_eq!(routes.unfollow(a), Change::Counted);
        assert_eq!(routes.unfollow(a), Change::Tell(0));
        assert_eq!(routes.unfollow(a), Change::Counted);
        // Heavier than a connection: one to itself.
        assert_eq!(routes.follow(Uuid::from_u128(5), 9), Change::Tell(2));
    }
}
