//! Synthetic price history for benchmarks: the bars a market observed every five minutes for a
//! year holds under the default retention (`marketlens_domain::history::Retention`):
//! five-minute bars for the last 7 days, hourly ones for the last 90, daily ones for the year.
//! That is the most history a market can hold, so the history call and the table's size are
//! measured at their worst. Prices walk at random from the market's own, at each resolution
//! apart (the benchmark reads them; it does not check them against each other).

use chrono::TimeDelta;
use marketlens_domain::history::{HistoryBar, PriceRange, Resolution, Retention, bucket_start};
use marketlens_domain::time::Timestamp;
use marketlens_storage::MarketSummary;
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};

/// How far back the synthetic history reaches.
pub const YEAR: TimeDelta = TimeDelta::days(365);

/// Prices in the exchanges' own steps: Kalshi's dollar strings and Polymarket's prices carry
/// at most four decimals, and so does what the history stores of them.
fn to_tick(price: f64) -> f64 {
    (price * 10_000.0).round() / 10_000.0
}

pub struct SyntheticHistory {
    random: Xoshiro256PlusPlus,
    retention: Retention,
    now: Timestamp,
}

impl SyntheticHistory {
    pub fn new(seed: u64, now: Timestamp) -> SyntheticHistory {
        SyntheticHistory {
            random: Xoshiro256PlusPlus::seed_from_u64(seed),
            retention: Retention::default(),
            now,
        }
    }

    /// The bars of `market` for the year up to now: daily, then hourly, then five-minute ones,
    /// each oldest first.
    pub fn bars(&mut self, market: &MarketSummary) -> Vec<HistoryBar> {
        let now = self.now.timestamp();
        let mut layout: Vec<(Resolution, i64)> = Vec::new();
        for (resolution, from) in [
            (Resolution::Day, self.now - YEAR),
            (Resolution::Hour, self.now - self.retention.hours),
            (Resolution::FiveMinutes, self.now - self.retention.five_minutes),
        ] {
            let mut start = bucket_start(from.timestamp(), resolution.seconds());
            while start < now {
                layout.push((resolution, start));
                start += resolution.seconds();
            }
        }
        let mut prices: Vec<f64> = market.outcomes.iter().map(|outcome| to_tick(outcome.price)).collect();
        layout
            .into_iter()
            .map(|(resolution, start)| {
                let outcomes = prices
                    .iter_mut()
                    .map(|price| {
                        let open = *price;
                        let close = to_tick((open + self.random.random_range(-0.02..0.02)).clamp(0.001, 0.999));
                        let swing: f64 = self.random.random_range(0.0..0.01);
                        *price = close;
                        PriceRange {
                            open,
                            high: to_tick((open.max(close) + swing).min(1.0)),
                            low: to_tick((open.min(close) - swing).max(0.0)),
                            close,
                        }
                    })
                    .collect();
                let first_at = marketlens_domain::time::from_epoch_millis(start * 1000);
                let last_at = first_at + TimeDelta::seconds(resolution.seconds() - 1);
                HistoryBar {
                    resolution,
                    bucket_start: start,
                    first_at,
                    last_at,
                    outcomes,
                    volume: market.volume,
                    volume_24h: market.volume_24h * self.random.random_range(0.5..1.5),
                    liquidity: market.liquidity,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use marketlens_domain::history::{Interval, candles};
    use marketlens_domain::time::from_epoch_millis;
    use marketlens_domain::{Category, Exchange, MarketStatus, Outcome};

    #[test]
    fn a_year_as_the_default_retention_keeps_it() {
        let now = from_epoch_millis(1_775_000_000_000);
        let market = MarketSummary {
            id: uuid::Uuid::nil(),
            exchange: Exchange::Kalshi,
            external_id: "KX".into(),
            question: "Will it?".into(),
            status: MarketStatus::Open,
            category: Category::Other,
            liquidity: 1.0,
            volume: 2.0,
            volume_24h: 3.0,
            created_at: now,
            end_date: None,
            outcomes: vec![
                Outcome {
                    name: "Yes".into(),
                    price: 0.4,
                    best_bid_price: None,
                    best_ask_price: None,
                };
                2
            ]
            .into_boxed_slice(),
            event_id: None,
            observed_at: now,
        };
        let bars = SyntheticHistory::new(1, now).bars(&market);
        let count = |resolution| bars.iter().filter(|bar| bar.resolution == resolution).count();
        assert!((2_016..=2_017).contains(&count(Resolution::FiveMinutes)));
        assert!((2_160..=2_161).contains(&count(Resolution::Hour)));
        assert!((365..=366).contains(&count(Resolution::Day)));
        assert_eq!(candles(&bars, Interval::Day).len(), count(Resolution::Day));
        assert!((540..=541).contains(&candles(&bars, Interval::FourHours).len()));
        assert!(bars.iter().all(|bar| {
            bar.outcomes
                .iter()
                .all(|range| range.low <= range.open.min(range.close) && range.high >= range.open.max(range.close))
        }));
    }
}
