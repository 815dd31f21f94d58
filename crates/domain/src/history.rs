//! Price history: what a market's prices, volume and liquidity were over time, kept as bars
//! (open, high, low and close of each outcome's price over a bucket of UTC time) and served
//! as candles.
//!
//! Every write of a market (a sync or an import that changed it) is an observation, and so is
//! every price a live stream receives between syncs ([`ObservedPrices`]). It is
//! merged at once into the market's five-minute, hourly and daily bars, so a market synced
//! every few minutes costs one row per five minutes (and one more per hour and per day), not
//! one per sync. Each candle width then reads bars of one resolution only: five-minute
//! candles five-minute bars, hourly and four-hour candles hourly bars, daily candles daily
//! bars. Fine bars only cost space as they age, so they expire ([`Retention`]): five-minute
//! bars after seven days, hourly ones after ninety; daily bars are kept for ever. Expiry
//! loses nothing the coarser bars do not hold: they were written from the same observations,
//! with the open of the earliest, the close of the latest and the extremes of all.
//!
//! Merging is order-free: each bar remembers the times of its first and last observations, so
//! observations (and bars of one bucket) can be merged in any order.
//!
//! Like the rest of this crate, no I/O: the stores keep the bars, the API asks for candles.

use chrono::TimeDelta;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::market::Market;
use crate::time::Timestamp;

/// How wide the bars the store keeps are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resolution {
    FiveMinutes,
    Hour,
    Day,
}

impl Resolution {
    /// Finest first.
    pub const ALL: [Resolution; 3] = [Resolution::FiveMinutes, Resolution::Hour, Resolution::Day];

    pub fn seconds(self) -> i64 {
        match self {
            Resolution::FiveMinutes => 300,
            Resolution::Hour => 3_600,
            Resolution::Day => 86_400,
        }
    }

    /// The inverse of [`Resolution::seconds`], for the stores.
    pub fn from_seconds(seconds: i64) -> Option<Resolution> {
        Resolution::ALL
            .into_iter()
            .find(|resolution| resolution.seconds() == seconds)
    }
}

/// How wide the candles the API serves are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Interval {
    FiveMinutes,
    Hour,
    FourHours,
    Day,
}

impl Interval {
    pub const ALL: [Interval; 4] = [
        Interval::FiveMinutes,
        Interval::Hour,
        Interval::FourHours,
        Interval::Day,
    ];

    /// The name in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Interval::FiveMinutes => "5m",
            Interval::Hour => "1h",
            Interval::FourHours => "4h",
            Interval::Day => "1d",
        }
    }

    pub fn parse(text: &str) -> Option<Interval> {
        Interval::ALL
            .into_iter()
            .find(|interval| interval.as_str().eq_ignore_ascii_case(text))
    }

    pub fn seconds(self) -> i64 {
        match self {
            Interval::FiveMinutes => 300,
            Interval::Hour => 3_600,
            Interval::FourHours => 14_400,
            Interval::Day => 86_400,
        }
    }

    /// The bars candles of this width are made of: the widest that fits inside one candle.
    pub fn resolution(self) -> Resolution {
        match self {
            Interval::FiveMinutes => Resolution::FiveMinutes,
            Interval::Hour | Interval::FourHours => Resolution::Hour,
            Interval::Day => Resolution::Day,
        }
    }

    /// Whether each candle is exactly one bar (so that a page of candles is a page of bars).
    pub fn is_one_bar_per_candle(self) -> bool {
        self.resolution().seconds() == self.seconds()
    }

    /// The start of the candle holding `seconds` (since the epoch, UTC).
    pub fn bucket_start(self, seconds: i64) -> i64 {
        bucket_start(seconds, self.seconds())
    }

    /// The first candle start at or after `seconds`.
    pub fn bucket_at_or_after(self, seconds: i64) -> i64 {
        let start = self.bucket_start(seconds);
        if start == seconds {
            start
        } else {
            start.saturating_add(self.seconds())
        }
    }
}

/// The start of the bucket of width `width` seconds that holds `seconds`: buckets are aligned
/// to the Unix epoch, which is midnight UTC, so days, hours and four-hour candles start on
/// UTC boundaries.
pub fn bucket_start(seconds: i64, width: i64) -> i64 {
    seconds.div_euclid(width) * width
}

/// One outcome's price over a bar.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(from = "[f64; 4]", into = "[f64; 4]")]
pub struct PriceRange {
    pub open: f64,
    pub high: f64,
    pub low: f64,
    pub close: f64,
}

