//! One side of a book kept between frames: sizes by price, set or changed one level at a time.
//!
//! Prices are keyed in millionths (the six decimals `marketlens_domain::depth` keeps prices
//! to), so that `0.37` read from `"0.3700"` and `1 - 0.63` land on the same level.

use std::collections::BTreeMap;

use marketlens_domain::depth::{Level, round_price};

/// Sizes are kept to six decimals too: Kalshi's fractional deltas (`"-1.29"`) would otherwise
/// leave `2.2800000000000002` or `1e-12` for 0 after a few additions.
const SIZE_DECIMALS: f64 = 1e6;

#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct LevelMap {
    sizes: BTreeMap<i64, f64>,
}

fn key(price: f64) -> i64 {
    (round_price(price) * 1e6).round() as i64
}

impl LevelMap {
    /// A side holding exactly `levels` (levels of one price added together).
    pub(crate) fn from_levels(levels: impl IntoIterator<Item = Level>) -> LevelMap {
        let mut map = LevelMap::default();
        for level in levels {
            let size = map.size_at(level.price) + level.size;
            map.set(level.price, size);
        }
        map
    }

    pub(crate) fn size_at(&self, price: f64) -> f64 {
        self.sizes.get(&key(price)).copied().unwrap_or(0.0)
    }

    /// Sets the size at `price` (0 or less removes the level); returns the size now.
    pub(crate) fn set(&mut self, price: f64, size: f64) -> f64 {
        let size = (size * SIZE_DECIMALS).round() / SIZE_DECIMALS;
        if size.is_finite() && size > 0.0 {
            self.sizes.insert(key(price), size);
            size
        } else {
            self.sizes.remove(&key(price));
            0.0
        }
    }

    /// Changes the size at `price` by `delta`; returns the size now, or `None` (and changes
    /// nothing) when the change would take the level below zero: the book it was meant for
    /// is not this one.
    pub(crate) fn add(&mut self, price: f64, delta: f64) -> Option<f64> {
        let size = ((self.size_at(price) + delta) * SIZE_DECIMALS).round() / SIZE_DECIMALS;
        (size >= 0.0).then(|| self.set(price, size))
    }

    /// The highest price held: a side of bids' best.
    pub(crate) fn highest(&self) -> Option<f64> {
        self.sizes.last_key_value().map(|(&key, _)| key as f64 / 1e6)
    }

    /// The lowest price held: a side of asks' best.
    pub(crate) fn lowest(&self) -> Option<f64> {
        self.sizes.first_key_value().map(|(&key, _)| key as f64 / 1e6)
    }

    /// The levels by rising price.
    pub(crate) fn levels(&self) -> impl Iterator<Item = Level> + '_ {
        self.sizes.iter().map(|(&key, &size)| Level {
            price: key as f64 / 1e6,
            size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_spelled_differently_are_one_level_and_empty_levels_go() {
        let mut side = LevelMap::from_levels([Level { price: 0.37, size: 2.0 }]);
        assert_eq!(side.add(1.0 - 0.63, 1.5), Some(3.5));
        assert_eq!(side.add(0.37, -3.5 + 1e-12), Some(0.0));
        assert_eq!(side.add(0.37, -0.01), None);
        assert_eq!(side.levels().count(), 0);
        assert_eq!((side.highest(), side.lowest()), (None, None));
        assert_eq!(side.set(0.5, 4.0), 4.0);
        side.set(0.25, 1.0);
        assert_eq!((side.highest(), side.lowest()), (Some(0.5), Some(0.25)));
        side.set(0.25, 0.0);
        assert_eq!(side.levels().collect::<Vec<_>>(), vec![Level { price: 0.5, size: 4.0 }]);
    }
}
