//! Price history: what a market's prices, volume and liquidity were over time, kept as bars
//! (open, high, low and close of each outcome's price over a bucket of UTC time) and served
//! as candles.
//!
//! Every write of a market (a sync or an import that changed it) is an observation. It is
//! merged at once into the market's five-minute bar, so a market synced every few minutes
//! costs one row per five minutes, not one per sync. As bars age they are rolled up into
//! coarser ones ([`Retention`]): five-minute bars into hourly ones after seven days, hourly
//! ones into daily ones after ninety, and daily bars are kept for ever. Rolling up loses no
//! extreme: a coarser bar's high and low are those of everything merged into it, its open the
//! earliest observation's and its close the latest's.
//!
//! Merging is order-free: each bar remembers the times of its first and last observations, so
//! bars of one bucket can be merged in any order, and a roll-up that runs while a bucket is
//! half old gives the same candles as one that runs after.
//!
//! Like the rest of this crate, no I/O: the stores keep the bars, the API asks for candles.

use chrono::TimeDelta;
use serde::{Deserialize, Serialize};

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

    /// The coarsest bars a candle of this width can be made of: a bar must fit inside one
    /// candle (every resolution's width divides every wider interval's).
    pub fn coarsest_resolution(self) -> Resolution {
        match self {
            Interval::FiveMinutes => Resolution::FiveMinutes,
            Interval::Hour | Interval::FourHours => Resolution::Hour,
            Interval::Day => Resolution::Day,
        }
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
    /// The market as observed at `at`, as a five-minute bar.
    pub fn observed(market: &Market, at: Timestamp) -> HistoryBar {
        HistoryBar {
            resolution: Resolution::FiveMinutes,
            bucket_start: bucket_start(at.timestamp(), Resolution::FiveMinutes.seconds()),
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

    /// The same observations as a bar of the coarser `resolution`.
    pub fn rolled_into(&self, resolution: Resolution) -> HistoryBar {
        HistoryBar {
            resolution,
            bucket_start: bucket_start(self.bucket_start, resolution.seconds()),
            ..self.clone()
        }
    }
}

/// How long bars are kept at each resolution before they are rolled into the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// Five-minute bars older than this become hourly ones.
    pub five_minutes: TimeDelta,
    /// Hourly bars older than this become daily ones (kept for ever).
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

/// One step of a roll-up: bars of `from` whose bucket starts before `before` (seconds) become
/// bars of `into`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RollUp {
    pub from: Resolution,
    pub into: Resolution,
    pub before: i64,
}

impl Retention {
    /// The roll-ups due at `now`, finest first. A bar is rolled once it has ended more than
    /// the retention ago, so a whole bar moves at once.
    pub fn roll_ups(&self, now: Timestamp) -> [RollUp; 2] {
        let due = |from: Resolution, keep: TimeDelta| (now - keep).timestamp() - from.seconds();
        [
            RollUp {
                from: Resolution::FiveMinutes,
                into: Resolution::Hour,
                before: due(Resolution::FiveMinutes, self.five_minutes) + 1,
            },
            RollUp {
                from: Resolution::Hour,
                into: Resolution::Day,
                before: due(Resolution::Hour, self.hours) + 1,
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
/// Bars coarser than the interval cannot be split and are left out (see
/// [`Interval::coarsest_resolution`]).
pub fn candles(bars: &[HistoryBar], interval: Interval) -> Vec<Candle> {
    let mut usable: Vec<&HistoryBar> = bars
        .iter()
        .filter(|bar| bar.resolution <= interval.coarsest_resolution())
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
        let at = from_epoch_millis(seconds * 1000);
        HistoryBar {
            resolution: Resolution::FiveMinutes,
            bucket_start: bucket_start(seconds, 300),
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
        let bars = [
            merged(&[
                observation(MIDNIGHT + 10, 0.40, 1.0),
                observation(MIDNIGHT + 200, 0.55, 2.0),
            ]),
            observation(MIDNIGHT + 400, 0.30, 3.0),
            observation(MIDNIGHT + 3_500, 0.45, 4.0),
        ];
        let hourly = candles(&bars, Interval::Hour);
        assert_eq!(hourly.len(), 1);
        let yes = hourly[0].outcomes[0];
        assert_eq!((yes.open, yes.high, yes.low, yes.close), (0.40, 0.55, 0.30, 0.45));
        assert_eq!(hourly[0].volume_24h, 4.0);
        assert_eq!(hourly[0].start, MIDNIGHT);
    }

    #[test]
    fn empty_buckets_are_absent_and_edges_fall_on_utc_boundaries() {
        let bars = [
            observation(MIDNIGHT - 1, 0.1, 0.0),
            observation(MIDNIGHT, 0.2, 0.0),
            observation(MIDNIGHT + 4 * 3_600 - 1, 0.3, 0.0),
            observation(MIDNIGHT + 4 * 3_600, 0.4, 0.0),
            observation(MIDNIGHT + 10 * 3_600, 0.5, 0.0),
        ];
        let starts = |interval| {
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
    }

    #[test]
    fn rolled_up_bars_keep_the_extremes_and_serve_coarser_candles_only() {
        let day: Vec<HistoryBar> = (0..288)
            .map(|step| observation(MIDNIGHT + step * 300, 0.5 + ((step % 7) as f64 - 3.0) / 100.0, 0.0))
            .collect();
        let hourly: Vec<HistoryBar> = day
            .chunks(12)
            .map(|hour| merged(hour).rolled_into(Resolution::Hour))
            .collect();
        let daily = merged(&hourly).rolled_into(Resolution::Day);
        assert_eq!(daily.bucket_start, MIDNIGHT);
        let yes = daily.outcomes[0];
        assert_eq!(
            (yes.open, yes.high, yes.low, yes.close),
            (0.47, 0.53, 0.47, day[287].outcomes[0].close)
        );
        assert!(candles(std::slice::from_ref(&daily), Interval::Hour).is_empty());
        assert_eq!(
            candles(&hourly, Interval::Day),
            candles(&day, Interval::Day),
            "rolled up or not, the same daily candle"
        );
    }

    #[test]
    fn roll_ups_move_whole_bars_past_their_retention() {
        let now = from_epoch_millis((MIDNIGHT + 8 * 86_400) * 1000);
        let [fine, coarse] = Retention::default().roll_ups(now);
        // A five-minute bar starting at MIDNIGHT + 86_400 - 300 ends exactly seven days ago.
        assert_eq!(fine.before, MIDNIGHT + 86_400 - 300 + 1);
        assert_eq!((fine.from, fine.into), (Resolution::FiveMinutes, Resolution::Hour));
        assert_eq!((coarse.from, coarse.into), (Resolution::Hour, Resolution::Day));
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