impl PriceRange {
    pub fn at(price: f64) -> PriceRange {
        PriceRange {
            open: price,
            high: price,
            low: price,
            close: price,
        }
    }
}

/// Stored as `[open, high, low, close]`: a bar of a binary market is about 60 bytes of JSON.
impl From<[f64; 4]> for PriceRange {
    fn from([open, high, low, close]: [f64; 4]) -> Self {
        PriceRange { open, high, low, close }
    }
}

impl From<PriceRange> for [f64; 4] {
    fn from(range: PriceRange) -> Self {
        [range.open, range.high, range.low, range.close]
    }
}

/// One market's history over one bucket: what the stores keep per (market, resolution,
/// bucket start).
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryBar {
    pub resolution: Resolution,
    /// Seconds since the epoch (UTC), a multiple of the resolution's width.
    pub bucket_start: i64,
    /// The earliest and latest observations merged into this bar.
    pub first_at: Timestamp,
    pub last_at: Timestamp,
    /// Per outcome, in the market's outcome order.
    pub outcomes: Vec<PriceRange>,
    /// As of `last_at`.
    pub volume: f64,
    pub volume_24h: f64,
    pub liquidity: f64,
}

impl HistoryBar {
    /// The market as observed at `at`, as a bar of `resolution`.
    pub fn observed(market: &Market, at: Timestamp, resolution: Resolution) -> HistoryBar {
        HistoryBar {
            resolution,
            bucket_start: bucket_start(at.timestamp(), resolution.seconds()),
            first_at: at,
            last_at: at,
            outcomes: market
                .outcomes
                .iter()
                .map(|outcome| PriceRange::at(outcome.price))
                .collect(),
            volume: market.volume,
            volume_24h: market.volume_24h,
            liquidity: market.liquidity,
        }
    }

    /// Adds `other`'s observations to this bar's (whatever their order in time): the open of
    /// the earlier first observation, the close and figures of the later last one, the
    /// extremes of both. On equal last times `other` counts as the later: a newer write of
    /// the same instant replaces the older.
    pub fn merge(&mut self, other: &HistoryBar) {
        let earlier_open = other.first_at < self.first_at;
        let later_close = other.last_at >= self.last_at;
        for (position, theirs) in other.outcomes.iter().enumerate() {
            match self.outcomes.get_mut(position) {
                Some(ours) => {
                    if earlier_open {
                        ours.open = theirs.open;
                    }
                    if later_close {
                        ours.close = theirs.close;
                    }
                    ours.high = ours.high.max(theirs.high);
                    ours.low = ours.low.min(theirs.low);
                }
                None => self.outcomes.push(*theirs),
            }
        }
        if later_close {
            self.volume = other.volume;
            self.volume_24h = other.volume_24h;
            self.liquidity = other.liquidity;
        }
        self.first_at = self.first_at.min(other.first_at);
        self.last_at = self.last_at.max(other.last_at);
    }
}

/// Prices of a market's outcomes seen at one time between syncs (a live stream's): an
/// observation of the market as the store holds it, with these prices.
#[derive(Debug, Clone, PartialEq)]
pub struct ObservedPrices {
    pub market: Uuid,
    pub at: Timestamp,
    /// Outcome names and their prices; an outcome left out keeps its stored price.
    pub prices: Vec<(String, f64)>,
}

impl ObservedPrices {
    /// `market` with the observed prices of its outcomes, matched by name.
    pub fn applied_to(&self, market: &Market) -> Market {
        let mut observed = market.clone();
        for outcome in &mut observed.outcomes {
            if let Some((_, price)) = self.prices.iter().find(|(name, _)| *name == outcome.name) {
                outcome.price = *price;
            }
        }
        observed
    }
}

/// How long fine bars are kept (daily bars are kept for ever).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Five-minute bars that ended longer ago than this are deleted: hourly bars hold them.
    pub five_minutes: TimeDelta,
    /// Hourly bars that ended longer ago than this are deleted: daily bars hold them.
    pub hours: TimeDelta,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            five_minutes: TimeDelta::days(7),
            hours: TimeDelta::days(90),
        }
    }
}

/// Bars of `resolution` whose bucket starts before `before` (seconds) have expired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expiry {
    pub resolution: Resolution,
    pub before: i64,
}

impl Retention {
    /// The bars expired at `now`, finest first: those that ended more than the retention ago.
    /// Hourly bars expire four hours at a time, so that the oldest four-hour candle is always
    /// made of all its hours.
    pub fn expiries(&self, now: Timestamp) -> [Expiry; 2] {
        let before = |resolution: Resolution, keep: TimeDelta| (now - keep).timestamp() - resolution.seconds() + 1;
        [
            Expiry {
                resolution: Resolution::FiveMinutes,
                before: before(Resolution::FiveMinutes, self.five_minutes),
            },
            Expiry {
                resolution: Resolution::Hour,
                before: Interval::FourHours.bucket_start(before(Resolution::Hour, self.hours)),
            },
        ]
    }
}

/// One candle: every outcome's prices over `[start, start + interval)` and the market's 24-hour
/// volume at its close.
#[derive(Debug, Clone, PartialEq)]
pub struct Candle {
    /// Seconds since the epoch (UTC).
    pub start: i64,
    pub outcomes: Vec<PriceRange>,
    pub volume_24h: f64,
}

/// The candles of `interval` that `bars` make, oldest first; buckets with no bar are absent.
/// Only bars of the interval's own resolution ([`Interval::resolution`]) count.
pub fn candles(bars: &[HistoryBar], interval: Interval) -> Vec<Candle> {
    let mut usable: Vec<&HistoryBar> = bars
        .iter()
        .filter(|bar| bar.resolution == interval.resolution())
        .collect();
    usable.sort_by_key(|bar| (bar.bucket_start, bar.first_at));
    let mut merged: Vec<HistoryBar> = Vec::new();
    for bar in usable {
        let start = interval.bucket_start(bar.bucket_start);
        match merged.last_mut() {
            Some(last) if last.bucket_start == start => last.merge(bar),
            _ => merged.push(HistoryBar {
                bucket_start: start,
                ..bar.clone()
            }),
        }
    }
    merged
        .into_iter()
        .map(|bar| Candle {
            start: bar.bucket_start,
            outcomes: bar.outcomes,
            volume_24h: bar.volume_24h,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::from_epoch_millis;
    use proptest::prelude::*;

    /// 2026-01-31T00:00:00Z.
    const MIDNIGHT: i64 = 1_769_817_600;

    fn observation(seconds: i64, price: f64, volume_24h: f64) -> HistoryBar {
        observed_at(seconds, price, volume_24h, Resolution::FiveMinutes)
    }

    fn observed_at(seconds: i64, price: f64, volume_24h: f64, resolution: Resolution) -> HistoryBar {
        let at = from_epoch_millis(seconds * 1000);
        HistoryBar {
            resolution,
            bucket_start: bucket_start(seconds, resolution.seconds()),
            first_at: at,
            last_at: at,
            outcomes: vec![PriceRange::at(price), PriceRange::at(1.0 - price)],
            volume: 0.0,
            volume_24h,
            liquidity: 0.0,
        }
    }

    fn merged(observations: &[HistoryBar]) -> HistoryBar {
        let mut bar = observations[0].clone();
        for other in &observations[1..] {
            bar.merge(other);
        }
        bar
    }

    #[test]
    fn a_candle_opens_at_the_first_observation_and_closes_at_the_last() {
        let hour = |offset, price, volume| observed_at(MIDNIGHT + offset, price, volume, Resolution::Hour);
        let bars = [merged(&[
            hour(10, 0.40, 1.0),
            hour(200, 0.55, 2.0),
            hour(400, 0.30, 3.0),
            hour(3_500, 0.45, 4.0),
        ])];
        let hourly = candles(&bars, Interval::Hour);
        assert_eq!(hourly.len(), 1);
        let yes = hourly[0].outcomes[0];
        assert_eq!((yes.open, yes.high, yes.low, yes.close), (0.40, 0.55, 0.30, 0.45));
        assert_eq!(hourly[0].volume_24h, 4.0);
        assert_eq!(hourly[0].start, MIDNIGHT);
        assert!(
            candles(&bars, Interval::Day).is_empty(),
            "daily candles are made of daily bars"
        );
    }

    #[test]
    fn empty_buckets_are_absent_and_edges_fall_on_utc_boundaries() {
        let seconds = [
            MIDNIGHT - 1,
            MIDNIGHT,
            MIDNIGHT + 4 * 3_600 - 1,
            MIDNIGHT + 4 * 3_600,
            MIDNIGHT + 10 * 3_600,
        ];
        let starts = |interval: Interval| {
            let bars: Vec<HistoryBar> = seconds
                .iter()
                .map(|at| observed_at(*at, 0.5, 0.0, interval.resolution()))
                .collect();
            candles(&bars, interval)
                .iter()
                .map(|candle| candle.start)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            starts(Interval::FourHours),
            [
                MIDNIGHT - 4 * 3_600,
                MIDNIGHT,
                MIDNIGHT + 4 * 3_600,
                MIDNIGHT + 8 * 3_600
            ]
        );
        assert_eq!(starts(Interval::Day), [MIDNIGHT - 86_400, MIDNIGHT]);
        assert_eq!(starts(Interval::FiveMinutes).len(), 5);
        assert!(Interval::Hour.is_one_bar_per_candle() && !Interval::FourHours.is_one_bar_per_candle());
    }

    #[test]
    fn bars_of_every_resolution_made_of_the_same_observations_agree() {
        let day: Vec<(i64, f64)> = (0..288)
            .map(|step| (MIDNIGHT + step * 300, 0.5 + ((step % 7) as f64 - 3.0) / 100.0))
            .collect();
        let bars_of = |resolution| {
            let mut bars: Vec<HistoryBar> = Vec::new();
            for (at, price) in &day {
                let observed = observed_at(*at, *price, 0.0, resolution);
                match bars.last_mut() {
                    Some(last) if last.bucket_start == observed.bucket_start => last.merge(&observed),
                    _ => bars.push(observed),
                }
            }
            bars
        };
        let (fine, hourly, daily) = (
            bars_of(Resolution::FiveMinutes),
            bars_of(Resolution::Hour),
            bars_of(Resolution::Day),
        );
        assert_eq!((fine.len(), hourly.len(), daily.len()), (288, 24, 1));
        let yes = daily[0].outcomes[0];
        assert_eq!((yes.open, yes.high, yes.low, yes.close), (0.47, 0.53, 0.47, day[287].1));
        let four_hourly = candles(&hourly, Interval::FourHours);
        assert_eq!(four_hourly.len(), 6);
        assert_eq!(four_hourly[0].outcomes[0].open, 0.47);
        assert_eq!(four_hourly[5].outcomes[0].close, day[287].1);
    }

    #[test]
    fn bars_expire_whole_past_their_retention() {
        let now = from_epoch_millis((MIDNIGHT + 8 * 86_400) * 1000);
        let [fine, coarse] = Retention::default().expiries(now);
        // A five-minute bar starting at MIDNIGHT + 86_400 - 300 ends exactly seven days ago.
        assert_eq!(fine.before, MIDNIGHT + 86_400 - 300 + 1);
        assert_eq!(
            (fine.resolution, coarse.resolution),
            (Resolution::FiveMinutes, Resolution::Hour)
        );
        assert_eq!(coarse.before % 14_400, 0, "whole four-hour candles only");
        assert!(coarse.before <= (now - TimeDelta::days(90)).timestamp() - 3_600 + 1);
    }

    #[test]
    fn price_ranges_are_stored_as_four_numbers() {
        let range = PriceRange {
            open: 0.1,
            high: 0.4,
            low: 0.05,
            close: 0.2,
        };
        let text = serde_json::to_string(&vec![range]).unwrap();
        assert_eq!(text, "[[0.1,0.4,0.05,0.2]]");
        assert_eq!(serde_json::from_str::<Vec<PriceRange>>(&text).unwrap(), vec![range]);
        assert_eq!(Interval::parse("1H"), Some(Interval::Hour));
        assert_eq!(Interval::parse("2h"), None);
    }

    proptest! {
        #[test]
        fn merging_in_any_order_gives_the_same_bar(
            points in prop::collection::vec((0i64..300, 0u32..=100), 1..12),
            seed in any::<u64>(),
        ) {
            // Distinct times within one five-minute bucket, so that which observation is first
            // and last is defined.
            let observations: Vec<HistoryBar> = points
                .iter()
                .map(|(offset, price)| observation(MIDNIGHT + offset, f64::from(*price) / 100.0, f64::from(*price)))
                .collect();
            let mut times: Vec<_> = observations.iter().map(|bar| bar.first_at).collect();
            times.sort();
            times.dedup();
            prop_assume!(times.len() == observations.len());
            let mut shuffled = observations.clone();
            let mut state = seed;
            for index in (1..shuffled.len()).rev() {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                shuffled.swap(index, (state >> 33) as usize % (index + 1));
            }
            let in_order = {
                let mut sorted = observations.clone();
                sorted.sort_by_key(|bar| bar.first_at);
                merged(&sorted)
            };
            prop_assert_eq!(merged(&shuffled), in_order.clone());
            let prices: Vec<f64> = observations.iter().map(|bar| bar.outcomes[0].close).collect();
            let high = prices.iter().copied().fold(f64::MIN, f64::max);
            let low = prices.iter().copied().fold(f64::MAX, f64::min);
            prop_assert_eq!(in_order.outcomes[0].high, high);
            prop_assert_eq!(in_order.outcomes[0].low, low);
        }
    }
}
